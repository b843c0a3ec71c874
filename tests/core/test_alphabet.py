"""Tiles beyond a-z: boards read and written, words tiled, and the compiled
scorer against an independent count (no system word list needed)."""

from __future__ import annotations

import random

import pytest

from boggle_opt import BoardError
from boggle_opt.boards import make_geometry
from boggle_opt.core.alphabet import ENGLISH, MAX_TILES, Alphabet, Tile, latin
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.dictionary.language import Language, english_spell
from boggle_opt.dictionary.rules import ScoringRule

from helpers import LONG_WORD, brute_score, snake_board

STANDARD = ScoringRule.by_length("standard", "", [1, 1, 2, 3, 5, 11])
#: Big Boggle's Double Letter cube's faces beside a-z (Qu is English's q)
DOUBLE = latin("english-dl", extra=[Tile("th"), Tile("in"), Tile("er"), Tile("he"), Tile("an")])
#: Polish's 32 letters: the widest alphabet, its last tile at bit 31
POLISH = Alphabet("polish", list("aąbcćdeęfghijklłmnńoóprsśtuwyzźż"))


def test_english_boards_read_and_write_as_before() -> None:
    assert ENGLISH.read("PerslatGsineters") == "perslatgsineters"
    assert ENGLISH.write("qaicdrneetasnnil") == "qaicdrneetasnnil"
    assert ENGLISH.read("[qu]ai") == "qai"  # a multi-letter tile in brackets
    assert ENGLISH.cells("qat") == ["qu", "a", "t"]
    assert ENGLISH.faces("qat") == ["Qu", "A", "T"]
    assert ENGLISH.keys("queen") == [b"qeen"] and ENGLISH.keys("qat") == []


def test_bracketed_tiles_round_trip() -> None:
    board = DOUBLE.read("[Th]ere[IN]tnhe")
    assert len(board) == 9
    assert DOUBLE.write(board) == "[th]ere[in]tnhe"
    # a board read once reads again as itself only as stored text (a program's):
    # a person never types a private symbol (issue 78.5)
    assert DOUBLE.read(DOUBLE.write(board)) == board == DOUBLE.read(board, stored=True)
    assert DOUBLE.cells(board)[:2] == ["th", "e"] and DOUBLE.faces(board)[0] == "Th"


@pytest.mark.parametrize("text, bad", [("[xy]ere", "[xy]"), ("ab[th", "'['"), ("abñ", "'ñ'")])
def test_a_bad_tile_is_named(text: str, bad: str) -> None:
    with pytest.raises(BoardError, match=bad.replace("[", r"\[").replace("]", r"\]")):
        DOUBLE.read(text)


@pytest.mark.parametrize("alphabet", [ENGLISH, DOUBLE, POLISH], ids=lambda a: a.name)
@pytest.mark.parametrize("text", ["abc", "[th]ere", "[qu]it", "ab[th", "[xy]ere", "abñ", "abé", "ą1b",
                                  "e3t", "e[]t", "x[in]0"])
def test_read_and_problem_say_the_same_of_a_board(alphabet: Alphabet, text: str) -> None:
    """One parser: ``problem`` finds fault exactly where ``read`` does (a
    private symbol typed, too) and words it as ``read``'s error does; as
    stored text (a program's) both take a private symbol."""
    for stored in (False, True):
        why = alphabet.problem(text, stored=True) if stored else alphabet.problem(text)
        try:
            alphabet.read(text, stored)
        except BoardError as exc:
            assert str(exc) == f"bad board {text!r}: {why}" and why, (stored, str(exc), why)
        else:
            assert why == "", (stored, why)


def test_a_word_has_a_key_for_each_tiling() -> None:
    keys = DOUBLE.keys("there")
    # t-h-e-r-e, th-e-r-e, t-he-r-e, t-h-er-e, th-er-e
    assert len(keys) == 5
    assert {DOUBLE.key_letters(k) for k in keys} == {"there"}


def test_alphabets_hold_at_most_32_tiles() -> None:
    assert len(POLISH) == MAX_TILES
    with pytest.raises(ValueError, match="at most 32"):
        Alphabet("too many", [*POLISH.symbols, "ö"])


def _dictionary(alphabet: Alphabet, words: list[str]) -> Dictionary:
    language = Language(alphabet.name, "test", alphabet, lambda e: e.lower() if e.isalpha() else "")
    return Dictionary("test", words, STANDARD, language=language)


def _random_words(alphabet: Alphabet, rng: random.Random, count: int) -> list[str]:
    letters = [t.letters for t in alphabet.tiles]
    return sorted({"".join(rng.choice(letters) for _ in range(rng.randint(2, 4))) for _ in range(count)})


@pytest.mark.parametrize("alphabet", [DOUBLE, POLISH], ids=["double-letter", "polish-32"])
def test_scorer_counts_as_an_independent_search(alphabet: Alphabet) -> None:
    """A 5x5 board of the alphabet's tiles scores what a brute-force count
    gives: each distinct word once, however many ways the tiles spell it."""
    rng = random.Random(7)
    words = [w for w in _random_words(alphabet, rng, 4000) if len(w) >= 3]
    d = _dictionary(alphabet, words)
    points = {w: STANDARD.points(w) for w in words}
    geometry = make_geometry(5, 5)
    scorer = d.scorer(geometry)
    for _ in range(30):
        board = "".join(rng.choice(alphabet.symbols) for _ in range(25))
        expected = brute_score(alphabet, board, 5, 5, points)
        assert scorer.score(board) == expected
        assert scorer.score_count(board)[0] == expected
        found = scorer.words(board)
        assert len({w.word for w in found}) == len(found)
        assert sum(w.points for w in found) == expected


def test_double_letter_board_holds_a_word_spelled_two_ways() -> None:
    d = _dictionary(DOUBLE, ["the", "then", "thin", "tin", "hint", "there"])
    board = DOUBLE.read("[th]ere[in]tnhe")
    scorer = d.scorer(make_geometry(3, 3))
    words = {w.word: w.path for w in scorer.words(board)}
    assert words == {"the": [0, 1], "then": [0, 3, 6], "thin": [0, 4], "tin": [5, 4], "hint": [7, 4, 5]}
    assert scorer.score(board) == 5


def test_neighbourhood_of_a_wide_alphabet_is_every_one_tile_change() -> None:
    rng = random.Random(3)
    words = [w for w in _random_words(POLISH, rng, 3000) if len(w) >= 3]
    d = _dictionary(POLISH, words)
    geometry = make_geometry(3, 3)
    scorer = d.scorer(geometry)
    board = "".join(rng.choice(POLISH.symbols) for _ in range(9))
    out = scorer.neighbourhood(board)
    assert len(out) == 9 * 32
    for cell in range(9):
        for code, symbol in enumerate(POLISH.symbols):
            changed = board[:cell] + symbol + board[cell + 1:]
            assert out[cell * 32 + code] == scorer.score(changed), (cell, symbol)


def test_english_dictionary_is_built_as_before() -> None:
    """English's keys (q for qu) and one key a word: no aliases."""
    d = Dictionary("test", ["queen", "qat", "tea", "eat", "Eat"], STANDARD)
    assert d.alphabet is ENGLISH and d.n_words == 3
    assert d.keys == [b"eat", b"qeen", b"tea"] and len(d.trie.aliases) == 0
    assert english_spell("Été") == ""


def test_a_long_words_points_under_pow2_fit_its_slot() -> None:
    """pow2 gives YAWL's 45-letter word 2**42 points: the scorer keeps them
    (they once had to fit 31 bits beside the stamp, and YAWL's pow2 proofs
    could not be verified). An 8x8 board's 64 cells, snaking along its
    columns, spell a 48-letter word (2**45)."""
    word = LONG_WORD
    geometry = make_geometry(8, 8)
    board = snake_board(word, 8, 8)
    pow2 = ScoringRule("pow2", "", lambda w: 2 ** (len(w) - 3))
    d = Dictionary("test", [word, "pne", "sis"], pow2)
    scorer = d.scorer(geometry)
    assert scorer.score(board) == 2 ** 45 + 1 + 1
    assert sum(w.points for w in scorer.words(board)) == 2 ** 45 + 2
    for _ in range(3):  # the stamps of one board do not leak into the next
        assert scorer.score("x" * 64) == 0 and scorer.score(board) == 2 ** 45 + 2


def test_stamps_wrap_without_losing_a_word() -> None:
    """A scorer's stamps wrap after 32,767 boards and are cleared then: the
    scores stay right across the wrap."""
    d = _dictionary(DOUBLE, ["the", "then", "thin", "tin", "hint", "there"])
    scorer = d.scorer(make_geometry(3, 3))
    board = DOUBLE.read("[th]ere[in]tnhe")
    other = DOUBLE.read("[th]enxxxxxx")
    for i in range(33_000):
        assert scorer.score(board if i % 2 else other) == (5 if i % 2 else 2)  # the, then
