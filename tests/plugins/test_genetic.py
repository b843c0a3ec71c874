"""Genetic algorithm: operator distributions, elitism and option checks."""

from __future__ import annotations

import numpy as np
import pytest

from boggle_opt.boards import make_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.searching.driver import Budget, Driver
from boggle_opt.searching.options import OptionError, make_options
from boggle_opt.plugins.genetic import GeneticSearch, Operators, at_least
from boggle_opt.searching.interface import Improved, Problem, Progress

Options = GeneticSearch.Options


@pytest.fixture(scope="module")
def problem() -> Problem:
    dictionary: Dictionary = load_dictionary("default", "standard")
    return Problem(dictionary, make_geometry(4, 4))


def operators(problem: Problem, seed: int = 0, freqs: np.ndarray | None = None) -> Operators:
    f = problem.letter_frequencies() if freqs is None else freqs
    return Operators(problem, np.random.default_rng(seed), f)


@pytest.mark.parametrize("p", [0.2, 0.5])
def test_at_least_n_events_has_probability_p_to_the_n(p: float) -> None:
    k = at_least(np.random.default_rng(42), p, 200_000)
    assert k.min() == 0
    for n in range(1, 5):
        expected = p**n
        observed = float(np.mean(k >= n))
        # five standard errors of a binomial proportion
        assert abs(observed - expected) < 5 * np.sqrt(expected * (1 - expected) / len(k)) + 1e-4


def test_at_least_with_zero_probability_is_never() -> None:
    assert not at_least(np.random.default_rng(0), 0.0, 1000).any()


def test_child_takes_each_cell_from_one_of_two_different_parents(problem: Problem) -> None:
    ops = operators(problem)
    # parent k is the letter k everywhere, so a cell's value names its parent
    parents = np.repeat(np.arange(26, dtype=np.uint8)[:, None], 16, axis=1)
    kids = ops.children(parents, 5000, mutation=0.0, swap=0.0)
    sources = [set(row.tolist()) for row in kids]
    assert all(1 <= len(s) <= 2 for s in sources)
    assert np.mean([len(s) == 2 for s in sources]) > 0.99  # 2^-15 chance of one parent
    first = kids[:, 0]
    # each cell is a fair coin between the two parents
    share = np.mean([np.mean(row == row[0]) for row in kids])
    assert share == pytest.approx((1 + 15 * 0.5) / 16, abs=0.01)  # cell 0 agrees with itself
    assert len(set(first.tolist())) == 26  # every parent breeds


def test_mutations_draw_letters_from_the_frequencies(problem: Problem) -> None:
    only_z = np.zeros(26)
    only_z[25] = 1.0
    ops = operators(problem, freqs=only_z)
    kids = np.zeros((2000, 16), dtype=np.uint8)  # all 'a'
    counts = at_least(np.random.default_rng(3), 0.2, 2000)
    ops.mutate(kids, counts)
    changed = (kids != 0).sum(axis=1)
    assert set(np.unique(kids).tolist()) <= {0, 25}
    assert np.all(changed <= counts)  # a cell may be hit twice
    assert np.mean(changed >= 1) == pytest.approx(0.2, abs=0.03)


def test_swaps_exchange_adjacent_cells(problem: Problem) -> None:
    ops = operators(problem, seed=9)
    kids = np.tile(np.arange(16, dtype=np.uint8), (3000, 1))
    ops.swap(kids, np.ones(3000, dtype=np.int64))
    geo = problem.geometry
    for row in kids:
        moved = np.flatnonzero(row != np.arange(16)).tolist()
        assert len(moved) == 2
        c, d = moved
        assert d in geo.neighbours(c) and row[c] == d and row[d] == c


def test_elite_survive_so_the_top_never_drops(problem: Problem) -> None:
    gen = GeneticSearch(Options()).search(problem, np.random.default_rng(4))
    tops: list[int] = []
    for ev in gen:
        if isinstance(ev, Progress):
            tops.append(int(ev.stats["top"]))
        if len(tops) == 60:
            break
    assert tops == sorted(tops) and tops[-1] > tops[0]
    assert problem.evaluations == 100 + 59 * 90  # first population, then 90 children a generation


def test_stall_restarts_and_stops_after_restarts(problem: Problem) -> None:
    opts = Options(population=20, breeders=6, elite=2, stall=5, restarts=3)
    evs = list(GeneticSearch(opts).search(Problem(problem.dictionary, problem.geometry),
                                          np.random.default_rng(1)))
    pops = {int(e.stats["population"]) for e in evs if isinstance(e, Progress)}
    assert pops == {1, 2, 3}
    assert any(isinstance(e, Improved) for e in evs)


@pytest.mark.parametrize("pairs, name", [
    ([("population", "1")], "population"),
    ([("breeders", "1")], "breeders"),
    ([("breeders", "101")], "breeders"),
    ([("elite", "100")], "elite"),
    ([("elite", "-1")], "elite"),
    ([("mutation", "1")], "mutation"),
    ([("swap", "-0.1")], "swap"),
    ([("stall", "-1")], "stall"),
    ([("restarts", "-2")], "restarts"),
])
def test_bad_options_name_the_option(pairs: list[tuple[str, str]], name: str) -> None:
    with pytest.raises(OptionError, match=name):
        make_options("genetic", Options, pairs)


def test_deterministic_through_the_driver(problem: Problem) -> None:
    def run() -> tuple[int, str, int]:
        p = Problem(problem.dictionary, problem.geometry)
        state = Driver(GeneticSearch(Options()), p, Budget(evaluations=5000), seed=8).run()
        return state.best_score, state.best_board, state.evaluations
    assert run() == run()
