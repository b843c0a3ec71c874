"""The orderly bound (compiled, then plain Python) against a reference walk
of the nested-dict tree: the same candidates, and a real bound."""

from __future__ import annotations

import itertools
import random
import types
from typing import Any

import pytest
from librt.vecs import vec
from mypy_extensions import i64

from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.board_classes import letter_mask

from helpers import ReferenceTree, random_class, small, tree_builder  # noqa: F401  (small: a fixture)

Node = dict[str, Any]


def choice_bound(tree: ReferenceTree, choice: dict[str, Node], letter: str) -> int:
    return tree.bound(choice[letter]) if letter in choice else 0


def reference_candidates(
    tree: ReferenceTree, sets: list[str], cutoff: int, tight: bool
) -> tuple[set[tuple[str, ...]], int]:
    """Boards (letters by position) that the orderly bound keeps, and the
    letters it tries: at each position, points so far + the stack's sum for
    the letter + the later positions' bound must reach the cutoff. A later
    position counts the best letter's sum over its stack (``tight``) or the
    sum of each choice node's best letter (the older, looser bound). Both
    keep the same boards (the last position's test is the board's own
    points); the tight one tries fewer letters."""
    n = len(sets)
    out: set[tuple[str, ...]] = set()
    tried = [0]

    def later(stacks: list[list[dict[str, Node]]], level: int) -> int:
        total = 0
        for q in range(level + 1, n):
            if tight:
                total += max(sum(choice_bound(tree, c, y) for c in stacks[q]) for y in sets[q])
            else:
                total += sum(max(choice_bound(tree, c, y) for y in sets[q]) for c in stacks[q])
        return total

    def walk(level: int, points: int, stacks: list[list[dict[str, Node]]], letters: tuple[str, ...]) -> None:
        if level == n:
            out.add(letters)
            return
        rest = later(stacks, level)
        tried[0] += len(sets[level])
        for x in sets[level]:
            if points + sum(choice_bound(tree, c, x) for c in stacks[level]) + rest < cutoff:
                continue
            new = [list(s) for s in stacks]
            p = points
            for c in stacks[level]:
                if x in c:
                    p += c[x]["points"]
                    for q, kid in c[x]["kids"].items():
                        new[q].append(kid)
            walk(level + 1, p, new, letters + (x,))

    stacks: list[list[dict[str, Node]]] = [[] for _ in range(n)]
    for q, kid in tree.root["kids"].items():
        stacks[q].append(kid)
    walk(0, tree.root["points"], stacks, ())
    return out, tried[0]


@pytest.mark.parametrize("size", [(2, 3), (3, 2)])
def test_orderly_bound_matches_reference(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int]
) -> None:
    """The kernel keeps exactly the reference's boards, trying the same
    letters; no board that scores the cutoff or more is lost; and the tight
    bound tries fewer letters than the looser one in some case (so this test
    tells the two apart)."""
    words, d = small
    geometry, order, builder = tree_builder(core, d, size)
    scorer = d.scorer(Geometry(*size))
    ob = core.orderly.OrderlyBound(geometry.n)
    rng = random.Random(f"orderly {size}")
    tighter = 0
    # plain Python: the first 4 of the 10 classes (the same kernel over fewer classes)
    for _ in range(10 if core.kind == "installed" else 4):
        cells = random_class(rng, geometry.n, "aeilnrst")
        sets = [cells[c] for c in order]  # by position
        ref = ReferenceTree(words, Geometry(*size), cells, order)
        tree = builder.build([letter_mask(s) for s in cells])
        root_bound = tree.bound(tree.root)
        for fraction in (0.1, 0.2, 0.3, 0.45, 0.6):
            cutoff = max(1, int(root_bound * fraction))
            ob.found = vec[i64]()
            ob.visits = 0
            masks = vec[i64]([letter_mask(s) for s in sets])
            ob.run(tree, tree.root, 0, masks, vec[i64]([0] * geometry.n), cutoff)
            flat = list(ob.found)
            got = {
                tuple(chr(97 + x) for x in flat[i:i + geometry.n]) for i in range(0, len(flat), geometry.n)
            }
            assert len(got) * geometry.n == len(flat)  # each board once
            want, tried = reference_candidates(ref, sets, cutoff, tight=True)
            assert (got, ob.visits) == (want, tried), (cells, cutoff)
            loose, loose_tried = reference_candidates(ref, sets, cutoff, tight=False)
            assert loose == got and loose_tried >= tried
            tighter += loose_tried > tried
            for letters in itertools.product(*sets):
                board = [""] * geometry.n
                for p, ch in enumerate(letters):
                    board[order[p]] = ch
                if scorer.score("".join(board)) >= cutoff:
                    assert letters in got, ("".join(board), cutoff)
    assert tighter > 0
