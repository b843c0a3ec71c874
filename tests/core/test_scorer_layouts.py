"""The scorer's two layouts agree: narrow (at most 26 tiles, one key a word:
English, French, Italian; the stamp in the node word, as before tiles) and
wide (up to 32 tiles or aliases; the stamp in a slot a node). Each is a
compiled search of its own, chosen once per trie; a narrow trie can be scored
both ways (``Scorer(trie, geometry, wide=True)``), and every answer must be
the same: scores, word counts, found words with their paths, Multi,
de-duplicated Multi and neighbourhoods. No system word list is needed."""

from __future__ import annotations

import random

import pytest

from boggle_opt.boards import make_geometry
from boggle_opt.core.alphabet import ENGLISH, Alphabet, Tile, latin
from boggle_opt.core.scorer import N_STAMP_MAX, STAMP_MAX, Scorer
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.dictionary.language import Language
from boggle_opt.dictionary.rules import ScoringRule

from helpers import LONG_WORD, brute_score, snake_board

STANDARD = ScoringRule.by_length("standard", "", [1, 1, 2, 3, 5, 11])
FRENCH = latin("french")
POLISH = latin("polish", extra=tuple("ąćęłńóśźż"), qu=False, drop="qvx")
#: 26 tiles, one of them two letters: at most 26 tiles, but with aliases
NARROW_ALIASED = latin("aliased", extra=[Tile("th")], drop="z")
#: the letters dense boards are drawn from (many words, each by many paths)
DENSE = "aeeeiioorssttnnlp"


def _dictionary(alphabet: Alphabet, words: list[str]) -> Dictionary:
    if alphabet is ENGLISH:
        return Dictionary("test", words, STANDARD)
    language = Language(alphabet.name, "test", alphabet, lambda e: e.lower() if e.isalpha() else "")
    return Dictionary("test", words, STANDARD, language=language)


def _words(alphabet: Alphabet, rng: random.Random, count: int, letters: str = "") -> list[str]:
    """Random words of 3-6 tiles, most of them over ``letters`` (dense boards'
    letters) where given, so the boards below hold many of them."""
    tiles = [t.letters for t in alphabet.tiles]
    out: set[str] = set()
    while len(out) < count:
        pool = [ch for ch in letters if ch in tiles] if letters and rng.random() < 0.8 else tiles
        out.add("".join(rng.choice(pool) for _ in range(rng.randint(3, 6))))
    return sorted(out)


def _boards(alphabet: Alphabet, rng: random.Random, n: int, count: int) -> list[str]:
    dense = [s for s in alphabet.symbols if s in DENSE]
    return ["".join(rng.choice(dense if i % 2 else alphabet.symbols) for _ in range(n))
            for i in range(count)]


def _everything(scorer: Scorer, board: str) -> tuple[object, ...]:
    found = [(w.word, w.points, w.path) for w in scorer.words(board)]
    return (scorer.score(board), scorer.score_count(board), found, scorer.multi(board),
            scorer.demulti(board), scorer.neighbourhood(board))


@pytest.mark.parametrize("alphabet, narrow", [(ENGLISH, True), (FRENCH, True), (POLISH, False),
                                              (NARROW_ALIASED, False)],
                         ids=["english", "french", "polish-32", "26-tiles-with-aliases"])
def test_layout_is_chosen_by_the_trie(alphabet: Alphabet, narrow: bool) -> None:
    d = _dictionary(alphabet, _words(alphabet, random.Random(1), 300))
    assert (len(d.trie.aliases) > 0) == (alphabet is NARROW_ALIASED)
    geometry = make_geometry(4, 4)
    assert Scorer(d.trie, geometry).narrow is narrow
    assert d.scorer(geometry).narrow is narrow
    assert Scorer(d.trie, geometry, wide=True).narrow is False


@pytest.mark.parametrize("alphabet", [ENGLISH, FRENCH], ids=["english", "french"])
@pytest.mark.parametrize("size", [(4, 4), (5, 5)], ids=["4x4", "5x5"])
def test_narrow_and_wide_give_the_same_answers(alphabet: Alphabet, size: tuple[int, int]) -> None:
    """The same boards scored by both paths, dense ones among them (a word
    found by many paths: the narrow path's reason to be), and against a
    brute-force count."""
    rng = random.Random(11)
    words = _words(alphabet, rng, 3000, DENSE)
    d = _dictionary(alphabet, words)
    points = {w: STANDARD.points(w) for w in words}
    geometry = make_geometry(*size)
    narrow, wide = Scorer(d.trie, geometry), Scorer(d.trie, geometry, wide=True)
    assert narrow.narrow and not wide.narrow
    most = 0
    for board in _boards(alphabet, rng, geometry.n, 16):
        got = _everything(narrow, board)
        assert got == _everything(wide, board), board
        assert got[0] == brute_score(alphabet, board, *size, points)
        most = max(most, len(got[2]))  # type: ignore[arg-type]
    assert most >= 50  # some boards were dense


@pytest.mark.parametrize("alphabet", [POLISH, NARROW_ALIASED],
                         ids=["polish-32", "26-tiles-with-aliases"])
def test_wide_tries_score_as_an_independent_search(alphabet: Alphabet) -> None:
    """A 32-tile trie and a trie with aliases take the wide path: each word
    once, however many ways its tiles spell it, and a neighbourhood is every
    one-tile change scored."""
    rng = random.Random(5)
    words = _words(alphabet, rng, 3000, DENSE + "th")
    d = _dictionary(alphabet, words)
    points = {w: STANDARD.points(w) for w in words}
    geometry = make_geometry(4, 4)
    scorer = d.scorer(geometry)
    assert not scorer.narrow
    for board in _boards(alphabet, rng, 16, 12):
        expected = brute_score(alphabet, board, 4, 4, points)
        assert scorer.score(board) == expected == scorer.score_count(board)[0]
        found = scorer.words(board)
        assert len({w.word for w in found}) == len(found) == scorer.score_count(board)[1]
        assert sum(w.points for w in found) == expected
    board = _boards(alphabet, rng, 9, 2)[1]
    small = d.scorer(make_geometry(3, 3))
    out = small.neighbourhood(board)
    nt = len(alphabet.symbols)
    for cell in range(9):
        for code, symbol in enumerate(alphabet.symbols):
            changed = board[:cell] + symbol + board[cell + 1:]
            assert out[cell * nt + code] == small.score(changed), (cell, symbol)


def test_an_alias_tile_counts_its_word_once() -> None:
    """``th`` beside ``t`` and ``h`` on a 26-tile board: the word scores once."""
    d = _dictionary(NARROW_ALIASED, ["the", "then", "thee", "hen"])
    scorer = d.scorer(make_geometry(3, 3))
    assert not scorer.narrow
    # th e e / t h e / n n n: "the" is th-e and t-h-e, "then" t-h-e-n
    board = NARROW_ALIASED.read("[th]eethennn")
    words = sorted(w.word for w in scorer.words(board))
    assert words == ["hen", "the", "thee", "then"]
    points = sum(STANDARD.points(w) for w in words)
    assert scorer.score(board) == points == scorer.score_count(board)[0]
    assert scorer.score_count(board)[1] == 4


@pytest.mark.parametrize("wide", [False, True], ids=["narrow", "wide"])
def test_stamps_wrap_in_either_layout(wide: bool) -> None:
    """The narrow stamps wrap after 4,095 boards, the wide ones after 32,767;
    a neighbourhood takes a stamp a cell. Scores and neighbourhoods stay right
    across the wraps, and reporting between them stamps the same words."""
    words = ["tea", "eat", "ate", "teas", "seat", "east", "eats", "sate", "etas"]
    d = _dictionary(ENGLISH, words)
    geometry = make_geometry(3, 3)
    scorer = Scorer(d.trie, geometry, wide=wide)
    assert scorer.narrow is not wide
    board, other = "teasxxxxx", "atexxxxxx"
    fresh = Scorer(d.trie, geometry)
    want = {board: fresh.score(board), other: fresh.score(other)}
    hood = Scorer(d.trie, geometry, wide=not wide).neighbourhood(board)
    wrap = STAMP_MAX if wide else N_STAMP_MAX
    for i in range(wrap + 40):
        b = board if i % 2 else other
        assert scorer.score(b) == want[b]
        if i % 997 == 0:
            assert sum(w.points for w in scorer.words(b)) == want[b]
            assert scorer.neighbourhood(board) == hood
    if not wide:  # a neighbourhood of 9 stamps across the narrow wrap
        for _ in range(2 * N_STAMP_MAX // 9 + 2):
            assert scorer.neighbourhood(board) == hood
        assert scorer.score(board) == want[board]


def test_a_long_words_points_fit_the_narrow_layout() -> None:
    """pow2's 2**45 for a 48-letter word: the narrow layout keeps points
    beside the node words, not in them."""
    word = LONG_WORD
    geometry = make_geometry(8, 8)
    board = snake_board(word, 8, 8)
    pow2 = ScoringRule("pow2", "", lambda w: 2 ** (len(w) - 3))
    d = Dictionary("test", [word, "pne", "sis"], pow2)
    for wide in (False, True):
        scorer = Scorer(d.trie, geometry, wide=wide)
        assert scorer.score(board) == 2 ** 45 + 2 == scorer.score_count(board)[0]
        assert sum(w.points for w in scorer.words(board)) == 2 ** 45 + 2
