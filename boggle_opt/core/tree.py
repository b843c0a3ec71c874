"""Orderly sum/choice trees for board classes, in one packed arena. Compiled with mypyc.

A board class gives each cell a set of letters. Its orderly tree holds every
path to every word on any board of the class, with the path's cells sorted by
a fixed cell order: a sum node (points; choice children) per prefix of forced
cells, a choice node (one cell; a sum child per letter) per next cell.
Bound(sum) = points + sum of children's bounds; bound(choice) = max over its
letters. No board of the class scores more than the root's bound.

Inside the core a cell is named by its position in the cell order (0 is
nearest the root), so a path's cells sort by sorting their bits.

Arena layout (one ``vec[i32]``: half the memory and cache lines of 64-bit
words; nodes are immutable once written, so forced trees share every subtree
they do not change):
  sum node:    [points << 5 | k, bound, choice child 0 .. k-1]   (children by position)
  choice node: [letter mask << 5 | position, bound, (sum child, its bound) per letter]
A sum node's own choice children follow it directly (a "family"), so the
orderly bound, which reads a sum node and then its children, finds them in
the same or the next cache line; and a choice node keeps each sum child's
bound beside it, so the orderly bound drops most letters without reading the
sum nodes at all (those reads were a third of its time). Forcing appends new nodes at ``top``; a
caller truncates by resetting ``top``.

``builder`` writes a class's tree into the arena; ``orderly`` bounds it.
"""

from __future__ import annotations

from typing import Any, Final

from librt.vecs import extend, vec
from mypy_extensions import i32, i64

from .arena import BOUND, HEAD, KIDS, LOW, LOW_BITS, MAX_POINTS, SLOT
from .geometry import Geometry
from .path_keys import ZERO_BLOCK
from .trie import popcount26, tile_bit

# The arena and the build records grow by this many zeroed words at a time:
# ``extend`` reallocates in place where it can, so growing never holds two
# copies (a slice-and-extend doubling peaked at three). The zeros past the
# top are resident, so at a class's peak they are memory: 1 MB, not the 4 MB
# of 1 << 20 (zeroed 4096 words at a time either way).
GROW: Final[i64] = 1 << 18


def cell_order(geometry: Geometry) -> list[int]:
    """Cells nearest the root first: most neighbours first (centre, then
    edges, then corners), ties by distance to the centre, then index. For 4x4
    this is the order docs/reference.md gives."""
    cols = geometry.cols
    rows = geometry.rows
    keyed: list[tuple[int, int, int]] = []
    for c in range(geometry.n):
        x = c // rows
        y = c % rows
        # twice the distance to the centre, squared, in whole numbers
        dx = 2 * x - (cols - 1)
        dy = 2 * y - (rows - 1)
        keyed.append((-len(geometry.neighbours(c)), dx * dx + dy * dy, c))
    keyed.sort()
    order = [c for _, _, c in keyed]
    if cols == 4 and rows == 4:
        # docs/reference.md's ranks (higher = nearer the root), cells 0..15
        ranks = [3, 11, 9, 1, 7, 15, 14, 6, 5, 13, 12, 4, 2, 10, 8, 0]
        order = sorted(range(16), key=lambda c: -ranks[c])
    return order


def class_cell_order(geometry: Geometry, cell_masks: list[int]) -> list[int]:
    """``cell_order(geometry)`` with each tier of it (cells with as many
    neighbours: centre, edges, corners) reordered fewest letters first, ties
    kept as they were. Forcing goes down the order, so a cell of few letters
    forced early leaves fewer subtrees at every level below it for the same
    drop in bound; across tiers the order stays, since a cell with more
    neighbours takes more from the bound when forced (sorting all cells by
    letters alone was about 2x slower on 4x4). Any order gives a true bound."""
    base = cell_order(geometry)
    order: list[int] = []
    start = 0
    while start < len(base):
        end = start
        k = len(geometry.neighbours(base[start]))
        while end < len(base) and len(geometry.neighbours(base[end])) == k:
            end += 1
        tier = base[start:end]
        # stable: ties keep cell_order's ranks
        tier.sort(key=lambda c: popcount26(cell_masks[c]))
        order.extend(tier)
        start = end
    return order


def fresh32(words: i64) -> vec[i32]:
    """``words`` zeros in a buffer of exactly that capacity (growing one
    past its capacity copies it, holding both copies for a moment)."""
    return grown32(vec[i32](capacity=words), words, words)


def reserved32(words: i64) -> vec[i32]:
    """An empty buffer with room for ``words`` words, none of them resident:
    fresh memory is not until it is written, and the room becomes resident
    only as ``grown32`` appends into it, in place. (Compiled,
    ``vec[i32]([], capacity=...)`` writes zeros over all of it; from an
    iterable of unknown type it goes through the constructor that only
    allocates.)"""
    nothing: Any = ()
    return vec[i32](nothing, capacity=words)


def grown32(v: vec[i32], words: i64, want: i64 = 0) -> vec[i32]:
    """``v`` with zeros appended to at least ``words`` words: to ``want`` if
    given, else an eighth bigger."""
    if want < words:
        # an eighth more: the arena's pages are all touched, so slack costs memory
        want = max(words, len(v) + len(v) // 8)
    # copied in from a small block: a block of GROW words made from a list
    # would have both beside the arena as it grows
    block = vec[i32]([0] * min(want - len(v), ZERO_BLOCK))
    while len(v) + len(block) <= want and len(block) > 0:
        v = extend(v, block)
    if len(v) < want:
        v = extend(v, block[: want - len(v)])
    return v


def reserved64(words: i64) -> vec[i64]:
    """An empty buffer with room for ``words`` words, none of them resident
    (as ``reserved32``)."""
    nothing: Any = ()
    return vec[i64](nothing, capacity=words)


class Tree:
    """An arena of orderly-tree nodes and the root of the class's tree."""

    a: vec[i32]
    top: i64
    root: i64
    n: i64
    n_nodes: i64  # sum and choice nodes of the built tree
    cap: i64  # words reserved for ``a`` (its capacity): it grows in place up to here

    def __init__(self, a: vec[i32], top: i64, root: i64, n: i64, n_nodes: i64) -> None:
        self.a = a
        self.top = top
        self.root = root
        self.n = n
        self.n_nodes = n_nodes
        self.cap = len(a)

    def reserve_arena(self, words: i64) -> None:
        """An empty arena with room for ``words`` words, none of them touched
        (the old one let go first). Twice that is asked for first: room not
        touched costs no memory, and an arena that outgrows its room is
        copied, holding both copies at once (a 4x4 class whose forcing took
        16 words a path against the 14 reserved peaked at 2.1 GB that way);
        where the system will not give that much address space, just
        ``words``."""
        self.a = vec[i32]()
        try:
            self.a = reserved32(2 * words)
            self.cap = 2 * words
        except MemoryError:
            self.a = reserved32(words)
            self.cap = words

    def fit(self, words: i64) -> None:
        """An arena for a tree whose estimate (tree and forcing) is ``words``:
        the one held if it has the room a new one would get (``reserve_arena``:
        twice the estimate), else a new one. An arena kept from the last class
        (or subclass) with room for the estimate but not twice it is copied
        once the forcing outgrows that room, both copies resident for a
        moment: class 28 of benchmarks/bnb-4x4-corners120.tsv, split at
        1,900 MB, built its last subclass (one pass, unshared) in the 583 MiB
        the subclass before had reserved, its forcing took the arena to 638
        MiB, and the class peaked at 1,414 MB against 789 MB for that
        subclass solved alone. A new arena's pages are zeroed as they are
        first touched, but so are a kept one's past KEEP_ARENA (given back
        when the build starts). Memory only: the tree written is the same."""
        if not self.keeps(words):
            self.reserve_arena(words)

    def keeps(self, words: i64) -> bool:
        """Whether ``fit(words)`` keeps the arena held (else it reserves anew)."""
        return self.cap >= 2 * words

    def let_go(self) -> None:
        """Free the arena, so that it does not sit beside a build's paths;
        the build reserves a new one once it knows them."""
        self.a = vec[i32]()
        self.cap = 0

    def room(self, words: i64) -> None:
        """At least ``words`` words in the arena: zeros appended a block at a
        time (in place within the capacity; past it, the vector is copied)."""
        if words > len(self.a):
            self.a = grown32(self.a, words, words + GROW)
            self.cap = max(self.cap, len(self.a))

    def bound(self, node: i64) -> i64:
        return i64(self.a[node + BOUND])

    def _reserve(self, words: i64) -> i64:
        """Index of ``words`` fresh words at the top of the arena."""
        at = self.top
        if at + words > len(self.a):
            self.room(at + words)
        self.top = at + words
        return at

    # -- forcing the top cell ----------------------------------------------

    def force(self, root: i64, pos: i64, letter: i64) -> i64:
        """The tree of the boards with ``letter`` at position ``pos``, the
        first unforced position: the letter's subtree merged into the rest."""
        a = self.a
        k = (i64(a[root]) & LOW)
        if k == 0 or (i64(a[i64(a[root + KIDS])]) & LOW) != pos:
            return root  # no word uses this cell: every letter gives the same tree
        choice = i64(a[root + KIDS])
        mask = (i64(a[choice]) >> LOW_BITS)
        bit: i64 = tile_bit(letter)
        if (mask & bit) == 0:
            # only the words that skip the cell remain
            at = self._reserve(KIDS + k - 1)
            a = self.a
            a[at + HEAD] = i32(i64(a[root]) - 1)  # the same points, one child fewer
            a[at + BOUND] = i32(i64(a[root + BOUND]) - i64(a[choice + BOUND]))
            for j in range(1, k):
                a[at + KIDS + j - 1] = a[root + KIDS + j]
            return at
        sub = i64(a[choice + KIDS + SLOT * popcount26(mask & (bit - 1))])
        return self._merge_sum(root, 1, sub, 0)

    def _merge_sum(self, s1: i64, skip1: i64, s2: i64, skip2: i64) -> i64:
        """A new sum node: s1 and s2 added, ignoring their first ``skip``
        children. Children present in only one are shared, not copied; the
        merged choice children are written right after the new node."""
        a = self.a
        k1 = (i64(a[s1]) & LOW)
        k2 = (i64(a[s2]) & LOW)
        # count the union of the two position-sorted child lists, and the
        # words of the choice nodes both have (merged here)
        i = skip1
        j = skip2
        k: i64 = 0
        words: i64 = 0
        while i < k1 or j < k2:
            if i < k1 and j < k2:
                c1 = i64(a[s1 + KIDS + i])
                c2 = i64(a[s2 + KIDS + j])
                p1 = (i64(a[c1]) & LOW)
                p2 = (i64(a[c2]) & LOW)
                if p1 == p2:
                    words += KIDS + SLOT * popcount26((i64(a[c1]) >> LOW_BITS) | (i64(a[c2]) >> LOW_BITS))
                if p1 <= p2:
                    i += 1
                if p2 <= p1:
                    j += 1
            elif i < k1:
                i += 1
            else:
                j += 1
            k += 1
        at = self._reserve(KIDS + k + words)
        a = self.a
        points = (i64(a[s1]) >> LOW_BITS) + (i64(a[s2]) >> LOW_BITS)
        if points > MAX_POINTS:
            raise ValueError("class too big: a node's points exceed 2**26")
        a[at + HEAD] = i32(points << LOW_BITS | k)
        i = skip1
        j = skip2
        out = at + KIDS
        fam = at + KIDS + k  # next merged choice node of the family
        bound = points
        while i < k1 or j < k2:
            child: i64 = 0
            if i < k1 and j < k2:
                c1 = i64(a[s1 + KIDS + i])
                c2 = i64(a[s2 + KIDS + j])
                p1 = (i64(a[c1]) & LOW)
                p2 = (i64(a[c2]) & LOW)
                if p1 == p2:
                    child = fam
                    fam += self._merge_choice(fam, c1, c2)
                    a = self.a
                    i += 1
                    j += 1
                elif p1 < p2:
                    child = c1
                    i += 1
                else:
                    child = c2
                    j += 1
            elif i < k1:
                child = i64(a[s1 + KIDS + i])
                i += 1
            else:
                child = i64(a[s2 + KIDS + j])
                j += 1
            a[out] = i32(child)
            out += 1
            bound += i64(a[child + BOUND])
        a[at + BOUND] = i32(bound)
        return at

    def _merge_choice(self, at: i64, c1: i64, c2: i64) -> i64:
        """Write at ``at`` (reserved) the choice node for one cell that adds,
        per letter, the sum children of c1 and c2; return its size in words."""
        a = self.a
        m1 = (i64(a[c1]) >> LOW_BITS)
        m2 = (i64(a[c2]) >> LOW_BITS)
        mask = m1 | m2
        a[at + HEAD] = i32(mask << LOW_BITS | (i64(a[c1]) & LOW))
        bound: i64 = 0
        out = at + KIDS
        i: i64 = 0
        j: i64 = 0
        m = mask
        while m != 0:
            bit = m & -m
            m ^= bit
            child: i64 = 0
            if (m1 & bit) != 0 and (m2 & bit) != 0:
                child = self._merge_sum(i64(a[c1 + KIDS + i]), 0, i64(a[c2 + KIDS + j]), 0)
                a = self.a
                i += SLOT
                j += SLOT
            elif (m1 & bit) != 0:
                child = i64(a[c1 + KIDS + i])
                i += SLOT
            else:
                child = i64(a[c2 + KIDS + j])
                j += SLOT
            b = i64(a[child + BOUND])
            a[out] = i32(child)
            a[out + 1] = i32(b)
            out += SLOT
            if b > bound:
                bound = b
        a[at + BOUND] = i32(bound)
        return out - at
