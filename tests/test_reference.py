"""Every published figure in REFERENCE.md, through the Python API."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from boggle_opt.api import analyse, geometry_for
from boggle_opt.dictionary import Dictionary
from published import MULTI, PUBLISHED

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
    from boggle_opt.plugin_loader import Registries

    assert isinstance(registries, Registries)
    assert registries.rules.get("word-count") is registries.rules.get("words")
    assert registries.rules.get("powers-of-two") is registries.rules.get("pow2")
