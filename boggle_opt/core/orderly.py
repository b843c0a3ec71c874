"""The orderly bound: force an orderly tree's cells in order. Compiled with mypyc.

For each position there is a stack of the choice nodes for that cell that
the letters forced so far have reached. Forcing a letter at the next
position takes, from every choice node on its stack, that letter's sum node:
its points are now certain, its choice children go on their cells' stacks.
``points + sum of the stacked bounds`` bounds every board below, so a branch
is dropped as soon as it falls below the cutoff; every complete board that
survives is a candidate, to be re-scored by the real scorer.
"""

from __future__ import annotations

from librt.vecs import append, vec
from mypy_extensions import i64

from .tree import BOUND, COUNT, KIDS, MASK, POINTS, POS, Tree
from .trie import popcount26


class OrderlyBound:
    """Reusable scratch for orderly bounds of one board size."""

    n: i64
    cutoff: i64
    masks: vec[i64]  # letters allowed at each position
    forced: vec[i64]  # letter forced at each position so far
    entries: vec[i64]  # pairs (choice node, previous entry of its position)
    head: vec[i64]  # latest entry per position, -1 if none
    ssum: vec[i64]  # sum of the bounds stacked per position
    found: vec[i64]  # candidates, n letters each (by position)
    visits: i64  # letters tried

    def __init__(self, n: i64) -> None:
        self.n = n
        self.cutoff = 0
        self.masks = vec[i64]([0] * n)
        self.forced = vec[i64]([0] * n)
        self.entries = vec[i64]()
        self.head = vec[i64]([-1] * n)
        self.ssum = vec[i64]([0] * n)
        self.found = vec[i64]()
        self.visits = 0

    def run(
        self, tree: Tree, root: i64, level: i64, masks: vec[i64], forced: vec[i64], cutoff: i64
    ) -> None:
        """Add to ``found`` every board of the subtree at ``root`` (positions
        before ``level`` forced to ``forced``) whose bound reaches ``cutoff``."""
        a = tree.a
        n = self.n
        self.cutoff = cutoff
        for p in range(n):
            self.masks[p] = masks[p]
            self.forced[p] = forced[p]
            self.head[p] = -1
            self.ssum[p] = 0
        # every choice node of the tree may be stacked at once, at worst
        need = 2 * (tree.top // KIDS + 1)
        if len(self.entries) < need:
            self.entries = vec[i64]([0] * need)
        k = a[root + COUNT]
        e: i64 = 0
        for j in range(k):
            c = a[root + KIDS + j]
            p = a[c + POS]
            self.entries[e] = c
            self.entries[e + 1] = self.head[p]
            self.head[p] = e
            self.ssum[p] += a[c + BOUND]
            e += 2
        _force(self, a, level, a[root + POINTS], a[root + BOUND] - a[root + POINTS], e)


def _force(st: OrderlyBound, a: vec[i64], level: i64, points: i64, rest: i64, top: i64) -> None:
    """Try each letter at position ``level``; ``rest`` is the sum of the
    stacked bounds of positions ``level`` and after; entries end at ``top``."""
    n = st.n
    if level == n:
        found = st.found
        for p in range(n):
            found = append(found, st.forced[p])
        st.found = found
        return
    entries = st.entries
    head = st.head
    ssum = st.ssum
    cutoff = st.cutoff
    base = rest - ssum[level]
    m = st.masks[level]
    while m != 0:
        bit: i64 = m & -m
        m ^= bit
        st.visits += 1
        p = points
        add: i64 = 0
        e = head[level]
        t = top
        while e >= 0:
            c = entries[e]
            cm = a[c + MASK]
            if (cm & bit) != 0:
                s = a[c + KIDS + popcount26(cm & (bit - 1))]
                p += a[s + POINTS]
                k = a[s + COUNT]
                for j in range(s + KIDS, s + KIDS + k):
                    ch = a[j]
                    q = a[ch + POS]
                    cb = a[ch + BOUND]
                    entries[t] = ch
                    entries[t + 1] = head[q]
                    head[q] = t
                    ssum[q] += cb
                    add += cb
                    t += 2
            e = entries[e + 1]
        if p + base + add >= cutoff:
            st.forced[level] = popcount26(bit - 1)
            _force(st, a, level + 1, p, base + add, t)
        # pop this letter's entries, newest first
        while t > top:
            t -= 2
            ch = entries[t]
            q = a[ch + POS]
            head[q] = entries[t + 1]
            ssum[q] -= a[ch + BOUND]
