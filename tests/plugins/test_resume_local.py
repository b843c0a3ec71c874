"""``--resume`` of a local search (hillclimb, annealing, genetic) continues
from where it stopped: its best boards and its state; its budget is told per
segment and in total; and every built-in searcher takes or refuses the tiny
sizes 1x1 and 1x2 in one line. The embedded default word list, 3x3 boards."""

from __future__ import annotations

import json
import os
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.proofs.outcome import INCOMPLETE

from boggle_opt.cli import report
from boggle_opt.cli.app import main
from boggle_opt.runs.runfile import read_run_file
from helpers import records, unwrapped

Cli = Callable[..., subprocess.CompletedProcess[str]]
LOCAL = ["hillclimb", "annealing", "genetic"]
#: a first segment's budget: well inside a climb, an anneal and a population
EVALS = "6000"


def segments(path: Path) -> list[list[dict[str, Any]]]:
    """The run file's records, one list per segment (each from its start record)."""
    out: list[list[dict[str, Any]]] = []
    for r in records(path):
        if r["type"] == "start":
            out.append([])
        out[-1].append(r)
    return out


def first_progress(stderr: str) -> dict[str, Any]:
    """The first progress stats of ``--progress jsonl`` output that says more
    than the seeding of a fresh pool."""
    for line in stderr.splitlines():
        r = json.loads(line)
        if r["type"] == "progress" and r["stats"] and "seeding" not in r["stats"]:
            return dict(r["stats"])
    raise AssertionError("no progress record")


@pytest.fixture(scope="module", params=LOCAL)
def resumed(request: pytest.FixtureRequest, run_cli: Cli,
            tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, dict[str, Any], str]:
    """A run of one local search stopped by a small evaluation budget and
    resumed once: (searcher, run file, its first checkpoint's state, the
    resumed run's stderr and stdout)."""
    name: str = request.param
    path = tmp_path_factory.mktemp(name) / "run.jsonl"
    first = run_cli("run", "--searcher", name, "--size", "3x3", "--seed", "5", "--evals", EVALS,
                    "--progress", "none", "--out", str(path))
    assert first.returncode == 0, first.stderr
    states = [r["record"]["state"] for r in records(path) if r["type"] == "checkpoint"]
    state = states[-1] if states else {}
    second = run_cli("run", "--resume", str(path), "--evals", EVALS, "--progress", "jsonl")
    assert second.returncode == 0, second.stderr
    return name, path, state, second.stderr + "\n#OUT\n" + second.stdout


def test_a_resumed_run_never_reports_less_than_its_earlier_best(
        resumed: tuple[str, Path, dict[str, Any], str]) -> None:
    _, path, state, _ = resumed
    one, two = segments(path)
    best = max(r["score"] for r in one if r["type"] == "improved")
    # the earlier boards are not written again (the file has them): what the
    # resumed segment writes is new, and none of it below the best so far
    boards = [r["board"] for r in two if r["type"] == "improved"]
    assert not set(boards) & {r["board"] for r in one if r["type"] == "improved"}
    assert all(r["score"] >= best for r in two if r["type"] == "improved")


def test_a_resumed_run_continues_from_its_state(resumed: tuple[str, Path, dict[str, Any], str]) -> None:
    """The resumed run's first figures are those of the checkpoint's state,
    not of a fresh start (round 1, anneal 1, population 1 generation 0)."""
    name, path, state, output = resumed
    assert state, "no checkpoint"
    assert state["best"][1] == max(r["score"] for r in segments(path)[0] if r["type"] == "improved")
    stderr = output.split("\n#OUT\n")[0]
    stats = first_progress(stderr)
    if name == "hillclimb":
        assert state["pool"], state  # stopped inside a climb
        assert stats["restart"] == state["restart"]
        assert stats["round"] == state["round"] + 1  # the round it was in, again
        assert stats["pool"] == len(state["pool"])
    elif name == "annealing":
        assert state["phase"] == "anneal" and state["step"] > 0, state
        assert stats["anneal"] == state["anneals"]
    else:
        assert state["generation"] > 0, state
        assert stats["population"] == state["populations"]
        assert stats["generation"] == state["generation"]


def test_budgets_per_segment_and_in_total(resumed: tuple[str, Path, dict[str, Any], str],
                                          run_cli: Cli, tmp_path: Path) -> None:
    _, path, _, output = resumed
    stdout = unwrapped(output.split("\n#OUT\n")[1])
    one, two = segments(path)
    used = [seg[-1]["evaluations"] for seg in (one, two)]
    assert f"# stopped: this segment's budget of {int(EVALS):,} evaluations reached;" in stdout
    assert f"# all 2 segments of the run: {sum(used):,} evaluations" in stdout
    page = report.render(read_run_file(str(path)))
    table = page[page.index("<h3>Segments</h3>"):]
    table = table[: table.index("</table>")]
    assert table.count(f"<td>{int(EVALS):,} evaluations</td>") == 2
    assert all(f"<td>{u:,}</td>" in table for u in used)
    assert f"<th>{sum(used):,}</th>" in table
    assert "per segment (below)" in page
    # the budget is used up: a resume given none says which flags give one
    again = run_cli("run", "--resume", str(path), "--progress", "none")
    assert again.returncode != 0 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and "used its whole budget" in again.stderr
    assert "--evals" in again.stderr and "Traceback" not in again.stderr


def test_a_resume_without_a_budget_gets_what_was_left(run_cli: Cli, tmp_path: Path) -> None:
    """A run stopped before its budget (here: its finish record lost, as if
    killed) resumes for the rest of it, not for one evaluation."""
    path = tmp_path / "run.jsonl"
    r = run_cli("run", "--searcher", "hillclimb", "--size", "3x3", "--seed", "2", "--evals", "4000",
                "--progress", "none", "--out", str(path))
    assert r.returncode == 0, r.stderr
    # as if killed early: only the records before it had used 4000
    lines = [line for line in path.read_text().splitlines() if json.loads(line)["evaluations"] < 4000]
    path.write_text("\n".join(lines) + "\n")
    used = max(json.loads(line)["evaluations"] for line in lines)
    assert 0 < used < 4000
    again = run_cli("run", "--resume", str(path), "--progress", "none")
    assert again.returncode == 0, again.stderr
    left = 4000 - used
    assert f"# stopped: this segment's budget of {left:,} evaluations reached;" in unwrapped(again.stdout)


def main_here(env: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
              *args: str) -> tuple[subprocess.CompletedProcess[str], list[warnings.WarningMessage]]:
    """``boggle-opt ARGS`` as ``main(ARGS)`` in this process, with ``run_cli``'s
    environment (no interpreter start and imports for each of many short
    runs): what it printed, its exit status and the warnings it raised."""
    with monkeypatch.context() as patch, warnings.catch_warnings(record=True) as raised:
        warnings.simplefilter("always")
        for name in set(os.environ) - set(env):
            patch.delenv(name)
        for name, value in env.items():
            patch.setenv(name, value)
        capsys.readouterr()
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors
            code = exc.code if isinstance(exc.code, int) else 1
        out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["boggle-opt", *args], code, out, err), list(raised)


@pytest.mark.parametrize("size", ["1x1", "1x2"])
@pytest.mark.parametrize("searcher", ["hillclimb", "annealing", "genetic", "bnb", "longword"])
def test_tiny_sizes_run_or_are_refused_in_one_line(cli_env: dict[str, str], capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch, searcher: str,
                                                   size: str) -> None:
    r, raised = main_here(cli_env, capsys, monkeypatch, "run", "--searcher", searcher, "--size", size,
                          "--evals", "3000", "--seed", "1", "--progress", "none")
    assert not raised, [str(w.message) for w in raised]
    assert "Traceback" not in r.stderr and "Warning" not in r.stderr, r.stderr
    # a proof its budget stops before it covers every class exits INCOMPLETE, saying so
    if r.returncode == 0 or (searcher == "bnb" and r.returncode == INCOMPLETE):
        assert "# stopped:" in r.stdout
    else:
        assert r.stderr.startswith("boggle-opt: error: ") and r.stderr.count("\n") == 1, r.stderr
