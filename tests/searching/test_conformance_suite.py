"""The conformance suite fails a searcher that breaks what it checks (it can fail)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import pytest

from boggle_opt.searching.driver import Budget
from boggle_opt.searching.interface import Event, Improved, Problem, Progress, SearcherBase
from boggle_opt.testing import SearcherConformance


class Quitter(SearcherBase["Quitter.Options"]):
    """Reports one board and ends: not exhaustive, yet it stops before any budget."""

    name = "quitter"

    @dataclass(frozen=True)
    class Options:
        pass

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        board = "e" * problem.n_cells
        yield Improved(board, problem.score(board))


class Prover(Quitter):
    """An exhaustive searcher: it scores every 2x2 board of the letters e, s, t, a."""

    name = "prover"
    exhaustive = True

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        best = -1
        for code in range(4 ** problem.n_cells):
            board = "".join("esta"[(code >> (2 * c)) & 3] for c in range(problem.n_cells))
            score = problem.score(board)
            if score > best:
                best = score
                yield Improved(board, score)
            yield Progress({"boards": code + 1})


class QuitterSuite(SearcherConformance):
    searcher_cls = Quitter
    size = "2x2"


class ProverSuite(SearcherConformance):
    searcher_cls = Prover
    size = "2x2"


@pytest.mark.parametrize("check", ["test_stops_within_evaluation_budget",
                                   "test_stops_within_time_budget"])
def test_a_searcher_that_quits_early_fails_the_budget_checks(check: str) -> None:
    with pytest.raises(AssertionError, match="is not exhaustive but ended on its own"):
        getattr(QuitterSuite(), check)()


def test_an_exhaustive_searcher_is_stopped_at_half_its_work() -> None:
    suite = ProverSuite()
    state, _, _ = suite.run(Budget(evaluations=suite.evals))
    assert state.stop_reason == "searcher finished" and state.evaluations == 256
    suite.test_stops_within_evaluation_budget()  # re-runs with a budget of 128
    half, _, _ = suite.run(Budget(evaluations=128), seed=11)
    assert half.stop_reason == "used 128 evaluations" and half.evaluations == 128
    suite.test_stops_within_time_budget()
