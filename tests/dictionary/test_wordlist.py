"""Word lists through the Python API: cleaning, reading, sources, points."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boggle_opt.dictionary.dictionary import Dictionary, to_key

from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.core.errors import BoggleOptError, WordListError
from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.wordlist import clean_words, read_word_file

STANDARD = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}


def expected_points(rule: str, length: int) -> int:
    if rule == "standard":
        return STANDARD.get(length, 11)
    if rule == "words":
        return 1
    assert rule == "pow2"
    return 2 ** (length - 3)


# -- clean_words -------------------------------------------------------------------


def test_clean_words_tolerates_messy_lines():
    lines = ["Cat\r\n", "DOG\r", "", "   ", "\n", "  bird  ", "cat", "CAT", "\tdog\t", "Queen"]
    assert clean_words(lines) == ["bird", "cat", "dog", "queen"]


def test_clean_words_is_sorted_and_distinct():
    lines = ["zebra", "apple", "mango", "apple", "Zebra"]
    assert clean_words(lines) == ["apple", "mango", "zebra"]


@pytest.mark.parametrize(
    "line",
    [
        "ab", "a", "qu", "q", "",  # too short
        "don't", "a-b-c", "ice cream", "abc1", "123", "x_y",  # not a-z
        "caf\u00e9", "stra\u00dfe", "na\u00efve", "\uff43\uff41\uff54",  # non-ASCII letters
        "qat", "qiqu", "faqir", "quaq", "iraq",  # a q not followed by u
    ],
)
def test_clean_words_drops(line):
    assert clean_words([line, "keep"]) == ["keep"]


@pytest.mark.parametrize("word", ["queen", "quit", "quququ", "aqua", "zzz", "equiqu"])
def test_clean_words_keeps(word):
    assert clean_words([word.upper(), word]) == [word]


def test_to_key_packs_qu():
    assert to_key("queen") == b"qeen"
    assert to_key("aquaqu") == b"aqaq"


# -- read_word_file ------------------------------------------------------------------


def test_read_word_file_crlf_and_bad_bytes(tmp_path):
    path = tmp_path / "list.txt"
    path.write_bytes(b"Cat\r\ncaf\xe9\r\n\r\nact\r\nACT\r\nab\r\ntac")
    lines = read_word_file(path)
    assert len(lines) == 7
    assert clean_words(lines) == ["act", "cat", "tac"]


def test_read_word_file_missing(tmp_path):
    path = tmp_path / "missing.txt"
    with pytest.raises(WordListError, match="cannot read word list") as info:
        read_word_file(path)
    assert str(path) in str(info.value)


def test_read_word_file_directory(tmp_path):
    with pytest.raises(WordListError, match="is a directory") as info:
        read_word_file(tmp_path)
    assert str(tmp_path) in str(info.value)


def test_wordlist_error_is_a_user_error():
    assert issubclass(WordListError, BoggleOptError)


# -- Dictionary ----------------------------------------------------------------------


@pytest.mark.parametrize("lines", [[], [""], ["ab", "12", "qat", "  "]])
def test_dictionary_rejects_empty_input(registries, lines):
    with pytest.raises(WordListError, match="no usable words") as info:
        Dictionary("mine", lines, registries.rules.get("standard"))
    assert "'mine'" in str(info.value)


def test_dictionary_counts_clean_words(registries):
    d = Dictionary("mine", ["cat", "CAT", "act\r", "ab", "qat"], registries.rules.get("words"))
    assert d.n_words == 2
    assert d.label == "mine (2 words)"
    assert d.rule.name == "words"


def test_dictionary_label_thousands(registries):
    words = [f"a{x}{y}{z}" for x in "abcdefghij" for y in "abcdefghij" for z in "abcdefghij"]
    d = Dictionary("big", words + ["zzz"], registries.rules.get("standard"))
    assert d.label == "big (1,001 words)"


# -- sources -------------------------------------------------------------------------


def test_embedded_default_loads():
    d = load_dictionary("default")
    assert d.name == "embedded"
    assert d.n_words > 100_000
    assert d.rule.name == "standard"
    report_words = {w.word for w in d.scorer(Geometry(3, 3)).words("streaedlp")}
    assert {"rated", "steal"} <= report_words


def test_load_dictionary_from_path(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_text("zqu\nbta\nab\n", encoding="ascii")
    d = load_dictionary(str(path), "pow2")
    assert (d.name, d.n_words, d.rule.name) == (str(path), 2, "pow2")


@pytest.mark.parametrize("name", ["enable2k", "yawl"])
def test_research_source_missing(monkeypatch, tmp_path, name):
    monkeypatch.setenv("BOGGLE_OPT_WORDLISTS", str(tmp_path))
    with pytest.raises(WordListError) as info:
        load_dictionary(name)
    message = str(info.value)
    assert "BOGGLE_OPT_WORDLISTS" in message
    assert f"{name}.txt" in message
    assert str(tmp_path) in message


def test_research_source_env_unset(monkeypatch):
    monkeypatch.delenv("BOGGLE_OPT_WORDLISTS", raising=False)
    with pytest.raises(WordListError, match="BOGGLE_OPT_WORDLISTS is not set"):
        load_dictionary("enable2k")


def test_research_source_searches_folders_in_order(monkeypatch, tmp_path):
    first = tmp_path / "first"
    second = tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (second / "yawl.txt").write_text("cat\nact\ntac\n", encoding="ascii")
    (tmp_path / "yawl.txt").mkdir()  # a directory of that name is not the list
    folders = os.pathsep.join([str(tmp_path), str(first), str(second)])
    monkeypatch.setenv("BOGGLE_OPT_WORDLISTS", folders)
    d = load_dictionary("yawl")
    assert (d.name, d.n_words) == ("yawl", 3)
    (first / "yawl.txt").write_text("dog\n", encoding="ascii")
    assert load_dictionary("yawl").n_words == 1


def test_research_source_finds_enable2k(monkeypatch, enable2k_path: Path):
    monkeypatch.setenv("BOGGLE_OPT_WORDLISTS", str(enable2k_path.parent))
    d = load_dictionary("enable2k", "words")
    assert d.name == "enable2k"
    assert d.n_words == 173_402


# -- points --------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["standard", "words", "pow2"])
def test_rule_points_by_length(registries, rule):
    points = registries.rules.get(rule).points
    for length in range(3, 17):
        assert points("e" * length) == expected_points(rule, length), length


@pytest.mark.parametrize("rule", ["standard", "words", "pow2"])
def test_dictionary_points_by_length(registries, rule):
    # words of 3..8 letters along a 1-row line, and 9 letters snaking over a 3x3
    line = "abcdefgh"
    d = Dictionary("t", [line[:n] for n in range(3, 9)] + ["abcfedghi"], registries.rules.get(rule))
    found = {w.word: w.points for w in d.scorer(Geometry(8, 1)).words(line)}
    assert found == {line[:n]: expected_points(rule, n) for n in range(3, 9)}
    nine = {w.word: w.points for w in d.scorer(Geometry(3, 3)).words("abcdefghi")}
    assert nine["abcfedghi"] == expected_points(rule, 9)


@pytest.mark.parametrize(
    "word, board, cols",
    [("quit", "qit", 3), ("quote", "qote", 4), ("quixotic", "qixotic", 7), ("aqua", "aqa", 3)],
)
@pytest.mark.parametrize("rule", ["standard", "words", "pow2"])
def test_qu_counts_two_letters(registries, rule, word, board, cols):
    d = Dictionary("t", [word], registries.rules.get(rule))
    scorer = d.scorer(Geometry(cols, 1))
    (found,) = scorer.words(board)
    assert found.word == word
    assert found.points == expected_points(rule, len(word))
    assert scorer.score(board) == expected_points(rule, len(word))


@pytest.mark.parametrize("rule", ["standard", "words", "pow2"])
def test_research_dictionary_points(dictionary, rule):
    d = dictionary("enable2k", rule)
    board = "rpqaselinifcoita"  # has a Qu cell
    scorer = d.scorer(Geometry(4, 4))
    words = scorer.words(board)
    assert len(words) == 229
    assert any("qu" in w.word for w in words)
    for w in words:
        assert w.points == expected_points(rule, len(w.word)), w.word
    assert scorer.score(board) == sum(w.points for w in words)


def test_a_list_in_a_legacy_encoding_keeps_its_accented_words(tmp_path: Path) -> None:
    """A list given by path that is not UTF-8 is read as Windows-1252 (then
    ISO-8859-1): a French list saved the old way keeps été and cœur."""
    from boggle_opt.dictionary.wordlist import read_word_file

    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("été\nnoël\ncafé\n".encode("latin-1"))
    cp1252 = tmp_path / "cp1252.txt"
    cp1252.write_bytes("cœur\n".encode("cp1252"))
    utf8 = tmp_path / "utf8.txt"
    utf8.write_bytes("\ufeffété\n".encode("utf-8"))
    assert read_word_file(latin1) == ["été", "noël", "café"]
    assert read_word_file(cp1252) == ["cœur"]
    assert read_word_file(utf8) == ["été"]  # (its byte-order mark is no letter)
