"""Run files and lock labels that nobody loses by mistake (issue 42, items 2,
6 and 7): ``FILE.lock`` is made without following a link or truncating what
is there and removed only by its maker; a FIFO or a device is never opened
to wait or to read for ever; and a run file's lines are read with a bounded
length, so a huge junk tail costs no memory and is still cut by ``--resume``.
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from boggle_opt.runs import records
from boggle_opt.runs.lock import RunLock, describe_holder, holder_path
from boggle_opt.runs.records import RunFileError, read_numbered
from boggle_opt.runs.runfile import drop_torn_tail, read_run_file
from helpers import assert_one_line_error, exe

TINY = ["--searcher", "annealing", "--evals", "200", "--seed", "1", "--progress", "none"]
#: the address space a command gets where a test must show it reads in bounded memory
MEMORY = 700 * 2**20


def cli(env: dict[str, str], *args: str, memory: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    # a short timeout: a FIFO that blocks open() fails the test, not the suite
    return subprocess.run([exe(), *args], capture_output=True, text=True, env=env, timeout=300,
                          preexec_fn=limit)


@pytest.fixture(scope="module")
def run_file(cli_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a tiny run's run file."""
    path = tmp_path_factory.mktemp("run") / "run.jsonl"
    result = cli(cli_env, "run", *TINY, "--out", str(path))
    assert result.returncode == 0, result.stderr
    return path.read_bytes()


@pytest.fixture()
def saved(run_file: bytes, tmp_path: Path) -> Path:
    path = tmp_path / "run.jsonl"
    path.write_bytes(run_file)
    return path


def dead_pid() -> int:
    """The process id of a process that has ended."""
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True)
    return int(proc.stdout)


# -- lock labels (item 2) ----------------------------------------------------------------


def test_a_refused_run_leaves_an_existing_lock_file_alone(cli_env: dict[str, str], saved: Path) -> None:
    label = Path(holder_path(str(saved)))
    label.write_text("precious\n")
    result = cli(cli_env, "run", *TINY, "--out", str(saved))
    assert_one_line_error(result, "not empty")
    assert label.read_text() == "precious\n"


@pytest.mark.parametrize("resume", [False, True], ids=["out", "resume"])
def test_a_lock_file_that_is_not_a_label_survives_a_run(cli_env: dict[str, str], saved: Path,
                                                        resume: bool) -> None:
    out = saved if resume else saved.with_name("new.jsonl")
    label = Path(holder_path(str(out)))
    label.write_text("precious\n")
    args = ["--resume", str(out), "--evals", "100"] if resume else [*TINY, "--out", str(out)]
    result = cli(cli_env, "run", *args)
    assert result.returncode == 0, result.stderr
    assert label.read_text() == "precious\n"


@pytest.mark.parametrize("resume", [False, True], ids=["out", "resume"])
def test_a_symlinked_lock_file_is_never_written_through(cli_env: dict[str, str], saved: Path,
                                                        resume: bool) -> None:
    out = saved if resume else saved.with_name("new.jsonl")
    target = saved.with_name("target.txt")
    target.write_text("precious\n")
    label = Path(holder_path(str(out)))
    label.symlink_to(target.name)
    args = ["--resume", str(out), "--evals", "100"] if resume else [*TINY, "--out", str(out)]
    result = cli(cli_env, "run", *args)
    assert result.returncode == 0, result.stderr
    assert target.read_text() == "precious\n"
    assert label.is_symlink(), "the link is not the run's to remove"


def test_a_fifo_as_lock_file_does_not_block_a_run(cli_env: dict[str, str], tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    os.mkfifo(holder_path(str(out)))
    result = cli(cli_env, "run", *TINY, "--out", str(out))
    assert result.returncode == 0, result.stderr
    # naming the holder reads the label: not a FIFO's, which would wait for a writer
    script = "import sys; from boggle_opt.runs.lock import describe_holder; print(describe_holder(sys.argv[1]))"
    named = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True, text=True, timeout=300)
    assert named.stdout.strip() == "another process", named.stderr


def test_a_stale_label_is_replaced_and_removed(tmp_path: Path) -> None:
    out = str(tmp_path / "run.jsonl")
    label = Path(holder_path(out))
    label.write_text(json.dumps({"pid": dead_pid(), "host": os.uname().nodename}) + "\n")
    lock = RunLock(out).acquire()
    try:
        assert json.loads(label.read_text())["pid"] == os.getpid()
        assert describe_holder(out).startswith(f"process {os.getpid()} (since ")
    finally:
        lock.release()
    assert not label.exists()


def test_a_live_processs_label_is_left_alone(tmp_path: Path) -> None:
    """A label naming a live process on this host (a run still writing an
    older file of that name, say) is not the new run's to replace or remove."""
    out = str(tmp_path / "run.jsonl")
    label = Path(holder_path(out))
    text = json.dumps({"pid": os.getppid(), "host": os.uname().nodename}) + "\n"
    label.write_text(text)
    with_lock = RunLock(out).acquire()
    with_lock.release()
    assert label.read_text() == text


def test_release_removes_only_the_label_it_made(tmp_path: Path) -> None:
    out = str(tmp_path / "run.jsonl")
    label = Path(holder_path(out))
    lock = RunLock(out).acquire()
    assert json.loads(label.read_text())["pid"] == os.getpid()
    label.unlink()
    label.write_text("someone else's\n")  # another file in its place
    lock.release()
    assert label.read_text() == "someone else's\n"


# -- FIFOs and devices (item 6) and unbounded reads (item 7) --------------------------


@pytest.mark.parametrize("command", ["verify", "report", "resume"])
def test_dev_zero_is_refused_not_read_until_memory_runs_out(cli_env: dict[str, str], tmp_path: Path,
                                                            command: str) -> None:
    args = {"verify": ["verify", "/dev/zero"],
            "report": ["report", "/dev/zero", "--out", str(tmp_path / "page.html")],
            "resume": ["run", "--resume", "/dev/zero"]}[command]
    result = cli(cli_env, *args, memory=MEMORY)
    assert_one_line_error(result, "'/dev/zero'", "not a regular file")


@pytest.mark.parametrize("call", ["read_numbered(path)", "RunLock(path, create=False).acquire()",
                                  "RunLock(path).acquire()"])
def test_the_library_refuses_a_fifo_at_once(tmp_path: Path, call: str) -> None:
    """``read_run_file`` and ``search(out=...)`` as well as the command line;
    in a process of its own, so that a wait for a writer fails the test only."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    script = ("import sys\nfrom boggle_opt.runs.records import read_numbered\n"
              "from boggle_opt.runs.lock import RunLock\npath = sys.argv[1]\n"
              f"try:\n    {call}\nexcept Exception as exc:\n    print(exc)\n")
    result = subprocess.run([sys.executable, "-c", script, str(fifo)], capture_output=True, text=True,
                            timeout=300)
    assert f"run file {str(fifo)!r} is a FIFO, not a regular file" in result.stdout, result.stderr


def test_a_huge_junk_tail_is_read_in_bounded_memory_and_cut(cli_env: dict[str, str], saved: Path,
                                                             tmp_path: Path) -> None:
    """300 MiB of NUL bytes after the last record (a power loss on a
    preallocated file; sparse here, so it costs no disk): ``report`` and
    ``--resume`` read past it a chunk at a time, and the resume cuts it off."""
    whole = saved.stat().st_size
    with open(saved, "r+b") as f:
        f.truncate(whole + 300 * 2**20)
    result = cli(cli_env, "report", str(saved), "--out", str(tmp_path / "page.html"), memory=MEMORY)
    assert result.returncode == 0, result.stderr
    result = cli(cli_env, "run", "--resume", str(saved), "--evals", "100", memory=MEMORY)
    assert result.returncode == 0, result.stderr
    assert whole < saved.stat().st_size < whole + 2**20
    assert read_run_file(str(saved)).segments == 2


def start_and_improved() -> list[bytes]:
    return [json.dumps({"type": "start", "settings": {"searcher": "hillclimb"}}).encode(),
            json.dumps({"type": "improved", "board": "abcdefghi", "score": 3}).encode()]


def test_a_line_over_the_limit_is_an_error_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(records, "LINE_LIMIT", 1000)
    start, improved = start_and_improved()
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"\n".join([start, b"x" * 5000, improved]) + b"\n")
    with pytest.raises(RunFileError, match="line 2 is longer than"):
        read_numbered(str(path))


@pytest.mark.parametrize("newline", [b"", b"\n"], ids=["torn", "whole-junk-line"])
def test_a_tail_over_the_limit_is_skipped_and_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  newline: bytes) -> None:
    monkeypatch.setattr(records, "LINE_LIMIT", 1000)
    start, improved = start_and_improved()
    path = tmp_path / "run.jsonl"
    path.write_bytes(start + b"\n" + improved + b"\n" + b"{" * 5000 + newline)
    assert [r["type"] for _, r in read_numbered(str(path))] == ["start", "improved"]
    # a record longer than the limit is no record for the cutter either
    monkeypatch.setattr("boggle_opt.runs.runfile.LINE_LIMIT", 1000)
    long_record = json.dumps({"type": "improved", "board": "x" * 2000, "score": 1}).encode()
    path.write_bytes(start + b"\n" + improved + b"\n" + long_record + newline)
    fd = os.open(path, os.O_RDWR | os.O_APPEND)
    try:
        drop_torn_tail(fd)
    finally:
        os.close(fd)
    assert path.read_bytes() == start + b"\n" + improved + b"\n"


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzip"])
def test_long_lines_are_read_a_chunk_at_a_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               packed: bool) -> None:
    """A record longer than a chunk is read whole; a long line of NUL bytes
    (a power loss's tail) is given as ``JUNK``, never held whole: skipped at
    the end, an error naming its line before a record."""
    monkeypatch.setattr(records, "_SKIP_CHUNK", 64)
    start, improved = start_and_improved()
    long_record = json.dumps({"type": "improved", "board": "abcdefghi", "score": 3, "note": "n" * 500}).encode()
    path = tmp_path / "run.jsonl"

    def write(data: bytes) -> None:
        path.write_bytes(gzip.compress(data) if packed else data)

    write(start + b"\n" + long_record + b"\n" + improved + b"\n" + b"\0" * 10_000)
    lines = list(records.numbered_lines(str(path)))
    assert lines[1] == (2, long_record) and lines[-1] == (4, records.JUNK)
    assert [r["type"] for _, r in read_numbered(str(path))] == ["start", "improved", "improved"]
    write(start + b"\n" + b"\0" * 10_000 + b"\n" + improved + b"\n")
    with pytest.raises(RunFileError, match="line 2 is not JSON"):
        read_numbered(str(path))


# -- a FIFO as word list (issue 76, defect 4) ------------------------------------------


@pytest.fixture(scope="module")
def proof_of_a_relative_list(cli_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A 2x2 proof's run file recording the word list ``words.txt`` (relative)."""
    folder = tmp_path_factory.mktemp("listed")
    (folder / "words.txt").write_text("cat\nact\ntab\nbat\n")
    result = subprocess.run([exe(), "run", "--searcher", "bnb", "--size", "2x2", "--wordlist", "words.txt",
                             "-o", "min-score", "1", "--progress", "none", "--out", "proof.jsonl"],
                            capture_output=True, text=True, env=cli_env, cwd=folder, timeout=300)
    assert result.returncode == 0, result.stderr
    return (folder / "proof.jsonl").read_bytes()


@pytest.mark.parametrize("command", ["score", "run", "verify", "resume", "report", "merge"])
def test_a_fifo_as_word_list_is_refused_not_waited_on(cli_env: dict[str, str], tmp_path: Path,
                                                      proof_of_a_relative_list: bytes, command: str) -> None:
    """``open()`` of a FIFO waits for a writer for ever: every command that
    reads a word list (given, or recorded in a run file) refuses it in one
    line instead (``report`` says why its page has no words)."""
    os.mkfifo(tmp_path / "words.txt")
    (tmp_path / "proof.jsonl").write_bytes(proof_of_a_relative_list)
    args = {"score": ["score", "--wordlist", "words.txt", "--size", "2x2", "abcd"],
            "run": ["run", *TINY, "--size", "2x2", "--wordlist", "words.txt"],
            "verify": ["verify", "proof.jsonl"],
            "resume": ["run", "--resume", "proof.jsonl"],
            "report": ["report", "proof.jsonl", "--out", "page.html"],
            "merge": ["merge", "proof.jsonl", "--out", "merged.jsonl"]}[command]
    # a short timeout: a command that waits on the FIFO fails the test, not the suite
    result = subprocess.run([exe(), *args], capture_output=True, text=True, env=cli_env, cwd=tmp_path, timeout=120)
    if command == "report":  # the page is made without the words, and says why
        assert result.returncode == 0, result.stderr
        assert "words.txt&#x27; is a FIFO, not a file" in (tmp_path / "page.html").read_text()
    else:
        assert_one_line_error(result, "word list 'words.txt' is a FIFO, not a file")
    assert stat.S_ISFIFO(os.stat(tmp_path / "words.txt").st_mode)
