"""Simulated annealing: schedules, presets, option checks and move behaviour."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from boggle_opt.boards import make_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.searching.driver import Budget, Driver
from boggle_opt.searching.options import OptionError, make_options
from boggle_opt.searching.interface import Event, Improved, Problem, Progress
from boggle_opt.plugins._plant import Planter
from boggle_opt.plugins.annealing import PRESETS, AnnealingSearch, temperatures

Options = AnnealingSearch.Options


@pytest.fixture(scope="module")
def default_dictionary() -> Dictionary:
    return load_dictionary("default", "standard")


def events(dictionary: Dictionary, pairs: Sequence[tuple[str, str]], evals: int = 30_000,
           seed: int = 1, size: tuple[int, int] = (3, 3)) -> tuple[list[Event], Problem]:
    problem = Problem(dictionary, make_geometry(*size))
    options = make_options("annealing", Options, pairs)
    out: list[Event] = []
    gen = AnnealingSearch(options).search(problem, np.random.default_rng(seed))
    for ev in gen:
        out.append(ev)
        if problem.evaluations >= evals:
            break
    return out, problem


def test_linear_schedule_is_the_issue_formula() -> None:
    plan = Options(preset="baseline", tmax=70, iterations=1000).plan()
    t = temperatures(plan, plan.tmax, 0, 1000)
    i = np.arange(1000)
    assert np.allclose(t, 70 * (1 - i / 1000))
    # blocks continue where the previous one stopped
    assert np.allclose(temperatures(plan, plan.tmax, 500, 10), t[500:510])


def test_geometric_schedule_runs_from_tmax_to_tmin() -> None:
    plan = Options(preset="improved", tmax=50, tmin=0.5, iterations=100).plan()
    t = temperatures(plan, plan.tmax, 0, 101)
    assert t[0] == pytest.approx(50)
    assert t[100] == pytest.approx(0.5)
    assert np.all(np.diff(t) < 0)
    assert t[50] == pytest.approx(5.0)  # halfway in log space


def test_presets_and_overrides() -> None:
    base = Options(preset="baseline").plan()
    assert (base.schedule, base.tmax, base.polish, base.reheat, base.cache) == (
        "linear", 70.0, False, 0.0, 0)
    assert Options().plan() == PRESETS["improved"]
    mixed = Options(preset="baseline", schedule="geometric", letter_moves=0).plan()
    assert mixed.schedule == "geometric" and mixed.moves == (0, 0.1, 0.1, 0)
    assert mixed.iterations == PRESETS["baseline"].iterations


@pytest.mark.parametrize("name, value", [
    ("preset", "fast"), ("schedule", "cosine"), ("tmax", "0"), ("tmax", "inf"),
    ("tmin", "-1"), ("iterations", "0"), ("restarts", "-1"), ("letter-moves", "-0.5"),
    ("random-swaps", "nan"), ("reheat", "1.5"), ("reheat-tmax", "0"), ("cache", "-1"),
])
def test_bad_options_name_the_option(name: str, value: str) -> None:
    with pytest.raises(OptionError, match=name):
        make_options("annealing", Options, [(name, value)])


def test_move_mix_must_not_be_all_zero() -> None:
    pairs = [("letter-moves", "0"), ("adjacent-swaps", "0"), ("random-swaps", "0"),
             ("plant-words", "0")]
    with pytest.raises(OptionError, match="letter-moves"):
        make_options("annealing", Options, pairs)


def test_tmin_must_be_below_tmax() -> None:
    with pytest.raises(OptionError, match="tmin"):
        make_options("annealing", Options, [("tmax", "5"), ("tmin", "5")])


@pytest.mark.parametrize("kind", ["adjacent-swaps", "random-swaps"])
def test_swaps_alone_keep_the_letters(default_dictionary: Dictionary, kind: str) -> None:
    pairs = [("letter-moves", "0"), ("adjacent-swaps", "0"), ("random-swaps", "0"),
             ("plant-words", "0"), (kind, "1"), ("polish", "false"), ("reheat", "0"), ("restarts", "1"),
             ("iterations", "5000")]
    evs, _ = events(default_dictionary, pairs)
    boards = [e.board for e in evs if isinstance(e, Improved)]
    assert len(boards) > 1
    assert {"".join(sorted(b)) for b in boards} == {"".join(sorted(boards[0]))}


def test_planting_writes_a_dictionary_word_along_a_path(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(4, 4))
    planter = Planter(default_dictionary.keys, problem.geometry, 8, np.random.default_rng(2))
    assert planter.words and min(map(len, planter.words)) == 8
    for _ in range(50):
        path = planter.path(12)
        assert path is not None and len(set(path)) == 12
        assert all(d in problem.geometry.neighbours(c) for c, d in zip(path, path[1:]))
        b = bytearray(b"a" * 16)
        assert planter.plant(b)
        # the planted word (8+ cells; a q cell is "qu") is on the board now
        assert any(len(w.path) >= 8 for w in problem.words(b.decode("ascii")))


def test_a_cold_anneal_never_accepts_a_worse_board(default_dictionary: Dictionary) -> None:
    pairs = [("preset", "baseline"), ("tmax", "1e-9"), ("restarts", "1"), ("iterations", "6000")]
    evs, _ = events(default_dictionary, pairs)
    current = [int(e.stats["score"]) for e in evs if isinstance(e, Progress)]
    assert len(current) == 3 and current == sorted(current)


def test_a_hot_anneal_accepts_worse_boards(default_dictionary: Dictionary) -> None:
    pairs = [("preset", "baseline"), ("tmax", "1000"), ("restarts", "1"), ("iterations", "20000")]
    evs, _ = events(default_dictionary, pairs, evals=10**6)
    current = [int(e.stats["score"]) for e in evs if isinstance(e, Progress)]
    assert current != sorted(current)


def test_cache_changes_evaluations_not_the_path(default_dictionary: Dictionary) -> None:
    common = [("restarts", "2"), ("iterations", "20000"), ("polish", "false")]
    plain, p1 = events(default_dictionary, [*common, ("cache", "0")], evals=10**6)
    cached, p2 = events(default_dictionary, [*common, ("cache", "1000")], evals=10**6)
    assert [e for e in plain if isinstance(e, Improved)] == [
        e for e in cached if isinstance(e, Improved)]
    assert p2.evaluations < p1.evaluations


def test_restarts_end_the_search_and_polish_reaches_a_local_optimum(
    default_dictionary: Dictionary,
) -> None:
    evs, problem = events(default_dictionary, [("restarts", "2"), ("iterations", "3000")],
                          evals=10**7)
    improved = [e for e in evs if isinstance(e, Improved)]
    best = improved[-1]
    # no single letter change improves the best board after polishing
    assert max(problem.neighbourhood(best.board)) <= best.score
    assert isinstance(evs[-1], Progress)  # the generator ended on its own


def test_driver_budget_and_determinism(default_dictionary: Dictionary) -> None:
    def run() -> tuple[int, str]:
        problem = Problem(default_dictionary, make_geometry(4, 4))
        state = Driver(AnnealingSearch(Options(preset="baseline")), problem,
                       Budget(evaluations=20_000), seed=5).run()
        return state.best_score, state.best_board
    assert run() == run()
