"""A proof states what it proved (issue 22): a complete and an interrupted
small proof (2x3, embedded list) print and record the right statement and
exit status; the report leads with it; the live panel of a proof fits 80x24
and shows only a proof's numbers."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.cli import report
from boggle_opt.runs.runfile import read_run_file
from boggle_opt.searching.driver import Budget, RunState
from boggle_opt.proofs.outcome import INCOMPLETE
from helpers import records, unwrapped

PROOF = ["run", "--searcher", "bnb", "--size", "2x3", "-o", "min-score", "120", "--progress", "none"]
Run = Callable[..., subprocess.CompletedProcess[str]]


def _finish(path: Path) -> dict[str, Any]:
    return [r for r in records(path) if r["type"] == "finish"][-1]


def _ranked(stdout: str) -> list[tuple[str, int]]:
    return [(line.split("\t")[1], int(line.split("\t")[2])) for line in stdout.splitlines()
            if "\t" in line and not line.startswith("#")]


@pytest.fixture(scope="module")
def complete(run_cli: Run, tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """The whole proof, once for the tests of its statement, its report and its
    JSON-lines progress (on stderr: stdout is as with no progress)."""
    out = tmp_path_factory.mktemp("proof") / "run.jsonl"
    return run_cli(*PROOF[:-2], "--progress", "jsonl", "--top", "100", "--out", str(out)), out


def test_a_complete_proof_states_its_result(complete: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    result, out = complete
    assert result.returncode == 0, result.stderr
    ranked = _ranked(result.stdout)
    assert ranked and all(s >= 120 for _, s in ranked)
    best, score = ranked[0]
    tied = [b for b, s in ranked if s == score]
    lines = unwrapped(result.stdout).splitlines()
    head = [line for line in lines if line.startswith("# proof ")]
    assert head == ["# proof complete: 216 of 216 classes done, 0 failed, 0 in flight; "
                    "min score 120 (given as the min-score option)"]
    statement = lines[lines.index(head[0]) + 1]
    assert statement.startswith("proved: ") and "under the standard rule" in statement
    assert "2x3 board" in statement and "for embedded (" in statement and " words)" in statement
    assert statement.endswith(f"; {len(ranked)} boards score >= 120")
    assert (f"{best} ({score})" in statement) == (len(tied) == 1)
    assert f"{len(tied)} best 2x3 boards" in statement or len(tied) == 1
    assert "--resume" not in result.stdout
    proof = _finish(out)["proof"]
    assert list(_finish(out))[3] == "proof", "the proof heads the finish record"
    assert proof["complete"] is True and proof["statement"] == statement
    assert (proof["classes_done"], proof["classes_total"], proof["failed"]) == (216, 216, 0)
    assert (proof["min_score"], proof["min_score_from"], proof["boards"]) == (120, "given", len(ranked))


def test_an_interrupted_proof_says_so_and_how_to_finish(run_cli: Run, tmp_path: Path) -> None:
    """A proof stopped by its budget exits with INCOMPLETE (3), names what is
    left and prints the exact --resume command; the run file agrees."""
    out = tmp_path / "run.jsonl"
    result = run_cli(*PROOF, "--evals", "1", "--out", str(out))
    assert result.returncode == INCOMPLETE == 3, result.stderr
    done = sum('"class"' in line for line in out.read_text().splitlines() if '"checkpoint"' in line)
    assert 0 < done < 216
    assert (f"# proof INCOMPLETE: {done} of 216 classes done, 0 failed" in unwrapped(result.stdout))
    assert f"not proved: the proof stopped (used 1 evaluations) with {216 - done} of 216 classes not done" \
        in unwrapped(result.stdout).replace(",", "")
    # a proof resumed without a budget runs to its end: the command needs none
    command = f"boggle-opt run --resume {out}"
    assert unwrapped(result.stdout).rstrip().endswith(f"# to finish the proof: {command}")
    proof = _finish(out)["proof"]
    assert proof["complete"] is False and proof["classes_done"] == done and proof["classes_total"] == 216
    again = run_cli(*command.split()[1:], "--progress", "none", "--evals", "1")
    assert again.returncode == INCOMPLETE, again.stderr
    assert _finish(out)["proof"]["classes_done"] > done
    resumed = run_cli(*command.split()[1:], "--progress", "none")
    assert resumed.returncode == 0, resumed.stderr
    assert "# proof complete: 216 of 216 classes done" in unwrapped(resumed.stdout)
    assert _finish(out)["proof"]["complete"] is True


def test_jsonl_progress_carries_the_statement(complete: tuple[subprocess.CompletedProcess[str], Path]) -> None:
    result, _ = complete
    assert result.returncode == 0, result.stderr
    finish = json.loads(result.stderr.strip().splitlines()[-1])
    assert finish["type"] == "finish" and finish["proof"]["complete"] is True
    assert finish["proof"]["statement"].startswith("proved: ") and finish["proof"]["statement"] in unwrapped(result.stdout)


def test_the_report_leads_with_the_statement(complete: tuple[subprocess.CompletedProcess[str], Path],
                                             tmp_path: Path) -> None:
    """The proof section comes first and opens with the statement; the classes
    done are given once, as the run file's records count them; no flat
    best-score plot."""
    _, out = complete
    # a run file whose last progress record lags behind its class records, as a real one does
    lines = out.read_text().splitlines()
    lagging = tmp_path / "lagging.jsonl"
    stale = {"type": "progress", "elapsed": 0.1, "evaluations": 0,
             "stats": {"classes": "5/216", "classes done": 5, "classes total": 216}}
    lagging.write_text("\n".join([*lines[:-1], json.dumps(stale), lines[-1]]) + "\n")
    page = report.render(read_run_file(str(lagging)))
    statement = _finish(out)["proof"]["statement"]
    body = page[page.index("<body>"):]
    assert body.index("<h2>Proof</h2>") < body.index("<h2>Settings</h2>")
    section = body[body.index("<h2>Proof</h2>"):]
    first = re.search(r"<p[^>]*>(.*?)</p>", section)
    assert first is not None and first.group(1) == statement.replace(">", "&gt;")
    assert "216 of 216 classes done" in section and "min score 120 (given" in section and "5/216" not in page and "last progress record)" not in page
    assert "Best score over time" not in page
    assert "Classes over time" in section and '<div class="best">' in section


def _state(stats: dict[str, Any], boards: dict[str, int]) -> RunState:
    state = RunState("bnb", {"size": "4x4", "rule": "standard", "wordlist_label": "enable2k (173,528 words)"},
                     Budget(seconds=600))
    state.stats = stats
    state.boards = dict(boards)
    if boards:
        state.best_board, state.best_score = max(boards.items(), key=lambda kv: kv[1])
    return state


def _panel_lines(state: RunState) -> list[str]:
    from rich.console import Console

    from boggle_opt.boards import size_geometry
    from boggle_opt.cli.display import RichDisplay

    console = Console(width=80, record=True, color_system=None)
    display = RichDisplay("bnb · standard · 4x4 · enable2k (173,528 words)", size_geometry("4x4").grid, console)
    display._state = state
    console.print(display._render())
    return console.export_text().rstrip("\n").splitlines()


def test_the_live_panel_of_a_proof_fits_80x24_with_a_proofs_numbers() -> None:
    stats: dict[str, Any] = {
        "classes": "430/1,068,363", "classes done": 430, "classes total": 1_068_363, "classes/s": 17.2,
        "workers": 2, "tasks in flight": 4, "tasks split": 3, "retries": 1, "failed": 0,
        "tasks/s": 17.0, "tasks solved": 433, "worker busy s": 50.0, "pruned at root": 400,
        "candidates": 12345, "boards >= min": 1, "best": -1, "min score": 3500,
        "min score from": "given", "time left": "17.2 h", "tree build s": 1.0, "merge s": 1.0,
        "orderly bound s": 1.0, "re-score s": 1.0, "largest tree": 1_234_567, "worker peak MB": 300.0,
    }
    state = _state(stats, {"perslatgsineters": 3625})
    state.evaluations = 10**6
    lines = _panel_lines(state)
    text = "\n".join(lines)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    for shown in ("430 / 1,068,363", "17.2 classes/s", "17.2 h", "2 of 2 busy, 2 tasks queued", "1,234,567 nodes",
                  "boards >= 3,500  1 (best 3,625)"):
        assert shown in text
    for hidden in ("evaluations", "/s)", "best over time", "best -1", "tasks/s", "candidates"):
        assert hidden not in text
    assert "oldest" not in text  # no submit time in the stats: nothing said
    state.stats = {**stats, "oldest task since": time.time() - 125}
    lines = _panel_lines(state)
    assert "2 of 2 busy, 2 tasks queued, oldest 2 min" in "\n".join(lines)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    state.stop_reason = "searcher finished"
    state.stats = {**stats, "classes done": 1_068_363, "tasks in flight": 0, "oldest task since": 0.0}
    lines = _panel_lines(state)
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80
    assert "proved: perslatgsineters (3,625) is the best 4x4 board" in " ".join(lines).replace("│", " ")


def test_the_live_panel_says_the_warm_up_climb_chooses_the_min_score() -> None:
    lines = _panel_lines(_state({"classes total": 2862, "warm-up climb best": 545}, {}))
    text = "\n".join(lines)
    assert "warm-up climb" in text and "choosing the min score: best so far 545" in text
    assert len(lines) <= 24 and max(len(line) for line in lines) <= 80


def test_plain_progress_keeps_a_line_every_few_seconds_while_a_class_runs() -> None:
    """A one-job proof solves a class in this process, minutes without an
    event: the plain lines go on (from a thread), and name how long the
    oldest task has run once that is long."""
    import io

    from boggle_opt.cli.display import OLDEST_SHOWN, PlainProgress
    from boggle_opt.searching.interface import Progress

    stats: dict[str, Any] = {"classes done": 3, "classes total": 2862, "min score": 500, "boards >= min": 0,
                             "tasks in flight": 1, "oldest task since": time.time() - OLDEST_SHOWN - 95}
    state = _state(stats, {})
    out = io.StringIO()
    plain = PlainProgress(out, every=0.05)
    plain.start(state)
    time.sleep(0.2)
    assert out.getvalue() == ""  # no figures before the run's first event
    plain.event(Progress(stats), state)
    # no event since: the thread's lines, waited for (a busy machine may take
    # its time to run the thread, so not a fixed sleep)
    deadline = time.monotonic() + 300
    while sum(line.startswith("[") for line in out.getvalue().splitlines()) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    plain.finish(state)
    lines = out.getvalue().splitlines()
    status = [line for line in lines if line.startswith("[")]
    assert len(status) >= 4, lines
    assert all("classes 3/2,862 (0.1%)" in line and "oldest task 2 min" in line for line in status), lines
    assert lines[-1].startswith("stopped: ")
    after = out.getvalue()
    time.sleep(0.2)
    assert out.getvalue() == after  # the thread ended with the run
    state.stats = {**stats, "oldest task since": time.time() - 5}
    from boggle_opt.cli.display import status_line
    assert "oldest" not in status_line(state)  # a task of a few seconds is not worth a word


def test_plain_progress_stopping_just_after_a_line_gives_the_figures_it_stopped_at() -> None:
    """A proof stopped a moment after its warm-up climb's line ends with a
    line of its classes, not with the climb's figures; a stop just after a
    line with the same figures adds none."""
    import io

    from boggle_opt.cli.display import PlainProgress
    from boggle_opt.searching.interface import Progress

    state = _state({"classes total": 2862, "warm-up climb best": 545}, {})
    out = io.StringIO()
    plain = PlainProgress(out, every=3600)  # no line from the thread or the clock
    plain.start(state)
    plain._last = -3600.0  # the next event prints
    plain.event(Progress(state.stats), state)
    state.stats = {"classes done": 1, "classes total": 2862, "min score": 500, "boards >= min": 0}
    plain.event(Progress(state.stats), state)  # within the interval: no line
    state.stop_reason = "interrupted"
    plain.finish(state)
    status = [line for line in out.getvalue().splitlines() if line.startswith("[")]
    assert len(status) == 2 and "warm-up climb" in status[0] and "classes 1/2,862" in status[1], status
    out = io.StringIO()
    plain = PlainProgress(out, every=3600)
    plain.start(state)
    plain._last = -3600.0
    plain.event(Progress(state.stats), state)
    plain.finish(state)
    assert sum(line.startswith("[") for line in out.getvalue().splitlines()) == 1, out.getvalue()


def test_a_signal_after_a_complete_proof_does_not_change_its_exit() -> None:
    """Once held (a proof that covered every class), SIGTERM neither raises nor
    turns the status into 143; without the hold it does both."""
    import os
    import signal

    from boggle_opt.signals import Terminated, hold_signals, on_termination

    with on_termination() as seen:
        hold_signals()
        os.kill(os.getpid(), signal.SIGTERM)
    assert seen.status(0) == 0
    with pytest.raises(Terminated), on_termination() as seen:
        os.kill(os.getpid(), signal.SIGTERM)
    assert seen.status(0) == 143
