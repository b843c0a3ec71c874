"""The de-duplicating force (TreeBuilder.build_forced, ClassSolver.dedup_score)
against a brute-force bound and brute-force boards on small classes, in the
installed build and in plain Python."""

from __future__ import annotations

import itertools
import random
import types
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from librt.vecs import vec
from mypy_extensions import i64

from boggle_opt.proofs.board_classes import letter_mask, parse_class
from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary

from helpers import (  # noqa: F401  (small: a fixture)
    PURE_SOLVER_CASES, SOLVER_CASES, brute_force, kernels, random_class, skip_the_other_builds_case, small,
    tree_builder, word_paths,
)


def reference_forced_bound(
    words: dict[bytes, int], geometry: Geometry, sets: list[str], order: list[int], level: int
) -> int:
    """The bound of the de-duplicated forced tree, from every path of the
    subclass: the cells at positions before ``level`` have one letter each;
    a path is its word and its (position, letter) pairs at the other
    positions; each such pair set counts once per word, and a pair set that
    strictly contains another of the same word is left out."""
    pos_of = {c: p for p, c in enumerate(order)}
    paths: set[tuple[bytes, frozenset[tuple[int, str]]]] = set()
    for key, path, letters in word_paths(words, geometry, sets):
        if words[key] > 0:
            paths.add((key, frozenset((pos_of[c], ch) for c, ch in zip(path, letters) if pos_of[c] >= level)))
    by_word: dict[bytes, list[frozenset[tuple[int, str]]]] = defaultdict(list)
    for word, pairs in paths:
        by_word[word].append(pairs)
    root: dict[str, Any] = {"points": 0, "kids": {}}
    for word, sets_of_word in by_word.items():
        for pairs in sets_of_word:
            if any(other < pairs for other in sets_of_word):
                continue
            node = root
            for p, letter in sorted(pairs):
                node = node["kids"].setdefault(p, {}).setdefault(letter, {"points": 0, "kids": {}})
            node["points"] += words[word]

    def bound(node: dict[str, Any]) -> int:
        return int(node["points"]) + sum(max(bound(s) for s in c.values()) for c in node["kids"].values())

    return bound(root)


@pytest.mark.parametrize(("size", "level"), [((2, 2), 1), ((2, 3), 2), ((3, 2), 1), ((3, 3), 2), ((3, 3), 3)])
def test_forced_build_matches_brute_force_bound(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int], level: int
) -> None:
    """The forced build's bound equals the bound of the brute-force
    de-duplicated tree, is never above the merged forced tree's, never below
    the best board of the subclass, and is below the merged one somewhere."""
    words, d = small
    geometry = Geometry(*size)
    _, order, builder = tree_builder(core, d, size)
    scorer = d.scorer(geometry)
    rng = random.Random(11)
    lower = 0
    for _ in range(6 if core.kind == "installed" else 3):
        sets = random_class(rng, geometry.n, "aeilnrst")
        tree = builder.build([letter_mask(s) for s in sets])
        root = tree.root
        fixed = list(sets)
        for p in range(level):
            letter = rng.choice(sets[order[p]])
            fixed[order[p]] = letter
            root = tree.force(root, p, ord(letter) - 97)
        merged = tree.bound(root)
        masks = vec[i64]([letter_mask(fixed[order[p]]) for p in range(geometry.n)])
        forced = builder.build_forced(tree, masks, level)
        assert forced >= 0
        got = tree.bound(forced)
        assert got == reference_forced_bound(words, geometry, fixed, order, level)
        assert got <= merged
        lower += got < merged
        boards = itertools.islice(itertools.product(*fixed), 3000)
        assert max(scorer.score("".join(b)) for b in boards) <= got
        # the forced tree is an orderly tree like the merged one: force it further
        if level < geometry.n:
            for letter in fixed[order[level]]:
                assert tree.bound(tree.force(forced, level, ord(letter) - 97)) <= got
    assert lower > 0 or geometry.n < 6  # the test means something


# de-duplicating every forced tree is the kernel's slowest setting: the 2x3 and
# 3x2 classes take 10-20 s of CPU each here, so they are in the slow tier and
# 2x2 shows it in the quick one (plain Python: its smaller 2x2 case)
@pytest.mark.parametrize(("size", "buckets", "cutoff"), [
    *(case if case[0] == (2, 2) else pytest.param(*case, marks=pytest.mark.slow) for case in SOLVER_CASES),
    *PURE_SOLVER_CASES[:1],
])
def test_dedup_solver_finds_every_board(
    core: types.SimpleNamespace,
    small: tuple[dict[bytes, int], Dictionary],
    size: tuple[int, int],
    buckets: str,
    cutoff: int,
) -> None:
    """Branch and bound that builds every forced tree de-duplicated (from the
    first level, at any bound) still finds exactly the brute-force boards."""
    skip_the_other_builds_case(core, (size, buckets, cutoff))
    _, d = small
    _, branch = kernels(core)
    geometry = Geometry(*size)
    scorer = d.scorer(geometry)
    groups = buckets.split()
    expected = brute_force(scorer, geometry, "".join(groups), cutoff)
    assert len(expected) > 10
    solver = branch.ClassSolver(core.trie.PackedTrie(d.keys, d.points), core.geometry.Geometry(*size))
    solver.dedup_score = 1
    solver.dedup_level = 0
    found: dict[str, int] = {}
    dedups = 0
    for cls in itertools.product(groups, repeat=geometry.n):
        for board in solver.solve([letter_mask(g) for g in cls], cutoff, 100):
            assert board not in found
            score = scorer.score(board)
            if score >= cutoff:
                found[board] = score
        dedups += solver.dedups
    assert dedups > 0
    assert found == expected


@pytest.mark.parametrize("packed", [False, True])
def test_drop_supersets_by_hand(core: types.SimpleNamespace, packed: bool) -> None:
    """Only a path whose (position, letter) pairs strictly contain another
    path's of the same word goes; a path over the same positions with another
    letter, another word's path, and an equal pair set (left to the emission)
    stay."""
    import importlib

    package = core.geometry.__name__.rsplit(".", 1)[0]
    pk = importlib.import_module(f"{package}.path_keys")
    # position 0 forced (no digit); positions 1..3 two letters each: digits 0..2
    weight = vec[i64]([pk.KEY_LIMIT, 9, 3, 1])
    radix = vec[i64]([1, 3, 3, 3])

    def key(d1: int, d2: int, d3: int) -> int:
        return d1 * 9 + d2 * 3 + d3

    entries = [
        (key(1, 0, 0), 5),  # kept: minimal
        (key(1, 2, 0), 5),  # dropped: contains the first
        (key(2, 1, 0), 5),  # kept: the other letter at position 1
        (key(0, 1, 0), 7),  # kept
        (key(2, 1, 0), 7),  # dropped: contains the one above
        (key(1, 2, 0), 6),  # kept: its word's only path
        (key(1, 0, 0), 5),  # kept: equal to the first (the emission counts a key's word once)
        (key(0, 0, 2), 6),  # kept: not a subset of (1, 2, 0)
    ]
    word_bits = 3
    if packed:
        keys = vec[i64]([(k << word_bits) | w for k, w in entries])
        vals = keys
    else:
        keys = vec[i64]([k for k, _ in entries])
        vals = vec[i64]([w for _, w in entries])
    # each path's positions: its digits' (position 0, forced, is on some
    # paths: drop_supersets must not count it)
    uses = vec[i64]([
        (i % 2) | sum(1 << p for p, d in zip((1, 2, 3), (k // 9, k // 3 % 3, k % 3)) if d)
        for i, (k, _) in enumerate(entries)
    ])
    shift = word_bits if packed else 0
    kept = pk.drop_supersets(
        keys, vals, uses, len(entries), shift, (1 << word_bits) - 1, word_bits, weight, radix, 1, 4, packed
    )
    got = sorted((keys[i] >> shift, vals[i] & 7) for i in range(kept))
    assert got == sorted(e for i, e in enumerate(entries) if i not in (1, 4))


def test_peer_vector_with_dedup(dictionary: Callable[[str, str], Dictionary]) -> None:
    """hybrid-boggle's 3x4 test class at 1400: 12 boards from 2,084
    candidates; de-duplicating forced trees from the second level leaves far
    fewer candidates and exactly the same 12 boards."""
    from boggle_opt.core.branch import ClassSolver

    d = dictionary("enable2k", "standard")
    geometry = Geometry(3, 4)
    scorer = d.scorer(geometry)
    cls = "chkmpt aeiou lnrsy lnrsy lnrsy aeiou chkmpt aeiou lnrsy aeiou lnrsy bdfgjvwxz"
    masks = [letter_mask(s) for s in parse_class(cls, geometry)]
    results = []
    for dedup_score in (0, 3000):
        solver = ClassSolver(d.trie, geometry)
        solver.dedup_score = dedup_score
        solver.dedup_level = 1
        candidates = solver.solve(masks, 1400)
        results.append((len(candidates), sorted(b for b in candidates if scorer.score(b) >= 1400), solver.dedups))
    (plain, boards, _), (fewer, deduped, dedups) = results
    assert (plain, len(boards)) == (2084, 12)
    assert dedups > 0 and fewer < plain // 4
    assert deduped == boards
