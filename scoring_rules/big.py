"""Big Boggle's rule: words of 4 letters or more; 1, 2, 3, 5, 11 points for
4, 5, 6, 7, 8+ letters (Hasbro's rules, as ultraboardgames.com reproduces
them: "Big Boggle game rules")."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import ScoringRule, hookimpl

BIG = ScoringRule.by_length(
    "big",
    "Big Boggle points: 1, 2, 3, 5, 11 for 4, 5, 6, 7, 8+ letters (3 letters: no word)",
    (1, 2, 3, 5, 11),
    aliases=("big-boggle",),
    min_letters=4,
)


@hookimpl
def register_scoring_rules(register: Callable[[ScoringRule], None]) -> None:
    register(BIG)
