"""The ``boggle-opt`` command line: what it prints, through ``main`` in this
process (``main_cli``) and, for the header, the listing and the version,
through the installed console script (``run_cli``). What a command imports
as it starts is checked in test_startup.py.

Published figures come from docs/reference.md ("Published boards" and the
Multi-Boggle table). Word counts in headers are checked against an
independent count of each list's playable words.
"""

from __future__ import annotations

import json
from collections.abc import Callable
import re
from importlib.metadata import version
from importlib.resources import files
from pathlib import Path

import pytest

import boggle_opt
from boggle_opt.boards import size_geometry
from boggle_opt.wordlists import system
from published import MULTI, PUBLISHED

STANDARD_POINTS = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}

PLAYABLE = re.compile(r"(?:[a-pr-z]|qu){1,}")


def playable_count(lines: list[str]) -> int:
    """Independent count of a list's distinct playable words."""
    words = {line.strip() for line in lines}
    return sum(1 for w in words if len(w) >= 3 and PLAYABLE.fullmatch(w))


def size_args(dims: str) -> list[str]:
    cols, rows = dims.split("x")
    return [] if cols == rows else ["--size", dims]


def ok(result):
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return result.stdout.splitlines()


def rows_of(lines: list[str]) -> list[list[str]]:
    """The board rows (not comments, not indented word lines), split on tabs."""
    return [ln.split("\t") for ln in lines if ln and not ln.startswith(("#", " "))]


@pytest.fixture(scope="module")
def list_sizes(research_list: Callable[[str], Path]) -> Callable[[str], int]:
    """``list_sizes(name)``: the playable words of the embedded or a research
    list (which the test must ask for)."""

    def size(name: str) -> int:
        if name == "embedded":
            text = files("kjxqz").joinpath("words.txt").read_text(encoding="ascii")
        else:
            text = research_list(name).read_text(encoding="utf-8")
        return playable_count(text.splitlines())

    return size


#: the CLI tests that read ENABLE2K by name
needs_enable2k = pytest.mark.research_lists("enable2k")


# -- published figures -------------------------------------------------------


@pytest.mark.parametrize(
    "dims, board, wordlist, rule, score, n_words",
    [pytest.param(*p, marks=pytest.mark.research_lists(p[2])) for p in PUBLISHED],
    ids=[f"{p[1]}-{p[2]}-{p[3]}" for p in PUBLISHED],
)
def test_published_board(main_cli, list_sizes, dims, board, wordlist, rule, score, n_words):
    lines = ok(main_cli("score", board, "--wordlist", wordlist, "--rule", rule, *size_args(dims)))
    assert lines[0] == f"# word list: {wordlist} ({list_sizes(wordlist):,} words); rule: {rule}; language: english"
    assert lines[1] == "# board\tscore\twords"
    assert rows_of(lines) == [[board, str(score), str(n_words)]]


@needs_enable2k
def test_multi_plain_columns(main_cli):
    boards = [m[0] for m in MULTI]
    lines = ok(main_cli("score", *boards, "--wordlist", "enable2k", "--multi"))
    assert lines[1] == "# board\tscore\twords\tdemulti\tmulti"
    rows = rows_of(lines)
    assert [r[0] for r in rows] == boards
    for row, (board, score, demulti, multi) in zip(rows, MULTI):
        assert len(row) == 5
        assert (int(row[1]), int(row[3]), int(row[4])) == (score, demulti, multi)
        assert int(row[1]) <= int(row[3]) <= int(row[4])
    # the word count of the published 4x4 board
    assert rows[1][2] == "1045"


@needs_enable2k
def test_multi_json(main_cli, list_sizes):
    boards = [m[0] for m in MULTI]
    result = main_cli("score", *boards, "--wordlist", "enable2k", "--json", "--multi")
    lines = ok(result)
    assert len(lines) == len(MULTI), "--json prints one object a line and no header"
    records = [json.loads(ln) for ln in lines]
    for record, (board, score, demulti, multi) in zip(records, MULTI):
        assert set(record) == {
            "board", "size", "score", "words", "multi", "demulti", "rule", "wordlist", "canonical",
            "tiles", "min_letters", "language",
        }
        assert record["board"] == board
        # each board's tiles, as they spell words: English's q is "qu"
        assert record["tiles"] == ["qu" if ch == "q" else ch for ch in board]
        assert record["size"] == "4x4"
        assert (record["score"], record["demulti"], record["multi"]) == (score, demulti, multi)
        assert record["rule"] == "standard"
        assert record["wordlist"] == {"name": "enable2k", "words": list_sizes("enable2k")}
    assert records[1]["words"] == 1045


@needs_enable2k
def test_json_size_of_rectangle(main_cli):
    (line,) = ok(main_cli("score", "perslatesind", "--size", "3x4", "--wordlist", "enable2k",
                         "--json"))
    record = json.loads(line)
    assert (record["size"], record["score"], record["words"]) == ("3x4", 1651, 600)


# -- headers -----------------------------------------------------------------


def test_header_for_embedded_default(run_cli, list_sizes):
    lines = ok(run_cli("score", "streaedlp"))
    assert list_sizes("embedded") > 100_000
    assert lines[0] == f"# word list: embedded ({list_sizes('embedded'):,} words); rule: standard; language: english"
    (row,) = rows_of(lines)
    assert row[0] == "streaedlp" and int(row[1]) > 0 and int(row[2]) > 0


def test_default_alias_is_the_embedded_list(main_cli):
    implicit = ok(main_cli("score", "streaedlp"))
    explicit = ok(main_cli("score", "streaedlp", "--wordlist", "default"))
    named = ok(main_cli("score", "streaedlp", "--wordlist", "embedded"))
    former = ok(main_cli("score", "streaedlp", "--wordlist", "kjxqz"))  # its name before
    assert implicit == explicit == named == former


# -- words and paths ---------------------------------------------------------


def check_word_lines(lines: list[str], board: str, cols: int, rows: int, rule: str) -> None:
    (row,) = rows_of(lines)
    assert row[0] == board
    found = [ln for ln in lines if ln.startswith("  ")]
    assert len(found) == int(row[2]) > 0
    words = []
    total = 0
    for ln in found:
        word, points, path_text = ln.strip().split("\t")
        path = [int(c) for c in path_text.split("-")]
        assert len(set(path)) == len(path), f"{word}: a cell used twice in {path}"
        assert all(0 <= c < cols * rows for c in path)
        for a, b in zip(path, path[1:]):
            ax, ay = divmod(a, rows)  # column-major: cell = x * rows + y
            bx, by = divmod(b, rows)
            assert max(abs(ax - bx), abs(ay - by)) == 1, f"{word}: {a}-{b} not adjacent"
        spelled = "".join("qu" if board[c] == "q" else board[c] for c in path)
        assert spelled == word
        length = len(word)
        expected = {
            "standard": STANDARD_POINTS.get(length, 11),
            "pow2": 2 ** (length - 3),
            "words": 1,
        }[rule]
        assert int(points) == expected, word
        total += int(points)
        words.append(word)
    assert len(set(words)) == len(words), "each distinct word once"
    assert total == int(row[1])


@needs_enable2k
def test_words_paths_on_rectangle(main_cli):
    board = "perslatesind"
    lines = ok(main_cli("score", board, "--size", "3x4", "--wordlist", "enable2k", "--words"))
    check_word_lines(lines, board, 3, 4, "standard")
    # a word that only exists going down a column then across (column-major)
    assert any(ln.strip().startswith("pert\t") for ln in lines)


@needs_enable2k
def test_words_paths_with_qu_cell(main_cli):
    board = "rpqaselinifcoita"
    lines = ok(main_cli("score", board, "--wordlist", "enable2k", "--rule", "pow2", "--words"))
    check_word_lines(lines, board, 4, 4, "pow2")
    assert any("qu" in ln.split("\t")[0] for ln in lines if ln.startswith("  "))


@needs_enable2k
def test_words_paths_on_wide_rectangle(main_cli):
    # 4 columns of 3 rows: the transpose layout of the test above
    board = "pelrstasiend"
    lines = ok(main_cli("score", board, "--size", "4x3", "--wordlist", "enable2k", "--words"))
    check_word_lines(lines, board, 4, 3, "standard")


# -- stdin, aliases ----------------------------------------------------------


@needs_enable2k
def test_boards_from_stdin(main_cli):
    text = "\nstreaedlp\n\n   \n  perslatgsineters  \r\n\n"
    lines = ok(main_cli("score", "serglanepitssero", "-", "--wordlist", "enable2k", input=text))
    assert rows_of(lines) == [
        ["serglanepitssero", "3569", "1158"],
        ["streaedlp", "545", "267"],
        ["perslatgsineters", "3625", "1045"],
    ]


@needs_enable2k
def test_stdin_uppercase_is_lowered(main_cli):
    lines = ok(main_cli("score", "-", "--wordlist", "enable2k", input="STREAEDLP\n"))
    assert rows_of(lines) == [["streaedlp", "545", "267"]]


@needs_enable2k
@pytest.mark.parametrize(
    "alias, name, board, score, n_words",
    [
        ("word-count", "words", "serglanepitssero", 1158, 1158),
        ("powers-of-two", "pow2", "rpqaselinifcoita", 44726, 229),
    ],
)
def test_rule_aliases(main_cli, alias, name, board, score, n_words):
    lines = ok(main_cli("score", board, "--wordlist", "enable2k", "--rule", alias))
    assert lines[0].endswith(f"; rule: {name}; language: english")
    assert rows_of(lines) == [[board, str(score), str(n_words)]]


# -- plugins, version --------------------------------------------------------


def test_plugins_lists_builtins(run_cli):
    lines = ok(run_cli("plugins"))
    sections: dict[str, list[str]] = {}
    current = None
    for ln in lines:
        if not ln.startswith(" "):
            current = ln.rstrip(":")
            sections[current] = []
        elif len(ln) - len(ln.lstrip()) == 27 and sections[current]:  # an entry's text, wrapped to 80 columns
            sections[current][-1] += " " + ln.strip()
        else:
            sections[current].append(ln.strip())
    assert {"scoring rules", "word lists"} <= set(sections)
    tag = f"[boggle-opt {version('boggle-opt')}]"

    def names(section: str) -> dict[str, str]:
        return {ln.split()[0]: ln for ln in sections[section] if ln.endswith(tag)}

    rules = names("scoring rules")
    assert set(rules) == {"standard", "words", "pow2", "big"}
    assert "(powers-of-two)" in rules["pow2"]
    assert "(word-count)" in rules["words"]
    lists = names("word lists")
    # the research lists, the embedded one and the system's (/usr/share/dict)
    assert set(lists) == {"enable2k", "yawl", "embedded", *(entry.name for entry in system.LISTS)}
    assert "(default, kjxqz)" in lists["embedded"]


def test_version(run_cli):
    result = run_cli("--version")
    assert result.returncode == 0, result.stderr
    core = "compiled with mypyc" if boggle_opt.COMPILED else "pure Python"
    other = "pure Python" if boggle_opt.COMPILED else "compiled with mypyc"
    assert result.stdout.strip() == f"boggle-opt {boggle_opt.__version__} (core: {core})"
    assert other not in result.stdout
    assert boggle_opt.__version__ == version("boggle-opt")


# -- a word list from a file -------------------------------------------------


def test_wordlist_path(main_cli, tmp_path):
    path = tmp_path / "mine.txt"
    # 'bta' and 'zqu' are made up: only this file can supply them
    path.write_text("cat\nact\nTAC\n  bta \nat\ntac\nzqu\n", encoding="ascii")
    lines = ok(main_cli("score", "catb", "--size", "2x2", "--wordlist", str(path), "--words"))
    assert lines[0] == f"# word list: {path} (5 words); rule: standard; language: english"
    (row,) = rows_of(lines)
    assert row == ["catb", "4", "4"]
    found = sorted(ln.split("\t")[0].strip() for ln in lines if ln.startswith("  "))
    assert found == ["act", "bta", "cat", "tac"]


def test_wordlist_path_respects_adjacency(main_cli, tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("cat\nact\ntac\n", encoding="ascii")
    # a 3x1 line: c-a-t; "act" needs c next to t, which it is not
    lines = ok(main_cli("score", "cat", "--size", "3x1", "--wordlist", str(path), "--words"))
    assert rows_of(lines) == [["cat", "2", "2"]]
    found = sorted(ln.split("\t")[0].strip() for ln in lines if ln.startswith("  "))
    assert found == ["cat", "tac"]


# -- boards as published -------------------------------------------------------


def test_score_and_show_name_the_canonical_form(main_cli):
    # the published 3x3 board as people know it, and as results list it
    lines = ok(main_cli("score", "streaedlp", "deslatper"))
    assert "# streaedlp is deslatper rotated or reflected (its canonical form)" in lines
    assert not any(line.startswith("# deslatper is") for line in lines)  # already canonical
    record = json.loads(ok(main_cli("score", "--json", "streaedlp"))[0])
    assert record["canonical"] == "deslatper"
    shown = main_cli("show", "streaedlp", "--top", "0")
    assert shown.returncode == 0, shown.stderr
    assert "canonical form: deslatper" in shown.stdout
    again = main_cli("show", "deslatper", "--top", "0")
    assert again.stdout.rstrip().endswith("\nin canonical form")


def test_run_results_say_boards_are_canonical(run_cli):
    result = run_cli("run", "--searcher", "hillclimb", "--size", "3x3", "--evals", "3000",
                     "--seed", "2", "--progress", "none")
    assert result.returncode == 0, result.stderr
    assert "# boards in canonical form" in result.stdout
    ranked = [line.split("\t")[1] for line in result.stdout.splitlines() if line[:1].isdigit()]
    assert ranked and all(board == size_geometry("3x3").canonical(board) for board in ranked)
