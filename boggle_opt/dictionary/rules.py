"""Scoring rules: a name and the points each word earns.

A rule is evaluated once per word when a Dictionary is built; the points are
fixed into the trie, so the compiled scorer never calls back into Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScoringRule:
    """``points(word)`` gets the full word (``qu`` spelled out) and returns >= 0."""

    name: str
    summary: str
    points: Callable[[str], int]
    aliases: tuple[str, ...] = field(default=())

    @classmethod
    def by_length(
        cls,
        name: str,
        summary: str,
        table: Sequence[int],
        aliases: tuple[str, ...] = (),
    ) -> ScoringRule:
        """A rule from points for lengths 3, 4, 5, ...; the last entry repeats."""
        if not table:
            raise ValueError("a points table needs at least one entry")
        frozen = tuple(table)
        last = len(frozen) - 1

        def points(word: str) -> int:
            return frozen[min(len(word) - 3, last)]

        return cls(name, summary, points, aliases)
