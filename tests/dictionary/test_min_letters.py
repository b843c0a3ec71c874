"""A minimum word length any rule takes (``--min-letters``, issue 78): the
rules' points for words shorter than their tables, the dictionary's words,
boards scored as an independent count does, and the cache keyed by it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from boggle_opt.boards import size_geometry
from boggle_opt.core.errors import BoggleOptError, PluginError
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.dictionary.rules import ScoringRule
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.registry.registries import Registries

#: made-up words of 1 to 5 letters (``qua``: 3 letters on 2 cells; ``qu``: 2 on one)
WORDS = ["a", "i", "at", "ta", "qu", "tea", "eat", "ate", "qua", "teat", "state", "aqua", "sat"]


def brute_score(board: str, cols: int, words: set[str], points: dict[str, int]) -> int:
    """Every path of cells (king moves, each cell once) whose letters (``q``:
    ``qu``) spell a word, each distinct word once: no trie, no tiles."""
    rows = len(board) // cols
    prefixes = {w[:i] for w in words for i in range(1, len(w) + 1)}
    found: set[str] = set()

    def walk(cell: int, text: str, used: int) -> None:
        text += "qu" if board[cell] == "q" else board[cell]
        if text not in prefixes:
            return
        if text in words:
            found.add(text)
        c, r = divmod(cell, rows)  # column-major
        for dc, dr in itertools.product((-1, 0, 1), repeat=2):
            cc, rr = c + dc, r + dr
            nxt = cc * rows + rr
            if (dc or dr) and 0 <= cc < cols and 0 <= rr < rows and not used >> nxt & 1:
                walk(nxt, text, used | 1 << nxt)

    for start in range(len(board)):
        walk(start, "", 1 << start)
    return sum(points[w] for w in found)


def test_each_rule_scores_words_shorter_than_its_table(registries: Registries) -> None:
    standard, big = registries.rules.get("standard"), registries.rules.get("big")
    words, pow2 = registries.rules.get("words"), registries.rules.get("pow2")
    # the table's first entry serves shorter words; pow2 never gives less than 1
    assert [standard.points("x" * n) for n in range(1, 9)] == [1, 1, 1, 1, 2, 3, 5, 11]
    assert [big.points("x" * n) for n in range(1, 9)] == [1, 1, 1, 1, 2, 3, 5, 11]
    assert [words.points("x" * n) for n in range(1, 5)] == [1, 1, 1, 1]
    assert [pow2.points("x" * n) for n in range(1, 7)] == [1, 1, 1, 2, 4, 8]
    # another minimum, the same points for the words both count
    two = standard.with_min_letters(2)
    assert (two.min_letters, two.name, standard.min_letters) == (2, "standard", 3)
    assert [two.points("x" * n) for n in range(2, 9)] == [1, 1, 1, 2, 3, 5, 11]
    assert standard.with_min_letters(None) is standard and standard.with_min_letters(3) is standard


@pytest.mark.parametrize("min_letters", [1, 2, 3, 4, 5])
def test_boards_score_as_brute_force_at_every_minimum(registries: Registries, min_letters: int) -> None:
    rule = registries.rules.get("standard")
    d = Dictionary("made-up", WORDS, rule, min_letters=min_letters)
    counted = {w for w in WORDS if len(w) >= min_letters}
    assert d.n_words == len(counted)
    points = {w: rule.points(w) for w in counted}
    scorer = d.scorer(size_geometry("2x3"))
    for board in ["ateqat", "qatesa", "aiteat", "tatsea", "sateta", "qqaaii"]:
        assert scorer.score(board) == brute_score(board, 2, counted, points), (board, min_letters)
        assert len(scorer.words(board)) == scorer.score_count(board)[1]
    # 2 letters: a and i are out, qu (one cell) and at are in
    if min_letters == 2:
        assert {w.word for w in scorer.words("qatxxx")} == {"qu", "qua", "at", "ta"}


def test_the_cache_keys_a_dictionary_by_its_minimum(registries: Registries, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A dictionary built at one minimum is never read back for another."""
    monkeypatch.setenv("BOGGLE_OPT_CACHE", str(tmp_path))
    monkeypatch.delenv("BOGGLE_OPT_NO_CACHE", raising=False)
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n", encoding="utf-8")
    counts = {}
    for letters in (2, None, 4, 2):
        d = load_dictionary(str(words), "standard", registries, cache=True, min_letters=letters)
        counts[letters] = d.n_words
        assert d.rule.min_letters == (3 if letters is None else letters)
    assert counts == {2: 11, None: 8, 4: 3}


def test_a_bad_minimum_or_a_rule_that_fails_on_short_words_is_one_line(registries: Registries) -> None:
    for bad in (0, -1):
        with pytest.raises(BoggleOptError, match="min letters must be a whole number >= 1"):
            load_dictionary("embedded", "standard", registries, cache=False, min_letters=bad)

    def strict(word: str) -> int:  # a plugin's rule that never expected 2 letters
        return [0, 0, 0, 1, 1, 2][len(word)] if len(word) >= 3 else 1 // 0

    rule = ScoringRule("strict", "3+ letters only", strict)
    assert Dictionary("t", ["tea", "at"], rule).n_words == 1
    with pytest.raises(PluginError, match="scoring rule 'strict' failed on the 2-letter word 'at'"):
        Dictionary("t", ["tea", "at"], rule, min_letters=2)
