"""One board analysed: score, words with paths, Multi and de-duplicated Multi."""

from __future__ import annotations

from dataclasses import dataclass

from .boards import geometry_for
from .core.scorer import FoundWord
from .dictionary.dictionary import Dictionary


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
