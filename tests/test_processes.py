"""No process outlives its run, and signals stop a run at any moment.

Through the real command line: ``kill -9`` of the main process leaves no
worker behind (each notices its parent is gone); SIGTERM at any moment of
start-up stops the run with a finish record and exit 143; a Ctrl-C sent to
the whole process group (a real terminal's) prints no traceback from any
process; a second signal ends a stopping run at once.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path

import psutil
import pytest

from test_run_stress import PROOF_3X3, exe, wait_for

#: an annealing run that would go on for a minute
ANNEALING = ["--searcher", "annealing", "--size", "3x3", "--jobs", "2", "--time", "60", "--seed", "1"]


def start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    # its own session: a test's group signal reaches only the run
    return subprocess.Popen([exe(), *args], cwd=cwd, env=env, text=True, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


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
    proc.communicate(timeout=30)


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
        wait_for(lambda: len(descendants(proc.pid)) >= 3, proc, timeout=30)
        workers = descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 15
        while alive(workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(workers), [p.cmdline() for p in alive(workers)]
    finally:
        kill_all(proc, workers)
