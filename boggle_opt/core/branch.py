"""Branch and bound over one board class. Compiled with mypyc.

Build the class's orderly tree; while its bound is high, force the top cell
to each of its letters by merging trees (each merge halves the freedom);
once a bound falls to ``switch_pct`` percent of the cutoff (or to a fixed
``switch_score``), finish the branch with the orderly bound, which is cheaper
per board but prunes later. On big boards a forced tree that still bounds
high is built again from the subclass's paths, de-duplicated
(``TreeBuilder.build_forced``): a far lower bound, for a build's cost. With a deadline, a solve stops between the
letters of its first cell with several letters, so the letters left can be
solved elsewhere without losing the ones done.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from librt.vecs import vec
from mypy_extensions import i64

from .geometry import Geometry
from .orderly import OrderlyBound
from .arena import BOUND
from .builder import TreeBuilder, framed, unframed
from .tree import Tree, cell_order, class_cell_order
from .trie import PackedTrie, popcount26, tile_bit


# The de-duplicating force (build_forced) by default: on boards of at least
# DEDUP_MIN_CELLS cells, once a tree forced at level DEDUP_LEVEL or deeper
# still bounds at least DEDUP_PCT percent of the switch to the orderly bound
# and DEDUP_CUTOFF_PCT percent of the cutoff (4x4 at 3500: 19985, the 20000
# measured). A de-duplicated build costs 0.1-2 s against milliseconds for a
# merge, so it pays only where the tree below is big: measured (details in
# docs/benchmarks.md) 3.6x faster on a hard 4x4 subclass, and a loss on
# every 3x4 sample class, whose trees are small. 20000 against 14000 (400%)
# on 9 of the 4x4 proof's slowest classes: 0.87x their CPU (pairs 0.77-1.01;
# most of 14000's builds, a level deeper, cost more than the merges they
# saved), the anchor samples the same; 11375 was slower, and none at all
# 1.45x on the slowest class.
DEDUP_MIN_CELLS: Final[i64] = 16
DEDUP_LEVEL: Final[i64] = 2
DEDUP_PCT: Final[i64] = 175
DEDUP_CUTOFF_PCT: Final[i64] = 571
# A class whose tree would need an arena of more than this many words (the
# builder's estimate from its path count, 14 words a path; 4 bytes a word)
# is solved in parts by the letters of its first cell with several letters
# (as many letters a part as keep its estimate within the part limits
# below; ``_solve_parts``): 4 GB. Such a class shares its tree's repeated
# families (builder.py's SHARE_ARENA_WORDS, 700 MB), which takes 3.2-3.4
# words a path, so below this its tree takes about 1 GB; the biggest
# measured, the best 4x4 board's class, estimates 1.9 GB and peaks at about
# 1.1 GB whole. A solve in parts costs a build search per part, so classes
# below this stay whole.
SPLIT_ARENA_WORDS: Final[i64] = 1 << 30
# From 16 cells, split from 1.9 GB of estimate instead, so that a 4x4 class
# peaks under 1 GB (issue 45: cluster workers with 2 GB a core): of the 120
# classes of benchmarks/bnb-4x4-corners120.tsv, the five above it (5, 28, 84,
# 85, 94: 22% of the sample's CPU) then peak at 776-892 MB instead of up to
# 1,102, for 2-16% more of their CPU (about 2% of a proof); the best board's
# free-corner class 1,765 -> 1,402 MB, and under 1 GB only with its parts
# shared and split again (below; docs/benchmarks.md).
SPLIT_MIN_CELLS: Final[i64] = 16
SPLIT_ARENA_WORDS_BIG: Final[i64] = 475_000_000
# A subclass of a split class whose estimate is still above this is split
# again, by the letters of its next position with several letters
# (from SPLIT_MIN_CELLS cells; smaller boards never split twice): 1.4 GB;
# and a part of such a subclass from SPLIT_DEEP_WORDS_BIG, 800 MB. Only the
# densest classes split twice: the best 4x4 board's class with free corners
# (estimate 4,148 MB) splits into subclasses of 969-1,958 MB, whose own
# parts estimate 670-930 MB and peaked at up to 1.09 times that (the
# sampled classes' parts, at most 0.85 times). Split only once, with its parts
# shared, the class peaked at 1,036 MB; with every part from 800 MB split,
# 833 MB for 1.1-1.2x the CPU (docs/benchmarks.md). The 120 sampled
# classes' subclasses estimate at most 1,051 MB, so they never split twice.
SPLIT_AGAIN_WORDS_BIG: Final[i64] = 350_000_000
SPLIT_DEEP_WORDS_BIG: Final[i64] = 200_000_000
# On boards of at least ORDER_MIN_CELLS cells each class gets its own cell
# order (tree.class_cell_order: each tier of the fixed order fewest letters
# first), unless the solver was given one: on 4x4, 14% less CPU over 640
# sample classes, 15% on the anchor sample (docs/benchmarks.md);
# on the 3x4 sample it changed nothing (14.3 s either way), so 3x4 and
# smaller keep the fixed order, and with it the trees, candidates and figures
# measured against the research line's.
ORDER_MIN_CELLS: Final[i64] = 16


class ClassSolver:
    """Finds the candidate boards of classes of one size; reuse for many classes."""

    n: i64
    geometry: Geometry
    # cell of each position; the last solve's if order_by_class (its split
    # cell, order[split_level], is the one ``unfinished`` refers to)
    order: list[int]
    symbols: str  # the alphabet's tiles in code order (the boards it returns)
    order_by_class: bool
    # a wide alphabet (more than 26 tiles, ``builder.BNB_TILES``): the trees'
    # choice masks, and ``masks`` and ``forced`` here, are relative to each
    # position's tile set in the class being solved (``builder.frame``)
    wide: bool
    builder: TreeBuilder
    ob: OrderlyBound
    masks: vec[i64]
    forced: vec[i64]
    tree: Tree | None  # the arena, reused from class to class
    cutoff: i64
    switch_pct: i64
    switch_score: i64  # > 0: switch at this bound instead of the ratio
    # > 0: a forced tree whose bound is at least this, at level dedup_level or
    # deeper, is built again de-duplicated (TreeBuilder.build_forced); 0:
    # never; < 0 (the default): chosen per solve (DEDUP_*)
    dedup_score: i64
    dedup: i64  # the threshold of this solve
    dedup_level: i64
    sub_masks: vec[i64]  # the letters of each position for build_forced
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
    # the same phases in CPU seconds (the wall times above swell on a busy
    # machine): the build's measured, forcing's and the orderly bound's their
    # wall times scaled by the solve's CPU over its wall time, since a CPU
    # clock is a system call (a microsecond; a 3x3 proof's classes spent a
    # quarter of their time reading it around each forcing)
    build_cpu: float
    force_cpu: float
    bound_cpu: float
    peak_words: i64
    built_words: i64  # arena words of the built tree
    arena_words: i64  # arena words allocated (its pages are all touched)
    # per level: the highest bound of a tree forced there, and how many were forced
    level_bound: vec[i64]
    level_forces: vec[i64]
    # per level: CPU seconds of its forcings (de-duplicated builds included)
    # and the arena words they wrote, which is where forcing's time goes
    level_cpu: list[float]
    level_words: vec[i64]
    orderly_bound_max: i64  # the highest bound handed to the orderly bound
    dedups: i64  # forced trees built again de-duplicated
    dedup_cpu: float  # their CPU seconds (in force_cpu too)
    dedup_seconds: float  # and their wall time
    # > 0: a class whose arena estimate exceeds this many words is solved as
    # its subclasses by the letters of cell order[split_level] (0: never)
    split_words: i64
    # > 0: a subclass whose estimate exceeds this is split again (0: never),
    # and a part of a subclass split again from split_deep_words
    split_again_words: i64
    split_deep_words: i64
    # a split class's parts share their families, however small
    # (TreeBuilder.share_all; on from SPLIT_MIN_CELLS cells): unshared, a part
    # of the best 4x4 board's free-corner class built in one pass (up to 12
    # million paths, no estimate) or estimated just under the 700 MB share
    # threshold peaked at 1,002-1,252 MB (trees of 310-609 MB, their forcing
    # another 130-330 MB; docs/benchmarks.md)
    share_parts: bool
    subclasses: i64  # subclasses the last solve built (0: the class was built whole)
    shared: bool  # the last solve's tree shared its repeated families (builder.py)
    # called between forcings, between a split class's parts and (by the
    # builder) between the starts of a build's search, if set: a
    # plain-Python function whose call lets the interpreter run a pending
    # signal's handler (compiled code never does, so Ctrl-C waited for the
    # whole class, minutes on 4x4); whatever it raises ends the solve
    poll: Callable[[], None] | None

    def __init__(self, trie: PackedTrie, geometry: Geometry, order: list[int] | None = None) -> None:
        self.n = geometry.n
        self.geometry = geometry
        self.order = list(order) if order is not None else cell_order(geometry)
        self.symbols = trie.symbols
        self.order_by_class = order is None and self.n >= ORDER_MIN_CELLS
        self.builder = TreeBuilder(trie, geometry, self.order)
        self.wide = self.builder.wide
        self.ob = OrderlyBound(self.n)
        self.masks = vec[i64]([0] * self.n)
        self.forced = vec[i64]([0] * self.n)
        self.tree = None
        self.cutoff = 0
        self.switch_pct = 150
        self.switch_score = 0
        self.dedup_score = -1
        self.dedup = 0
        self.dedup_level = DEDUP_LEVEL
        self.sub_masks = vec[i64]([0] * self.n)
        self.split_level = 0
        self.deadline = 0.0
        self.unfinished = 0
        self.split_words = SPLIT_ARENA_WORDS_BIG if self.n >= SPLIT_MIN_CELLS else SPLIT_ARENA_WORDS
        self.split_again_words = SPLIT_AGAIN_WORDS_BIG if self.n >= SPLIT_MIN_CELLS else 0
        self.split_deep_words = SPLIT_DEEP_WORDS_BIG if self.n >= SPLIT_MIN_CELLS else 0
        self.share_parts = self.n >= SPLIT_MIN_CELLS
        self.poll = None
        self._reset_stats()

    def _reset_stats(self) -> None:
        self.n_nodes = 0
        self.root_bound = 0
        self.forces = 0
        self.bounds = 0
        self.build_seconds = 0.0
        self.force_seconds = 0.0
        self.bound_seconds = 0.0
        self.build_cpu = 0.0
        self.force_cpu = 0.0
        self.bound_cpu = 0.0
        self.peak_words = 0
        self.built_words = 0
        self.arena_words = 0
        self.level_bound = vec[i64]([0] * self.n)
        self.level_forces = vec[i64]([0] * self.n)
        self.level_cpu = [0.0] * self.n
        self.level_words = vec[i64]([0] * self.n)
        self.orderly_bound_max = 0
        self.dedups = 0
        self.dedup_cpu = 0.0
        self.dedup_seconds = 0.0
        self.subclasses = 0
        self.shared = False

    def scoring_trie(self) -> PackedTrie:
        """The word list for a ``Scorer`` of this size, from the builder's
        own vectors (``TreeBuilder.scoring_trie``)."""
        return self.builder.scoring_trie()

    def build(self, cell_masks: list[int]) -> Tree:
        """The orderly tree of a class (letter sets by cell)."""
        self._order_for(cell_masks)
        self.builder.poll = self.poll
        return self.builder.build(cell_masks)

    def _order_for(self, cell_masks: list[int]) -> None:
        """Take the class's own cell order if ``order_by_class``, and (in a
        wide alphabet) its tile sets as the frame of its trees."""
        if self.order_by_class:
            self.order = class_cell_order(self.geometry, cell_masks)
            self.builder.set_order(self.order)  # a no-op if it is the builder's already
        if self.wide:
            self.builder.set_frame(cell_masks)

    def _framed(self, p: i64, mask: i64) -> i64:
        """Position ``p``'s tiles ``mask`` as its trees' choice masks write them."""
        return framed(mask, self.builder.frame[p]) if self.wide else mask

    def _tiles(self, p: i64, marks: i64) -> i64:
        """The inverse of ``_framed``: choice-mask bits of position ``p`` as tiles."""
        return unframed(marks, self.builder.frame[p]) if self.wide else marks

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
        wall0 = time.perf_counter()
        cpu0 = time.process_time()
        self._order_for(cell_masks)
        self.builder.poll = self.poll
        self.deadline = deadline
        self.unfinished = 0
        self.split_level = self.n
        for p in range(self.n):
            if popcount26(cell_masks[self.order[p]]) > 1:
                self.split_level = p
                break
        self.cutoff = cutoff
        self.switch_pct = switch_pct
        self.switch_score = switch_score
        self.dedup = self.dedup_score
        if self.dedup < 0:
            self.dedup = 0
            if self.n >= DEDUP_MIN_CELLS:
                switch = switch_score if switch_score > 0 else switch_pct * cutoff // 100
                self.dedup = max(DEDUP_PCT * switch // 100, DEDUP_CUTOFF_PCT * cutoff // 100)
        self.ob.found = vec[i64]()
        self.ob.visits = 0
        limit = self.split_words if self.split_level < self.n else 0
        tree = self._build(cell_masks, limit)
        if tree is not None:
            self._solve_tree(tree, cell_masks)
        else:
            # Too big to build whole: solve it as its subclasses, by the
            # letters of the split cell (one or several each), reusing the
            # arena, so the whole tree never exists and the peak is the
            # biggest subclass's tree and its forcing. Every board is still
            # found: the class is the disjoint union of these subclasses,
            # and a subclass's tree, forced at the split level to one of
            # its letters, is the whole tree forced there to that letter
            # (the same paths: those on the other letters are exactly the
            # ones left out), so from
            # there the branching is the whole solve's. A subclass's root
            # bound is at least that forced bound (forcing merges choices:
            # a max of sums is at most the sum of maxes) and is a true bound
            # of its subclass in any case, being its orderly tree's bound.
            # The statistics: root_bound is the highest subclass root bound,
            # which is the whole tree's when the split cell is the first
            # position (the root's choice there is the max over its letters;
            # the root's other children are the same) and at most it if
            # single-letter cells come first; n_nodes and built_words are the
            # biggest subclass tree's, the times and counts their sums.
            self.builder.share_all = self.share_parts
            try:
                self._solve_parts(list(cell_masks), self.split_level, True)
            finally:
                self.builder.share_all = False
        self._cpu_from_wall(time.process_time() - cpu0, time.perf_counter() - wall0)
        found = self.ob.found
        n = self.n
        boards: list[str] = []
        symbols = self.symbols
        letters = [""] * n
        for i in range(len(found) // n):
            for p in range(n):
                letter = found[i * n + p]
                if self.wide:
                    letter = popcount26(self._tiles(p, tile_bit(letter)) - 1)
                letters[self.order[p]] = symbols[letter]
            boards.append("".join(letters))
        return boards

    def _cpu_from_wall(self, cpu: float, wall: float) -> None:
        """Forcing's and the orderly bound's CPU from their wall times, at
        the solve's ratio of CPU to wall time (at most 1)."""
        ratio = min(cpu / wall, 1.0) if wall > 0.0 else 1.0
        self.force_cpu = self.force_seconds * ratio
        self.bound_cpu = self.bound_seconds * ratio
        self.dedup_cpu = self.dedup_seconds * ratio
        for level in range(self.n):
            self.level_cpu[level] *= ratio

    def _solve_parts(self, sub: list[int], level: i64, top: bool) -> None:
        """Solve the class ``sub`` in parts by the letters of cell
        ``order[level]``: one letter a part, or as many as keep a part's
        estimate within the limit below (``sub`` is restored on return).
        A part whose arena estimate is
        above ``split_again_words`` (a part of a part: ``split_deep_words``)
        is solved the same way at its next position with several letters: it
        is a class in its own right, the disjoint union of those parts, so
        the argument above holds for it as for the class. Only the top split
        stops at the deadline, between letters, so ``unfinished`` names
        whole subclasses."""
        cell = self.order[level]
        full: i64 = sub[cell]
        after = level + 1
        while after < self.n and popcount26(sub[self.order[after]]) <= 1:
            after += 1
        limit = 0
        if after < self.n:
            limit = self.split_again_words if top else self.split_deep_words
        # Letters whose subclasses together stay within the limit are one
        # part: every part builds again the paths that miss this cell, so
        # fewer parts build less (five 4x4 classes split at 1 GB, six
        # parts each one vowel at a time, in 2-3 parts instead: builds
        # 0.58x, the classes 0.89-0.95x; docs/benchmarks.md). A part is
        # forced at this cell to each of its letters, which gives the whole
        # tree's forced trees, as a one-letter part's root does. Without a
        # limit (no later cell to split a part at), one letter a part, as
        # the limit was set for.
        groups = self.builder.letter_groups(level, full, min(limit, self.split_words) if limit > 0 else 0)
        # Where the class's counts give each part's (a split at the first
        # position), a part is built from them at once: not tried in one
        # pass first and searched again to count, two searches of a big
        # part's paths that the refused class's build already made.
        exact = self.builder.exact_parts(level)
        counts = self.builder.path_counts() if exact else vec[i64]()
        m = full
        for group in groups:
            m ^= group
            sub[cell] = group
            if self.poll is not None:
                self.poll()
            if exact:
                self.builder.part_counts(counts, level, group)
            part = self._build(sub, limit, exact)
            if part is None:
                self._solve_parts(sub, after, False)
            else:
                self.subclasses += 1
                self._solve_tree(part, sub)
            if self.unfinished != 0:
                # the deadline passed between this part's own letters (its
                # tree branches at split_level): they, and the parts left
                self.unfinished |= m
                break
            if top and m != 0 and self.deadline > 0.0 and time.perf_counter() > self.deadline:
                self.unfinished = m  # as the whole solve stops at split_level
                break
        sub[cell] = int(full)

    def _build(self, cell_masks: list[int], max_words: i64, counted: bool = False) -> Tree | None:
        """The class's tree in the solver's arena, or None if its arena
        estimate is above ``max_words`` (> 0); statistics added up. With
        ``counted``, its paths are counted already (``build_within``)."""
        t0 = time.perf_counter()
        c0 = time.process_time()
        tree = self.builder.build_within(cell_masks, self.tree, max_words, counted)
        self.build_seconds += time.perf_counter() - t0
        self.build_cpu += time.process_time() - c0
        if tree is None:
            return None
        self.shared = self.builder.fams.on
        self.tree = tree
        self.built_words = max(self.built_words, tree.top)
        self.n_nodes = max(self.n_nodes, tree.n_nodes)
        self.root_bound = max(self.root_bound, i64(tree.a[tree.root + BOUND]))
        return tree

    def _solve_tree(self, tree: Tree, cell_masks: list[int]) -> None:
        """Branch and bound from the root of the tree of ``cell_masks``."""
        for p in range(self.n):
            self.masks[p] = self._framed(p, cell_masks[self.order[p]])
            self.forced[p] = 0
        self._branch(tree, tree.root, 0)
        self.peak_words = max(self.peak_words, tree.top)
        self.arena_words = max(self.arena_words, len(tree.a))

    def _dedup(self, tree: Tree, mark: i64, merged: i64, level: i64) -> i64:
        """The forced tree at ``merged`` (positions up to ``level`` forced)
        built again de-duplicated in its place, or ``merged`` if it cannot be."""
        t0 = time.perf_counter()
        top = tree.top
        tree.top = mark  # the merged tree's nodes are not needed
        for p in range(self.n):
            self.sub_masks[p] = self._tiles(p, tile_bit(self.forced[p]) if p <= level else self.masks[p])
        child = self.builder.build_forced(tree, self.sub_masks, level + 1)
        self.dedup_seconds += time.perf_counter() - t0
        if child < 0:
            tree.top = top
            return merged
        self.dedups += 1
        return child

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
            if bound > self.orderly_bound_max:
                self.orderly_bound_max = bound
            self.ob.run(tree, root, level, self.masks, self.forced, self.cutoff)
            self.bound_seconds += time.perf_counter() - t0
            return
        m = self.masks[level]
        while m != 0:
            bit: i64 = m & -m
            m ^= bit
            letter = popcount26(bit - 1)
            self.forced[level] = letter
            if self.poll is not None:
                self.poll()
            mark = tree.top
            t0 = time.perf_counter()
            child = tree.force(root, level, letter)
            if (
                self.dedup > 0 and level >= self.dedup_level and level + 1 < self.n
                and i64(tree.a[child + BOUND]) >= self.dedup
            ):
                child = self._dedup(tree, mark, child, level)
            self.forces += 1
            spent = time.perf_counter() - t0
            self.force_seconds += spent
            self.level_cpu[level] += spent  # (wall until the solve's end scales it)
            self.level_words[level] += tree.top - mark
            self.level_forces[level] += 1
            self.level_bound[level] = max(self.level_bound[level], i64(tree.a[child + BOUND]))
            self._branch(tree, child, level + 1)
            if tree.top > self.peak_words:
                self.peak_words = tree.top
            tree.top = mark
            if m != 0 and level == self.split_level and self.deadline > 0.0 and time.perf_counter() > self.deadline:
                self.unfinished = self._tiles(level, m)
                return
