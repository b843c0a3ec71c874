"""A word list plus a scoring rule, packed into a trie ready for scoring.

Building one by name (``load_dictionary``) needs the registries: it is in
``boggle_opt.registry.dictionaries``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from .cache import Built
from ..core.alphabet import Alphabet
from ..core.errors import PluginError, WordListError
from ..core.geometry import Geometry
from ..core.scorer import Scorer
from ..core.trie import PackedTrie
from .language import ENGLISH, Language
from .rules import ScoringRule, letters_note


#: set (to anything) to build every dictionary afresh, as ``--no-cache`` does
ENV_NO_CACHE = "BOGGLE_OPT_NO_CACHE"


def to_key(word: str) -> bytes:
    """Trie key of a playable word: the two letters ``qu`` become the cell ``q``."""
    return word.replace("qu", "q").encode("ascii")


def build(name: str, lines: Iterable[str], rule: ScoringRule, language: Language = ENGLISH) -> Built:
    """Read a word list's words in ``language``, give each the rule's points
    and pack the trie (a key for each way the language's tiles spell a word)."""
    alphabet = language.alphabet
    dropped: dict[str, int] = {}
    keyed = language.keyed(lines, rule.min_letters, dropped)
    words = sorted(keyed)
    if not words:
        what = "a-z" if language is ENGLISH else f"{language.name}: {alphabet.describe()}"
        raise WordListError(
            f"word list {name!r} has no usable words ({what}, {rule.min_letters}+ letters)"
            + (f": {drops(dropped)}" if dropped else ""))
    word_points: list[int] = []
    pairs: list[tuple[bytes, int]] = []
    for i, word in enumerate(words):
        # a plugin's rule may not expect words shorter than its own minimum
        # (``--min-letters``): what it does wrong is one line naming it
        try:
            p = rule.points(word)
        except Exception as exc:
            raise PluginError(f"scoring rule {rule.name!r} failed on the {len(word)}-letter word "
                              f"{word!r}: {type(exc).__name__}: {' '.join(str(exc).split())[:200]}") from None
        if not isinstance(p, int) or p < 0:
            raise PluginError(
                f"scoring rule {rule.name!r} gave {str(p)[:40]} for {word!r}; "
                "points must be whole numbers >= 0"
            )
        word_points.append(p)
        pairs.extend((key, i) for key in keyed[word])
    pairs.sort()
    keys = [k for k, _ in pairs]
    points = [word_points[i] for _, i in pairs]
    ids = [i for _, i in pairs] if len(pairs) > len(words) else None
    trie = PackedTrie(keys, points, symbols=alphabet.symbols, words=ids,
                      spellings=[t.letters for t in alphabet.tiles])
    return Built(name, len(words), keys, points, trie, dropped)


def drops(dropped: dict[str, int]) -> str:
    """Entries dropped, by why, most first: ``"3 entries dropped: 2 digit; 1 ..."``."""
    total = sum(dropped.values())
    parts = "; ".join(f"{n:,} {why}" for why, n in sorted(dropped.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{total:,} entr{'y' if total == 1 else 'ies'} dropped: {parts}"


class Dictionary:
    """Immutable; make one Scorer per board size (and per thread of work)."""

    def __init__(
        self,
        name: str,
        lines: Iterable[str],
        rule: ScoringRule,
        built: Built | None = None,
        language: Language = ENGLISH,
        min_letters: int | None = None,
    ) -> None:
        """Build from ``lines`` in ``language``, or take ``built`` (from the cache)
        as it is. ``min_letters`` (``--min-letters``): words of that many letters
        or more, whatever the rule's own minimum (None: the rule's)."""
        start = time.perf_counter()
        rule = rule.with_min_letters(min_letters)
        if built is None:
            built = build(name, lines, rule, language)
        self.name = name
        #: the rule as this dictionary plays it (its ``min_letters`` the one in force)
        self.rule = rule
        #: ``--min-letters`` as given (None: the rule's own minimum), for outputs to name
        self.min_letters = min_letters
        self.language = language
        #: the tiles a board of this dictionary holds, and how boards are written
        self.alphabet: Alphabet = language.alphabet
        self.n_words = built.n_words
        #: the list's entries that gave no word, by why (``language.census``)
        self.dropped = built.dropped
        self._built = built
        self.trie = built.trie
        self._scorers: dict[tuple[int, int], Scorer] = {}
        #: a line for the user about the list (what a list given by path lost: ``list_note``)
        self.note = ""
        #: seconds to build, or to read from the cache
        self.build_seconds = time.perf_counter() - start

    @property
    def keys(self) -> list[bytes]:
        """Sorted trie keys, a byte a tile (its code plus ``core.trie.KEY_BASE``:
        for English the letters, ``qu`` as ``q``), e.g. for letter statistics."""
        return self._built.keys

    @property
    def points(self) -> list[int]:
        """Points of each key, in the same order."""
        return self._built.points

    @property
    def rule_label(self) -> str:
        """How outputs name the rule: ``standard``, or with ``--min-letters``
        ``standard with words of 2+ letters``."""
        return self.rule.name + letters_note(self.min_letters)

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
