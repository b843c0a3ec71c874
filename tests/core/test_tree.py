"""Orderly-tree kernels (installed build, then plain Python) against a
deliberately simple reference tree, and branch and bound over whole small
boards against brute force."""

from __future__ import annotations

import itertools
import random
import types
from collections.abc import Callable
from typing import Any

import pytest

from boggle_opt.proofs.board_classes import (
    BucketError,
    enumerate_classes,
    letter_mask,
    parse_buckets,
    parse_class,
)
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.trie import PackedTrie
from boggle_opt.dictionary.dictionary import Dictionary

from helpers import PURE_SOLVER_CASES, SOLVER_CASES, ReferenceTree, brute_force, kernels, random_class, skip_the_other_builds_case, small, tree_builder  # noqa: F401  (small: a fixture)

REFERENCE_CLASS = "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz"


@pytest.mark.parametrize("size", [(2, 2), (2, 3), (3, 3)])
def test_tree_matches_reference(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int]
) -> None:
    words, d = small
    geometry, order, builder = tree_builder(core, d, size)
    rng = random.Random(f"{size}")
    reused = None
    for _ in range(8 if size != (3, 3) else 3):
        sets = random_class(rng, geometry.n, "aeilnrstq")
        ref = ReferenceTree(words, Geometry(*size), sets, order)
        tree = builder.build([letter_mask(s) for s in sets], reused)
        reused = tree
        assert (tree.bound(tree.root), tree.n_nodes) == (ref.bound(), ref.nodes()), sets


def _check_bounds(a: Any, node: int, seen: set[int]) -> None:
    """Every node under sum node ``node``: a sum node's bound is its points plus
    its children's bounds, a choice node's the best of its slots' bounds, and a
    slot's bound is its child's (forcing computes bounds from these facts)."""
    if node in seen:
        return
    seen.add(node)
    k = a[node] & 31
    total = a[node] >> 5
    for x in range(k):
        c = a[node + 2 + x]
        letters = bin(a[c] >> 5).count("1")
        best = 0
        for y in range(letters):
            child, bound = a[c + 2 + 2 * y], a[c + 3 + 2 * y]
            assert bound == a[child + 1], (c, y)
            best = max(best, bound)
            _check_bounds(a, child, seen)
        assert a[c + 1] == best, c
        total += best
    assert a[node + 1] == total, node


@pytest.mark.parametrize("shared", [False, True])
@pytest.mark.parametrize("size", [(2, 3), (3, 3)])
def test_forced_bounds_are_exact(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int], shared: bool
) -> None:
    """Trees forced three levels deep keep every bound exact, node by node,
    in built trees and in trees that share their repeated families."""
    _, d = small
    geometry, order, builder = tree_builder(core, d, size)
    builder.share_words = 0 if shared else -1
    rng = random.Random(f"exact {size}")
    forced = 0

    def force_all(tree: Any, root: int, level: int, sets: list[str]) -> None:
        nonlocal forced
        _check_bounds(tree.a, root, set())
        if level == 3:
            return
        for letter in sets[order[level]]:
            mark = tree.top
            child = tree.force(root, level, ord(letter) - 97)
            forced += 1
            force_all(tree, child, level + 1, sets)
            tree.top = mark

    for _ in range(6 if size != (3, 3) else 3):
        sets = random_class(rng, geometry.n, "aeilnrstq")
        tree = builder.build([letter_mask(s) for s in sets])
        force_all(tree, tree.root, 0, sets)
    assert forced > 50


@pytest.mark.parametrize(("size", "buckets", "cutoff"), SOLVER_CASES + PURE_SOLVER_CASES[1:])
def test_solver_finds_every_board(
    core: types.SimpleNamespace,
    small: tuple[dict[bytes, int], Dictionary],
    size: tuple[int, int],
    buckets: str,
    cutoff: int,
) -> None:
    """Every class of the alphabet (no symmetry reduction): the candidates
    that re-score to the cutoff are exactly the brute-force boards."""
    # plain Python: the 2x2 case (a second here) and its smaller 2x3 case
    skip_the_other_builds_case(core, (size, buckets, cutoff), pure=[SOLVER_CASES[0], PURE_SOLVER_CASES[1]])
    _, d = small
    _, branch = kernels(core)
    geometry = Geometry(*size)
    scorer = d.scorer(geometry)
    groups = buckets.split()
    expected = brute_force(scorer, geometry, "".join(groups), cutoff)
    assert len(expected) > 10  # the test means something
    solver = branch.ClassSolver(core.trie.PackedTrie(d.keys, d.points), core.geometry.Geometry(*size))
    found: dict[str, int] = {}
    for cls in itertools.product(groups, repeat=geometry.n):
        for board in solver.solve([letter_mask(g) for g in cls], cutoff):
            assert board not in found
            score = scorer.score(board)
            if score >= cutoff:
                found[board] = score
    assert found == expected


def test_force_bounds(small: tuple[dict[bytes, int], Dictionary]) -> None:
    """Forcing the top cell never raises the bound and never cuts below a real score."""
    _, d = small
    from boggle_opt.core.builder import TreeBuilder
    from boggle_opt.core.tree import cell_order

    geometry = Geometry(3, 3)
    order = cell_order(geometry)
    builder = TreeBuilder(d.trie, geometry, order)
    scorer = d.scorer(geometry)
    rng = random.Random(7)
    for _ in range(5):
        sets = random_class(rng, 9, "aeilnrst")
        tree = builder.build([letter_mask(s) for s in sets])
        top = order[0]
        for letter in sets[top]:
            forced = tree.force(tree.root, 0, ord(letter) - 97)
            fixed = list(sets)
            fixed[top] = letter
            fixed_tree = TreeBuilder(d.trie, geometry, order).build([letter_mask(s) for s in fixed])
            assert tree.bound(forced) <= fixed_tree.bound(fixed_tree.root) <= tree.bound(tree.root)
            best = max(scorer.score("".join(b)) for b in itertools.islice(itertools.product(*fixed), 2000))
            assert best <= tree.bound(forced)


def test_forcing_is_accounted_per_level(small: tuple[dict[bytes, int], Dictionary]) -> None:
    """The solver's per-level forcing statistics (what bnb_classes.py prints
    to show where forcing's time goes) add up to its totals: every forcing
    counted at its level, its CPU in that level's seconds and the arena it
    wrote in that level's words."""
    _, d = small
    from boggle_opt.core.branch import ClassSolver

    geometry = Geometry(3, 3)
    solver = ClassSolver(d.trie, geometry)
    rng = random.Random(11)
    for _ in range(5):
        sets = random_class(rng, 9, "aeilnrst")
        # a low cutoff and a switch at 100% keep it forcing several levels deep
        solver.solve([letter_mask(s) for s in sets], 1, switch_pct=100)
        forced_levels = [lv for lv in range(geometry.n) if solver.level_forces[lv]]
        assert sum(solver.level_forces) == solver.forces
        assert len(forced_levels) >= 2
        assert solver.force_cpu > 0
        assert sum(solver.level_cpu) == pytest.approx(solver.force_cpu, rel=1e-9)
        # CPU apportioned from wall times: never more than the wall time spent
        assert solver.force_cpu <= solver.force_seconds * (1 + 1e-9)
        assert solver.bound_cpu <= solver.bound_seconds * (1 + 1e-9)
        assert all(solver.level_words[lv] == 0 for lv in range(geometry.n) if lv not in forced_levels)
        assert sum(solver.level_words) > 0


def test_reference_class_bound(dictionary: Callable[[str, str], Dictionary]) -> None:
    """docs/reference.md: bound about 1231 with about 332,000 nodes. The bound
    depends on the order of the edge cells; with edges 5,1,3,7 it is 1231."""
    from boggle_opt.core.branch import ClassSolver

    d = dictionary("enable2k", "standard")
    geometry = Geometry(3, 3)
    masks = [letter_mask(s) for s in parse_class(REFERENCE_CLASS, geometry)]
    tree = ClassSolver(d.trie, geometry).build(masks)
    assert (tree.bound(tree.root), tree.n_nodes) == (1274, 332_438)
    tree = ClassSolver(d.trie, geometry, [4, 5, 1, 3, 7, 0, 2, 6, 8]).build(masks)
    assert (tree.bound(tree.root), tree.n_nodes) == (1231, 332_401)


def test_buckets_validation() -> None:
    assert parse_buckets("aeiou | bdfgjqvwxz | lnrsy | chkmpt")[0] == "aeiou"
    for bad, message in [
        ("abc def", "in no bucket"),
        ("aeiou abcdefghijklmnopqrstuvwxyz", "more than one bucket"),
        ("aeiou bdfgjqvwxz lnrsy chkmpt 1", "not a letter"),
        ("", "expected letter groups"),
    ]:
        with pytest.raises(BucketError, match=message):
            parse_buckets(bad)


def test_class_counts() -> None:
    """One class per symmetry orbit: Burnside's count for 3x3 with k colours
    is (k^9 + 4k^6 + k^5 + 2k^3) / 8; 3x4 keeps 4 symmetries."""
    g = Geometry(3, 3)
    for k in (2, 3):
        assert len(enumerate_classes(g, k)) == (k**9 + 4 * k**6 + k**5 + 2 * k**3) // 8
    assert len(enumerate_classes(Geometry(2, 3), 2)) == (2**6 + 2**3 + 2**4 + 2**3) // 4


def test_small_trie_is_packed(small: tuple[dict[bytes, int], Dictionary]) -> None:
    _, d = small
    assert isinstance(d.trie, PackedTrie) and d.trie.n_words > 200


def tree_shape(tree: Any, node: int, sum_node: bool = True) -> tuple[Any, ...]:
    """A tree as nested tuples (points or position, letters, bound, children),
    independent of where its nodes lie in the arena."""
    a = tree.a
    head, bound = a[node], a[node + 1]
    if sum_node:
        return (head >> 5, bound, tuple(tree_shape(tree, a[node + 2 + j], False) for j in range(head & 31)))
    letters = bin(head >> 5).count("1")
    return (head & 31, head >> 5, bound, tuple(tree_shape(tree, a[node + 2 + 2 * j]) for j in range(letters)))


@pytest.mark.parametrize("size", [(3, 3), (3, 4)])
def test_build_modes_agree(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int]
) -> None:
    """The sorted build (words packed into the keys or beside them, in one
    pass or in counted passes by position and by letter) and the record build
    (in one pass or several) give the same tree."""
    if core.kind == "pure" and size == (3, 4):
        pytest.skip("plain Python is slow here; 3x3 covers it")
    _, d = small
    tree_mod, _ = kernels(core)
    geometry = core.geometry.Geometry(*size)
    trie = core.trie.PackedTrie(d.keys, d.points)
    order = tree_mod.cell_order(geometry)
    rng = random.Random(f"modes {size}")
    classes = 4 if core.kind == "installed" else 2  # plain Python: the first 2, every mode on each
    modes: list[dict[str, Any]] = [
        {"use_keys": True},
        {"use_keys": True, "pack_words": False},
        {"use_keys": True, "key_pass_words": 40},
        {"use_keys": True, "pack_words": False, "key_pass_words": 40},
        {"use_keys": False},
        {"use_keys": False, "pass_paths": 10},
    ]
    for _ in range(classes):
        sets = random_class(rng, geometry.n, "aeilnrstq")
        masks = [letter_mask(s) for s in sets]
        shapes = []
        for mode in modes:
            builder = core.builder.TreeBuilder(trie, geometry, order)
            for name, value in mode.items():
                setattr(builder, name, value)
            tree = builder.build(masks)
            assert builder.keyed == mode["use_keys"]
            if "key_pass_words" in mode or "pass_paths" in mode:
                assert builder.passes > 1, (mode, sets)
            shapes.append((tree.n_nodes, tree_shape(tree, tree.root)))
        assert all(shape == shapes[0] for shape in shapes), sets


def test_words_longer_than_the_board_may_have_any_points(core: types.SimpleNamespace) -> None:
    """pow2 gives a 45-letter YAWL word 2**42 points, past what the tree
    holds; a word of more tiles than the board has cells is on no board, so
    its points are not read (every pow2 proof on YAWL failed on them). A
    word that fits is still held to the limit."""
    _, branch = kernels(core)
    keys, points = [b"abc", b"abcde", b"cab"], [1, 2**42, 1]
    solver = branch.ClassSolver(core.trie.PackedTrie(keys, points), core.geometry.Geometry(2, 2))
    boards = solver.solve([letter_mask("abc")] * 4, 1)
    assert "abc" in {b[:3] for b in boards} and solver.root_bound < 2**40
    with pytest.raises(ValueError, match="below 2"):
        branch.ClassSolver(core.trie.PackedTrie([b"abcd"], [2**42]), core.geometry.Geometry(2, 2))
