"""A packed trie: one 64-bit word per node, in a native ``vec[i64]``.

Node word layout (bit 63 stays clear so every value is a positive i64):
  bits  0-25  which child letters exist (bit k = letter a+k; ``q`` means "qu")
  bit     26  a word ends here
  bits 27-50  index of the first child; children are stored contiguously in
              letter order, so child k sits at first + popcount(mask below k)
  bits 51-62  scratch stamp owned by one Scorer (zero in the shared trie)
Points per node live in a separate vector: they are read only when a new
word is found, while the node word is read on every step. Compiled with mypyc.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from .errors import WordListError

LETTER_MASK: Final[i64] = (1 << 26) - 1
WORD_BIT: Final[i64] = 1 << 26
CHILD_SHIFT: Final[i64] = 27
CHILD_MASK: Final[i64] = (1 << 24) - 1
STAMP_SHIFT: Final[i64] = 51
STAMP_MAX: Final[i64] = (1 << 12) - 1
STAMP_CLEAR: Final[i64] = (1 << 51) - 1


def popcount26(x: i64) -> i64:
    """Set bits of a value below 2**32 (int.bit_count is a slow generic call)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) >> 24) & 0xFF


def child_index(word: i64, letter: i64) -> i64:
    """Index of ``letter``'s child of a node word, or -1 if it has none."""
    bit: i64 = 1 << letter
    mask = word & LETTER_MASK
    if (mask & bit) == 0:
        return -1
    return ((word >> CHILD_SHIFT) & CHILD_MASK) + popcount26(mask & (bit - 1))


class PackedTrie:
    """Immutable after construction; scorers copy ``nodes`` to own their stamps."""

    nodes: vec[i64]
    points: vec[i64]
    n_words: i64

    def __init__(
        self,
        keys: list[bytes],
        points: list[int],
        saved: tuple[vec[i64], vec[i64], i64] | None = None,
    ) -> None:
        """Build from sorted, distinct keys (bytes a-z, ``q`` for "qu") and their points.

        ``saved`` is ``(nodes, points, n_words)`` of an earlier build (the
        dictionary cache), taken as they are; ``keys`` and ``points`` are then unused.
        """
        if saved is not None:
            self.nodes, self.points, self.n_words = saved
            return
        if len(keys) != len(points):
            raise ValueError("keys and points differ in length")
        if not keys:
            raise WordListError("the word list has no usable words")
        self.n_words = len(keys)
        nodes: vec[i64] = vec[i64]()
        node_points: vec[i64] = vec[i64]()
        # Breadth-first: each node of a level is a run [lo, hi) of keys that
        # share their first ``depth`` letters; children get consecutive ids.
        level_lo: list[int] = [0]
        level_hi: list[int] = [len(keys)]
        depth: i64 = 0
        next_id: i64 = 1
        while level_lo:
            child_lo: list[int] = []
            child_hi: list[int] = []
            for j in range(len(level_lo)):
                lo: i64 = level_lo[j]
                hi: i64 = level_hi[j]
                word: i64 = 0
                pts: i64 = 0
                if len(keys[lo]) == depth:
                    word = WORD_BIT
                    pts = points[lo]
                    lo += 1
                mask: i64 = 0
                first = next_id
                i = lo
                while i < hi:
                    letter: i64 = keys[i][depth] - 97
                    if letter < 0 or letter >= 26:
                        raise ValueError(f"key {keys[i]!r} is not lower-case a-z")
                    start = i
                    while i < hi and keys[i][depth] - 97 == letter:
                        i += 1
                    if mask & (1 << letter):
                        raise ValueError("keys are not sorted and distinct")
                    mask |= 1 << letter
                    child_lo.append(start)
                    child_hi.append(i)
                    next_id += 1
                if next_id > CHILD_MASK:
                    raise WordListError("word list too large for the packed trie")
                if mask == 0:
                    first = 0
                nodes = append(nodes, mask | word | (first << CHILD_SHIFT))
                node_points = append(node_points, pts)
            level_lo = child_lo
            level_hi = child_hi
            depth += 1
        self.nodes = nodes
        self.points = node_points

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    def nbytes(self) -> int:
        """Bytes held by the node and points vectors."""
        return 16 * len(self.nodes)
