"""A worker's re-scoring of candidates: the same boards and scores as the
word list's own scorer, with no scorer held between 4x4 classes."""

from __future__ import annotations

import random

import pytest
from helpers import small  # noqa: F401  (a fixture)

from boggle_opt.core.branch import ClassSolver
from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.rescore import Rescorer


@pytest.mark.parametrize("size, held", [((3, 3), True), ((4, 4), False)])
def test_rescorer_keeps_what_scores_enough(
    small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int], held: bool
) -> None:
    _, d = small
    geometry = Geometry(*size)
    rng = random.Random(7)
    boards = ["".join(rng.choice("aeilnrstq") for _ in range(geometry.n)) for _ in range(300)]
    scorer = d.scorer(geometry)
    scores = [scorer.score(b) for b in boards]
    cut = sorted(scores)[len(scores) // 2]
    assert cut > 0
    rescorer = Rescorer(ClassSolver(d.trie, geometry), geometry)
    assert (rescorer.held is not None) is held
    got = rescorer.at_least(boards, cut)
    assert got == [(b, s) for b, s in zip(boards, scores) if s >= cut]
    assert (rescorer.held is not None) is held  # a 4x4 worker's scorer is dropped after
    assert rescorer.at_least([], cut) == []
