"""Re-scoring a class's candidate boards in a worker (boards are re-scored,
not trusted), with the scorer held between classes only where that is
worth its memory."""

from __future__ import annotations

from ..core.branch import ClassSolver
from ..core.geometry import Geometry
from ..core.pages import trim_heap
from ..core.scorer import Scorer
from ..core.trie import PackedTrie

# From this many cells a worker builds a scorer for each class that has
# candidates and drops it after: a scorer's private copy of the trie
# (ENABLE2K: 9 MB resident) would otherwise sit beside the tree through
# every build and forcing, and a 4x4 class's peak is its tree plus the
# worker's base. Building one takes a few milliseconds, nothing beside a
# 4x4 class (most have no candidates at all); a 3x3 proof's thousands of
# classes of milliseconds keep theirs.
DROP_SCORER_FROM_CELLS = 16


class Rescorer:
    """Scores candidate boards of the solver's size and word list. The
    scorer is made from the solver's own copy of the word list, so a worker
    keeps no trie of its own beside it."""

    def __init__(self, solver: ClassSolver, geometry: Geometry, trie: PackedTrie | None = None) -> None:
        self.solver = solver
        self.geometry = geometry
        #: the trie the solver was made from: its alphabet and aliases go with the scorer's copy
        self.trie = trie
        self.held: Scorer | None = None
        if geometry.n < DROP_SCORER_FROM_CELLS:
            self.held = self._scorer()

    def _scorer(self) -> Scorer:
        """A scorer of the solver's copy of the word list, reading boards in
        the trie's alphabet and counting a word that tiles spell in several
        ways (Dutch ``ij``) once, as the dictionary's own scorer does."""
        copy = self.solver.scoring_trie()
        trie = self.trie
        if trie is not None and (copy.symbols != trie.symbols or copy.spellings != trie.spellings
                                 or len(copy.aliases) != len(trie.aliases)):
            copy = PackedTrie([], [], (copy.nodes, copy.points, copy.n_words), symbols=trie.symbols,
                              aliases=trie.aliases, spellings=trie.spellings)
        return Scorer(copy, self.geometry)

    def at_least(self, candidates: list[str], min_score: int) -> list[tuple[str, int]]:
        """The candidates that score at least ``min_score``, with their scores."""
        if not candidates:
            return []
        scorer = self.held if self.held is not None else self._scorer()
        boards = []
        for board in candidates:
            score = scorer.score(board)
            if score >= min_score:
                boards.append((board, score))
        if self.held is None:
            del scorer
            trim_heap()  # malloc may keep the freed copy resident otherwise
        return boards
