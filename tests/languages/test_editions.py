"""Editions: the big rule, and a 5x5 board holding the Double Letter cube's
tiles scored as an independent count does."""

from __future__ import annotations

import random
from bisect import bisect_left

from boggle_opt.boards import size_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.dictionary.language import DOUBLE_LETTER_TILES, ENGLISH
from boggle_opt.dice_sets.double_letter import BIG_DL
from boggle_opt.languages.english_dl import ENGLISH_DL
from boggle_opt.registry.loader import Registries
from boggle_opt.scoring_rules.big import BIG


def test_big_rule() -> None:
    assert BIG.min_letters == 4
    assert [BIG.points("x" * n) for n in range(4, 12)] == [1, 2, 3, 5, 11, 11, 11, 11]
    d = Dictionary("t", ["cat", "cats", "scatter", "scattered"], BIG)
    assert d.n_words == 3  # "cat": 3 letters are no word under big
    scorer = d.scorer(size_geometry("3x3"))
    assert scorer.score("catxxxxxx") == 0
    assert scorer.score("catxsxxxx") == 1  # cats: 1 point


def brute_force(cells: list[str], cols: int, words: set[str], points: dict[str, int],
                ordered: list[str]) -> int:
    """Every path of cells (king moves, each cell once) whose letters spell a
    word, each distinct word counted once: independent of the trie and tilings.
    ``ordered``: ``words`` sorted, built once; a text begins some word when
    the first word not before it does (a set of every prefix took seconds)."""
    rows = len(cells) // cols
    found: set[str] = set()

    def walk(cell: int, text: str, used: int) -> None:
        text += cells[cell]
        at = bisect_left(ordered, text)
        if at == len(ordered) or not ordered[at].startswith(text):
            return
        if text in words:
            found.add(text)
        r, c = divmod(cell, cols)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                nxt = rr * cols + cc
                if (dr or dc) and 0 <= rr < rows and 0 <= cc < cols and not used >> nxt & 1:
                    walk(nxt, text, used | 1 << nxt)

    for start in range(len(cells)):
        walk(start, "", 1 << start)
    return sum(points[w] for w in found)


def test_double_letter_board_scores_as_brute_force(registries: Registries) -> None:
    rule = registries.rules.get("standard")
    lines = registries.wordlists.get("embedded").load()
    d = Dictionary("embedded", lines, rule, language=ENGLISH_DL)
    # English's reading of the list (one way to spell each word, no tilings):
    # the same words, read without the code under test, and a second faster
    words = set(ENGLISH.words(lines))
    assert len(words) == d.n_words
    points = {w: rule.points(w) for w in words}
    ordered = sorted(words)  # once for every board
    scorer = d.scorer(size_geometry("5x5"))
    alphabet = DOUBLE_LETTER_TILES
    boards = [alphabet.read("[th][er]esa[in]ltrop[an]ed[he]mcsaetirns")]
    rng = random.Random(68)
    for _ in range(5):  # rolls of the big-dl dice: the cube's tile in every one
        dice = list(BIG_DL.dice)
        rng.shuffle(dice)
        boards.append("".join(rng.choice(die) for die in dice))
    wants = []
    for board in boards:
        assert len(board) == 25
        wants.append(brute_force(alphabet.cells(board), 5, words, points, ordered))
        assert scorer.score(board) == wants[-1], alphabet.write(board)
    # the fixed board's words use the two-letter tiles (there, other, ...)
    assert wants[0] > 20
