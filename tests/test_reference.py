"""Every published figure in REFERENCE.md, through the Python API."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from boggle_opt.api import analyse, geometry_for
from boggle_opt.dictionary import Dictionary

PUBLISHED = [
    # size, board, word list, rule, score, words
    ("3x3", "streaedlp", "enable2k", "standard", 545, 267),
    ("3x4", "perslatesind", "enable2k", "standard", 1651, 600),
    ("4x4", "perslatgsineters", "enable2k", "standard", 3625, 1045),
    ("4x4", "serglanepitssero", "enable2k", "standard", 3569, 1158),
    ("4x4", "serglanepitssero", "enable2k", "words", 1158, 1158),
    ("4x4", "rpqaselinifcoita", "enable2k", "pow2", 44726, 229),
    ("4x4", "bestlatepirsseng", "yawl", "standard", 4540, 1351),
    ("5x5", "ligdrmanesietildsracsepes", "enable2k", "standard", 10406, 2344),
]

MULTI = [
    # board, score, demulti, multi (ENABLE2K, standard)
    ("eeesrvrreeesrsrs", 189, 13253, 21953),
    ("perslatgsineters", 3625, 4732, 4747),
]

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
