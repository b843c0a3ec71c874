"""The ``letter-values`` rule: a word earns the Scrabble tile values of its letters.

Unlike the built-in rules it depends on which letters a word has, not only on
its length. boggle-opt calls ``points`` once per word when it builds a
dictionary and stores the result in the trie, so the scorer, the local
searchers and branch and bound all work with it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import ScoringRule, hookimpl

#: English Scrabble tile values
LETTER_VALUES: dict[str, int] = {
    "a": 1, "b": 3, "c": 3, "d": 2, "e": 1, "f": 4, "g": 2, "h": 4, "i": 1,
    "j": 8, "k": 5, "l": 1, "m": 3, "n": 1, "o": 1, "p": 3, "q": 10, "r": 1,
    "s": 1, "t": 1, "u": 1, "v": 4, "w": 4, "x": 8, "y": 4, "z": 10,
}


def letter_points(word: str) -> int:
    """The sum of the tile values of ``word``'s letters.

    boggle-opt passes the full word with ``qu`` spelled out, so the Qu cell
    earns q + u = 11 ("quit" = 10 + 1 + 1 + 1 = 13), just as the word would on
    a Scrabble rack. Only playable words (a-z) are ever passed in.
    """
    return sum(LETTER_VALUES[c] for c in word)


LETTER_VALUES_RULE = ScoringRule(
    "letter-values",
    "sum of the Scrabble tile values of a word's letters (qu = q + u = 11)",
    letter_points,
    aliases=("scrabble",),
)


@hookimpl
def register_scoring_rules(register: Callable[[ScoringRule], None]) -> None:
    register(LETTER_VALUES_RULE)
