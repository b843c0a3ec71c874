"""A class too big to build whole is solved one letter of its first cell with
several letters at a time (ClassSolver.split_words): the same candidates as
the whole solve, every brute-force board, and the deadline's letters left.
A subclass still too big is split again at its next cell with several
letters (ClassSolver.split_again_words)."""

from __future__ import annotations

import itertools
import random
import types
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.board_classes import letter_mask

from helpers import SOLVER_CASES, brute_force, kernels, random_class, skip_the_other_builds_case, small  # noqa: F401  (small: a fixture)

T = TypeVar("T")

#: plain Python's case here: split again, a class is built once per board it
#: holds, so the cost goes as the letters' count to the fourth power: seven
#: letters (2,401 boards), not PURE_SOLVER_CASES' eight (4,096), and a cutoff
#: that keeps more than ten boards. Branch coverage of the plain-Python core:
#: every arc the eight-letter case reached, this one reaches
PURE_SPLIT_CASE = ((2, 2), "ae nr ist", 10)


def solvers(core: types.SimpleNamespace, d: Dictionary, size: tuple[int, int]) -> tuple[Any, Any]:
    """A solver that builds every class whole, and one that splits every
    class it counts (tiny passes, so each build counts its paths)."""
    _, branch = kernels(core)
    trie = core.trie.PackedTrie(d.keys, d.points)
    whole = branch.ClassSolver(trie, core.geometry.Geometry(*size))
    whole.split_words = 0
    split = branch.ClassSolver(trie, core.geometry.Geometry(*size))
    split.split_words = 1
    split.split_again_words = 0
    split.split_deep_words = 0
    split.builder.key_pass_words = 40
    split.builder.pass_paths = 10
    return whole, split


@pytest.mark.parametrize("again", [False, True], ids=["once", "again"])
# each class solved whole and split: the 2x3 and 3x2 classes take 5-10 s of CPU
# each here, so they are in the slow tier and 2x2 shows it in the quick one
# (plain Python: PURE_SPLIT_CASE)
@pytest.mark.parametrize(("size", "buckets", "cutoff"), [
    *(case if case[0] == (2, 2) else pytest.param(*case, marks=pytest.mark.slow) for case in SOLVER_CASES),
    PURE_SPLIT_CASE,
])
def test_split_solve_finds_every_board(
    core: types.SimpleNamespace,
    small: tuple[dict[bytes, int], Dictionary],
    size: tuple[int, int],
    buckets: str,
    cutoff: int,
    again: bool,
) -> None:
    """Split once, or (``again``) every subclass that counts its paths split
    again down to parts built in one pass, each part sharing its families
    (as 4x4 parts do): the whole solve's candidates, each brute-force board
    once."""
    skip_the_other_builds_case(core, (size, buckets, cutoff), pure=[PURE_SPLIT_CASE])
    _, d = small
    geometry = Geometry(*size)
    scorer = d.scorer(geometry)
    groups = buckets.split()
    expected = brute_force(scorer, geometry, "".join(groups), cutoff)
    assert len(expected) > 10
    whole, split = solvers(core, d, size)
    if again:
        split.split_again_words = 1
        split.split_deep_words = 1
        split.share_parts = True
    found: dict[str, int] = {}
    subclasses = 0
    twice = 0
    for cls in itertools.product(groups, repeat=geometry.n):
        masks = [letter_mask(g) for g in cls]
        boards = split.solve(masks, cutoff, 100)
        assert sorted(boards) == sorted(whole.solve(masks, cutoff, 100)), cls
        subclasses += split.subclasses
        if split.subclasses:
            if again:
                assert split.shared  # its last part shared its families
            if split.subclasses > bin(masks[split.order[split.split_level]]).count("1"):
                twice += 1  # some subclass was split again
        for board in boards:
            assert board not in found
            score = scorer.score(board)
            if score >= cutoff:
                found[board] = score
    assert subclasses > 0
    assert (twice > 0) == again
    assert not split.builder.share_all  # the builder's own threshold is back
    assert found == expected


@pytest.mark.parametrize("size", [(3, 3), (3, 4)])
def test_split_solve_matches_whole_on_random_classes(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int]
) -> None:
    if core.kind == "pure":
        pytest.skip("plain Python is slow here; the brute-force test covers it")
    _, d = small
    n = size[0] * size[1]
    whole, split = solvers(core, d, size)
    rng = random.Random(21)
    splits = 0
    for _ in range(8):
        masks = [letter_mask(s) for s in random_class(rng, n, "aeilnrst")]
        for cutoff in (10, 40):
            boards = split.solve(masks, cutoff)
            assert sorted(boards) == sorted(whole.solve(masks, cutoff)), masks
            if split.subclasses:
                splits += 1
                # each letter of the split cell is one subclass
                assert split.subclasses == bin(masks[split.order[split.split_level]]).count("1")
                # the best subclass's root bound is the class's when the
                # split cell is the first (the root's choice: a max of letters)
                if split.split_level == 0:
                    assert split.root_bound == whole.root_bound
                else:
                    assert split.root_bound <= whole.root_bound
    assert splits > 0


def test_split_solve_deadline_leaves_the_split_letters(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    """A deadline already past stops after the first subclass: the letters
    left are the split cell's others, and their boards are not returned."""
    _, d = small
    whole, split = solvers(core, d, (2, 3))
    masks = [letter_mask(g) for g in ("aei", "lnr", "st", "ae", "lnr", "st")]
    boards = split.solve(masks, 10, 100, deadline=1e-9)
    cell = split.order[split.split_level]
    first = masks[cell] & -masks[cell]
    assert split.subclasses == 1
    assert split.unfinished == masks[cell] ^ first
    sub = list(masks)
    sub[cell] = first
    assert sorted(boards) == sorted(whole.solve(sub, 10, 100))
    assert boards


def test_split_again_deadline_leaves_whole_subclasses(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    """A deadline already past stops only between the top split's letters:
    the first subclass is solved whole, its own parts all of them."""
    _, d = small
    whole, split = solvers(core, d, (2, 3))
    split.split_again_words = 1
    split.split_deep_words = 1
    masks = [letter_mask(g) for g in ("aei", "lnr", "st", "ae", "lnr", "st")]
    boards = split.solve(masks, 10, 100, deadline=1e-9)
    cell = split.order[split.split_level]
    first = masks[cell] & -masks[cell]
    assert split.subclasses > 1  # the first subclass was split again
    assert split.unfinished == masks[cell] ^ first
    sub = list(masks)
    sub[cell] = first
    assert sorted(boards) == sorted(whole.solve(sub, 10, 100))


class _Stop(Exception):
    pass


def _polled(solver: Any, run: Callable[[], T]) -> tuple[T, int]:
    """``run()``'s result with a poll that counts its calls, and the count;
    then ``run()`` again with a poll that raises half-way, which must end it."""
    calls = [0]

    def poll() -> None:
        calls[0] += 1

    solver.poll = poll
    result = run()
    polled = calls[0]
    assert polled > 1

    def stop() -> None:
        calls[0] += 1
        if calls[0] == polled // 2:
            raise _Stop

    calls[0] = 0
    solver.poll = stop
    with pytest.raises(_Stop):
        run()
    solver.poll = None
    return result, polled


@pytest.mark.parametrize("split", [False, True], ids=["whole", "split"])
def test_poll_is_called_as_a_solve_goes_and_what_it_raises_ends_it(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], split: bool,
) -> None:
    """``ClassSolver.poll`` runs between forcings and between a split class's
    parts (the command line's Ctrl-C gets in there); what it raises comes out
    of ``solve``, and the solver's next solve is whole and right."""
    _, d = small
    size, buckets, cutoff = SOLVER_CASES[1]
    whole, splitting = solvers(core, d, size)
    solver = splitting if split else whole
    masks = [letter_mask(g) for g in buckets.split()] * 2
    expected = sorted(solver.solve(masks, cutoff))
    boards, polled = _polled(solver, lambda: sorted(solver.solve(masks, cutoff)))
    assert boards == expected
    assert polled >= (solver.forces if not split else solver.subclasses)
    assert sorted(solver.solve(masks, cutoff)) == expected


def test_poll_is_called_while_a_tree_is_built(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary],
) -> None:
    """The builder calls the solver's poll between its search's starts: a big
    4x4 build ran 20 s without one, and a signal waited for it. What the
    poll raises ends the build, and the next build is the same tree."""
    _, d = small
    size, buckets, _ = SOLVER_CASES[1]
    solver, _ = solvers(core, d, size)
    masks = [letter_mask(g) for g in buckets.split()] * 2

    def built() -> tuple[int, int]:
        tree = solver.build(masks)
        return tree.bound(tree.root), tree.n_nodes

    expected = built()
    assert _polled(solver, built)[0] == expected
    assert built() == expected


@pytest.mark.parametrize("size", [(3, 3), (3, 4)])
def test_split_letters_grouped_within_the_limit(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int]
) -> None:
    """A part may hold several letters of the split cell where its estimate
    stays within the part limit: a class just past the split threshold is
    solved in fewer parts than its split cell has letters, with the whole
    solve's boards and root bound."""
    if core.kind == "pure":
        pytest.skip("plain Python is slow here; the brute-force test covers the split")
    _, d = small
    n = size[0] * size[1]
    whole, split = solvers(core, d, size)
    rng = random.Random(5)
    grouped = 0
    for _ in range(6):
        masks = [letter_mask(s) for s in random_class(rng, n, "aeilnrst")]
        split.split_words = 1
        split.split_again_words = 0
        split.solve(masks, 10)  # (takes the class's cell order)
        # the whole class's estimate, counted (its build refused)
        assert split.builder.build_within(masks, None, 1) is None or split.builder.need == 0
        need = split.builder.need
        letters = bin(masks[split.order[split.split_level]]).count("1")
        if need == 0 or letters < 3:
            continue  # built in one pass: never split
        # just under the whole: every part of all letters but one fits
        split.split_words = need - 1
        split.split_again_words = need - 1
        for cutoff in (10, 40):
            boards = split.solve(masks, cutoff)
            assert sorted(boards) == sorted(whole.solve(masks, cutoff)), masks
            assert 1 < split.subclasses < letters
            if split.split_level == 0:
                assert split.root_bound == whole.root_bound
        grouped += 1
    assert grouped > 0


def test_grouped_split_deadline_leaves_the_letters_not_solved(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    """A deadline already past stops a part of several letters between
    them: the letters left are the rest of that part's and every other
    part's, and the boards returned are those of the one letter solved."""
    _, d = small
    whole, split = solvers(core, d, (2, 3))
    masks = [letter_mask(g) for g in ("aeio", "lnr", "st", "ae", "lnr", "st")]
    split.solve(masks, 10, 100)  # (takes the class's cell order)
    cell = split.order[split.split_level]
    # a limit that makes two parts or more, the first of several letters
    limit = 0
    assert split.builder.build_within(masks, None, 1) is None
    for words in range(split.builder.need - 1, 0, -1):
        groups = split.builder.letter_groups(split.split_level, masks[cell], words)
        if len(groups) > 1 and bin(groups[0]).count("1") > 1:
            limit = words
            break
    assert limit > 0
    split.split_words = limit
    split.split_again_words = limit
    boards = split.solve(masks, 10, 100, deadline=1e-9)
    first = masks[cell] & -masks[cell]
    assert split.subclasses == 1  # the first part, of several letters
    assert split.unfinished == masks[cell] ^ first
    sub = list(masks)
    sub[cell] = first
    assert sorted(boards) == sorted(whole.solve(sub, 10, 100))
    assert boards
