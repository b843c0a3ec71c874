"""The driver, options and run file, with toy searchers (no plugins involved)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest
from helpers import RandomBoards

from boggle_opt.boards import make_geometry
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.searching.driver import Budget, Driver
from boggle_opt.searching.options import OptionError, describe, make_options
from boggle_opt.runs.runfile import RunFileError, read_run_file
from boggle_opt.searching.interface import (
    Checkpoint,
    Event,
    Improved,
    Problem,
    SearcherBase,
    letter_frequencies,
)
from boggle_opt.testing import Recorder


class Interrupting(SearcherBase):
    """Finds one board, then the user presses Ctrl-C."""

    name = "interrupting"

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        yield Improved("streaedlp", problem.score("streaedlp"))
        yield Checkpoint({"step": 1})
        raise KeyboardInterrupt


@pytest.fixture(scope="module")
def problem_3x3() -> Problem:
    return Problem(load_dictionary(), make_geometry(3, 3))


def fresh(problem: Problem) -> Problem:
    return Problem(problem.dictionary, problem.geometry)


def test_evaluation_budget_and_determinism(problem_3x3):
    states = []
    for _ in range(2):
        rec = Recorder()
        searcher = RandomBoards(RandomBoards.Options(batch=100))
        states.append((Driver(searcher, fresh(problem_3x3), Budget(evaluations=1000), 42, [rec]).run(), rec))
    (a, ra), (b, rb) = states
    assert a.stop_reason == "used 1,000 evaluations"
    assert 1000 <= a.evaluations <= 1100
    assert ra.events == rb.events and a.best_board == b.best_board
    assert [s for _, s in a.history] == sorted(s for _, s in a.history)


def test_other_seed_other_boards(problem_3x3):
    runs = [
        Driver(RandomBoards(RandomBoards.Options()), fresh(problem_3x3), Budget(evaluations=200), seed).run()
        for seed in (1, 2)
    ]
    assert runs[0].best_board != runs[1].best_board


class _Timed(Recorder):
    """Keeps when each event came (seconds into the run)."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def event(self, event, state) -> None:
        super().event(event, state)
        self.times.append(state.elapsed())


def test_target_and_time_budget(problem_3x3):
    state = Driver(RandomBoards(RandomBoards.Options()), fresh(problem_3x3), Budget(target=1), 3).run()
    assert state.stop_reason == "reached target 1" and state.best_score >= 1
    rec = _Timed()
    state = Driver(RandomBoards(RandomBoards.Options()), fresh(problem_3x3), Budget(seconds=0.3), 3, [rec]).run()
    assert state.stop_reason == "used 0.3 s" and 0.3 <= state.elapsed()
    # it stops at the first event past the budget: not a wall-clock ceiling,
    # which a busy machine can pass between two events
    assert sum(t >= 0.3 for t in rec.times) <= 1, rec.times[-3:]


def test_ctrl_c_keeps_what_was_found(problem_3x3):
    rec = Recorder()
    state = Driver(Interrupting(None), fresh(problem_3x3), Budget(), 1, [rec]).run()
    assert state.stop_reason == "interrupted"
    expected = fresh(problem_3x3).score("streaedlp")
    assert state.ranked() == [(problem_3x3.geometry.canonical("streaedlp"), expected)]
    assert rec.finished == 1 and any(isinstance(e, Checkpoint) for e in rec.events)


def test_symmetric_boards_count_once(problem_3x3):
    geometry = problem_3x3.geometry
    driver = Driver(RandomBoards(RandomBoards.Options()), fresh(problem_3x3), Budget(), 1)
    for variant in geometry.variants("streaedlp"):
        driver.add_known(variant, 545)
    assert driver.state.ranked() == [(geometry.canonical("streaedlp"), 545)]


def test_budget_rejects_nonsense():
    # the library calls Budget too: its messages name the budget, not a command-line flag
    with pytest.raises(BoggleOptError, match=r"^a time budget must be > 0 seconds, got 0$"):
        Budget(seconds=0)
    with pytest.raises(BoggleOptError, match=r"^an evaluation budget must be >= 1, got 0$"):
        Budget(evaluations=0)


def test_options_parse_types_and_name_the_bad_option():
    o = make_options("r", RandomBoards.Options, [("batch", "7"), ("temperature", "2.5"), ("fancy", "yes")])
    assert (o.batch, o.temperature, o.fancy) == (7, 2.5, True)
    assert make_options("r", RandomBoards.Options, [("temperature", "none")]).temperature is None
    for pair, text in [
        (("batch", "0"), "option 'batch' must be >= 1"),
        (("batch", "seven"), "option 'batch': expected a whole number"),
        (("fancy", "maybe"), "option 'fancy': expected true or false"),
        (("temperature", "hot"), "option 'temperature': expected a number"),
        (("nope", "1"), "has no option 'nope' (options: batch, letters, temperature, fancy, label)"),
    ]:
        with pytest.raises(OptionError, match=text.replace("(", r"\(").replace(")", r"\)")):
            make_options("r", RandomBoards.Options, [pair])
    infos = {i.name: i for i in describe(RandomBoards.Options)}
    assert infos["batch"].type == "int" and infos["batch"].default == 50
    assert infos["temperature"].type == "float | none"


def test_letter_frequencies_sum_to_one(problem_3x3):
    freqs = letter_frequencies(problem_3x3.dictionary)
    assert freqs.shape == (26,) and abs(freqs.sum() - 1) < 1e-9
    assert freqs[ord("e") - 97] > freqs[ord("q") - 97]


def test_run_file_torn_last_line_is_ignored(tmp_path):
    path = tmp_path / "run.jsonl"
    lines = [
        {"type": "start", "settings": {"searcher": "x"}},
        {"type": "improved", "board": "abc", "score": 3, "elapsed": 1.5, "evaluations": 10},
        {"type": "checkpoint", "record": {"class": 4}},
        {"type": "progress", "elapsed": 2.0, "evaluations": 20},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in lines) + '{"type": "impr')
    past = read_run_file(str(path))
    assert past.boards == [("abc", 3)] and past.checkpoints == [{"class": 4}]
    assert past.elapsed == 2.0 and past.evaluations == 20 and past.segments == 1
    path.write_text('{"type": "start"\n{"type": "finish"}\n')
    with pytest.raises(RunFileError, match="line 1 is not JSON"):
        read_run_file(str(path))
