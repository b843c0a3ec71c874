"""Powers of two: 2 ** (length - 3) points, so long words dominate (and
words of 1 or 2 letters, which ``--min-letters`` may let in, 1 point as 3
letters have: a whole number, never a fraction)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import ScoringRule, hookimpl


def _points(word: str) -> int:
    return 1 << max(0, len(word) - 3)


POW2 = ScoringRule("pow2", "2^(length-3) points: 1, 2, 4, 8, ...", _points, ("powers-of-two",))


@hookimpl
def register_scoring_rules(register: Callable[[ScoringRule], None]) -> None:
    register(POW2)
