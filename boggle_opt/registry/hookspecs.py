"""The hook specifications: every hook only registers things.

A plugin module implements any of these with ``@boggle_opt.hookimpl`` and is
named in the ``boggle_opt`` entry-point group of its package. After loading,
the rest of the program works with the typed registries, never with hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from ..constraints.dice import DiceSet
from ..dictionary.language import Language
from ..dictionary.rules import ScoringRule
from ..dictionary.wordlist import WordListSource

hookspec = pluggy.HookspecMarker("boggle_opt")


@hookspec
def register_searchers(register: Callable[[Any], None]) -> None:
    """Register searcher classes: ``register(MySearcher)``.

    A searcher class has a ``name`` and a one-line summary: its ``summary``
    attribute, else its docstring's first line (``search.summary_of``).
    """


@hookspec
def register_executors(register: Callable[[Any], None]) -> None:
    """Register executor classes: ``register(MyExecutor)`` (see ``boggle_opt.proofs.executor``).

    An executor class has a ``name``, a one-line summary (its docstring's
    first line) and ``open(setup)``; ``--executor NAME`` picks one.
    """


@hookspec
def register_scoring_rules(register: Callable[[ScoringRule], None]) -> None:
    """Register scoring rules: ``register(ScoringRule(...))``."""


@hookspec
def register_languages(register: Callable[[Language], None]) -> None:
    """Register languages: ``register(Language(...))`` (tiles, and how a word
    list's entries become words; ``boggle_opt.dictionary.language``)."""


@hookspec
def register_wordlists(register: Callable[[WordListSource], None]) -> None:
    """Register word-list sources: ``register(WordListSource(...))``."""


@hookspec
def register_dice_sets(register: Callable[[DiceSet], None]) -> None:
    """Register dice sets: ``register(DiceSet(name, summary, dice))``."""
