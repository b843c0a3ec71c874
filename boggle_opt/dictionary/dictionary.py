"""A word list plus a scoring rule, packed into a trie ready for scoring; built by name."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable

from .. import defaults
from .cache import Built, cache_key, cached
from ..core.errors import WordListError
from ..core.geometry import Geometry
from ..core.scorer import Scorer
from ..core.trie import PackedTrie
from ..registry.registries import Registries
from .rules import ScoringRule
from .wordlist import WordListSource, clean_words, looks_like_path, path_source


#: set (to anything) to build every dictionary afresh, as ``--no-cache`` does
ENV_NO_CACHE = "BOGGLE_OPT_NO_CACHE"


def to_key(word: str) -> bytes:
    """Trie key of a playable word: the two letters ``qu`` become the cell ``q``."""
    return word.replace("qu", "q").encode("ascii")


def build(name: str, lines: Iterable[str], rule: ScoringRule) -> Built:
    """Clean a word list, give each word the rule's points and pack the trie."""
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
    keys = [k for k, _ in pairs]
    return Built(name, len(words), keys, points, PackedTrie(keys, points))


class Dictionary:
    """Immutable; make one Scorer per board size (and per thread of work)."""

    def __init__(
        self, name: str, lines: Iterable[str], rule: ScoringRule, built: Built | None = None
    ) -> None:
        """Build from ``lines``, or take ``built`` (from the cache) as it is."""
        start = time.perf_counter()
        if built is None:
            built = build(name, lines, rule)
        self.name = name
        self.rule = rule
        self.n_words = built.n_words
        self._built = built
        self.trie = built.trie
        self._scorers: dict[tuple[int, int], Scorer] = {}
        #: seconds to build, or to read from the cache
        self.build_seconds = time.perf_counter() - start

    @property
    def keys(self) -> list[bytes]:
        """Sorted trie keys (``qu`` as ``q``), e.g. for letter statistics."""
        return self._built.keys

    @property
    def points(self) -> list[int]:
        """Points of each key, in the same order."""
        return self._built.points

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


def wordlist_source(spec: str, registries: Registries) -> WordListSource:
    """A registered word list by name or alias, else a file path."""
    if spec not in registries.wordlists and looks_like_path(spec):
        return path_source(spec)
    return registries.wordlists.get(spec)  # unknown: lists the available names


def load_dictionary(
    wordlist: str = defaults.WORDLIST,
    rule: str = defaults.RULE,
    registries: Registries | None = None,
    cache: bool | None = None,
) -> Dictionary:
    """Build the dictionary for a word list (name or path) and a rule name.

    Without ``registries`` the plugins are loaded (as the command line loads
    them). Built dictionaries are kept in the cache folder (``dict_cache``);
    ``cache=False`` skips it, and ``None`` uses it unless ``$BOGGLE_OPT_NO_CACHE``
    is set (``--no-cache`` sets it, so worker processes skip it too).
    """
    if registries is None:
        from ..registry.loader import load_plugins  # loads plugins: only when asked to

        registries = load_plugins()
    source = wordlist_source(wordlist, registries)
    entry = registries.rules.entry(rule)
    lines = source.load()
    if cache is None:
        cache = not os.environ.get(ENV_NO_CACHE, "").strip()
    # a rule from a local file or module has no version to key the cache on
    if not cache or not entry.origin.version:
        return Dictionary(source.name, lines, entry.item)
    key = cache_key(lines, entry.name, entry.origin.release)
    built = cached(key, lambda: build(source.name, lines, entry.item))
    return Dictionary(source.name, lines, entry.item, built)
