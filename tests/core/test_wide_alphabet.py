"""Branch and bound in an alphabet of more than 26 tiles (up to 32: Polish).

A wide alphabet's choice nodes write a cell's tiles relative to the class's
own set for that cell (``builder.set_frame``). The same words in a 32-tile
alphabet, their tiles at other codes, must give exactly the trees, bounds
and boards that English gives: the frame keeps the tiles' order.
"""

from __future__ import annotations

import random
import time
import types
from typing import Any

import pytest

from boggle_opt.core.geometry import Geometry
from boggle_opt.core.trie import LATIN
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.board_classes import letter_mask

from helpers import brute_force, kernels, random_class, small  # noqa: F401  (small: a fixture)

#: six tiles no word uses, before a-z: every English tile's code moves up by 6
#: (to 31 for z), and the alphabet has 32 tiles
EXTRA = "012345"
WIDE = EXTRA + LATIN
SHIFT = len(EXTRA)


def _pair(core: types.SimpleNamespace, d: Dictionary, size: tuple[int, int]) -> tuple[Any, Any]:
    """An English solver and one of the same words in the 32-tile alphabet."""
    _, branch = kernels(core)
    geometry = core.geometry.Geometry(*size)
    narrow = branch.ClassSolver(core.trie.PackedTrie(d.keys, d.points), geometry)
    keys = [bytes(b + SHIFT for b in key) for key in d.keys]
    spellings = [""] * SHIFT + ["qu" if ch == "q" else ch for ch in LATIN]
    trie = core.trie.PackedTrie(keys, d.points, symbols=WIDE, spellings=spellings)
    wide = branch.ClassSolver(trie, core.geometry.Geometry(*size))
    assert wide.wide and not narrow.wide
    return narrow, wide


def _same_solve(narrow: Any, wide: Any, sets: list[str], cutoff: int, **kw: Any) -> list[str]:
    masks = [letter_mask(s) for s in sets]
    boards = narrow.solve(masks, cutoff, **kw)
    wide_boards = wide.solve([m << SHIFT for m in masks], cutoff, **kw)
    assert wide_boards == boards
    for stat in ("root_bound", "n_nodes", "forces", "bounds", "peak_words", "dedups"):
        assert getattr(wide, stat) == getattr(narrow, stat), stat
    assert wide.unfinished == narrow.unfinished << SHIFT
    return boards


# 3x3 (about 15 s of CPU over the builds) in the slow tier; 2x2 in the quick one
@pytest.mark.parametrize("size", [(2, 2), pytest.param((3, 3), marks=pytest.mark.slow)])
@pytest.mark.parametrize("build", ["keys", "records", "dedup"])
def test_a_wide_alphabet_solves_as_english_does(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int], build: str
) -> None:
    """Random classes: the same boards, bounds, nodes and forcings, by the
    sorted build, the record build, and with every forced tree built again
    de-duplicated (``build_forced``)."""
    if core.kind == "pure" and size != (2, 2):
        pytest.skip("plain Python is slow here; 2x2 covers it")
    _, d = small
    narrow, wide = _pair(core, d, size)
    for solver in (narrow, wide):
        solver.builder.use_keys = build != "records"
        if build == "dedup":
            solver.dedup_score = 1
            solver.dedup_level = 0
    rng = random.Random(7)
    n = size[0] * size[1]
    found = 0
    # plain Python: the first 10 of 2x2's 30 classes, each build's code the same
    for _ in range(12 if n > 4 else 30 if core.kind == "installed" else 10):
        sets = random_class(rng, n, "aeilnrstq")
        found += len(_same_solve(narrow, wide, sets, 10 if n > 4 else 3))
    assert found > 0


def test_a_wide_class_finds_every_board_brute_force_finds(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    """2x2 over the tiles a e l n r s t and two tiles no word uses: every
    board brute force finds, and only those once rescored."""
    _, d = small
    _, wide = _pair(core, d, (2, 2))
    geometry = Geometry(2, 2)  # the dictionary's scorer is the installed core's
    letters = "aelnrst"
    scorer = d.scorer(geometry)
    expected = brute_force(scorer, geometry, letters, 4)
    mask = letter_mask(letters) << SHIFT | 0b11  # tiles "0" and "1" too
    boards = wide.solve([mask] * 4, 4)
    assert set(expected) <= set(boards)
    rescored = {b: scorer.score(b) for b in boards if not set(b) & set(EXTRA)}
    assert {b: s for b, s in rescored.items() if s >= 4} == expected


def test_a_split_solve_stops_with_the_letters_left_as_tiles(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    """A deadline already past: the solve stops after the split cell's first
    letter, and ``unfinished`` names the rest as tiles of the alphabet."""
    _, d = small
    narrow, wide = _pair(core, d, (2, 2))
    sets = ["aei", "lnrst", "aes", "lnrt"]
    _same_solve(narrow, wide, sets, 3, deadline=time.perf_counter() - 1.0)
    assert wide.unfinished != 0


def test_a_cell_of_more_than_26_tiles_is_refused(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    _, d = small
    _, wide = _pair(core, d, (2, 2))
    every = (1 << 32) - 1
    with pytest.raises(ValueError, match="at most 26 tiles"):
        wide.solve([every, 1 << 6, 1 << 7, 1 << 8], 1)
