"""A word list plus a scoring rule, packed into a trie ready for scoring."""

from __future__ import annotations

import time
from collections.abc import Iterable

from .core.errors import WordListError
from .core.geometry import Geometry
from .core.scorer import Scorer
from .core.trie import PackedTrie
from .rules import ScoringRule
from .wordlist import clean_words


def to_key(word: str) -> bytes:
    """Trie key of a playable word: the two letters ``qu`` become the cell ``q``."""
    return word.replace("qu", "q").encode("ascii")


class Dictionary:
    """Immutable; make one Scorer per board size (and per thread of work)."""

    def __init__(self, name: str, lines: Iterable[str], rule: ScoringRule) -> None:
        start = time.perf_counter()
        words = clean_words(lines)
        if not words:
            raise WordListError(f"word list {name!r} has no usable words (a-z, 3+ letters)")
        pairs = sorted((to_key(w), w) for w in words)
        points: list[int] = []
        for _, word in pairs:
            p = rule.points(word)
            if not isinstance(p, int) or p < 0:
                raise ValueError(
                    f"scoring rule {rule.name!r} gave {p!r} for {word!r}; "
                    "points must be whole numbers >= 0"
                )
            points.append(p)
        self.name = name
        self.rule = rule
        self.n_words = len(words)
        #: sorted trie keys (``qu`` as ``q``), e.g. for letter statistics
        self.keys: list[bytes] = [k for k, _ in pairs]
        #: points of each key, in the same order
        self.points: list[int] = points
        self.trie = PackedTrie(self.keys, points)
        self._scorers: dict[tuple[int, int], Scorer] = {}
        self.build_seconds = time.perf_counter() - start

    @property
    def label(self) -> str:
        """How outputs name the list: its name and word count."""
        return f"{self.name} ({self.n_words:,} words)"

    def scorer(self, geometry: Geometry) -> Scorer:
        """This dictionary's scorer for a board size, made once and reused.

        A Scorer keeps scratch state, so share one only within a thread.
        """
        key = (geometry.cols, geometry.rows)
        scorer = self._scorers.get(key)
        if scorer is None:
            scorer = self._scorers[key] = Scorer(self.trie, geometry)
        return scorer
