"""Long runs under stress, through the real command line: a run file that
stops taking writes (a full disk, the file removed), SIGTERM and SIGHUP, and
two runs on one run file."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from helpers import PROOF_3X3, SMALL, exe, records, start_cli, wait_for

from boggle_opt.runs.runfile import read_run_file
from boggle_opt.runs.lock import holder_path

#: a 2x3 proof of 1,120 classes, a few hundred bytes of run file each, in 2 s
PROOF_2X3 = ["--searcher", "bnb", "--size", "2x3", "--wordlist", "enable2k", "-o", "min-score", "100",
             "-o", "buckets", "aeiou bdfgjqvwxz lnrsy chkmpt", "--top", "1000"]

def class_names(path: Path) -> list[str]:
    """The classes a run file records as finished (as ``--resume`` reads it)."""
    return [r["class"] for r in read_run_file(str(path)).checkpoints if "class" in r]


def ranked(stdout: str) -> list[tuple[str, int]]:
    rows = [line.split("\t") for line in stdout.splitlines() if line[:1].isdigit()]
    return [(row[1], int(row[2])) for row in rows]


def count_in(path: Path, text: str, at_least: int) -> Callable[[], bool]:
    return lambda: path.exists() and path.read_text(errors="replace").count(text) >= at_least


def start(args: list[str], env: dict[str, str], cwd: Path, group: bool = False) -> subprocess.Popen[str]:
    return start_cli(args, env, cwd, new_session=group)


# -- a run file that stops taking writes ---------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path | None]:
    """A 16 kB tmpfs (a run file fills it in a few dozen records), or None
    where mounting is not permitted."""
    mnt = tmp_path / "disk"
    mnt.mkdir()
    mount = shutil.which("mount")
    if not mount or sys.platform != "linux":
        yield None
        return
    done = subprocess.run([mount, "-t", "tmpfs", "-o", "size=16k", "tmpfs", str(mnt)],
                          capture_output=True)
    if done.returncode != 0:
        yield None
        return
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


#: the command line with the run file's writes failing once it holds 12 kB,
#: as on a full disk: the fallback where no filesystem can be mounted
FAILING_WRITES = textwrap.dedent("""
    import errno, os, sys
    import boggle_opt.runs.runfile as runfile
    real = os.write
    def write(fd, data):
        if os.fstat(fd).st_size + len(data) > 12_000:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)
    runfile.os = type(sys)("os_failing")
    runfile.os.__dict__.update(os.__dict__, write=write)
    from boggle_opt.cli.app import main
    sys.exit(main(sys.argv[1:]))
""")


# heavy: three whole 2x3 proofs through the command, one on a full disk: 6-7 s (docs/testing.md)
@pytest.mark.slow
def test_full_disk_stops_the_proof_prints_results_and_resumes(
    small_disk: Path | None, tmp_path: Path, cli_env: dict[str, str],
    run_cli: Callable[..., subprocess.CompletedProcess[str]], enable2k_path: Path,
) -> None:
    full = run_cli("run", *PROOF_2X3, "--progress", "none")
    assert full.returncode == 0, full.stderr
    folder = small_disk or tmp_path
    out = folder / "run.jsonl"
    args = ["run", *PROOF_2X3, "--out", str(out), "--progress", "none"]
    if small_disk is not None:
        r = run_cli(*args)
    else:
        r = subprocess.run([sys.executable, "-c", FAILING_WRITES, *args], capture_output=True,
                           text=True, env=cli_env, cwd=tmp_path, timeout=120)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [
        f"boggle-opt: error: cannot write run file {str(out)!r}: No space left on device"
    ], r.stderr
    # stopped at once with what it had found, as at any other stop
    assert "# stopped: run file write failed;" in r.stdout and "# rank" in r.stdout
    before = class_names(out)  # readable: at most the last line is torn, and it is skipped
    assert 10 <= len(before) < 200
    if small_disk is not None:  # space freed, as a user would
        subprocess.run(["mount", "-o", "remount,size=1m", str(small_disk)], check=True)
    resumed = run_cli("run", "--resume", str(out), "--progress", "none", "--top", "1000")
    assert resumed.returncode == 0, resumed.stderr
    after = class_names(out)
    assert len(after) == len(set(after)) == 1120  # each class once
    assert after[: len(before)] == before
    assert ranked(resumed.stdout) == ranked(full.stdout) and ranked(full.stdout)


def test_removed_run_file_stops_the_run(
    tmp_path: Path, cli_env: dict[str, str], enable2k_path: Path
) -> None:
    out = tmp_path / "run.jsonl"
    proc = start(["run", *PROOF_3X3, "--out", str(out), "--progress", "none"], cli_env, tmp_path)
    wait_for(count_in(out, '"checkpoint"', 1), proc)
    out.unlink()
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 1
    assert stderr.splitlines() == [
        f"boggle-opt: error: cannot write run file {str(out)!r}: the file was removed"
    ]
    assert "# searcher bnb" in stdout and "# stopped: run file write failed;" in stdout


# -- SIGTERM and SIGHUP ----------------------------------------------------------


@pytest.mark.parametrize("sig, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_termination_signal_ends_a_local_search_like_ctrl_c(
    sig: signal.Signals, status: int, tmp_path: Path, cli_env: dict[str, str]
) -> None:
    out = tmp_path / "run.jsonl"
    proc = start(["run", *SMALL, "--time", "60", "--out", str(out), "--progress", "plain"],
                 cli_env, tmp_path)
    wait_for(count_in(out, '"improved"', 1), proc)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == status, stderr
    assert "Traceback" not in stderr
    assert f"# stopped: terminated by {sig.name}" in stdout and "best board (" in stdout
    recs = records(out)
    assert recs[-1]["type"] == "finish" and recs[-1]["stop_reason"] == f"terminated by {sig.name}"
    best = max(r["score"] for r in recs if r["type"] == "improved")
    assert recs[-1]["best"][0]["score"] == best
    assert not Path(holder_path(str(out))).exists()  # the lock went with the run


@pytest.mark.parametrize("to_group", [False, True], ids=["main-process", "process-group"])
def test_sigterm_ends_a_two_worker_proof(
    to_group: bool, tmp_path: Path, cli_env: dict[str, str], enable2k_path: Path
) -> None:
    """``docker stop`` signals the main process; systemd and batch schedulers
    every process of the job: either way the proof stops, every process
    quietly, with its results and a finish record, and resumes."""
    out = tmp_path / "run.jsonl"
    proc = start(["run", *PROOF_3X3, "--jobs", "2", "--out", str(out), "--progress", "plain"],
                 cli_env, tmp_path, group=to_group)
    # two finished classes, one of them with a board: the first two to finish
    # may both have none (two workers race; a CI flake), and the first board
    # alone may come with the only class finished (another)
    classes, board = count_in(out, '"class": ', 2), count_in(out, '"boards": [["', 1)
    wait_for(lambda: classes() and board(), proc, timeout=90)
    if to_group:
        os.killpg(proc.pid, signal.SIGTERM)
    else:
        proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 143, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert "# stopped: terminated by SIGTERM" in stdout and "best board (" in stdout
    recs = records(out)
    assert recs[-1]["type"] == "finish" and recs[-1]["stop_reason"] == "terminated by SIGTERM"
    past = read_run_file(str(out))
    assert past.segments == 1 and len(class_names(out)) >= 2


# -- one writer per run file -------------------------------------------------------


def test_second_writer_is_refused_naming_the_holder(
    tmp_path: Path, cli_env: dict[str, str], run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    out = tmp_path / "run.jsonl"
    proc = start(["run", *SMALL, "--time", "60", "--out", str(out), "--progress", "none"],
                 cli_env, tmp_path)
    try:
        wait_for(count_in(out, '"improved"', 1), proc)
        for args in (["--resume", str(out)], [*SMALL, "--out", str(out)]):
            r = run_cli("run", *args, "--evals", "1000", "--progress", "none")
            assert r.returncode == 1
            lines = r.stderr.splitlines()
            assert len(lines) == 1 and f"run file {str(out)!r} is being written by process {proc.pid}" \
                in lines[0], r.stderr
        assert [x["type"] for x in records(out)].count("start") == 1
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=300)
    assert proc.returncode == 130


def test_lock_of_a_killed_run_is_taken_over(
    tmp_path: Path, cli_env: dict[str, str], run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    out = tmp_path / "run.jsonl"
    proc = start(["run", *SMALL, "--time", "60", "--out", str(out), "--progress", "none"],
                 cli_env, tmp_path)
    wait_for(count_in(out, '"improved"', 1), proc)
    proc.kill()
    proc.communicate(timeout=10)
    label = json.loads(Path(holder_path(str(out))).read_text())
    assert label["pid"] == proc.pid  # left behind by the dead run
    r = run_cli("run", "--resume", str(out), "--evals", "2000", "--progress", "none")
    assert r.returncode == 0, r.stderr
    recs = records(out)
    assert [x["type"] for x in recs].count("start") == 2 and recs[-1]["type"] == "finish"
    assert not Path(holder_path(str(out))).exists()


def test_a_torn_last_line_is_cut_before_appending(tmp_path: Path) -> None:
    """Wherever a kill or a full disk cut the last record, the next segment
    starts on a line of its own and the file reads back whole."""
    from boggle_opt.searching.driver import Budget, RunState
    from boggle_opt.runs.runfile import RunFileWriter

    first = json.dumps({"type": "start", "settings": {"searcher": "hillclimb"}}) + "\n"
    second = json.dumps({"type": "improved", "board": "abcdefghi", "score": 3, "elapsed": 1.0,
                         "evaluations": 5}) + "\n"
    state = RunState("hillclimb", {}, Budget())
    for cut in range(len(second) + 1):
        path = tmp_path / f"run{cut}.jsonl"
        path.write_text(first + second[:cut])
        writer = RunFileWriter(str(path), {"searcher": "hillclimb"}, len, resume=True)
        writer.start(state)
        writer.finish(state)
        recs = records(path)
        assert [r["type"] for r in recs] == ["start", *(["improved"] if cut >= len(second) - 1 else []),
                                            "start", "finish"], cut
