"""A packed trie: one 64-bit word per node, in a native ``vec[i64]``.

Node word layout (bit 63 stays clear so every value is a positive i64):
  bits  0-31  which child tiles exist (bit k = the tile of code k: for
              English ``a``+k, ``q`` meaning "qu"; ``core.alphabet``)
  bit     32  a word ends here
  bits 33-56  index of the first child; children are stored contiguously in
              tile order, so child k sits at first + popcount(mask below k)
Points per node live in a separate vector: they are read only when a word is
found, while the node word is read on every step; a Scorer keeps its stamps
beside its copy of them. A word that tiles spell in more than one way (``th``
beside ``t`` and ``h``) ends at one node per way: ``aliases`` pairs each
later way's node with the first way's, so a scorer counts the word once.
Compiled with mypyc.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from .errors import WordListError

#: tiles a node's mask holds (``core.alphabet.MAX_TILES``)
N_TILES: Final[i64] = 32
LETTER_MASK: Final[i64] = (1 << 32) - 1
WORD_BIT: Final[i64] = 1 << 32
CHILD_SHIFT: Final[i64] = 33
CHILD_MASK: Final[i64] = (1 << 24) - 1
#: a key's byte is its tile's code plus this (English: the letter itself)
KEY_BASE: Final[i64] = 97
#: English's tiles, the default of every trie
LATIN: Final[str] = "abcdefghijklmnopqrstuvwxyz"


def popcount26(x: i64) -> i64:
    """Set bits of a value below 2**32 (int.bit_count is a slow generic call)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) >> 24) & 0xFF


def tile_bit(code: i64) -> i64:
    """``1 << code`` in 64 bits: mypyc shifts a literal 1 in 32 bits, where
    the 32nd tile's bit (Polish's) would come out negative."""
    one: i64 = (code >> 62) + 1  # 1 for every code, but no literal to mypyc
    return one << code


def child_index(word: i64, letter: i64) -> i64:
    """Index of ``letter``'s child of a node word, or -1 if it has none."""
    bit: i64 = tile_bit(letter)
    mask = word & LETTER_MASK
    if (mask & bit) == 0:
        return -1
    return ((word >> CHILD_SHIFT) & CHILD_MASK) + popcount26(mask & (bit - 1))


class PackedTrie:
    """Immutable after construction; scorers copy ``points`` to own their stamps."""

    nodes: vec[i64]
    points: vec[i64]
    n_words: i64
    #: the tiles' symbols in code order (``core.alphabet``): how a scorer reads a board
    symbols: str
    #: (node, node of the word's first way) pairs: ways but the first of a word
    aliases: vec[i64]
    #: the letters each tile spells, in code order (English: ``q`` spells "qu")
    spellings: list[str]

    def __init__(
        self,
        keys: list[bytes],
        points: list[int],
        saved: tuple[vec[i64], vec[i64], i64] | None = None,
        symbols: str = LATIN,
        words: list[int] | None = None,
        aliases: vec[i64] | None = None,
        spellings: list[str] | None = None,
    ) -> None:
        """Build from sorted, distinct keys (a byte a tile: its code plus
        ``KEY_BASE``, so English's keys are a-z with ``q`` for "qu") and their
        points. ``words``, where a word has several keys, gives each key its
        word's number (one key a word by default).

        ``saved`` is ``(nodes, points, n_words)`` of an earlier build (the
        dictionary cache) and ``aliases`` its aliases, taken as they are;
        ``keys``, ``points`` and ``words`` are then unused.
        """
        if len(symbols) > N_TILES or len(symbols) == 0:
            raise ValueError(f"an alphabet has 1 to {N_TILES} tiles, got {len(symbols)}")
        self.symbols = symbols
        self.aliases = aliases if aliases is not None else vec[i64]()
        if spellings is None:
            spellings = ["qu" if symbols == LATIN and ch == "q" else ch for ch in symbols]
        if len(spellings) != len(symbols):
            raise ValueError("an alphabet needs one spelling a tile")
        self.spellings = spellings
        if saved is not None:
            self.nodes, self.points, self.n_words = saved
            return
        if len(keys) != len(points):
            raise ValueError("keys and points differ in length")
        if not keys:
            raise WordListError("the word list has no usable words")
        n_tiles: i64 = len(symbols)
        self.n_words = len(keys) if words is None else len(set(words))
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
                    letter: i64 = keys[i][depth] - KEY_BASE
                    if letter < 0 or letter >= n_tiles:
                        raise ValueError(f"key {keys[i]!r} has a byte that is no tile's")
                    start = i
                    while i < hi and keys[i][depth] - KEY_BASE == letter:
                        i += 1
                    if mask & tile_bit(letter):
                        raise ValueError("keys are not sorted and distinct")
                    mask |= tile_bit(letter)
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
        if words is not None and len(words) != len(keys):
            raise ValueError("keys and words differ in length")
        if words is not None and self.n_words < len(keys):
            self.aliases = self._alias(keys, words)

    def _alias(self, keys: list[bytes], words: list[int]) -> vec[i64]:
        """Pair each key's end node with its word's first key's end node."""
        first: dict[int, int] = {}
        out: vec[i64] = vec[i64]()
        for j in range(len(keys)):
            node: i64 = 0
            for b in keys[j]:
                node = child_index(self.nodes[node], b - KEY_BASE)
            at = first.get(words[j], -1)
            if at < 0:
                first[words[j]] = node
            else:
                out = append(out, node)
                out = append(out, at)
        return out

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    def nbytes(self) -> int:
        """Bytes held by the node and points vectors."""
        return 16 * len(self.nodes)
