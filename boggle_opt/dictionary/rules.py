"""Scoring rules: a name and the points each word earns.

A rule is evaluated once per word when a Dictionary is built; the points are
fixed into the trie, so the compiled scorer never calls back into Python.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ScoringRule:
    """``points(word)`` gets the full word (``qu`` spelled out: a word's length
    counts letters, not tiles) and returns >= 0. Words of fewer than
    ``min_letters`` letters are not words under the rule (Big Boggle: 4);
    ``with_min_letters`` (``--min-letters N``) moves that line, so ``points``
    answers for words of any length >= 1."""

    name: str
    summary: str
    points: Callable[[str], int]
    aliases: tuple[str, ...] = field(default=())
    min_letters: int = 3

    def __post_init__(self) -> None:
        if not isinstance(self.min_letters, int) or self.min_letters < 1:
            raise ValueError(f"scoring rule {self.name!r}: min_letters must be a whole number >= 1")

    def with_min_letters(self, min_letters: int | None) -> ScoringRule:
        """The rule with words of ``min_letters`` letters or more (None: its own
        minimum); its points are the same for every word both count."""
        if min_letters is None or min_letters == self.min_letters:
            return self
        return dataclasses.replace(self, min_letters=min_letters)

    @classmethod
    def by_length(
        cls,
        name: str,
        summary: str,
        table: Sequence[int],
        aliases: tuple[str, ...] = (),
        min_letters: int = 3,
    ) -> ScoringRule:
        """A rule from points for lengths ``min_letters``, +1, +2, ...; the last
        entry repeats, and the first serves shorter words too (words a lower
        ``--min-letters`` lets in: 2 letters under the standard rule score 1)."""
        if not table:
            raise ValueError("a points table needs at least one entry")
        frozen = tuple(table)
        last = len(frozen) - 1
        start = min_letters  # the table's own, whatever minimum the rule is given later

        def points(word: str) -> int:
            return frozen[max(0, min(len(word) - start, last))]

        return cls(name, summary, points, aliases, min_letters)


def letters_note(min_letters: object) -> str:
    """What a minimum given by ``--min-letters`` adds to a rule's name in a
    header or a proof's statement (``" with words of 4+ letters"``); nothing
    where none was given (None: the rule's own minimum)."""
    return "" if min_letters is None else f" with words of {min_letters}+ letters"
