"""The standard Boggle rule: 1, 1, 2, 3, 5, 11 points for 3, 4, 5, 6, 7, 8+ letters."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import ScoringRule, hookimpl

STANDARD = ScoringRule.by_length(
    "standard", "Boggle points: 1, 1, 2, 3, 5, 11 for 3, 4, 5, 6, 7, 8+ letters", (1, 1, 2, 3, 5, 11)
)


@hookimpl
def register_scoring_rules(register: Callable[[ScoringRule], None]) -> None:
    register(STANDARD)
