"""The old home of the dictionary and board functions, kept so imports of it work.

New code imports from where each lives: ``load_dictionary`` from
``boggle_opt.dictionary.dictionary``, ``analyse`` from ``boggle_opt.analysis``,
``make_geometry``/``geometry_for`` from ``boggle_opt.boards`` (or all of them
from ``boggle_opt``).
"""

from __future__ import annotations

from .analysis import BoardReport, analyse
from .boards import geometry_for, make_geometry
from .defaults import RULE as DEFAULT_RULE
from .defaults import WORDLIST as DEFAULT_WORDLIST
from .registry.dictionaries import load_dictionary, wordlist_source

__all__ = [
    "DEFAULT_RULE", "DEFAULT_WORDLIST", "BoardReport", "analyse", "geometry_for",
    "load_dictionary", "make_geometry", "wordlist_source",
]
