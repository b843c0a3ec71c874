"""Every published figure in docs/reference.md, through the Python API."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.analysis import analyse
from boggle_opt.boards import geometry_for
from boggle_opt.dictionary.dictionary import Dictionary
from published import MULTI, PUBLISHED

REFERENCE = Path(__file__).resolve().parents[2] / "docs" / "reference.md"

DictFactory = Callable[[str, str], Dictionary]


@pytest.mark.parametrize(("size", "board", "wordlist", "rule", "score", "words"), PUBLISHED)
def test_published_board(
    dictionary: DictFactory, size: str, board: str, wordlist: str, rule: str, score: int, words: int
) -> None:
    d = dictionary(wordlist, rule)
    report = analyse(d, board, size)
    assert (report.score, len(report.words)) == (score, words)
    assert sum(w.points for w in report.words) == score
    # the hot path agrees with the reporting path, and on every symmetry
    scorer = d.scorer(geometry_for(board, size))
    for variant in scorer.geometry.variants(board):
        assert scorer.score(variant) == score


@pytest.mark.parametrize(("board", "score", "demulti", "multi"), MULTI)
def test_multi_boggle(
    dictionary: DictFactory, board: str, score: int, demulti: int, multi: int
) -> None:
    report = analyse(dictionary("enable2k", "standard"), board)
    assert (report.score, report.demulti, report.multi) == (score, demulti, multi)


def test_word_count_rule_alias(dictionary: DictFactory, registries: object) -> None:
    from boggle_opt.registry.loader import Registries

    assert isinstance(registries, Registries)
    assert registries.rules.get("word-count") is registries.rules.get("words")
    assert registries.rules.get("powers-of-two") is registries.rules.get("pow2")


def _table_rows(heading_row: str) -> list[tuple[object, ...]]:
    """The rows of the docs/reference.md table whose header is ``heading_row``."""
    lines = REFERENCE.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading_row) + 2  # skip the |---| line
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append(tuple(int(c) if re.fullmatch(r"\d+", c) else c for c in cells))
    return rows


def test_docs_reference_tables_are_the_tested_figures() -> None:
    assert _table_rows("| size | board | word list | rule | score | words |") == PUBLISHED
    assert _table_rows("| board | score | demulti | multi |") == MULTI
