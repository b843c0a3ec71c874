"""A run inside a command that stops at once (plan's climb and replay run
searches) must leave the command stoppable: the run's end once made every
later signal a no-op, and plan ran on to its end after SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from boggle_opt.signals import Terminated, check, on_termination, stopping
from helpers import start_cli


def test_a_signal_after_an_inner_run_stops_the_command() -> None:
    with pytest.raises(Terminated), on_termination(raising=True):
        with stopping():
            pass
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # not reached: the handler raises at once


def test_a_signal_that_stopped_an_inner_run_stops_the_command() -> None:
    with on_termination(raising=True) as seen:
        try:
            with stopping():
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(5)
        except Terminated:
            pass  # the run's driver takes it and ends the run cleanly
        with pytest.raises(Terminated):
            check()
    assert seen.status(0) == 143


def test_a_run_command_still_ends_as_its_run_ended() -> None:
    with on_termination(raising=False) as seen:
        with stopping():
            pass
        os.kill(os.getpid(), signal.SIGTERM)
    assert seen.status(0) == 0


def test_plan_stops_at_sigterm_after_its_climb(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """The climb that sets plan's min score is a run; SIGTERM once it has ended
    stops plan (143) instead of letting it cost and solve a 4x4 sample."""
    proc = start_cli(["plan", "--size", "4x4", "--sample", "1", "--jobs", "1", "-o", "climb-seconds", "1"],
                     cli_env, tmp_path)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("min score"):
                break
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 143, stderr
    assert stderr.strip().endswith("boggle-opt: terminated by SIGTERM"), stderr
    assert "Traceback" not in stderr
