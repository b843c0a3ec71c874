"""The pool hill climber: pool invariants, excluded letters, convergence, helpers."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from boggle_opt.boards import make_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.searching.driver import Budget, Driver
from boggle_opt.searching.options import OptionError, make_options
from boggle_opt.registry.loader import Registries
from boggle_opt.plugins.hillclimb import HillClimb, PoolClimb, quick_best, random_boards
from boggle_opt.searching.interface import Event, Improved, Problem, Progress

WORDS = (
    "tea eat ate tee rate tear eater treat street tester seat east sat set rest tree "
    "steer reset terse stare aster rates tears sera ears arts star rats tsar least "
    "slate steal tales stale later alert alter"
).split()


@pytest.fixture
def tiny(registries: Registries) -> Callable[[int, int], Problem]:
    dictionary = Dictionary("tiny", WORDS, registries.rules.get("standard"))

    def make(cols: int, rows: int) -> Problem:
        return Problem(dictionary, make_geometry(cols, rows))

    return make


def neighbours(board: str, swaps: str = "all", rows: int = 3) -> list[str]:
    """Every board one letter change or one swap away (the climber's moves)."""
    out = []
    for c in range(len(board)):
        for ch in "abcdefghijklmnopqrstuvwxyz":
            if ch != board[c]:
                out.append(board[:c] + ch + board[c + 1 :])
    cells = list(board)
    for i in range(len(board)):
        for j in range(i + 1, len(board)):
            near = abs(i // rows - j // rows) <= 1 and abs(i % rows - j % rows) <= 1
            if cells[i] != cells[j] and (swaps == "all" or (swaps == "adjacent" and near)):
                swapped = cells.copy()
                swapped[i], swapped[j] = cells[j], cells[i]
                out.append("".join(swapped))
    return out


def climb_to_end(problem: Problem, climb: PoolClimb, seed: int = 1) -> list[Event]:
    events = list(climb.run(np.random.default_rng(seed)))
    assert not any(climb.fresh), "run() returns only when no pool board is new"
    return events


@pytest.mark.parametrize("canonical", [True, False])
def test_pool_is_distinct_sorted_and_rescores(tiny: Callable[[int, int], Problem], canonical: bool) -> None:
    problem = tiny(3, 3)
    climb = PoolClimb(problem, HillClimb.Options(pool_size=40, canonical=canonical))
    list(climb.seed(random_boards(problem, np.random.default_rng(3), 40)))
    key = problem.geometry.canonical if canonical else (lambda b: b)
    rounds = 0
    while True:
        assert list(climb.scores) == sorted(climb.scores, reverse=True)
        assert len({key(b) for b in climb.boards}) == len(climb.boards) == 40
        assert [problem.score(b) for b in climb.boards] == list(climb.scores)
        if not any(climb.fresh):
            break
        list(climb.round())
        rounds += 1
        assert rounds < 100
    assert climb.pool_max > 0


@pytest.mark.parametrize("swaps", ["all", "adjacent", "none"])
def test_stable_pool_is_a_local_optimum(tiny: Callable[[int, int], Problem], swaps: str) -> None:
    """When the climb stops, no board one move from the pool beats the pool's
    weakest board unless it is already in the pool: expanding only new boards
    missed nothing."""
    problem = tiny(3, 3)
    climb = PoolClimb(problem, HillClimb.Options(pool_size=25, swaps=swaps))
    climb_to_end(problem, climb)
    keys = {problem.geometry.canonical(b) for b in climb.boards}
    for board in climb.boards:
        for nb in neighbours(board, swaps):
            if problem.score(nb) > climb.pool_min:
                assert problem.geometry.canonical(nb) in keys, (board, nb)


def test_excluded_letters_never_appear(tiny: Callable[[int, int], Problem]) -> None:
    problem = tiny(3, 3)
    opts = HillClimb.Options(pool_size=30, restarts=2, exclude="aq")
    seen: list[str] = []
    for ev in HillClimb(opts).search(problem, np.random.default_rng(5)):
        if isinstance(ev, Improved):
            seen.append(ev.board)
    assert seen and all("a" not in b and "q" not in b for b in seen)
    climb = PoolClimb(problem, opts)
    climb_to_end(problem, climb, seed=6)
    assert all("a" not in b and "q" not in b for b in climb.boards)
    assert climb.pool_max > 0  # 'e', 's', 't', 'r' words remain


def test_restarts_end_the_search_and_improvements_rescore(tiny: Callable[[int, int], Problem]) -> None:
    problem = tiny(3, 3)
    events = list(HillClimb(HillClimb.Options(pool_size=20, restarts=3)).search(problem, np.random.default_rng(2)))
    improved = [ev for ev in events if isinstance(ev, Improved)]
    assert improved
    assert [ev.score for ev in improved] == sorted({ev.score for ev in improved})
    assert all(problem.score(ev.board) == ev.score for ev in improved)
    done = [ev for ev in events if isinstance(ev, Progress) and ev.stats.get("climb_done")]
    assert [ev.stats["restart"] for ev in done] == [1, 2, 3]


def test_same_seed_same_run(tiny: Callable[[int, int], Problem]) -> None:
    def run(seed: int) -> list[Event]:
        opts = HillClimb.Options(pool_size=15, restarts=2)
        return list(HillClimb(opts).search(tiny(3, 3), np.random.default_rng(seed)))

    assert run(4) == run(4)


def test_driver_runs_it_with_an_evaluation_budget(tiny: Callable[[int, int], Problem]) -> None:
    problem = tiny(3, 3)
    state = Driver(HillClimb(HillClimb.Options(pool_size=10)), problem, Budget(evaluations=20_000), seed=1).run()
    assert state.best_score == problem.score(state.best_board) > 0
    # budget checked after each board expanded: 9*25 letter changes + 36 swaps at most
    assert 20_000 <= state.evaluations <= 20_000 + 9 * 25 + 36


def test_quick_best(tiny: Callable[[int, int], Problem]) -> None:
    problem = tiny(3, 3)
    board, score = quick_best(problem, np.random.default_rng(1), evaluations=30_000)
    assert score == problem.score(board) > 0
    board1, score1 = quick_best(problem, np.random.default_rng(1), options=HillClimb.Options(pool_size=10, restarts=1))
    assert score1 == problem.score(board1) > 0


@pytest.mark.parametrize(
    ("name", "value"),
    [("pool-size", "0"), ("restarts", "-1"), ("swaps", "some"), ("exclude", "Q"), ("exclude", "a1"),
     ("exclude", "abcdefghijklmnopqrstuvwxyz")],
)
def test_bad_options_name_the_option(name: str, value: str) -> None:
    with pytest.raises(OptionError, match=f"'{name}'"):
        make_options("hillclimb", HillClimb.Options, [(name, value)])


def test_registered(registries: Registries) -> None:
    assert registries.searchers.get("hillclimb") is HillClimb


def test_enable2k_3x3_reaches_the_optimum(dictionary: Callable[[str, str], Dictionary]) -> None:
    problem = Problem(dictionary("enable2k", "standard"), make_geometry(3, 3))
    state = Driver(HillClimb(HillClimb.Options(pool_size=100)), problem,
                   Budget(evaluations=1_000_000, target=545), seed=1).run()  # about 97,000 with seed 1
    assert state.best_score == 545
