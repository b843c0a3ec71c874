"""Bad input through ``boggle-opt``'s entry point: ``main`` in this process
(``main_cli``, tests/cli/conftest.py) for what it says of its arguments, boards
and word lists; the console script in a process of its own (``run_cli``)
where a process matters (standard input, a timeout, a list that never ends)
and for one board error with the default list.

Every case must end with a non-zero exit code and exactly one line on stderr,
``boggle-opt: error: ...``, that names the problem; never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from helpers import assert_one_line_error, exe


@pytest.fixture(scope="module")
def tiny_list(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A small word list so that board errors don't wait for a big list to load."""
    path = tmp_path_factory.mktemp("lists") / "tiny.txt"
    path.write_text("cat\nact\ntac\n", encoding="ascii")
    return str(path)


# -- boards --------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, needles",
    [
        (["abcd", "--size", "3x3"], ["'abcd'", "4 letters", "3x3", "9"]),
        (["abcdefghijk", "--size", "3x4"], ["11 letters", "3x4", "12"]),
        (["abc1"], ["'1'", "not a letter"]),
        (["abcd efgh"], ["' '", "not a letter"]),
        (["abc\u00e9"], ["'\u00e9'", "not a letter"]),
        (["abc-"], ["'-'"]),
        (["\u0430bcd"], ["'\u0430'"]),  # Cyrillic a
        ([""], ["empty board"]),
        (["   "], ["empty board"]),
        (["abcde"], ["5-letter", "--size"]),
        (["abcdefghijklmnopq"], ["17-letter", "--size"]),
        (["a" * 81], ["81-letter"]),  # 9x9 is square but too big
    ],
    ids=[
        "length-vs-size", "length-vs-rect", "digit", "space", "accent", "dash", "cyrillic",
        "empty", "blank", "not-square", "not-square-17", "square-too-big",
    ],
)
def test_bad_board(main_cli, tiny_list, args, needles):
    assert_one_line_error(main_cli("score", *args, "--wordlist", tiny_list), *needles)


@pytest.mark.parametrize(
    "text, needles",
    [("abc def", ["class of 2 cells", "--size"]), ("", ["empty class"]), ("   ", ["empty class"])],
    ids=["two-sets", "empty", "blank"],
)
def test_bad_class_size(main_cli, tiny_list, text, needles):
    """A class is counted in cells (letter sets), not letters."""
    assert_one_line_error(main_cli("bound", text, "--wordlist", tiny_list), *needles)


@pytest.mark.parametrize("command", ["show", "dice"])
def test_an_empty_board_of_another_language_is_one_line(command, capsys):
    """As score says it, and as an English board's: not "a 0-letter board";
    a board whose tiles are not letters one for one is counted in tiles."""
    from boggle_opt.cli.app import main

    for language, board, said in (("german", "  ", "empty board"), ("dutch", "", "empty board"),
                                  ("dutch", "[ij]sbergenrtlaeet", "a 15-tile board")):
        assert main([command, "--language", language, board]) != 0
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err, err


def test_bad_board_with_embedded_list(run_cli):
    """The same errors with the default list (no --wordlist)."""
    assert_one_line_error(run_cli("score", "abc1"), "'1'")


@pytest.mark.parametrize(
    "size, needles",
    [
        ("9x9", ["impossible board size 9x9", "1 to 8"]),
        ("0x3", ["impossible board size 0x3"]),
        ("3x0", ["impossible board size 3x0"]),
        ("3x9", ["impossible board size 3x9"]),
        ("3", ["bad board size '3'", "CxR"]),
        ("axb", ["bad board size 'axb'"]),
        ("3x4x5", ["bad board size '3x4x5'"]),
        ("x4", ["bad board size 'x4'"]),
        ("-1x3", ["bad board size '-1x3'"]),
        ("\u00b2x2", ["bad board size '\u00b2x2'"]),  # superscript two: isdigit() but not int
    ],
    ids=["9x9", "0x3", "3x0", "3x9", "3", "axb", "3x4x5", "x4", "-1x3", "superscript"],
)
def test_bad_size(main_cli, tiny_list, size, needles):
    result = main_cli("score", "abcd", f"--size={size}", "--wordlist", tiny_list)
    assert_one_line_error(result, *needles)


def test_bad_board_on_stdin_after_good_ones(main_cli, tiny_list):
    result = main_cli("score", "-", "--size", "3x1", "--wordlist", tiny_list,
                     input="cat\n\nab1\ntac\n")
    assert_one_line_error(result, "'1'")
    rows = [ln for ln in result.stdout.splitlines() if not ln.startswith("#")]
    assert rows == ["cat\t2\t2"], "boards before the bad one are still reported"


def test_blank_stdin_is_no_boards_not_an_error(main_cli, tiny_list):
    """Decision: blank lines are ignored, so blank input is an empty list of boards.

    Like other filters, an empty input gives an empty result (header only) and
    exit code 0, so that pipelines that happen to produce no boards still work.
    """
    result = main_cli("score", "-", "--wordlist", tiny_list, input="\n  \n\t\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert all(ln.startswith("#") for ln in result.stdout.splitlines())
    result = main_cli("score", "-", "--json", "--wordlist", tiny_list, input="")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_stdin_not_utf8(cli_env, tiny_list):
    """Bytes that are not UTF-8, under a strict decoder (a usual desktop locale)."""
    env = dict(cli_env, PYTHONIOENCODING="utf-8:strict")
    result = subprocess.run(
        [exe(), "score", "-", "--wordlist", tiny_list],
        input=b"ab\xffc\n", capture_output=True, env=env, timeout=300,
    )
    assert_one_line_error(result, "not a letter")


def test_stdin_closed(cli_env, tiny_list):
    """``boggle-opt score - <&-``: there is no standard input at all."""
    result = subprocess.run(
        [exe(), "score", "-", "--wordlist", tiny_list],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, env=cli_env, timeout=300,
        preexec_fn=lambda: os.close(0),
    )
    assert_one_line_error(result, "standard input")


# -- rules and word lists --------------------------------------------------------


def test_unknown_rule(main_cli, tiny_list):
    result = main_cli("score", "abcd", "--rule", "scrabble", "--wordlist", tiny_list)
    assert_one_line_error(result, "'scrabble'", "pow2", "standard", "words")


def test_unknown_wordlist_name(main_cli):
    result = main_cli("score", "abcd", "--wordlist", "sowpods")
    assert_one_line_error(result, "'sowpods'", "embedded", "enable2k", "yawl")


def test_empty_wordlist_name(main_cli):
    assert_one_line_error(main_cli("score", "abcd", "--wordlist", ""), "word list")


def test_overlong_wordlist_name(main_cli):
    """A name too long for the file system is just an unknown name."""
    name = "w" * 300
    assert_one_line_error(main_cli("score", "abcd", "--wordlist", name), "unknown word list")


def test_missing_wordlist_path(main_cli, tmp_path):
    path = tmp_path / "nowhere" / "words.txt"
    line = assert_one_line_error(main_cli("score", "abcd", "--wordlist", str(path)), str(path))
    assert "No such file" in line


def test_directory_as_wordlist(main_cli, tmp_path):
    line = assert_one_line_error(main_cli("score", "abcd", "--wordlist", str(tmp_path)),
                                 str(tmp_path))
    assert "directory" in line


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="running as root: chmod 000 does not stop root reading the file",
)
def test_unreadable_wordlist(main_cli, tmp_path):
    path = tmp_path / "secret.txt"
    path.write_text("cat\n", encoding="ascii")
    path.chmod(0)
    try:
        line = assert_one_line_error(main_cli("score", "abcd", "--wordlist", str(path)), str(path))
        assert "Permission denied" in line
    finally:
        path.chmod(0o644)


def test_empty_wordlist_file(main_cli, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    assert_one_line_error(main_cli("score", "abcd", "--wordlist", str(path)),
                          str(path), "no usable words")


def test_wordlist_without_usable_words(main_cli, tmp_path):
    path = tmp_path / "short.txt"
    path.write_text("ab\nxy\nqi\n123\n1234\nqat\nfo'o\n\n", encoding="ascii")
    assert_one_line_error(main_cli("score", "abcd", "--wordlist", str(path)),
                          str(path), "no usable words")


@pytest.mark.parametrize("name", ["enable2k", "yawl"])
def test_research_list_missing(main_cli, cli_env, tmp_path, name):
    empty = tmp_path / "empty"
    empty.mkdir()
    env = dict(cli_env, BOGGLE_OPT_WORDLISTS=str(empty))
    result = main_cli("score", "abcd", "--wordlist", name, env=env)
    assert_one_line_error(result, f"'{name}'", str(empty), f"{name}.txt", "public domain",
                          "https://github.com/", "BOGGLE_OPT_WORDLISTS", "--wordlist PATH")


def test_research_list_env_unset(main_cli, cli_env):
    env = {k: v for k, v in cli_env.items() if k != "BOGGLE_OPT_WORDLISTS"}
    result = main_cli("score", "abcd", "--wordlist", "enable2k", env=env)
    assert_one_line_error(result, "BOGGLE_OPT_WORDLISTS is not set", "https://github.com/")


# -- the command line itself -------------------------------------------------------


@pytest.mark.parametrize(
    "args, needles",
    [
        (["frob"], ["'frob'", "score", "plugins"]),
        ([], ["required", "command"]),
        (["score"], ["required", "BOARD"]),
        (["score", "abcd", "--size"], ["--size", "expected one argument"]),
        (["score", "abcd", "--rule"], ["--rule"]),
        (["score", "abcd", "--bogus"], ["--bogus"]),
        (["--bogus", "plugins"], ["--bogus"]),
        (["plugins", "extra"], ["extra"]),
    ],
    ids=["unknown-command", "no-command", "no-board", "size-no-value", "rule-no-value",
         "unknown-option", "unknown-global-option", "plugins-extra-argument"],
)
def test_bad_command_line(main_cli, args, needles):
    assert_one_line_error(main_cli(*args), *needles)


# -- numbers, times and word lists at their limits ----------------------------------


@pytest.mark.parametrize(
    "args, needles",
    [
        (["run", "--searcher", "bnb", "--size", "3x3", "-o", "min-score", "9" * 23],
         ["'min-score'", "out of range"]),
        (["plan", "--size", "3x3", "--min-score", "9" * 23], ["--min-score", "at most"]),
        (["bound", "aeiou " * 3 + "lnrst " * 6, "--size", "3x3", "--min-score", "9" * 23],
         ["--min-score", "at most"]),
        (["run", "--searcher", "annealing", "--seed", "-1"], ["--seed", ">= 0"]),
        (["run", "--searcher", "annealing", "--seed", "9" * 30], ["--seed", "at most"]),
        (["run", "--searcher", "annealing", "--time", "1e400"], ["--time", "finite"]),
        (["run", "--searcher", "annealing", "--evals", "9" * 23], ["--evals", "at most"]),
        (["run", "--searcher", "annealing", "--target", "9" * 23], ["--target", "at most"]),
        (["run", "--searcher", "bnb", "-o", "switch", "1e400"], ["'switch'", "finite"]),
        # found by the CLI fuzzing (test_fuzz.py): the kernel's i64 and numpy's arrays
        (["run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "40", "-o", "switch", "1e300"],
         ["'switch'", "at most"]),
        (["run", "--searcher", "hillclimb", "--size", "2x2", "-o", "pool-size", str(2**32)],
         ["'pool-size'", "at most"]),
        (["run", "--searcher", "genetic", "--size", "2x2", "-o", "population", str(2**63 - 1)],
         ["'population'", "at most"]),
        # spawned that many processes (or hung making their seeds), deaf to SIGTERM meanwhile
        (["run", "--searcher", "hillclimb", "--size", "2x2", "--jobs", str(2**63 - 1)], ["--jobs", "at most 256"]),
        # numpy's seeding gave a traceback (found by the CLI fuzzing)
        (["verify", "run.jsonl", "--seed", "-1"], ["--seed", ">= 0"]),
    ],
    ids=["option-too-big", "plan-min-score-too-big", "bound-min-score-too-big", "negative-seed",
         "seed-too-big", "infinite-time", "evals-too-big", "target-too-big", "infinite-option",
         "switch-too-big", "pool-too-big", "population-too-big", "jobs-too-many", "verify-negative-seed"],
)
def test_numbers_out_of_range(cli_env, args, needles):
    # a timeout: an infinite budget must not start a run that never ends
    result = subprocess.run([exe(), *args], capture_output=True, text=True, env=cli_env, timeout=300)
    assert_one_line_error(result, *needles)


def test_a_device_as_word_list_is_refused_at_once(cli_env):
    """``/dev/zero`` never ends: it is refused, not read until memory runs out."""
    result = subprocess.run([exe(), "score", "abcd", "--wordlist", "/dev/zero"],
                            capture_output=True, text=True, env=cli_env, timeout=300)
    assert_one_line_error(result, "/dev/zero", "not a file")


def test_a_word_list_past_the_size_limit_is_refused(run_cli, tmp_path):
    from boggle_opt.dictionary.wordlist import MAX_BYTES

    path = tmp_path / "huge.txt"
    with open(path, "wb") as f:
        f.truncate(MAX_BYTES + 1)  # sparse: no disk used
    assert_one_line_error(run_cli("score", "abcd", "--wordlist", str(path), "--no-cache"),
                          str(path), "larger than")


def test_a_word_list_from_a_pipe_is_refused_not_waited_on(run_cli, tmp_path):
    """A FIFO is refused in one line (issue 76, defect 4): with no writer,
    ``open()`` waited for ever, and a run file recording it could never be
    verified or resumed (its writer gone); a list is a regular file."""
    fifo = tmp_path / "words"
    os.mkfifo(fifo)
    result = run_cli("score", "cat", "--size", "3x1", "--wordlist", str(fifo), "--no-cache")
    assert_one_line_error(result, repr(str(fifo)), "is a FIFO, not a file")


def test_a_byte_order_mark_is_not_part_of_the_first_word(main_cli, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfcat\r\nact\r\n")  # as a Windows editor saves it
    result = main_cli("score", "cat", "--size", "3x1", "--wordlist", str(path), "--no-cache")
    assert result.returncode == 0, result.stderr
    assert "(2 words)" in result.stdout and "cat\t1\t1" in result.stdout


@pytest.mark.parametrize("where", ["class-boards", "finish-best"])
def test_report_on_boards_that_are_an_object(main_cli, tmp_path, where):
    start = {"type": "start", "settings": {"searcher": "bnb", "size": "2x2"}}
    if where == "class-boards":
        record = {"type": "checkpoint", "record": {"kind": "bnb", "size": "2x2", "buckets": "a-z",
                                                   "min_score": 1, "class": "0000", "boards": {"a": 1}}}
        record["record"]["buckets"] = "abcdefghijklmnopqrstuvwxyz"
    else:
        record = {"type": "finish", "stop_reason": "x", "best": {"board": "abcd"}}
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(start) + "\n" + json.dumps(record) + "\n")
    assert_one_line_error(main_cli("report", str(path), "--out", str(tmp_path / "r.html")), "line 2"
                          if where == "class-boards" else "malformed")


@pytest.mark.parametrize("options", [[1, 2], "min-score=3", 7])
def test_report_of_settings_whose_options_are_no_object_is_one_line(main_cli, tmp_path, options):
    """Issue 76, defect 5: ``report`` checks the settings as ``verify`` and
    ``--resume`` do (it printed an AttributeError traceback)."""
    start = {"type": "start", "settings": {"searcher": "bnb", "size": "2x2", "options": options}}
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(start) + "\n")
    out = tmp_path / "r.html"
    assert_one_line_error(main_cli("report", str(path), "--out", str(out)), "'options' is not an object")
    assert not out.exists()
