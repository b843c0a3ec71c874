"""The library entry points: load a dictionary, score and analyse boards."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .core.geometry import Geometry, check_letters, infer_size, parse_size
from .core.scorer import FoundWord
from .dictionary import Dictionary
from .plugin_loader import Registries, load_plugins
from .wordlist import WordListSource, looks_like_path, path_source

DEFAULT_WORDLIST = "default"
DEFAULT_RULE = "standard"


def wordlist_source(spec: str, registries: Registries) -> WordListSource:
    """A registered word list by name or alias, else a file path."""
    if spec not in registries.wordlists and looks_like_path(spec):
        return path_source(spec)
    return registries.wordlists.get(spec)  # unknown: lists the available names


def load_dictionary(
    wordlist: str = DEFAULT_WORDLIST,
    rule: str = DEFAULT_RULE,
    registries: Registries | None = None,
) -> Dictionary:
    """Build the dictionary for a word list (name or path) and a rule name."""
    regs = registries if registries is not None else load_plugins()
    scoring_rule = regs.rules.get(rule)
    source = wordlist_source(wordlist, regs)
    return Dictionary(source.name, source.load(), scoring_rule)


def geometry_for(board: str, size: str | None) -> Geometry:
    """The geometry named by ``size`` (``CxR``), else the square one the board fits."""
    letters = check_letters(board)
    cols, rows = parse_size(size) if size is not None else infer_size(len(letters))
    return make_geometry(cols, rows)


@cache
def make_geometry(cols: int, rows: int) -> Geometry:
    # immutable, and building one computes every symmetry: make each size once
    return Geometry(cols, rows)


@dataclass(frozen=True)
class BoardReport:
    board: str
    size: str
    score: int
    words: list[FoundWord]
    multi: int
    demulti: int


def analyse(dictionary: Dictionary, board: str, size: str | None = None) -> BoardReport:
    """Score, words with paths, Multi and de-duplicated Multi for one board."""
    geometry = geometry_for(board, size)
    board = geometry.parse(board)
    scorer = dictionary.scorer(geometry)
    return BoardReport(
        board=board,
        size=geometry.size,
        score=scorer.score(board),
        words=scorer.words(board),
        multi=scorer.multi(board),
        demulti=scorer.demulti(board),
    )
