"""Tests of the tabu searcher: boggle-opt's conformance suite plus tabu-specific checks.

They use the embedded word list ``default`` and small boards, so they run
anywhere boggle-opt is installed, in a few seconds.
"""

from __future__ import annotations

from itertools import islice

import numpy as np
import pytest

from boggle_opt import (
    Improved, OptionError, Problem, Progress, load_dictionary, load_plugins, make_options,
)
from boggle_opt.boards import make_geometry
from boggle_opt.testing import SearcherConformance
from boggle_opt_tabu import TabuSearch
from boggle_opt_tabu.tabu import _Walk


class TestTabuConformance(SearcherConformance):
    searcher_cls = TabuSearch
    bad_options = [("tenure", "-1"), ("swaps", "-1"), ("patience", "0"), ("perturb", "-2")]


@pytest.fixture(scope="module")
def problem_3x3() -> Problem:
    return Problem(load_dictionary("default", "standard"), make_geometry(3, 3))


def test_registered_through_the_entry_point() -> None:
    # fails if the package is not installed (pip install ./examples/boggle-opt-tabu)
    registries = load_plugins()
    assert registries.searchers.get("tabu") is TabuSearch
    assert registries.searchers.entry("tabu").origin.distribution == "boggle-opt-tabu"


def test_tenure_error_is_one_line_naming_the_option() -> None:
    with pytest.raises(OptionError) as caught:
        make_options("tabu", TabuSearch.Options, [("tenure", "-1")])
    message = str(caught.value)
    assert "\n" not in message
    assert "'tenure'" in message and "-1" in message


def test_options_from_the_command_line() -> None:
    opts = make_options("tabu", TabuSearch.Options, [("tenure", "5"), ("aspiration", "off")])
    assert opts.tenure == 5 and opts.aspiration is False


def walk(problem: Problem, options: TabuSearch.Options, steps: int, seed: int = 0) -> list[str]:
    """The boards of a walk of ``steps`` moves without perturbation, first one included."""
    w = _Walk(problem, np.random.default_rng(seed), options)
    boards = [w.random_board()]
    w.best = problem.score(boards[0])
    for _ in range(steps):
        w.step += 1
        board, score = w.move(boards[-1])
        w.best = max(w.best, score)
        boards.append(board)
    return boards


def test_tabu_moves_are_honoured(problem_3x3: Problem) -> None:
    # aspiration off: no tabu move may be taken, whatever it scores
    tenure = 6
    boards = walk(problem_3x3, TabuSearch.Options(tenure=tenure, swaps=8, aspiration=False), 300)
    # a letter a cell lost at step t may not come back to it in steps t+1 .. t+tenure
    for t in range(1, len(boards)):
        before, after = boards[t - 1], boards[t]
        assert before != after  # every step moves
        for cell, lost in enumerate(before):
            if after[cell] != lost:
                for later in boards[t + 1 : t + 1 + tenure]:
                    assert later[cell] != lost, (t, cell, lost)


def test_steps_down_from_a_local_optimum(problem_3x3: Problem) -> None:
    # where a hill climber stops, tabu search takes the best worse move
    boards = walk(problem_3x3, TabuSearch.Options(swaps=0), 60, seed=2)
    scores = [problem_3x3.score(b) for b in boards]
    assert any(b < a for a, b in zip(scores, scores[1:])), scores


@pytest.mark.parametrize("aspiration", [True, False])
def test_aspiration(problem_3x3: Problem, aspiration: bool) -> None:
    board = "lepsartes"
    scores = np.asarray(problem_3x3.neighbourhood(board), dtype=np.int64)
    own = [cell * 26 + ord(ch) - 97 for cell, ch in enumerate(board)]
    scores[own] = -1
    top, low = int(scores.max()), int(np.argmin(np.where(scores < 0, 1 << 30, scores)))
    assert top > scores[low]
    w = _Walk(problem_3x3, np.random.default_rng(0), TabuSearch.Options(swaps=0, aspiration=aspiration))
    w.best = top - 1  # only the best moves would be a new best
    w.step = 1
    w.tabu_until[:] = 5  # every move tabu ...
    w.tabu_until[low] = 0  # ... but the worst one
    _, score = w.move(board)
    assert score == (top if aspiration else scores[low])


def test_finds_a_good_3x3_board(problem_3x3: Problem) -> None:
    # lepsartes is the best 3x3 board annealing and tabu find on the embedded
    # list; tabu reaches it in 3,600-35,000 evaluations (seeds 1-5)
    target = problem_3x3.score("lepsartes")
    for seed in range(3):
        events = TabuSearch().search(problem_3x3, np.random.default_rng(seed))
        best = 0
        start = problem_3x3.evaluations
        for ev in events:
            if isinstance(ev, Improved):
                best = max(best, ev.score)
            if best >= target or problem_3x3.evaluations - start > 300_000:
                break
        assert best >= target, (seed, best, target)


def test_progress_reports_tabu_stats(problem_3x3: Problem) -> None:
    events = TabuSearch(TabuSearch.Options(tenure=4)).search(problem_3x3, np.random.default_rng(0))
    progress = [ev for ev in islice(events, 50) if isinstance(ev, Progress)]
    assert progress
    last = progress[-1].stats
    assert {"step", "score", "best", "tabu", "episode"} <= set(last)
    assert 0 < int(last["tabu"]) <= 4 * 2  # a swap makes two (cell, letter) pairs tabu
