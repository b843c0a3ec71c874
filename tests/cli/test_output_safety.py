"""No output of a command overwrites a run file or that command's own input
(issue 42, item 1), and no output or run file is a FIFO or a device, which
would block ``open()`` for ever (item 6): refused in one line, exit status 2,
before any work, with the files as they were. Paths are compared as files,
so a symlink or a hard link to the run file is the run file.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import assert_one_line_error, exe

Cli = Callable[..., subprocess.CompletedProcess[str]]
#: ``main_cli`` (tests/cli/conftest.py): refusals before any work checked in this process;
#: FIFOs, devices and other folders through the console script, with a timeout
MainCli = Cli
TINY = ["--searcher", "annealing", "--evals", "200", "--seed", "1", "--progress", "none"]


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # a short timeout: a FIFO that blocks open() fails the test, not the suite
    return subprocess.run([exe(), *args], capture_output=True, text=True, env=env, timeout=300)


def refused(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert_one_line_error(result, *needles)
    assert result.returncode == 2, result.stderr  # a bad argument, as the parser's own
    assert result.stdout == "", "refused before any work"


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


def test_run_report_onto_its_own_run_file_is_refused(main_cli: MainCli, tmp_path: Path) -> None:
    out = tmp_path / "x.jsonl"
    refused(main_cli("run", *TINY, "--out", str(out), "--report", str(out)),
            "--report", "same file as --out")
    assert not out.exists(), "nothing was run"


def test_resume_report_onto_its_run_file_is_refused(main_cli: MainCli, saved: Path) -> None:
    before = saved.read_bytes()
    refused(main_cli("run", "--resume", str(saved), "--evals", "100", "--report", str(saved)),
            "--report", "same file as --resume")
    assert saved.read_bytes() == before


@pytest.mark.parametrize("how", ["same-path", "symlink", "hard-link", "relative"])
def test_report_onto_its_own_run_file_is_refused(main_cli: MainCli, saved: Path, how: str) -> None:
    before = saved.read_bytes()
    out = saved
    if how == "symlink":
        out = saved.with_name("page.html")
        out.symlink_to(saved.name)
    elif how == "hard-link":
        out = saved.with_name("page.html")
        os.link(saved, out)
    elif how == "relative":
        out = saved.parent / "." / ".." / saved.parent.name / saved.name
    refused(main_cli("report", str(saved), "--out", str(out)), "--out", "same file as RUNFILE")
    refused(main_cli("merge", str(saved), "--out", str(out)), "--out", "same file as RUNFILE")
    assert saved.read_bytes() == before


def test_outputs_never_overwrite_another_run_file(main_cli: MainCli, saved: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.jsonl"
    other.write_bytes(saved.read_bytes())
    before = other.read_bytes()
    for args, option in [
        (["report", str(saved), "--out", str(other)], "--out"),
        (["run", *TINY, "--report", str(other)], "--report"),
        (["run", "--resume", str(saved), "--evals", "100", "--report", str(other)], "--report"),
        (["show", "abcd", "--size", "2x2", "--svg", str(other)], "--svg"),
        (["merge", str(saved), "--out", str(other)], "--out"),
        (["plan", "--size", "2x3", "--min-score", "100", "--sample", "2", "--sample-out", str(other)],
         "--sample-out"),
    ]:
        refused(main_cli(*args), option, repr(str(other)), "is a run file")
        assert other.read_bytes() == before


def test_a_compressed_run_file_is_a_run_file_too(main_cli: MainCli, saved: Path, tmp_path: Path) -> None:
    packed = tmp_path / "run.jsonl.gz"
    packed.write_bytes(gzip.compress(saved.read_bytes()))
    before = packed.read_bytes()
    refused(main_cli("report", str(saved), "--out", str(packed)), "--out", "is a run file")
    assert packed.read_bytes() == before


def test_an_output_onto_the_word_list_read_is_refused(main_cli: MainCli, tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("cat\nact\ntac\n")
    before = words.read_bytes()
    for args, option in [
        (["show", "cats", "--size", "2x2", "--wordlist", str(words), "--svg", str(words)], "--svg"),
        (["run", *TINY, "--wordlist", str(words), "--report", str(words)], "--report"),
        (["run", *TINY, "--wordlist", str(words), "--out", str(words)], "--out"),
    ]:
        refused(main_cli(*args), option, "same file as --wordlist")
        assert words.read_bytes() == before


def test_outputs_elsewhere_are_written(main_cli: MainCli, saved: Path, tmp_path: Path) -> None:
    """The checks refuse only what they must: a fresh page, a page written
    again, and a picture through a symlink (its target replaced, the link kept)."""
    page = tmp_path / "page.html"
    for _ in range(2):
        result = main_cli("report", str(saved), "--out", str(page))
        assert result.returncode == 0, result.stderr
        assert page.read_text().startswith("<!DOCTYPE html>") or "<html" in page.read_text()[:200]
    target = tmp_path / "real.svg"
    target.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(target.name)
    result = main_cli("show", "abcd", "--size", "2x2", "--svg", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and target.read_text().startswith("<svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.svg", "page.html", "real.svg", "run.jsonl"]


# -- FIFOs and devices ---------------------------------------------------------------


@pytest.fixture()
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("command", ["run-out", "run-resume", "report", "verify", "report-out", "show-svg",
                                     "run-report", "plan-sample-out"])
def test_a_fifo_is_refused_not_waited_on(cli_env: dict[str, str], saved: Path, fifo: Path, command: str) -> None:
    args = {
        "run-out": ["run", *TINY, "--out", str(fifo)],
        "run-resume": ["run", "--resume", str(fifo)],
        "report": ["report", str(fifo), "--out", str(saved.with_name("page.html"))],
        "verify": ["verify", str(fifo)],
        "report-out": ["report", str(saved), "--out", str(fifo)],
        "show-svg": ["show", "abcd", "--size", "2x2", "--svg", str(fifo)],
        "run-report": ["run", *TINY, "--report", str(fifo)],
        "plan-sample-out": ["plan", "--size", "2x3", "--min-score", "100", "--sample", "2",
                            "--sample-out", str(fifo)],
    }[command]
    refused(cli(cli_env, *args), repr(str(fifo)), "is a FIFO, not a regular file")


@pytest.mark.parametrize("path", ["/dev/null", "DIR"])
def test_a_device_or_a_folder_is_no_run_file(cli_env: dict[str, str], tmp_path: Path, path: str) -> None:
    if path == "DIR":
        path = str(tmp_path)
    for args in (["run", *TINY, "--out", path], ["run", "--resume", path], ["verify", path],
                 ["report", path, "--out", str(tmp_path / "page.html")]):
        refused(cli(cli_env, *args), repr(path), "not a regular file")


def test_a_run_file_through_a_symlink_to_nothing_is_refused(main_cli: MainCli, cli_env: dict[str, str],
                                                            tmp_path: Path) -> None:
    """Issue 76, defect 6: ``run --out`` through a dangling symlink made the
    link's target elsewhere; it is refused as ``merge --out`` and ``report
    --out`` refuse it, and so is ``search(out=...)``."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = tmp_path / "run.jsonl"
    link.symlink_to(elsewhere / "made.jsonl")
    refused(main_cli("run", *TINY, "--out", str(link)), "--out", repr(str(link)), "symlink to nothing")
    script = ("import sys, boggle_opt\n"
              "try:\n"
              "    boggle_opt.search('annealing', size='2x2', evals=50, seed=1, out=sys.argv[1])\n"
              "except boggle_opt.BoggleOptError as exc:\n"
              "    print(exc)\n")
    # from the test's folder: run from the checkout, `-c` would import its source, not the installed package
    done = subprocess.run([sys.executable, "-c", script, str(link)], capture_output=True, text=True, env=cli_env,
                          timeout=300, cwd=tmp_path)
    assert "symlink to nothing" in done.stdout, done.stdout + done.stderr
    assert list(elsewhere.iterdir()) == [] and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "run.jsonl"]


# -- a word list given or recorded by name (issue 76, defect 3) ----------------------


def _in(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe(), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


@pytest.mark.parametrize("how", ["named", "system", "relative"])
def test_an_output_onto_a_word_list_read_by_name_is_refused(cli_env: dict[str, str], tmp_path: Path,
                                                            how: str) -> None:
    """A word list named on the command line (or in the run file) is the file
    that name reads: ``$BOGGLE_OPT_WORDLISTS/enable2k.txt``, the system
    folder's ``dutch``, or a relative path the run read from its own folder.
    No output may replace it, by its own path or a hard link to it."""
    env = dict(cli_env)
    folder = tmp_path / "lists"
    folder.mkdir()
    work = tmp_path / "work"
    work.mkdir()
    if how == "named":
        env["BOGGLE_OPT_WORDLISTS"] = str(folder)
        words, spec = folder / "enable2k.txt", "enable2k"
    elif how == "system":
        env["BOGGLE_OPT_DICT_DIR"] = str(folder)
        words, spec = folder / "dutch", "dutch"
    else:
        words, spec = work / "words.txt", "words.txt"
    words.write_text("cat\nact\ntac\ntab\nbat\n")
    before = words.read_bytes()
    run = ["run", *TINY, "--size", "2x2", "--wordlist", spec]
    made = _in(env, work, *run, "--out", "n.jsonl")
    assert made.returncode == 0, made.stderr
    linked = tmp_path / "linked.txt"
    os.link(words, linked)
    elsewhere = tmp_path / "elsewhere"  # a relative list's run reported from another folder
    elsewhere.mkdir()
    refused(_in(env, elsewhere, "report", str(work / "n.jsonl"), "--out", str(words)), "--out",
            "the word list of")
    refused(_in(env, work, "run", "--resume", "n.jsonl", "--evals", "100", "--report", str(linked)), "--report",
            "the word list of --resume")
    if how == "named":  # (a relative list given here is a path, refused before)
        refused(_in(env, work, "show", "abcd", "--size", "2x2", "--wordlist", spec, "--svg", str(linked)), "--svg",
                f"--wordlist {spec}")
    assert words.read_bytes() == before
