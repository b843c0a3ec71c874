"""A pool of distinct good boards: where annealing's reheats start from.

Reheating only from the best board spends every reheat in one basin: on a
5x5 board a run whose first good anneal lands near a local optimum keeps
returning there, and a later anneal that reached the slope of a better
basin, but not yet above the best, is thrown away. The pool keeps the best
boards of several basins instead. Boards within ``radius`` cells of each
other (under the board's best symmetry) count as one basin, of which the
pool keeps the better board.
"""

from __future__ import annotations

from collections.abc import Sequence


class Pool:
    """Up to ``size`` boards, best first, no two within ``radius`` cells."""

    def __init__(self, size: int, radius: int, symmetries: Sequence[Sequence[int]]) -> None:
        """``symmetries``: the board's, as ``Geometry.symmetries`` gives them."""
        self.size = size
        self.radius = radius
        self.perms = symmetries
        self.boards: list[tuple[str, int]] = []

    def distance(self, a: str, b: str) -> int:
        """Cells in which ``a`` and ``b`` differ, under the symmetry that
        brings them closest."""
        return min(sum(a[i] != b[p] for i, p in enumerate(perm)) for perm in self.perms)

    def add(self, board: str, score: int) -> bool:
        """Keep ``board`` if no board near it scores as much and it is among the
        ``size`` best; the boards near it go. True if it was kept."""
        near = {i for i, (b, _) in enumerate(self.boards) if self.distance(board, b) <= self.radius}
        if any(self.boards[i][1] >= score for i in near):
            return False
        kept = [p for i, p in enumerate(self.boards) if i not in near]
        kept.append((board, score))
        kept.sort(key=lambda p: -p[1])  # stable: of equal scores the older first
        self.boards = kept[: self.size]
        return (board, score) in self.boards
