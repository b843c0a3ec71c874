"""No process outlives its run, and signals stop a run at any moment.

Through the real command line: ``kill -9`` of the main process leaves no
worker behind (each notices its parent is gone); SIGTERM at any moment of
start-up stops the run with a finish record and exit 143; a Ctrl-C sent to
the whole process group (a real terminal's) prints no traceback from any
process; a second signal ends a stopping run at once.
"""

from __future__ import annotations

import contextlib

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from helpers import PROOF_3X3, exe, start_cli, unwrapped, wait_for

#: an annealing run that would go on for a minute
ANNEALING = ["--searcher", "annealing", "--size", "3x3", "--jobs", "2", "--time", "60", "--seed", "1"]


def start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    # its own session: a test's group signal reaches only the run
    return start_cli(args, env, cwd, new_session=True)


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def alive(procs: list[psutil.Process]) -> list[psutil.Process]:
    return [p for p in procs if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def kill_all(proc: subprocess.Popen[str], procs: list[psutil.Process]) -> None:
    """Clean up after a failing test: nothing it started may stay."""
    for p in [*procs, *descendants(proc.pid)]:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    if proc.poll() is None:
        proc.kill()
    proc.communicate(timeout=300)


def finish_record(path: Path) -> dict | None:
    if not path.exists():
        return None
    lines = path.read_text().splitlines()
    last = json.loads(lines[-1]) if lines else {}
    return last if last.get("type") == "finish" else None


# -- orphans -------------------------------------------------------------------------


@pytest.mark.parametrize("args", [
    pytest.param([*PROOF_3X3, "--jobs", "2"], id="bnb-pool"),
    pytest.param(ANNEALING, id="annealing-fan-out"),
])
def test_kill_9_of_the_main_process_leaves_no_worker(
    args: list[str], tmp_path: Path, cli_env: dict[str, str], enable2k_path: Path
) -> None:
    """What an out-of-memory kill or a crashed terminal does: the workers (and
    multiprocessing's resource tracker) must not wait for ever on a pipe."""
    out = tmp_path / "run.jsonl"
    proc = start(["run", *args, "--out", str(out), "--progress", "none"], cli_env, tmp_path)
    workers: list[psutil.Process] = []
    try:
        wait_for(lambda: out.exists() and '"improved"' in out.read_text(), proc, timeout=90)
        # both workers and multiprocessing's resource tracker
        wait_for(lambda: len(descendants(proc.pid)) >= 3, proc, timeout=300)
        workers = descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 120
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(workers), [p.cmdline() for p in alive(workers)]
    finally:
        kill_all(proc, workers)


# -- signals -------------------------------------------------------------------------


def stops_cleanly(proc: subprocess.Popen[str], out: Path, sig: signal.Signals, status: int) -> str:
    """Wait for the run to stop; check its exit status, finish record and
    stderr; return stderr."""
    try:
        _, stderr = proc.communicate(timeout=300)  # a swallowed signal ran on for the whole minute
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    if proc.returncode == -sig and not out.exists():
        return stderr  # the signal came before Python ran any of boggle-opt (nothing started)
    assert proc.returncode == status, stderr
    record = finish_record(out)
    assert record is not None and record["stop_reason"] == ("interrupted" if sig == signal.SIGINT
                                                            else f"terminated by {sig.name}"), record
    return stderr


# heavy: a run started and killed at four random moments of its start-up: 7 s (docs/testing.md)
@pytest.mark.slow
def test_sigterm_at_any_moment_of_start_up_stops_the_run(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A signal during the imports once raised an exception that was lost:
    the run went on for its whole budget. Four moments drawn at random in
    the first 1.5 s, a fresh draw each run (benchmarks/signal_startup.py
    tries many more); a failure prints the moment it came at."""
    moments = random.Random().sample([i / 100 for i in range(0, 150)], 4)
    for i, moment in enumerate(moments):
        out = tmp_path / f"run{i}.jsonl"
        proc = start(["run", *ANNEALING, "--out", str(out), "--progress", "none"], cli_env, tmp_path)
        time.sleep(moment)
        proc.send_signal(signal.SIGTERM)
        try:
            stops_cleanly(proc, out, signal.SIGTERM, 143)
        except AssertionError as failed:
            raise AssertionError(f"SIGTERM {moment} s after the start: {failed}") from failed


def test_ctrl_c_to_the_process_group_prints_no_traceback(
    tmp_path: Path, cli_env: dict[str, str], enable2k_path: Path
) -> None:
    """A terminal's Ctrl-C reaches every process of its group: workers that
    are starting, running, or idle, and multiprocessing's resource tracker;
    only the main process acts on it. Two moments drawn at random in the
    first 0.3-0.9 s (a fresh draw each run), then once the proof is under way."""
    moments = [*random.Random().sample([i / 100 for i in range(30, 91)], 2), None]
    for i, moment in enumerate(moments):
        out = tmp_path / f"run{i}.jsonl"
        proc = start(["run", *PROOF_3X3, "--jobs", "2", "--out", str(out), "--progress", "plain"],
                     cli_env, tmp_path)
        if moment is None:
            wait_for(lambda: out.exists() and '"improved"' in out.read_text(), proc, timeout=90)
        else:
            time.sleep(moment)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            stops_cleanly(proc, out, signal.SIGINT, 130)
        except AssertionError as failed:
            raise AssertionError(f"Ctrl-C at {moment or 'the first board'}: {failed}") from failed


def test_a_second_signal_ends_a_stopping_run_at_once(
    tmp_path: Path, cli_env: dict[str, str], enable2k_path: Path
) -> None:
    """``docker stop`` and an impatient user send a second signal: it is not
    ignored, and no process stays behind."""
    out = tmp_path / "run.jsonl"
    proc = start(["run", *PROOF_3X3, "--jobs", "2", "--out", str(out), "--progress", "none"],
                 cli_env, tmp_path)
    workers: list[psutil.Process] = []
    try:
        wait_for(lambda: out.exists() and '"improved"' in out.read_text(), proc, timeout=90)
        workers = descendants(proc.pid)
        # both pending at once: the second is handled while the first stops the run
        os.kill(proc.pid, signal.SIGTERM)
        os.kill(proc.pid, signal.SIGHUP)
        _, stderr = proc.communicate(timeout=300)
        assert "second signal" in stderr, stderr
        assert proc.returncode in (143, 129) and "Traceback" not in stderr, stderr
        deadline = time.monotonic() + 120
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(workers)
    finally:
        kill_all(proc, workers)


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_ctrl_c_stops_a_one_job_proof_in_the_middle_of_a_class(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """With one job a proof solves its classes in the main process, in the
    compiled kernel, which never lets the interpreter run a signal's handler:
    Ctrl-C waited for the whole class (a 4x4 proof starts with its biggest,
    about 7 minutes here). The kernel now lets signals in between forcings."""
    out = tmp_path / "run.jsonl"
    proc = start(["run", "--searcher", "bnb", "--size", "4x4", "-o", "min-score", "3500", "--jobs", "1",
                  "--out", str(out), "--progress", "none"], cli_env, tmp_path)
    try:
        wait_for(lambda: out.exists() and '"setup": true' in out.read_text(), proc, timeout=300)
        # well into the first class, by its CPU (a loaded machine is slower):
        # without the kernel's poll a signal at 30 s of CPU waited over 2 minutes
        # (earlier it can land where the class's own deadline splits it, sooner)
        main = psutil.Process(proc.pid)
        wait_for(lambda: sum(main.cpu_times()[:2]) > 30, proc, timeout=300)
        # how soon it stops, in its own CPU after the signal (a busy machine
        # stretches the wall clock): the class would have taken minutes more
        sent = sum(main.cpu_times()[:2])
        os.killpg(proc.pid, signal.SIGINT)
        spent = 0.0
        ceiling = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < ceiling:
            with contextlib.suppress(psutil.Error):
                spent = sum(main.cpu_times()[:2]) - sent
            time.sleep(0.05)
        stops_cleanly(proc, out, signal.SIGINT, 130)
        assert spent < 20, f"{spent:.1f} s of CPU after the signal"
    finally:
        kill_all(proc, [])


def test_a_one_job_proof_stops_at_its_time_budget_in_the_middle_of_a_class(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    """One job solves a proof's classes in this process, in compiled code:
    ``--time 8`` ran on until its first class was done (a 4x4 proof starts
    with its biggest, minutes long). The kernel's poll ends the class at
    the budget, as a run of several jobs leaves its classes in flight.
    Three seconds: the dictionary and the first class start well within it."""
    out = tmp_path / "run.jsonl"
    started = time.monotonic()
    done = subprocess.run([exe(), "run", "--searcher", "bnb", "--size", "4x4", "-o", "min-score", "3500",
                           "--time", "3", "--jobs", "1", "--out", str(out), "--progress", "none"],
                          capture_output=True, text=True, env=cli_env, cwd=tmp_path, timeout=120)
    assert done.returncode == 3, done.stderr  # an incomplete proof
    assert "Traceback" not in done.stderr
    assert f"# to finish the proof: boggle-opt run --resume {out}" in unwrapped(done.stdout), done.stdout
    record = finish_record(out)
    assert record is not None and record["stop_reason"] == "used 3 s", record
    # within moments: the poll comes between forcings and, in a big build,
    # a few seconds apart (more on a loaded machine)
    assert record["elapsed"] < 30 and time.monotonic() - started < 90, record
