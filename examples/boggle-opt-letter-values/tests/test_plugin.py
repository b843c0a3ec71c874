"""The rule and the word list: values, registration, package data, scoring."""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest

from boggle_opt import Dictionary, Registries, analyse
from boggle_opt_letter_values import DISTRIBUTION
from boggle_opt_letter_values.rule import LETTER_VALUES, letter_points
from boggle_opt_letter_values.wordlist import load_everyday

from helpers import RULE, WORDLIST, RunCli


@pytest.mark.parametrize(
    ("word", "points"),
    [
        ("cat", 3 + 1 + 1),
        ("zebra", 10 + 3 + 1 + 1 + 1),
        ("jazz", 8 + 1 + 10 + 10),
        ("quit", 10 + 1 + 1 + 1),  # the Qu cell earns q + u
        ("question", 10 + 1 + 1 + 1 + 1 + 1 + 1 + 1),
        ("squeeze", 1 + 10 + 1 + 1 + 1 + 10 + 1),
    ],
)
def test_points_by_hand(word: str, points: int) -> None:
    assert letter_points(word) == points


def test_not_a_function_of_length() -> None:
    assert letter_points("cat") != letter_points("zoo")  # both 3 letters: 5 and 12


def test_table_is_scrabble() -> None:
    assert sorted(LETTER_VALUES) == list("abcdefghijklmnopqrstuvwxyz")
    assert sum(LETTER_VALUES.values()) == 87  # one of each tile: the well-known total


def test_registered_with_this_distribution(registries: Registries) -> None:
    ours = version(DISTRIBUTION)
    rule = registries.rules.entry(RULE)
    assert registries.rules.entry("scrabble") is rule
    assert (rule.origin.distribution, rule.origin.version) == (DISTRIBUTION, ours)
    wordlist = registries.wordlists.entry(WORDLIST)
    assert (wordlist.origin.distribution, wordlist.origin.version) == (DISTRIBUTION, ours)


def test_plugins_command_lists_both(run_cli: RunCli) -> None:
    r = run_cli("plugins")
    assert r.returncode == 0, r.stderr
    tag = f"[{DISTRIBUTION} {version(DISTRIBUTION)}]"
    # an entry's text wraps at 80 columns: its lines read as one, up to its release tag
    text = " ".join(r.stdout.split())
    assert re.search(rf"(^| ){RULE} [^\[]*{re.escape(tag)}", text), r.stdout
    assert re.search(rf"(^| ){WORDLIST} [^\[]*{re.escape(tag)}", text), r.stdout


def test_word_list_is_clean_package_data() -> None:
    lines = load_everyday()
    assert 600 <= len(lines) <= 1500
    assert lines == sorted(set(lines)), "sorted, no duplicates"
    for word in lines:
        # every line playable as written: boggle-opt's cleaning drops nothing
        assert word == word.strip().lower(), repr(word)
        assert word.isascii() and word.isalpha() and len(word) >= 3
        assert "q" not in word or word.count("q") == word.count("qu"), word


def test_dictionary_uses_every_word(dictionary: Dictionary) -> None:
    assert dictionary.n_words == len(load_everyday())
    assert dictionary.rule.name == RULE
    by_key = dict(zip(dictionary.keys, dictionary.points))
    assert by_key[b"qit"] == 13  # "quit" is stored under its cell key "qit"


# 2x2 board (column-major): Qu, I / T, E. Every cell touches every other, so
# the words are those of the list spelled from {qu, i, t, e}, each at most once:
# quiet 14, quite 14, quit 13, tie 3.
HAND_BOARD = "qite"
HAND_WORDS = {"quiet": 14, "quite": 14, "quit": 13, "tie": 3}


def test_score_hand_checked_board_api(dictionary: Dictionary) -> None:
    report = analyse(dictionary, HAND_BOARD, "2x2")
    assert {w.word: w.points for w in report.words} == HAND_WORDS
    assert report.score == sum(HAND_WORDS.values()) == 44


def test_score_hand_checked_board_cli(run_cli: RunCli) -> None:
    r = run_cli("score", "--rule", RULE, "--wordlist", WORDLIST, "--words", HAND_BOARD)
    assert r.returncode == 0, r.stderr
    rows = [line.split("\t") for line in r.stdout.splitlines() if not line.startswith("#")]
    assert rows[0][:3] == [HAND_BOARD, "44", "4"]
    assert {row[0].strip(): int(row[1]) for row in rows[1:]} == HAND_WORDS


def test_any_board_scores_its_words_letter_values(dictionary: Dictionary) -> None:
    # the compiled scorer adds up exactly the rule's points of the words it finds
    for board in ("quitseatr", "hcmsartep", "seatcatsrdoeplmn"):
        report = analyse(dictionary, board)
        assert report.words
        assert report.score == sum(letter_points(w.word) for w in report.words)
