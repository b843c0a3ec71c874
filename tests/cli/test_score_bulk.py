"""Bulk scoring through the real command line: the streamed output equals per-board analysis."""

from __future__ import annotations

import json
import subprocess
import threading

import numpy as np
import pytest

from boggle_opt.analysis import analyse
from boggle_opt.boards import make_geometry
from helpers import exe


def random_boards(count: int, cells: int, seed: int, weighted: bool) -> list[str]:
    rng = np.random.default_rng(seed)
    # letter-frequency-like weights make boards with many long words
    weights = np.array([8, 2, 3, 4, 12, 2, 3, 6, 7, 1, 1, 4, 3, 7, 8, 2, 1, 6, 6, 9, 3, 1, 2, 1, 2, 1.0])
    p = weights / weights.sum() if weighted else None
    codes = rng.choice(26, size=(count, cells), p=p).astype(np.uint8) + ord("a")
    return [row.tobytes().decode("ascii") for row in codes]


def rows(stdout: str) -> list[str]:
    return [ln for ln in stdout.splitlines() if ln and not ln.startswith("#")]


def test_bulk_equals_per_board_analysis(run_cli, dictionary):
    """4,000 boards (uniform and letter-weighted, some upper case, blank lines
    between) streamed on stdin give exactly what analysing each board gives."""
    d = dictionary("enable2k", "standard")
    boards = random_boards(2000, 16, 1, False) + random_boards(2000, 16, 2, True)
    text = "".join(f"{b.upper() if i % 7 == 0 else b}\n" + ("\n" if i % 11 == 0 else "")
                   for i, b in enumerate(boards))
    result = run_cli("score", "--wordlist", "enable2k", "-", input=text)
    assert result.returncode == 0, result.stderr
    scorer = d.scorer(make_geometry(4, 4))
    expected = [f"{b}\t{scorer.score(b)}\t{len(scorer.words(b))}" for b in boards]
    assert rows(result.stdout) == expected


def test_bulk_multi_json_and_rectangles(run_cli, dictionary):
    """--multi and --json on a stream of 3x4 boards: every figure as analyse() has it."""
    d = dictionary("enable2k", "standard")
    boards = random_boards(150, 12, 3, True)
    result = run_cli("score", "--wordlist", "enable2k", "--size", "3x4", "--multi", "--json", "-",
                     input="\n".join(boards) + "\n")
    assert result.returncode == 0, result.stderr
    records = [json.loads(ln) for ln in result.stdout.splitlines()]
    assert len(records) == len(boards)
    for record, board in zip(records, boards):
        report = analyse(d, board, "3x4")
        assert (record["board"], record["size"], record["score"], record["words"]) == (
            board, "3x4", report.score, len(report.words))
        assert (record["multi"], record["demulti"]) == (report.multi, report.demulti)


def test_json_without_multi_leaves_multi_out(run_cli, tmp_path):
    path = tmp_path / "tiny.txt"
    path.write_text("cat\nact\n")
    (line,) = run_cli("score", "cat", "--size", "3x1", "--wordlist", str(path), "--json"
                      ).stdout.splitlines()
    assert json.loads(line) == {"board": "cat", "size": "3x1", "score": 1, "words": 1,
                                "tiles": ["c", "a", "t"], "canonical": "cat", "rule": "standard", "min_letters": 3,
                                "wordlist": {"name": str(path), "words": 2}, "language": "english"}


@pytest.mark.parametrize("options", [[], ["--words"]])
def test_a_bad_line_of_standard_input_is_named_by_its_number(run_cli, options):
    """A file of boards with one bad line: the boards before it are scored and
    the error says which line (blank lines count: they are lines of the file)."""
    text = "perslatgsineters\n\nsereiaeslps\n" if not options else "abcdefghi\n\nab1defghi\n"
    r = run_cli("score", "-", *options, input=text)
    assert r.returncode == 1 and r.stderr.startswith("boggle-opt: error: standard input, line 3: "), r.stderr
    boards = [ln for ln in rows(r.stdout) if not ln.startswith(" ")]  # --words lists words indented
    assert r.stderr.count("\n") == 1 and len(boards) == 1, r.stdout + r.stderr
    if not options:  # once: --words does not change how lines are counted
        big = "perslatgsineters\n" * 20_000 + "zz\n"  # 340 kB: five 64 kB chunks and more
        r = run_cli("score", "-", input=big)
        assert "standard input, line 20,001: cannot infer the size" in r.stderr, r.stderr


def test_stream_answers_each_board_as_it_arrives(cli_env, tmp_path):
    """A program that writes one board and waits for its line gets it at once
    (the reader does not wait for a full buffer or the end of input)."""
    path = tmp_path / "tiny.txt"
    path.write_text("cat\nact\ntac\n")
    proc = subprocess.Popen(
        [exe(), "score", "--size", "3x1", "--wordlist", str(path), "-"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=cli_env,
    )
    assert proc.stdin and proc.stdout
    # a line that never comes fails the test instead of hanging it: the
    # process is killed, so the read ends
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        assert proc.stdout.readline().startswith("# word list")
        proc.stdout.readline()
        for board, expected in [("cat", "cat\t2\t2"), ("dog", "dog\t0\t0"), ("TAC", "tac\t2\t2")]:
            proc.stdin.write(board + "\n")
            proc.stdin.flush()
            assert proc.stdout.readline().rstrip("\n") == expected
        proc.stdin.close()
        assert proc.wait(timeout=300) == 0
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("size", ["4x4", "5x5"])
def test_score_count_matches_words(dictionary, size):
    """The counting search agrees with the word list it replaces, on the scorer itself."""
    d = dictionary("enable2k", "standard")
    geometry = make_geometry(*map(int, size.split("x")))
    scorer = d.scorer(geometry)
    for board in random_boards(300, geometry.n, 4, True):
        assert scorer.score_count(board) == (scorer.score(board), len(scorer.words(board)))
