"""``--jobs N`` copies of a searcher (boggle_opt/searching/copies.py): a
worker killed mid-run starts again and the run goes on; a copy that keeps
dying before it reports anything is given up; every copy checkpoints as the
run stops. Through the real command line."""

from __future__ import annotations

import signal
import textwrap
from pathlib import Path

import psutil
import pytest

from boggle_opt.searching.copies import death
from helpers import records, start_cli, unwrapped, wait_for

ANNEALING = ["run", "--searcher", "annealing", "--size", "3x3", "--jobs", "2", "--seed", "3"]

SUICIDAL = """
    import os
    import signal
    from dataclasses import dataclass

    from boggle_opt import hookimpl
    from boggle_opt.searching.interface import SearcherBase


    class Suicidal(SearcherBase):
        \"\"\"Dies as the out-of-memory killer would, before it finds anything.\"\"\"

        name = "suicidal"

        @dataclass(frozen=True)
        class Options:
            pass

        def search(self, problem, rng):
            os.kill(os.getpid(), signal.SIGKILL)
            yield from ()


    @hookimpl
    def register_searchers(register):
        register(Suicidal)
"""


def _workers(pid: int) -> list[psutil.Process]:
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    return [p for p in children if "spawn_main" in " ".join(p.cmdline())]


@pytest.mark.slow  # a worker killed in a 60 s run of two worker processes: 2 CPU-minutes
def test_a_killed_worker_starts_again_and_the_run_goes_on(tmp_path: Path, cli_env: dict[str, str]) -> None:
    out = tmp_path / "run.jsonl"
    # a minute: room for the killed copy to start again and run on however
    # busy the machine (10 s was not, beside the loaded suite)
    proc = start_cli([*ANNEALING, "--time", "60", "--out", str(out), "--progress", "plain"], cli_env, tmp_path)
    try:
        wait_for(lambda: out.exists() and '"type": "improved"' in out.read_text() and len(_workers(proc.pid)) == 2, proc)
        victim = _workers(proc.pid)[0]
        victim.send_signal(signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, stderr
    assert "Traceback" not in stderr
    recs = records(out)
    finish = recs[-1]
    assert finish["type"] == "finish" and finish["stop_reason"] == "used 60 s"
    [note] = finish["notes"]
    assert "died at" in note and "(killed by SIGKILL)" in note and "starts again" in note
    assert f"# note: {note}" in unwrapped(stdout) and f"note: {note}" in unwrapped(stderr)  # both wrapped at 80
    # both copies ran to the end: each sent the checkpoint of its state as the run stopped
    last = [r for r in recs if r["type"] == "checkpoint" and r["elapsed"] >= 59]
    assert {r["record"]["copy"] for r in last} == {0, 1}
    assert not psutil.pid_exists(victim.pid) or victim.status() == psutil.STATUS_ZOMBIE
    assert _workers(proc.pid) == []


def test_a_copy_that_keeps_dying_is_given_up(tmp_path: Path, cli_env: dict[str, str]) -> None:
    plugin = tmp_path / "suicidal.py"
    plugin.write_text(textwrap.dedent(SUICIDAL), encoding="utf-8")
    proc = start_cli(["run", "--plugin", str(plugin), "--searcher", "suicidal", "--size", "3x3",
                      "--jobs", "2", "--time", "60", "--progress", "none"], cli_env, tmp_path)
    try:
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode != 0
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("boggle-opt: error: every worker process died 3 times in a row")
    assert "killed by SIGKILL" in lines[0]


def test_how_a_worker_ended_in_words() -> None:
    assert death(-9) == "killed by SIGKILL"
    assert death(1) == "exit status 1"
    assert death(-200) == "killed by signal 200"
