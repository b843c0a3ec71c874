"""Messages that were unclear, or tracebacks, through the real ``boggle-opt``
entry point: a plugin that raises, exits or is interrupted is named in one
line; a huge bad board is echoed cut short; a searcher's refusal is said once;
a standard output that cannot be written (a full disk, a closed pipe) is one
line, after the run file has its finish record."""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from helpers import SMALL, assert_one_line_error, exe, records

#: a plugin file registering the word list ``odd``, whose loader does ``{action}``
#: (at import, in the hook or in the loader), and the searcher ``odd`` whose
#: search does it after its first board
PLUGIN = """
    import sys
    from dataclasses import dataclass

    from boggle_opt import hookimpl
    from boggle_opt.dictionary.wordlist import WordListSource
    from boggle_opt.searching.interface import Improved, SearcherBase

    WHEN = {when!r}


    def act():
        {action}


    if WHEN == "import":
        act()


    def load():
        if WHEN == "load":
            act()
        return ["tea", "eat", "ate", "seat"]


    class Odd(SearcherBase):
        \"\"\"Scores one board, then acts.\"\"\"

        name = "odd"

        @dataclass(frozen=True)
        class Options:
            pass

        def search(self, problem, rng):
            board = "e" * problem.n_cells
            yield Improved(board, problem.score(board))
            act()


    @hookimpl
    def register_wordlists(register):
        if WHEN == "hook":
            act()
        register(WordListSource("odd", "a list that acts up", load))


    @hookimpl
    def register_searchers(register):
        register(Odd)
"""

ACTIONS = {
    "raises": 'raise RuntimeError("disk on fire\\nand more")',
    "exits": "sys.exit(3)",
    "interrupted": "raise KeyboardInterrupt",
}


def plugin(tmp_path: Path, action: str, when: str) -> Path:
    path = tmp_path / f"odd_{action}.py"
    path.write_text(textwrap.dedent(PLUGIN.format(action=ACTIONS[action], when=when)), encoding="utf-8")
    return path


def score_with(path: Path, cli_env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([exe(), "score", "--plugin", str(path), "--wordlist", "odd", "abcd"],
                          capture_output=True, text=True, env=cli_env, timeout=300)


def test_a_word_list_loader_that_raises_is_one_line(tmp_path: Path, cli_env: dict[str, str]) -> None:
    path = plugin(tmp_path, "raises", "load")
    assert_one_line_error(score_with(path, cli_env), "plugin 'odd_raises' (local file)", "word list 'odd'",
                          "RuntimeError: disk on fire and more")
    r = subprocess.run([exe(), "run", "--plugin", str(path), "--wordlist", "odd", *SMALL, "--evals", "100",
                        "--progress", "none"], capture_output=True, text=True, env=cli_env, timeout=300)
    assert_one_line_error(r, "plugin 'odd_raises' (local file)", "RuntimeError: disk on fire")


@pytest.mark.parametrize("when", ["import", "hook", "load"])
def test_a_plugin_that_calls_sys_exit_is_named(when: str, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """It used to end the command with status 3 and not a word."""
    r = score_with(plugin(tmp_path, "exits", when), cli_env)
    assert_one_line_error(r, "odd_exits", "sys.exit(3)")
    assert r.returncode == 1


def test_a_searcher_that_calls_sys_exit_is_named(tmp_path: Path, cli_env: dict[str, str]) -> None:
    out = tmp_path / "run.jsonl"
    r = subprocess.run([exe(), "run", "--plugin", str(plugin(tmp_path, "exits", "search")), "--searcher", "odd",
                        "--size", "2x2", "--progress", "none", "--out", str(out)],
                       capture_output=True, text=True, env=cli_env, timeout=300)
    assert_one_line_error(r, "plugin 'odd_exits' (local file) called sys.exit(3)")
    (finish,) = [rec for rec in records(out) if rec["type"] == "finish"]
    assert "sys.exit(3)" in finish["stop_reason"]


def test_an_interrupt_inside_a_plugin_says_interrupted(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """It printed ``boggle-opt: `` and nothing more."""
    r = score_with(plugin(tmp_path, "interrupted", "load"), cli_env)
    assert "Traceback" not in r.stderr
    assert r.stderr == "boggle-opt: interrupted\n" and r.returncode == 130


@pytest.mark.parametrize("progress", ["plain", "none"])
def test_a_searcher_refusing_its_options_is_said_once(progress: str, cli_env: dict[str, str]) -> None:
    """``stopped: <the error>`` came before the error itself."""
    r = subprocess.run([exe(), "run", "--searcher", "longword", "--size", "2x2", "-o", "length", "99",
                        "--progress", progress], capture_output=True, text=True, env=cli_env, timeout=300)
    assert_one_line_error(r, "-o length 99 does not fit a 2x2 board")
    assert r.stdout == ""


def test_a_huge_bad_board_is_echoed_cut_short(cli_env: dict[str, str]) -> None:
    """A 2 MB line of NULs came back as an 8 MB error line."""
    r = subprocess.run([exe(), "score", "-"], input=b"\0" * 2_000_000 + b"\n", capture_output=True,
                       env=cli_env, timeout=300)
    line = assert_one_line_error(r, "bad board", "\\x00")
    assert len(line) < 200, line[:300]
    # a long line of letters, and one for the wrong --size, alike
    for args in (["a" * 5000 + "1"], ["a" * 5000, "--size", "4x4"]):
        r = subprocess.run([exe(), "score", *args], capture_output=True, env=cli_env, timeout=300)
        assert len(assert_one_line_error(r, "bad board", "5,0")) < 200


def one_line_error(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """``assert_one_line_error`` for a command whose stdout was not captured."""
    return assert_one_line_error(subprocess.CompletedProcess(result.args, result.returncode, "", result.stderr),
                                 *needles)


def test_a_full_disk_on_stdout_is_one_line_and_the_run_file_is_whole(
    tmp_path: Path, cli_env: dict[str, str]
) -> None:
    out = tmp_path / "run.jsonl"
    with open("/dev/full", "w") as full:
        r = subprocess.run([exe(), "run", *SMALL, "--evals", "300", "--progress", "none", "--out", str(out)],
                           stdout=full, stderr=subprocess.PIPE, text=True, env=cli_env, timeout=300)
    one_line_error(r, "cannot write to standard output: No space left on device", f"'{out}'")
    assert r.returncode == 1
    assert records(out)[-1]["type"] == "finish"
    with open("/dev/full", "w") as full:
        r = subprocess.run([exe(), "score", "abcd"], stdout=full, stderr=subprocess.PIPE, text=True, env=cli_env,
                           timeout=300)
    one_line_error(r, "cannot write to standard output: No space left on device")


def test_a_closed_stdout_pipe(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A run's results lost to a closed pipe are said (the run file keeps
    them); ``score | head`` ends quietly, with a shell's SIGPIPE status."""
    out = tmp_path / "run.jsonl"
    read, write = os.pipe()
    os.close(read)
    try:
        r = subprocess.run([exe(), "run", *SMALL, "--evals", "300", "--progress", "none", "--out", str(out)],
                           stdout=write, stderr=subprocess.PIPE, text=True, env=cli_env, timeout=300)
        one_line_error(r, "cannot write to standard output: Broken pipe", f"'{out}'")
        assert records(out)[-1]["type"] == "finish"
        r = subprocess.run([exe(), "score", "abcd"], stdout=write, stderr=subprocess.PIPE, text=True,
                           env=cli_env, timeout=300)
        assert (r.returncode, r.stderr) == (141, "")
    finally:
        os.close(write)
