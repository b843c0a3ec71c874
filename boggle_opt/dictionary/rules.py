"""Scoring rules: a name and the points each word earns.

A rule is evaluated once per word when a Dictionary is built; the points are
fixed into the trie, so the compiled scorer never calls back into Python.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScoringRule:
    """``points(word)`` gets the full word (``qu`` spelled out: a word's length
    counts letters, not tiles) and returns >= 0. Words of fewer than
    ``min_letters`` letters are not words under the rule (Big Boggle: 4)."""

    name: str
    summary: str
    points: Callable[[str], int]
    aliases: tuple[str, ...] = field(default=())
    min_letters: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.min_letters, int) or self.min_letters < 1:
            raise ValueError(f"scoring rule {self.name!r}: min_letters must be a whole number >= 1")

    @classmethod
    def by_length(
        cls,
        name: str,
        summary: str,
        table: Sequence[int],
        aliases: tuple[str, ...] = (),
        min_letters: int = 3,
    ) -> ScoringRule:
        """A rule from points for lengths ``min_letters``, +1, +2, ...; the last entry repeats."""
        if not table:
            raise ValueError("a points table needs at least one entry")
        frozen = tuple(table)
        last = len(frozen) - 1

        def points(word: str) -> int:
            return frozen[min(len(word) - min_letters, last)]

        return cls(name, summary, points, aliases, min_letters)
