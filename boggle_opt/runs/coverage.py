"""The coverage check of verify: every canonical class of the class space
(recomputed from the board's symmetries) recorded exactly once, whole or in
pieces whose splits partition it, and nothing else recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..proofs.board_classes import count_classes
from .proof_facts import Hole, ProofFacts, Split

#: assignments tested per numpy step of the coverage pass
BLOCK = 1 << 16


def coverage(proof: ProofFacts, recorded: np.ndarray, split: dict[int, Split],
             failed: Mapping[str, str], several_files: bool) -> tuple[int, int]:
    """Every canonical class recorded exactly once, whole or in pieces that
    partition it, and nothing else; (classes, pieces). ``recorded``: above 0
    at each class number recorded whole; ``split``: the pieces of the classes
    recorded in pieces; ``failed``: why a class's task failed, by name (for
    the message of a missing class)."""
    has_pieces = np.zeros(proof.total, dtype=bool)
    if split:
        has_pieces[np.fromiter(split, dtype=np.int64, count=len(split))] = True
    canonical = pieces = 0
    for begin in range(0, proof.total, BLOCK):
        numbers = np.arange(begin, min(begin + BLOCK, proof.total), dtype=np.int64)
        canon = proof.canonical_mask(numbers)
        rec = recorded[begin:begin + len(numbers)] > 0
        cut = has_pieces[begin:begin + len(numbers)]
        canonical += int(canon.sum())
        problems = (~canon & (rec | cut)) | (canon & ~rec & ~cut) | (rec & cut)
        # split classes are checked piece by piece, in class order with the rest
        for num in np.flatnonzero(cut & canon & ~rec).tolist():
            problems[num] = pieces_hole(proof, begin + num, split[begin + num]) is not None
        bad = np.flatnonzero(problems)
        if len(bad):
            num = begin + int(bad[0])
            name = proof.name_of(num)
            letters = " ".join(proof.letters(name, "", "class"))
            if not canon[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded but is not canonical (a symmetric image of it is)")
            if rec[bad[0]] and cut[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded whole and in pieces")
            if not cut[bad[0]]:
                reason = f" (its task failed: {failed[name]})" if name in failed else ""
                files = " in any of the files" if several_files else ""
                raise Hole(f"class {name} ({letters}) is missing: no record of it{files}{reason}")
            hole = pieces_hole(proof, num, split[num])
            raise Hole(str(hole))
    for entry in split.values():
        pieces += len(entry.done)
    expected = count_classes(proof.geometry, proof.counts)
    if canonical != expected:  # two independent counts of the class space
        raise Hole(f"the class space has {canonical:,} canonical classes here but {expected:,} by Burnside's lemma")
    return canonical, pieces


def pieces_hole(proof: ProofFacts, num: int, entry: Split) -> str | None:
    """What is wrong with a split class's pieces, or None: from the whole
    class down, each piece is either recorded solved or split into one piece
    per letter of one of its cells with several letters; every record is
    reached."""
    name = proof.name_of(num)
    reached: set[str] = set()
    stack = [""]
    while stack:
        key = stack.pop()
        reached.add(key)
        label = f"class {name} piece {key or '(whole)'}"
        if key in entry.done:
            if key in entry.splits:
                return f"{label} is recorded solved ({entry.done[key]}) and split ({entry.splits[key][1]})"
            continue
        if key not in entry.splits:
            return f"{label} is missing: it is split off but never solved"
        into, line = entry.splits[key]
        sets = proof.letters(name, key, line)
        prefix = key + "." if key else ""
        cells = set()
        letters: list[str] = []
        for child in into:
            if not child.startswith(prefix) or "." in child[len(prefix):]:
                return f"{label}: its split ({line}) names {child!r}, not one more fixed cell"
            (cell, letter), = proof.parse_part(child[len(prefix):], line)
            cells.add(cell)
            letters.append(letter)
        if len(cells) != 1 or len(sets[min(cells)]) < 2 or sorted(letters) != sorted(sets[min(cells)]):
            return (f"{label}: its split ({line}) into {into} is not one piece per letter of one cell "
                    f"with several letters")
        stack.extend(into)
    stray = sorted((set(entry.done) | set(entry.splits)) - reached)
    if stray:
        line = entry.done.get(stray[0]) or entry.splits[stray[0]][1]
        return f"class {name} piece {stray[0]} is recorded ({line}) but no split of the class leads to it"
    return None
