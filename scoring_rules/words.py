"""Word count: every word scores 1, so a board's score is its number of words."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import ScoringRule, hookimpl

WORDS = ScoringRule.by_length("words", "1 point a word (the word count)", (1,), ("word-count",))


@hookimpl
def register_scoring_rules(register: Callable[[ScoringRule], None]) -> None:
    register(WORDS)
