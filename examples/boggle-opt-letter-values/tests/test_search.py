"""Searching under letter-values: branch and bound proves the same boards as
brute force, and the local searchers report boards that re-score to their
reported score. None of it needs a change to boggle-opt."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from boggle_opt import (
    Budget, Dictionary, Driver, Event, Geometry, Improved, Problem, Registries, RunState, make_options,
)
from boggle_opt.boards import make_geometry
from boggle_opt_letter_values.wordlist import load_everyday

from helpers import RULE, WORDLIST, RunCli

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def brute_force(d: Dictionary, geometry: Geometry, alphabet: str, cutoff: int) -> dict[str, int]:
    """Every board over ``alphabet`` scoring ``cutoff`` or more, in canonical form."""
    scorer = d.scorer(geometry)
    out: dict[str, int] = {}
    for letters in itertools.product(alphabet, repeat=geometry.n):
        board = "".join(letters)
        score = scorer.score(board)
        if score >= cutoff:
            out[geometry.canonical(board)] = score
    return out


def run_bnb(registries: Registries, problem: Problem, **options: str) -> dict[str, int]:
    """The canonical boards the installed ``bnb`` searcher proves, with scores."""
    cls: Any = registries.searchers.get("bnb")
    opts = make_options("bnb", cls.Options, list(options.items()))
    boards: dict[str, int] = {}
    for ev in cls(opts).search(problem, np.random.default_rng(1)):
        if isinstance(ev, Improved):
            boards[problem.geometry.canonical(ev.board)] = ev.score
    return boards


@pytest.mark.parametrize("cutoff", [20, 30])
def test_bnb_2x2_equals_brute_force(registries: Registries, dictionary: Dictionary, cutoff: int) -> None:
    """All 26^4 = 456,976 2x2 boards (about 0.3 s with the compiled scorer)."""
    geometry = make_geometry(2, 2)
    expected = brute_force(dictionary, geometry, ALPHABET, cutoff)
    assert len(expected) >= 5
    assert max(expected.values()) == 44  # qite: quiet, quite, quit, tie
    assert run_bnb(registries, Problem(dictionary, geometry), **{"min-score": str(cutoff)}) == expected


def test_bnb_2x3_equals_brute_force(registries: Registries) -> None:
    """2x3 over every letter is 26^6 boards, too many to brute-force here. So
    the list is cut to the words spelled from ``letters`` (high and low values
    and the Qu cell): any other letter then blocks its cell alike, so boards
    over ``letters`` plus one such letter ('j') stand for every board."""
    letters = "aeiostkq"
    words = [w for w in load_everyday() if set(w.replace("qu", "q")) <= set(letters)]
    d = Dictionary("everyday-cut", words, registries.rules.get(RULE))
    geometry = make_geometry(2, 3)
    cutoff = 62  # the best board with a blocked cell scores 61
    expected = brute_force(d, geometry, letters + "j", cutoff)
    assert len(expected) >= 5 and not any("j" in b for b in expected)
    # bnb searches all of a-z, not just ``letters``
    assert run_bnb(registries, Problem(d, geometry), **{"min-score": str(cutoff)}) == expected


def test_bnb_3x3_agrees_with_annealing(registries: Registries, dictionary: Dictionary) -> None:
    """No brute force at 3x3 (26^9 boards), so a cross-check: bnb proves
    hcmsartep (299) best and annealing neither beats it nor misses it.
    About 10-15 s: the slowest test."""
    geometry = make_geometry(3, 3)
    proved = run_bnb(registries, Problem(dictionary, geometry), **{"min-score": "295"})
    assert proved == {"hcmsartep": 299, "hcksarpet": 295}
    cls: Any = registries.searchers.get("annealing")
    state = Driver(cls(cls.Options()), Problem(dictionary, geometry), Budget(evaluations=100_000, target=299), 2).run()
    assert state.best_score == 299


class Recorder:
    """A driver consumer that keeps the Improved events."""

    def __init__(self) -> None:
        self.improved: list[Improved] = []

    def start(self, state: RunState) -> None:
        pass

    def event(self, event: Event, state: RunState) -> None:
        if isinstance(event, Improved):
            self.improved.append(event)

    def finish(self, state: RunState) -> None:
        pass


@pytest.mark.parametrize("searcher", ["hillclimb", "annealing", "genetic"])
def test_local_searcher_scores_rescore(registries: Registries, dictionary: Dictionary, searcher: str) -> None:
    cls: Any = registries.searchers.get(searcher)
    problem = Problem(dictionary, make_geometry(4, 4))
    recorder = Recorder()
    state = Driver(cls(cls.Options()), problem, Budget(evaluations=60_000), 5, [recorder]).run()
    assert recorder.improved and state.best_score > 0
    fresh = dictionary.scorer(make_geometry(4, 4))
    for ev in recorder.improved:
        assert fresh.score(ev.board) == ev.score, ev
    for board, score in state.ranked():
        assert fresh.score(board) == score, board
    assert state.best_score == max(ev.score for ev in recorder.improved)


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_cli_annealing_run(run_cli: RunCli, jobs: str) -> None:
    # --jobs 2: worker processes rebuild the problem by rule and list name, so
    # they must find this package's plugins through the entry points too
    r = run_cli("run", "--searcher", "annealing", "--rule", RULE, "--wordlist", WORDLIST,
                "--evals", "50000", "--seed", "1", "--jobs", jobs, "--progress", "none")
    assert r.returncode == 0, r.stderr
    header = " ".join(r.stdout.replace("\n#   ", " ").split())  # the header wraps at 80 columns
    assert f"rule {RULE}" in header and f"word list {WORDLIST}" in header
    ranked = [line.split("\t") for line in r.stdout.splitlines()
              if "\t" in line and not line.startswith("#")]
    assert ranked and int(ranked[0][2]) > 0
