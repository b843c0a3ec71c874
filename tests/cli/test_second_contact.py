"""What a new user tripped on at second contact (issue 43), each through the
real command line: optional extras checked before any work, longword's
message and estimate, a proof's finish hint, plain progress, 80 columns,
one orientation of boards, one convention for written files, and the
``# stopped:`` line."""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import assert_one_line_error, records

Cli = Callable[..., subprocess.CompletedProcess[str]]

#: a small proof: the 2x2 boards on the embedded list, in a second or two
PROOF_2X2 = ["run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "5", "--seed", "1"]


# -- 1. optional extras, checked before any work ---------------------------------


@pytest.fixture()
def without_extras(tmp_path: Path, cli_env: dict[str, str]) -> dict[str, str]:
    """The CLI's environment with Dask, distributed and matplotlib hidden:
    packages of those names earlier on the path that fail to import."""
    hidden = tmp_path / "hidden"
    for name in ("dask", "distributed", "matplotlib"):
        (hidden / name).mkdir(parents=True)
        (hidden / name / "__init__.py").write_text(f"raise ImportError('No module named {name} (hidden)')\n")
    env = dict(cli_env)
    env["PYTHONPATH"] = str(hidden) + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _refused_at_once(result: subprocess.CompletedProcess[str], took: float, extra: str) -> None:
    line = assert_one_line_error(result, f"pip install 'boggle-opt[{extra}]'")
    assert result.returncode == 2, line
    assert result.stdout == ""
    # the warm-up climb alone takes 5 s: refused before it started
    assert took < 4, f"{took:.1f} s: the run started before it was refused"


@pytest.mark.parametrize("args", [
    ["--jobs", "2", "--executor", "dask"],
    ["--executor", "dask"],
    ["--scheduler", "tcp://127.0.0.1:1"],
], ids=["executor-dask", "one-job", "scheduler"])
def test_a_proof_without_dask_is_refused_before_any_work(
    args: list[str], run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "p.jsonl"
    start = time.monotonic()
    r = run_cli("run", "--searcher", "bnb", "--size", "3x3", *args, "--out", str(out), env=without_extras)
    _refused_at_once(r, time.monotonic() - start, "dask")
    assert "Dask" in r.stderr
    assert not out.exists() or out.read_text() == ""  # no run file to resume


def test_resuming_a_dask_run_without_dask_is_refused(
    run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    """The executor a run file records counts as asked for."""
    out = tmp_path / "p.jsonl"
    r = run_cli(*PROOF_2X2, "--jobs", "2", "--evals", "1", "--out", str(out), "--progress", "none")
    assert r.returncode == 3, r.stderr
    lines = out.read_text().splitlines()
    start = json.loads(lines[0])
    assert start["settings"]["executor"] == "local"
    start["settings"]["executor"] = "dask"
    out.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    before = out.read_text()
    began = time.monotonic()
    again = run_cli("run", "--resume", str(out), "--time", "30", env=without_extras)
    _refused_at_once(again, time.monotonic() - began, "dask")
    assert out.read_text() == before


def test_run_report_without_matplotlib_is_refused_before_the_run(
    run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    out, page = tmp_path / "p.jsonl", tmp_path / "p.html"
    began = time.monotonic()
    r = run_cli("run", "--searcher", "bnb", "--size", "3x3", "--out", str(out), "--report", str(page),
                env=without_extras)
    _refused_at_once(r, time.monotonic() - began, "report")
    assert "matplotlib" in r.stderr
    assert not page.exists() and (not out.exists() or out.read_text() == "")


def test_report_without_matplotlib_is_refused_before_reading(
    run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    out, page = tmp_path / "p.jsonl", tmp_path / "p.html"
    assert run_cli(*PROOF_2X2, "--out", str(out), "--progress", "none").returncode == 0
    began = time.monotonic()
    r = run_cli("report", str(out), "--out", str(page), env=without_extras)
    _refused_at_once(r, time.monotonic() - began, "report")
    assert not page.exists()
