"""Branch and bound over one board class. Compiled with mypyc.

Build the class's orderly tree; while its bound is high, force the top cell
to each of its letters by merging trees (each merge halves the freedom);
once a bound falls to ``switch_pct`` percent of the cutoff (or to a fixed
``switch_score``), finish the branch with the orderly bound, which is cheaper
per board but prunes later. With a deadline, a solve stops between the
letters of its first cell with several letters, so the letters left can be
solved elsewhere without losing the ones done.
"""

from __future__ import annotations

import time

from librt.vecs import vec
from mypy_extensions import i64

from .geometry import Geometry
from .orderly import OrderlyBound
from .arena import BOUND
from .tree import Tree, TreeBuilder, cell_order
from .trie import PackedTrie, popcount26


class ClassSolver:
    """Finds the candidate boards of classes of one size; reuse for many classes."""

    n: i64
    order: list[int]
    builder: TreeBuilder
    ob: OrderlyBound
    masks: vec[i64]
    forced: vec[i64]
    tree: Tree | None  # the arena, reused from class to class
    cutoff: i64
    switch_pct: i64
    switch_score: i64  # > 0: switch at this bound instead of the ratio
    split_level: i64  # the first level with several letters: where a deadline may stop
    deadline: float  # > 0: time.perf_counter() past which solve() stops at split_level
    # letters (bit mask) of the split level's cell left unsolved when the deadline passed
    unfinished: i64
    # statistics of the last solve()
    n_nodes: i64
    root_bound: i64
    forces: i64
    bounds: i64
    build_seconds: float
    force_seconds: float
    bound_seconds: float
    peak_words: i64

    def __init__(self, trie: PackedTrie, geometry: Geometry, order: list[int] | None = None) -> None:
        self.n = geometry.n
        self.order = list(order) if order is not None else cell_order(geometry)
        self.builder = TreeBuilder(trie, geometry, self.order)
        self.ob = OrderlyBound(self.n)
        self.masks = vec[i64]([0] * self.n)
        self.forced = vec[i64]([0] * self.n)
        self.tree = None
        self.cutoff = 0
        self.switch_pct = 150
        self.switch_score = 0
        self.split_level = 0
        self.deadline = 0.0
        self.unfinished = 0
        self._reset_stats()

    def _reset_stats(self) -> None:
        self.n_nodes = 0
        self.root_bound = 0
        self.forces = 0
        self.bounds = 0
        self.build_seconds = 0.0
        self.force_seconds = 0.0
        self.bound_seconds = 0.0
        self.peak_words = 0

    def build(self, cell_masks: list[int]) -> Tree:
        """The orderly tree of a class (letter sets by cell)."""
        return self.builder.build(cell_masks)

    def solve(
        self, cell_masks: list[int], cutoff: int, switch_pct: int = 150, switch_score: int = 0,
        deadline: float = 0.0,
    ) -> list[str]:
        """Boards of the class (letter sets by cell) that the bounds cannot
        rule out from scoring ``cutoff`` or more: a superset of the boards
        that do. Boards are column-major strings. A branch goes to the orderly
        bound once its bound is at most ``switch_score`` if that is > 0, else
        at most ``switch_pct`` percent of ``cutoff``. With ``deadline`` > 0
        (a ``time.perf_counter()`` value) the solve may stop early: then
        ``unfinished`` holds the letters (bit mask) of cell ``order[split_level]``
        not yet solved, and the boards returned are those of the other letters."""
        self._reset_stats()
        self.deadline = deadline
        self.unfinished = 0
        self.split_level = self.n
        for p in range(self.n):
            if popcount26(cell_masks[self.order[p]]) > 1:
                self.split_level = p
                break
        t0 = time.perf_counter()
        tree = self.builder.build(cell_masks, self.tree)
        self.tree = tree
        self.build_seconds = time.perf_counter() - t0
        self.n_nodes = tree.n_nodes
        self.root_bound = i64(tree.a[tree.root + BOUND])
        self.cutoff = cutoff
        self.switch_pct = switch_pct
        self.switch_score = switch_score
        for p in range(self.n):
            self.masks[p] = cell_masks[self.order[p]]
            self.forced[p] = 0
        self.ob.found = vec[i64]()
        self.ob.visits = 0
        self._branch(tree, tree.root, 0)
        self.peak_words = max(self.peak_words, tree.top)
        found = self.ob.found
        n = self.n
        boards: list[str] = []
        letters = [""] * n
        for i in range(len(found) // n):
            for p in range(n):
                letters[self.order[p]] = chr(97 + found[i * n + p])
            boards.append("".join(letters))
        return boards

    def _branch(self, tree: Tree, root: i64, level: i64) -> None:
        bound = i64(tree.a[root + BOUND])
        if bound < self.cutoff:
            return
        if self.switch_score > 0:
            switch = bound <= self.switch_score
        else:
            switch = bound * 100 <= self.switch_pct * self.cutoff
        if level == self.n or switch:
            t0 = time.perf_counter()
            self.bounds += 1
            self.ob.run(tree, root, level, self.masks, self.forced, self.cutoff)
            self.bound_seconds += time.perf_counter() - t0
            return
        m = self.masks[level]
        while m != 0:
            bit: i64 = m & -m
            m ^= bit
            letter = popcount26(bit - 1)
            self.forced[level] = letter
            mark = tree.top
            t0 = time.perf_counter()
            child = tree.force(root, level, letter)
            self.forces += 1
            self.force_seconds += time.perf_counter() - t0
            self._branch(tree, child, level + 1)
            if tree.top > self.peak_words:
                self.peak_words = tree.top
            tree.top = mark
            if m != 0 and level == self.split_level and self.deadline > 0.0 and time.perf_counter() > self.deadline:
                self.unfinished = m
                return
