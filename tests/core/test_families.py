"""Sharing repeated families (core/families.py, TreeBuilder.share_words): a
tree built with sharing is the tree built without it, read as a tree of
values; it takes fewer words; and a solve finds the same candidates, which
are every brute-force board."""

from __future__ import annotations

import itertools
import random
import types
from typing import Any

import pytest

from librt.vecs import vec  # the arena's vector type
from mypy_extensions import i32

from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.board_classes import letter_mask

from helpers import PURE_SOLVER_CASES, SOLVER_CASES, brute_force, kernels, random_class, skip_the_other_builds_case, small  # noqa: F401  (small: a fixture)

KIDS = 2
LOW = 31


def expand(a: Any, node: int, memo: dict[int, Any]) -> Any:
    """The subtree at a sum node as nested tuples, whatever is shared."""
    if node in memo:
        return memo[node]
    head = a[node]
    kids = []
    for j in range(head & LOW):
        c = a[node + KIDS + j]
        mask = a[c] >> 5
        slots = tuple(
            (expand(a, a[c + KIDS + 2 * i], memo), a[c + KIDS + 2 * i + 1]) for i in range(bin(mask).count("1"))
        )
        kids.append((a[c], a[c + 1], slots))
    out = (head, a[node + 1], tuple(kids))
    memo[node] = out
    return out


def builders(core: types.SimpleNamespace, d: Dictionary, size: tuple[int, int], keyed: bool) -> tuple[Any, Any]:
    """A builder that never shares and one that shares in every build, both
    with tiny passes so that big classes take several."""
    tree_mod, _ = kernels(core)
    trie = core.trie.PackedTrie(d.keys, d.points)
    geometry = core.geometry.Geometry(*size)
    order = tree_mod.cell_order(geometry)
    out = []
    for share in (-1, 0):
        b = core.builder.TreeBuilder(trie, geometry, order)
        b.share_words = share
        b.use_keys = keyed
        b.key_pass_words = 400
        b.pass_paths = 50
        out.append(b)
    return out[0], out[1]


@pytest.mark.parametrize("keyed", [True, False], ids=["sorted-build", "record-build"])
@pytest.mark.parametrize("size", [(3, 3), (3, 4)])
def test_shared_tree_is_the_same_tree(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int], keyed: bool
) -> None:
    if core.kind == "pure" and size != (3, 3):
        pytest.skip("plain Python is slow here; 3x3 covers it")
    _, d = small
    plain, shared = builders(core, d, size, keyed)
    rng = random.Random(7)
    saved = 0
    # plain Python: the first 3 of the 6 classes (the same builds, sharing in each)
    for _ in range(6 if core.kind == "installed" else 3):
        masks = [letter_mask(s) for s in random_class(rng, size[0] * size[1], "aeilnrst")]
        t1 = plain.build(masks)
        words1, root1 = t1.top, t1.root
        tree1 = expand(t1.a, root1, {})
        t2 = shared.build(masks)
        tree2 = expand(t2.a, t2.root, {})
        assert tree2 == tree1, masks
        assert t2.n_nodes == t1.n_nodes  # nodes count the tree's, shared or not
        assert t2.top <= words1
        saved += words1 - t2.top
    assert saved > 0


def test_families_intern_and_forget(core: types.SimpleNamespace) -> None:
    """Two families with the same words (their choice child at the same
    offset) are one; a different one is not; families above a top are
    forgotten."""
    fam = core.families
    assert core.arena.KIDS == KIDS

    # leaf sum node (points 3), then two families: sum(points 1, 1 child) + choice(pos 4, letter b -> leaf)
    words = [3 << 5, 3]
    for _ in range(2):
        at = len(words)
        words += [1 << 5 | 1, 1 + 3, at + 3, (1 << 1) << 5 | 4, 3, 0, 3]
    # a third, with other points
    words += [2 << 5 | 1, 2 + 3, len(words) + 3, (1 << 1) << 5 | 4, 3, 0, 3]
    arena = vec[i32]([i32(w) for w in words])
    f = fam.Families()
    f.on = True
    assert fam.intern(f, arena, 0, 2) == 0
    assert fam.family_words(arena, 2) == 7
    assert fam.intern(f, arena, 2, 9) == 2
    assert fam.intern(f, arena, 9, 16) == 2  # the same words as at 2
    assert fam.intern(f, arena, 16, 23) == 16  # other points
    f.forget_from(arena, 16)
    assert f.count == 2
    assert fam.intern(f, arena, 16, 23) == 16
    # many families grow the table and keep every one findable
    for _ in range(3):
        f.clear()
        big = list(words[:2])
        for p in range(3000):
            at = len(big)
            big += [p << 5 | 1, p + 3, at + 3, (1 << 1) << 5 | 4, 3, 0, 3]
        arena = vec[i32]([i32(w) for w in big])
        for at in range(2, len(big), 7):
            assert fam.intern(f, arena, at, at + 7) == at
        for at in range(2, len(big), 7):
            assert fam.intern(f, arena, at, at + 7) == at
        assert f.count == 3000


# every build de-duplicating, each class solved twice: the 2x3 and 3x2 classes
# take 10-20 s of CPU each here, so they are in the slow tier and 2x2 shows it
# in the quick one (plain Python: its smaller 2x2 case)
@pytest.mark.parametrize(("size", "buckets", "cutoff"), [
    *(case if case[0] == (2, 2) else pytest.param(*case, marks=pytest.mark.slow) for case in SOLVER_CASES),
    *PURE_SOLVER_CASES[:1],
])
def test_shared_solve_finds_every_board(
    core: types.SimpleNamespace,
    small: tuple[dict[bytes, int], Dictionary],
    size: tuple[int, int],
    buckets: str,
    cutoff: int,
) -> None:
    """With sharing in every build, forced de-duplicating ones too, a solve
    gives the candidates it gives without, and they hold every board."""
    skip_the_other_builds_case(core, (size, buckets, cutoff))
    _, d = small
    geometry = Geometry(*size)
    scorer = d.scorer(geometry)
    groups = buckets.split()
    expected = brute_force(scorer, geometry, "".join(groups), cutoff)
    assert len(expected) > 10
    _, branch = kernels(core)
    trie = core.trie.PackedTrie(d.keys, d.points)
    plain = branch.ClassSolver(trie, core.geometry.Geometry(*size))
    plain.builder.share_words = -1
    shared = branch.ClassSolver(trie, core.geometry.Geometry(*size))
    shared.builder.share_words = 0
    for s in (plain, shared):
        s.dedup_score = 1  # de-duplicating builds wherever they can be
        s.dedup_level = 0
    found: dict[str, int] = {}
    for cls in itertools.product(groups, repeat=geometry.n):
        masks = [letter_mask(g) for g in cls]
        boards = shared.solve(masks, cutoff, 100)
        assert sorted(boards) == sorted(plain.solve(masks, cutoff, 100)), cls
        for board in boards:
            score = scorer.score(board)
            if score >= cutoff:
                found[board] = score
    assert found == expected
