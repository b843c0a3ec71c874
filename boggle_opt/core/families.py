"""Sharing identical families while a tree is built. Compiled with mypyc.

A family is a sum node and its choice children, written together in the
arena (see ``arena``). Two sum nodes whose families hold the same words
(their choice children's addresses taken relative to the node) and point
to the same sum children are the same subtree: every algorithm over the tree
reads it as a tree of values, never by address, and no node is changed once
written, so the second can be the first. In an orderly tree most families
are such repeats, the tails of paths that end the same way after different
beginnings: on a 4x4 class 96% of the words of families up to 8 words long,
73% of all the tree's words.

A family is written at the arena's top after its children's families (a
builder writes a node's family, then its children's); so when it repeats an
older one, every child it points to is old too, nothing was written after
it, and the builder takes back its words by lowering the top.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import vec
from mypy_extensions import i32, i64

from .arena import KIDS, LOW, LOW_BITS, SLOT
from .trie import popcount26

SMALL: Final[i64] = 1 << 12  # table slots of a new table (a power of two)
HASH_MASK: Final[i64] = (1 << 40) - 1  # keeps the hash's products within 64 bits


class Families:
    """The families of one build, by content: an open-addressing table of
    arena addresses + 1 (0: empty), at most half full."""

    table: vec[i32]
    count: i64
    on: bool  # share in this build (off: ``intern`` is not called)

    def __init__(self) -> None:
        self.table = vec[i32]([0] * SMALL)
        self.count = 0
        self.on = False

    def clear(self) -> None:
        """Forget every family (a new build, or a tree taken back)."""
        if len(self.table) > SMALL:
            self.table = vec[i32]()
            self.table = vec[i32]([0] * SMALL)
        elif self.count != 0:
            # every slot written counts (``_insert``, ``intern``): none counted,
            # none to clear (builds that share nothing reset often; plain
            # Python paid a second a tree clearing empty tables)
            t = self.table
            for i in range(len(t)):
                t[i] = 0
        self.count = 0

    def forget_from(self, a: vec[i32], top: i64) -> None:
        """Forget the families at ``top`` and above (their words were taken back)."""
        old = self.table
        self.table = vec[i32]([0] * len(old))
        self.count = 0
        for i in range(len(old)):
            e = i64(old[i])
            if e != 0 and e - 1 < top:
                _insert(self, a, e - 1)


def family_words(a: vec[i32], at: i64) -> i64:
    """Words of the family of the sum node at ``at``."""
    k = i64(a[at]) & LOW
    words = KIDS + k
    for j in range(at + KIDS, at + KIDS + k):
        words += KIDS + SLOT * popcount26(i64(a[i64(a[j])]) >> LOW_BITS)
    return words


def _hash(a: vec[i32], at: i64, end: i64) -> i64:
    kids_end = at + KIDS + (i64(a[at]) & LOW)
    h: i64 = 0
    for j in range(at, end):
        w = i64(a[j])
        if j >= at + KIDS and j < kids_end:
            w -= at  # a choice child's address, relative: the same in a repeat
        h = (h * 1000003 + w) & HASH_MASK
    return h ^ (h >> 19)


def _same(a: vec[i32], c: i64, at: i64, end: i64) -> bool:
    """The family at ``c`` (older: below ``at``) holds the same words as the
    one at ``at..end``. Equal heads give equal lengths part by part, so the
    walk stops at the first difference and never reads past ``end - at``
    words from ``c``."""
    kids_end = at + KIDS + (i64(a[at]) & LOW)
    d = c - at
    for j in range(at, end):
        w = i64(a[j])
        v = i64(a[j + d])
        if j >= at + KIDS and j < kids_end:
            if v - c != w - at:
                return False
        elif v != w:
            return False
    return True


def _insert(f: Families, a: vec[i32], at: i64) -> None:
    t = f.table
    mask = len(t) - 1
    i = _hash(a, at, at + family_words(a, at)) & mask
    while t[i] != 0:
        i = (i + 1) & mask
    t[i] = i32(at + 1)
    f.count += 1


def intern(f: Families, a: vec[i32], at: i64, end: i64) -> i64:
    """The node of an older family with the words of the one at ``at..end``
    (the caller then takes back ``at..end``), or ``at``, now recorded."""
    t = f.table
    mask = len(t) - 1
    i = _hash(a, at, end) & mask
    while True:
        e = i64(t[i])
        if e == 0:
            break
        if _same(a, e - 1, at, end):
            return e - 1
        i = (i + 1) & mask
    if 2 * (f.count + 1) > len(t):
        old = t
        f.table = vec[i32]()
        f.table = vec[i32]([0] * (2 * len(old)))
        f.count = 0
        for x in range(len(old)):
            e = i64(old[x])
            if e != 0:
                _insert(f, a, e - 1)
        _insert(f, a, at)
    else:
        t[i] = i32(at + 1)
        f.count += 1
    return at
