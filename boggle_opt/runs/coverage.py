"""The coverage check of verify: every canonical class of the class space
(recomputed from the board's symmetries) recorded exactly once, whole or in
pieces whose splits partition it, and nothing else recorded. Of a sharded
proof, a class recorded whole must be in a file of its own shard; of some
of its shards (``runs.shard_set``), every class of those shards, and no
other, must be recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..proofs.board_classes import count_classes
from .proof_facts import Hole, ProofFacts, Split
from .shard_set import ShardSet

#: assignments tested per numpy step of the coverage pass
BLOCK = 1 << 16


@dataclass
class Covered:
    """What the coverage check counted: the class space's canonical classes,
    those the files had to hold (all, or those of the shards given), the
    pieces of split classes, and (of a partial set) which assignment numbers
    are classes of the shards given."""

    classes: int
    expected: int
    pieces: int
    in_shards: np.ndarray | None = None


def coverage(proof: ProofFacts, recorded: np.ndarray, split: dict[int, Split],
             failed: Mapping[str, str], names: Sequence[str], shards: ShardSet = ShardSet()) -> Covered:
    """Every canonical class (of the shards given) recorded exactly once,
    whole or in pieces that partition it, and nothing else; a class recorded
    whole in a file of its own shard. ``recorded``: at each class number
    recorded whole, the number (1-based) of the file in ``names`` that holds
    it, else 0; ``split``: the pieces of the classes recorded in pieces;
    ``failed``: why a class's task failed, by name (for the message of a
    missing class)."""
    has_pieces = np.zeros(proof.total, dtype=bool)
    if split:
        has_pieces[np.fromiter(split, dtype=np.int64, count=len(split))] = True
    in_shards = np.zeros(proof.total, dtype=bool) if shards.partial else None
    file_shard = np.asarray((0, *shards.of_file), dtype=np.int64)  # by recorded's file number
    canonical = expected_count = pieces = 0
    first_missing: str | None = None
    missing = 0
    for begin in range(0, proof.total, BLOCK):
        numbers = np.arange(begin, min(begin + BLOCK, proof.total), dtype=np.int64)
        canon = proof.canonical_mask(numbers)
        ranks = canonical + np.cumsum(canon) - 1  # each canonical class's place in lexicographic order
        canonical += int(canon.sum())
        expected = canon & shards.holds(ranks)
        expected_count += int(expected.sum())
        if in_shards is not None:
            in_shards[begin:begin + len(numbers)] = expected
        rec = recorded[begin:begin + len(numbers)] > 0
        cut = has_pieces[begin:begin + len(numbers)]
        gap = expected & ~rec & ~cut
        if first_missing is not None:  # only counted, after the first missing class
            missing += int(gap.sum())
            continue
        problems = (~expected & (rec | cut)) | gap | (rec & cut)
        if shards.count:  # a class recorded whole in a file of another shard
            problems |= rec & (file_shard[recorded[begin:begin + len(numbers)]] != ranks % shards.count + 1)
        # split classes are checked piece by piece, in class order with the rest
        for num in np.flatnonzero(cut & expected & ~rec).tolist():
            problems[num] = pieces_hole(proof, begin + num, split[begin + num]) is not None
        bad = np.flatnonzero(problems)
        if len(bad):
            num = begin + int(bad[0])
            name = proof.name_of(num)
            letters = " ".join(proof.letters(name, "", "class"))
            shard = f"{int(ranks[bad[0]]) % shards.count + 1}/{shards.count}" if shards.count else ""
            if not canon[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded but is not canonical (a symmetric image of it is)")
            if not expected[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded but is of shard {shard}, which is not given")
            if rec[bad[0]] and cut[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded whole and in pieces")
            if rec[bad[0]]:
                index = int(recorded[num]) - 1
                raise Hole(f"class {name} ({letters}) is recorded in {names[index]} (shard "
                           f"{shards.of_file[index]}/{shards.count}) but is of shard {shard}")
            if not cut[bad[0]]:
                reason = f" (its task failed: {failed[name]})" if name in failed else ""
                files = " in any of the files" if len(names) > 1 else ""
                first_missing = f"class {name} ({letters}) is missing: no record of it{files}{reason}"
                missing = int(gap[bad[0]:].sum())
                continue
            hole = pieces_hole(proof, num, split[num])
            raise Hole(str(hole))
    if first_missing is not None:
        text = first_missing
        if missing > 1:
            of = f" of {shards.given_text()}" if shards.partial else ""
            text += f"; {missing:,} of the {expected_count:,} classes{of} have none (a run not finished?)"
        raise Hole(text)
    for entry in split.values():
        pieces += len(entry.done)
    expected_total = count_classes(proof.geometry, proof.counts)
    if canonical != expected_total:  # two independent counts of the class space
        raise Hole(f"the class space has {canonical:,} canonical classes here but {expected_total:,} by Burnside's lemma")
    return Covered(canonical, expected_count, pieces, in_shards)


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
