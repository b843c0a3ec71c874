"""Score boards against a packed trie. Compiled with mypyc.

One Scorer owns a private copy of the trie so it can stamp the words it has
found on the current board (two scorers sharing stamps would corrupt each
other's results). It takes one of two layouts, chosen once per trie, each with
its own compiled search:

* narrow, for a trie of at most 26 tiles that spells each word one way
  (English, French, Italian): the node words re-packed as before the tiles
  change (26-bit mask, word bit, child index, and a 12-bit stamp in the node
  word itself), then the points. A word found again by another path costs no
  read beyond the node word the search has just read.
* wide, for up to 32 tiles or a trie with aliases: the trie's node words as
  they are, then a slot a node holding its points and stamp. A word that tiles
  spell in several ways (the trie's ``aliases``) is stamped at its first way's
  node, so it counts once.

Reporting (words, Multi) walks the trie's own node words in either layout and
stamps through ``_claim``; the hot searches (score, score_count,
neighbourhood) read only the scorer's copy.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, extend, vec
from mypy_extensions import i64

from .errors import BoardError
from .geometry import Geometry
from .trie import (
    CHILD_MASK,
    CHILD_SHIFT,
    LATIN,
    LETTER_MASK,
    WORD_BIT,
    PackedTrie,
    child_index,
    tile_bit,
)

# The narrow layout of a scorer's node words (bit 63 stays clear), 735a405's:
#   bits  0-25  child tiles; bit 26 a word ends here; bits 27-50 first child;
#   bits 51-62  the stamp of the last board that found the node's word
# with each node's points after the node words. The stamps wrap every 4,095
# boards, when they are cleared: a pass over the node words.
NARROW_TILES: Final[i64] = 26
N_LETTER_MASK: Final[i64] = (1 << 26) - 1
N_WORD_BIT: Final[i64] = 1 << 26
N_CHILD_SHIFT: Final[i64] = 27
N_STAMP_SHIFT: Final[i64] = 51
N_STAMP_MAX: Final[i64] = (1 << 12) - 1
N_STAMP_CLEAR: Final[i64] = (1 << 51) - 1

# The wide layout: the trie's node words, then a node's slot: its points (47
# bits: pow2 gives a word of 45 letters 2**42), and the stamp of the last
# board that found its word; an alias (another way to spell a word) holds the
# node of the word's first way instead, with ALIAS_BIT set. The stamps wrap every 32,767 boards, when
# they are cleared: a pass over the slots, a few steps a board.
PTS_MASK: Final[i64] = (1 << 47) - 1
ALIAS_BIT: Final[i64] = 1 << 47
STAMP_SHIFT: Final[i64] = 48
SLOT_CLEAR: Final[i64] = (1 << 48) - 1
STAMP_MAX: Final[i64] = (1 << 15) - 1
# the neighbourhood's credit words: a bit per tile below, the stamp above
CREDIT_SHIFT: Final[i64] = 32
# cells table, per cell: [letter bit, neighbours' letter bits, neighbour
# count, up to 8 neighbours]
NBR_LETTERS: Final[i64] = 1
COUNT: Final[i64] = 2
FIRST_NBR: Final[i64] = 3
STRIDE: Final[i64] = 11


def _narrow_word(w: i64) -> i64:
    """A trie node word (``core.trie``'s layout) in the narrow layout, its stamp 0."""
    word: i64 = N_WORD_BIT if (w & WORD_BIT) != 0 else 0
    return (w & N_LETTER_MASK) | word | (((w >> CHILD_SHIFT) & CHILD_MASK) << N_CHILD_SHIFT)


class FoundWord:
    """A word found on a board, with the cells of one path that spells it."""

    word: str
    points: int
    path: list[int]

    def __init__(self, word: str, points: int, path: list[int]) -> None:
        self.word = word
        self.points = points
        self.path = path

    def __repr__(self) -> str:
        return f"FoundWord({self.word!r}, {self.points}, {self.path})"


class Scorer:
    """Scores boards of one geometry; reusable for any number of boards."""

    geometry: Geometry
    n: i64
    #: the layout of ``nodes``: narrow (26 tiles, no aliases) or wide
    narrow: bool
    # the scorer's own node words (narrow or wide, stamped), then per node its
    # points (narrow) or slot (wide)
    nodes: vec[i64]
    # the trie's node words (wide, shared, never written): what reporting walks
    tnodes: vec[i64]
    n_nodes: i64
    points: vec[i64]
    # per cell, stride STRIDE: the bit of its letter on the current board
    # (0 while a path uses the cell), the letter bits of its neighbours, the
    # neighbour count, the neighbours
    cells: vec[i64]
    cellbits: vec[i64]  # 1 << cell, for the used-cell masks of reporting
    letters: vec[i64]
    #: tile code by a symbol's code point (-1: no tile), and each tile's letters
    table: vec[i64]
    spellings: list[str]
    n_tiles: i64
    symbols: str
    aliased: bool
    stamp: i64
    # neighbourhood scoring state
    credit: vec[i64]
    credit_stamp: i64

    def __init__(self, trie: PackedTrie, geometry: Geometry, wide: bool = False) -> None:
        """``wide`` takes the wide layout even where the narrow one would do
        (for tests that compare the two)."""
        self.geometry = geometry
        self.n = geometry.n
        # node words, then each node's points or slot: the hot loop reads both
        # from one vector (fewer arguments per recursive call)
        self.n_nodes = len(trie.nodes)
        self.tnodes = trie.nodes
        for p in trie.points:
            if p < 0 or p > PTS_MASK:
                raise ValueError(f"a word's points must lie in 0..{PTS_MASK}, got {p}")
        self.aliased = len(trie.aliases) > 0
        self.narrow = not wide and not self.aliased and len(trie.symbols) <= NARROW_TILES
        if self.narrow:
            own = vec[i64]()
            for w in trie.nodes:
                own = append(own, _narrow_word(w))
            self.nodes = extend(own, trie.points)
        else:
            slots = vec[i64](trie.points)
            j: i64 = 0
            while j < len(trie.aliases):
                slots[trie.aliases[j]] = ALIAS_BIT | trie.aliases[j + 1]
                j += 2
            self.nodes = extend(vec[i64](trie.nodes), slots)
        self.points = trie.points
        symbols = trie.symbols
        self.symbols = symbols
        self.n_tiles = len(symbols)
        top: i64 = 0
        for ch in symbols:
            top = max(top, ord(ch))
        table = vec[i64]([-1] * (top + 1))
        for code in range(len(symbols)):
            table[ord(symbols[code])] = code
        self.table = table
        self.spellings = trie.spellings
        cells: vec[i64] = vec[i64]()
        cellbits: vec[i64] = vec[i64]()
        bit: i64 = 1
        for c in range(self.n):
            nbrs = geometry.neighbours(c)
            cells = append(cells, 1)
            cells = append(cells, LETTER_MASK)
            cells = append(cells, len(nbrs))
            for j in range(STRIDE - FIRST_NBR):
                cells = append(cells, nbrs[j] if j < len(nbrs) else -1)
            cellbits = append(cellbits, bit)
            # shift through a variable: bit 63 is the sign bit, so write it as
            # the minimum i64 (a literal 1 << c would be a 32-bit C shift)
            bit = bit * 2 if c < 62 else -9223372036854775807 - 1
        # after the cells: the node count (where points start) and the stamp
        cells = append(cells, self.n_nodes)
        cells = append(cells, 0)
        self.cells = cells
        self.cellbits = cellbits
        self.letters = vec[i64]([0] * self.n)
        self.stamp = 0
        self.credit = vec[i64]()  # allocated by the first neighbourhood()
        self.credit_stamp = 0

    # -- board input -------------------------------------------------------

    def _load(self, board: str) -> None:
        if len(board) != self.n:
            raise BoardError(
                f"bad board {board!r}: {len(board)} letters, "
                f"but a {self.geometry.size} board has {self.n}"
            )
        letters = self.letters
        cells = self.cells
        table = self.table
        for i in range(self.n):
            o: i64 = ord(board[i])
            letter: i64 = table[o] if o < len(table) else -1
            if letter < 0:
                what = "letter a-z" if self.symbols == LATIN else "tile of this alphabet"
                raise BoardError(f"bad board {board!r}: character {board[i]!r} is not a {what}")
            letters[i] = letter
            cells[i * STRIDE] = tile_bit(letter)
        for i in range(self.n):
            at = i * STRIDE
            around: i64 = 0
            for k in range(at + FIRST_NBR, at + FIRST_NBR + cells[at + COUNT]):
                around |= cells[cells[k] * STRIDE]
            cells[at + NBR_LETTERS] = around

    def _next_stamp(self) -> i64:
        stamp = self.stamp + 1
        nodes = self.nodes
        if self.narrow and stamp > N_STAMP_MAX:
            for i in range(self.n_nodes):
                nodes[i] = nodes[i] & N_STAMP_CLEAR
            stamp = 1
        elif stamp > STAMP_MAX:
            for i in range(self.n_nodes, 2 * self.n_nodes):
                nodes[i] = nodes[i] & SLOT_CLEAR
            stamp = 1
        self.stamp = stamp
        self.cells[len(self.cells) - 1] = stamp
        return stamp

    def _root_child(self, letter: i64) -> i64:
        return child_index(self.tnodes[0], letter)

    def _first_way(self, node: i64) -> i64:
        """The node of the first way to spell ``node``'s word (itself but for
        an alias)."""
        if self.narrow:
            return node
        s = self.nodes[self.n_nodes + node]
        return (s & PTS_MASK) if (s & ALIAS_BIT) != 0 else node

    def _found(self, node: i64, stamp: i64) -> bool:
        """Whether the board of ``stamp`` has found the word of ``node``, a
        first way."""
        if self.narrow:
            return (self.nodes[node] >> N_STAMP_SHIFT) == stamp
        return (self.nodes[self.n_nodes + node] >> STAMP_SHIFT) == stamp

    def _claim(self, node: i64) -> i64:
        """The points of ``node``'s word if this board has not found it yet
        (stamping it found), else -1."""
        node = self._first_way(node)
        if self._found(node, self.stamp):
            return -1
        if self.narrow:
            w = self.nodes[node]
            self.nodes[node] = (w & N_STAMP_CLEAR) | (self.stamp << N_STAMP_SHIFT)
            return self.nodes[self.n_nodes + node]
        at = self.n_nodes + node
        s = self.nodes[at]
        self.nodes[at] = (s & SLOT_CLEAR) | (self.stamp << STAMP_SHIFT)
        return s & PTS_MASK

    # -- standard score (the hot path) --------------------------------------

    def score(self, board: str) -> int:
        """Points of the distinct words on ``board``."""
        self._load(board)
        self._next_stamp()
        nodes = self.nodes
        cells = self.cells
        total: i64 = 0
        if self.narrow:
            for c in range(self.n):
                child = self._root_child(self.letters[c])
                if child >= 0:
                    total += _dfs(nodes, cells, c, child)
        else:
            for c in range(self.n):
                child = self._root_child(self.letters[c])
                if child >= 0:
                    total += _dfs_wide(nodes, cells, c, child)
        return total

    def score_count(self, board: str) -> tuple[int, int]:
        """Points and number of the distinct words on ``board``, in one search.

        For bulk scoring, where the word count is printed but the words are not:
        as fast as ``score``, where ``len(words(board))`` builds every word."""
        self._load(board)
        self._next_stamp()
        nodes = self.nodes
        cells = self.cells
        counter = vec[i64]([0])
        total: i64 = 0
        if self.narrow:
            for c in range(self.n):
                child = self._root_child(self.letters[c])
                if child >= 0:
                    total += _dfs_count(nodes, cells, c, child, counter)
        else:
            for c in range(self.n):
                child = self._root_child(self.letters[c])
                if child >= 0:
                    total += _dfs_count_wide(nodes, cells, c, child, counter)
        return total, counter[0]

    # -- reporting: words with paths, Multi and de-duplicated Multi ---------

    def words(self, board: str) -> list[FoundWord]:
        """Each distinct word once, with the first path (depth-first) found."""
        self._load(board)
        self._next_stamp()
        out: list[FoundWord] = []
        for c in range(self.n):
            child = self._root_child(self.letters[c])
            if child >= 0:
                self._dfs_words(c, child, self.cellbits[c], [c], board, out)
        return out

    def _dfs_words(
        self,
        cell: i64,
        node: i64,
        used: i64,
        path: list[int],
        board: str,
        out: list[FoundWord],
    ) -> None:
        w = self.tnodes[node]
        if (w & WORD_BIT) != 0 and self._claim(node) >= 0:
            spelled = "".join([self.spellings[self.letters[p]] for p in path])
            out.append(FoundWord(spelled, self.points[node], list(path)))
        at = cell * STRIDE
        for k in range(at + FIRST_NBR, at + FIRST_NBR + self.cells[at + COUNT]):
            nb = self.cells[k]
            if (used & self.cellbits[nb]) == 0:
                child = child_index(w, self.letters[nb])
                if child >= 0:
                    path.append(nb)
                    self._dfs_words(nb, child, used | self.cellbits[nb], path, board, out)
                    path.pop()

    def multi(self, board: str) -> int:
        """Multi-Boggle: every path to every word scores."""
        self._load(board)
        total: i64 = 0
        for c in range(self.n):
            child = self._root_child(self.letters[c])
            if child >= 0:
                total += self._dfs_multi(c, child, self.cellbits[c], None)
        return total

    def demulti(self, board: str) -> int:
        """De-duplicated Multi-Boggle: each (word, set of cells) scores once."""
        self._load(board)
        seen: set[tuple[int, int]] = set()
        total: i64 = 0
        for c in range(self.n):
            child = self._root_child(self.letters[c])
            if child >= 0:
                total += self._dfs_multi(c, child, self.cellbits[c], seen)
        return total

    def _dfs_multi(
        self, cell: i64, node: i64, used: i64, seen: set[tuple[int, int]] | None
    ) -> i64:
        w = self.tnodes[node]
        total: i64 = 0
        if (w & WORD_BIT) != 0:
            if seen is None:
                total = self.points[node]
            else:
                key = (int(self._first_way(node)), int(used))
                if key not in seen:
                    seen.add(key)
                    total = self.points[node]
        at = cell * STRIDE
        for k in range(at + FIRST_NBR, at + FIRST_NBR + self.cells[at + COUNT]):
            nb = self.cells[k]
            if (used & self.cellbits[nb]) == 0:
                child = child_index(w, self.letters[nb])
                if child >= 0:
                    total += self._dfs_multi(nb, child, used | self.cellbits[nb], seen)
        return total

    # -- one-letter neighbourhood -------------------------------------------

    def neighbourhood(self, board: str) -> list[int]:
        """Scores of every board one tile away: ``out[cell * n_tiles + tile]``
        (``cell * 26 + letter`` for English).

        One search per cell treats that cell as a wildcard: words avoiding it
        count for every tile, words through it only for the letter used
        there, and only if they are not also found without it. Those are
        collected in ``pending`` and settled once the search is over.
        """
        self._load(board)
        n = self.n
        nt = self.n_tiles
        out: list[int] = [0] * (n * nt)
        nodes = self.nodes
        cells = self.cells
        if len(self.credit) != self.n_nodes:
            self.credit = vec[i64]([0] * self.n_nodes)
        pending = _Pending(self.aliased)
        for wc in range(n):
            stamp = self._next_stamp()
            self.credit_stamp += 1
            cstamp = self.credit_stamp
            pending.items = vec[i64]()
            saved = cells[wc * STRIDE]
            cells[wc * STRIDE] = LETTER_MASK  # the wildcard takes any letter
            root = nodes[0]
            if self.narrow:
                for c in range(n):
                    _wild_children(
                        nodes, self.points, self.credit, cells, pending,
                        stamp, cstamp, wc, c, root, cells[c * STRIDE], -1,
                    )
            else:
                for c in range(n):
                    _wild_children_wide(
                        nodes, self.points, self.credit, cells, pending,
                        stamp, cstamp, wc, c, root, cells[c * STRIDE], -1,
                    )
            cells[wc * STRIDE] = saved
            base = pending.base
            pending.base = 0
            row: i64 = wc * nt
            for letter in range(nt):
                out[row + letter] = base
            items = pending.items
            # where a word's stamp is: its node word (narrow) or slot (wide)
            off: i64 = 0 if self.narrow else self.n_nodes
            shift: i64 = N_STAMP_SHIFT if self.narrow else STAMP_SHIFT
            j: i64 = 0
            while j < len(items):
                node = items[j]  # (a word's first way: _dfs_wild took it)
                if (nodes[off + node] >> shift) != stamp:
                    out[row + items[j + 1]] += self.points[node]
                j += 2
        return out


class _Pending:
    """Words found through the wildcard cell, as (node, letter) pairs, and the
    points of words found without it."""

    items: vec[i64]
    base: i64
    aliased: bool  # whether the trie spells some word in several ways

    def __init__(self, aliased: bool) -> None:
        self.items = vec[i64]()
        self.base = 0
        self.aliased = aliased


# -- the narrow layout's searches (735a405's, the stamp in the node word) ---


def _wild_children(
    nodes: vec[i64],
    points: vec[i64],
    credit: vec[i64],
    cells: vec[i64],
    pending: _Pending,
    stamp: i64,
    cstamp: i64,
    wc: i64,
    nb: i64,
    w: i64,
    lbit: i64,
    wild: i64,
) -> None:
    """Visit the children of node word ``w`` that cell ``nb`` (letter bits
    ``lbit``) can spell; at the wildcard cell that is every child."""
    mask = w & N_LETTER_MASK
    m = mask & lbit
    if m == 0:
        return
    first = (w >> N_CHILD_SHIFT) & CHILD_MASK
    if nb != wc:
        # child_index() inlined by hand, as in _dfs
        x = mask & (lbit - 1)
        x = x - ((x >> 1) & 0x55555555)
        x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F
        child = first + (((x * 0x01010101) >> 24) & 0xFF)
        _dfs_wild(nodes, points, credit, cells, pending, stamp, cstamp, wc, nb, child, wild)
        return
    letter: i64 = 0
    child = first
    while m != 0:
        if (m & 1) != 0:
            _dfs_wild(
                nodes, points, credit, cells, pending, stamp, cstamp, wc, nb, child, letter
            )
            child += 1
        m >>= 1
        letter += 1


def _dfs_wild(
    nodes: vec[i64],
    points: vec[i64],
    credit: vec[i64],
    cells: vec[i64],
    pending: _Pending,
    stamp: i64,
    cstamp: i64,
    wc: i64,
    cell: i64,
    node: i64,
    wild: i64,
) -> None:
    """Like ``_dfs``, with ``wild`` the letter taken by the wildcard cell on
    this path (-1 while the path has not used it)."""
    w = nodes[node]
    if (w & N_WORD_BIT) != 0:
        if wild < 0:
            if (w >> N_STAMP_SHIFT) != stamp:
                nodes[node] = (w & N_STAMP_CLEAR) | (stamp << N_STAMP_SHIFT)
                pending.base += points[node]
        else:
            c = credit[node]
            if (c >> CREDIT_SHIFT) != cstamp:
                c = cstamp << CREDIT_SHIFT
            bit: i64 = 1 << wild
            if (c & bit) == 0:
                credit[node] = c | bit
                pending.items = append(pending.items, node)
                pending.items = append(pending.items, wild)
    if (w & N_LETTER_MASK) == 0:
        return
    at = cell * STRIDE
    saved = cells[at]
    cells[at] = 0
    k = at + FIRST_NBR
    end = k + cells[at + COUNT]
    while k < end:
        nb = cells[k]
        k += 1
        _wild_children(
            nodes, points, credit, cells, pending, stamp, cstamp, wc, nb, w, cells[nb * STRIDE], wild
        )
    cells[at] = saved


def _dfs(nodes: vec[i64], cells: vec[i64], cell: i64, node: i64) -> i64:
    """Points of new words at ``node`` (reached at ``cell``) and below it.

    The hot loop: a module-level function whose vectors arrive as borrowed
    arguments (reading them from ``self`` costs reference counting per call),
    and only four of them, so they all travel in registers. ``nodes`` holds
    the node words, then the points; ``cells`` the cell table, then the node
    count and the current stamp. Cells in use are marked by clearing their
    letter bit, so one read tells both whether the cell is free and whether
    the trie continues.
    """
    w = nodes[node]
    total: i64 = 0
    if (w & N_WORD_BIT) != 0:
        tail = len(cells) - 2
        stamp = cells[tail + 1]
        if (w >> N_STAMP_SHIFT) != stamp:
            nodes[node] = (w & N_STAMP_CLEAR) | (stamp << N_STAMP_SHIFT)
            total = nodes[cells[tail] + node]
    at = cell * STRIDE
    mask = w & N_LETTER_MASK
    # no child letter on any neighbour (or no child at all): a dead end
    if (mask & cells[at + NBR_LETTERS]) == 0:
        return total
    first = (w >> N_CHILD_SHIFT) & CHILD_MASK
    saved = cells[at]
    cells[at] = 0
    k = at + FIRST_NBR
    end = k + cells[at + COUNT]
    while k < end:
        nb = cells[k]
        k += 1
        lbit = cells[nb * STRIDE]
        if (mask & lbit) != 0:
            # child_index() inlined by hand: this is the innermost loop
            x = mask & (lbit - 1)
            x = x - ((x >> 1) & 0x55555555)
            x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F
            child = first + (((x * 0x01010101) >> 24) & 0xFF)
            total += _dfs(nodes, cells, nb, child)
    cells[at] = saved
    return total


def _dfs_count(nodes: vec[i64], cells: vec[i64], cell: i64, node: i64, counter: vec[i64]) -> i64:
    """``_dfs`` that also counts the new words in ``counter[0]`` (kept apart so
    the plain score's hot loop keeps its four register arguments)."""
    w = nodes[node]
    total: i64 = 0
    if (w & N_WORD_BIT) != 0:
        tail = len(cells) - 2
        stamp = cells[tail + 1]
        if (w >> N_STAMP_SHIFT) != stamp:
            nodes[node] = (w & N_STAMP_CLEAR) | (stamp << N_STAMP_SHIFT)
            total = nodes[cells[tail] + node]
            counter[0] += 1
    at = cell * STRIDE
    mask = w & N_LETTER_MASK
    if (mask & cells[at + NBR_LETTERS]) == 0:
        return total
    first = (w >> N_CHILD_SHIFT) & CHILD_MASK
    saved = cells[at]
    cells[at] = 0
    k = at + FIRST_NBR
    end = k + cells[at + COUNT]
    while k < end:
        nb = cells[k]
        k += 1
        lbit = cells[nb * STRIDE]
        if (mask & lbit) != 0:
            x = mask & (lbit - 1)
            x = x - ((x >> 1) & 0x55555555)
            x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F
            child = first + (((x * 0x01010101) >> 24) & 0xFF)
            total += _dfs_count(nodes, cells, nb, child, counter)
    cells[at] = saved
    return total


# -- the wide layout's searches: the same, the stamp in the node's slot ------


def _wild_children_wide(
    nodes: vec[i64],
    points: vec[i64],
    credit: vec[i64],
    cells: vec[i64],
    pending: _Pending,
    stamp: i64,
    cstamp: i64,
    wc: i64,
    nb: i64,
    w: i64,
    lbit: i64,
    wild: i64,
) -> None:
    """Visit the children of node word ``w`` that cell ``nb`` (letter bits
    ``lbit``) can spell; at the wildcard cell that is every child."""
    mask = w & LETTER_MASK
    m = mask & lbit
    if m == 0:
        return
    first = (w >> CHILD_SHIFT) & CHILD_MASK
    if nb != wc:
        # child_index() inlined by hand, as in _dfs_wide
        x = mask & (lbit - 1)
        x = x - ((x >> 1) & 0x55555555)
        x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F
        child = first + (((x * 0x01010101) >> 24) & 0xFF)
        _dfs_wild_wide(nodes, points, credit, cells, pending, stamp, cstamp, wc, nb, child, wild)
        return
    letter: i64 = 0
    child = first
    while m != 0:
        if (m & 1) != 0:
            _dfs_wild_wide(
                nodes, points, credit, cells, pending, stamp, cstamp, wc, nb, child, letter
            )
            child += 1
        m >>= 1
        letter += 1


def _dfs_wild_wide(
    nodes: vec[i64],
    points: vec[i64],
    credit: vec[i64],
    cells: vec[i64],
    pending: _Pending,
    stamp: i64,
    cstamp: i64,
    wc: i64,
    cell: i64,
    node: i64,
    wild: i64,
) -> None:
    """Like ``_dfs_wide``, with ``wild`` the letter taken by the wildcard cell on
    this path (-1 while the path has not used it)."""
    w = nodes[node]
    if (w & WORD_BIT) != 0:
        n_nodes = cells[len(cells) - 2]
        if wild < 0:
            at = n_nodes + node
            s = nodes[at]
            if (s & ALIAS_BIT) != 0:
                at = n_nodes + (s & PTS_MASK)
                s = nodes[at]
            if (s >> STAMP_SHIFT) != stamp:
                nodes[at] = (s & SLOT_CLEAR) | (stamp << STAMP_SHIFT)
                pending.base += s & PTS_MASK
        else:
            # credit the word's first way; read the slot only where a trie
            # has aliases (not English's): this branch is the hottest here
            word = node
            if pending.aliased:
                s = nodes[n_nodes + node]
                if (s & ALIAS_BIT) != 0:
                    word = s & PTS_MASK
            c = credit[word]
            if (c >> CREDIT_SHIFT) != cstamp:
                c = cstamp << CREDIT_SHIFT
            bit: i64 = tile_bit(wild)
            if (c & bit) == 0:
                credit[word] = c | bit
                pending.items = append(pending.items, word)
                pending.items = append(pending.items, wild)
    if (w & LETTER_MASK) == 0:
        return
    at = cell * STRIDE
    saved = cells[at]
    cells[at] = 0
    k = at + FIRST_NBR
    end = k + cells[at + COUNT]
    while k < end:
        nb = cells[k]
        k += 1
        _wild_children_wide(
            nodes, points, credit, cells, pending, stamp, cstamp, wc, nb, w, cells[nb * STRIDE], wild
        )
    cells[at] = saved


def _dfs_wide(nodes: vec[i64], cells: vec[i64], cell: i64, node: i64) -> i64:
    """Points of new words at ``node`` (reached at ``cell``) and below it.

    The hot loop: a module-level function whose vectors arrive as borrowed
    arguments (reading them from ``self`` costs reference counting per call),
    and only four of them, so they all travel in registers. ``nodes`` holds
    the node words, then the points; ``cells`` the cell table, then the node
    count and the current stamp. Cells in use are marked by clearing their
    letter bit, so one read tells both whether the cell is free and whether
    the trie continues.
    """
    w = nodes[node]
    total: i64 = 0
    if (w & WORD_BIT) != 0:
        tail = len(cells) - 2
        stamp = cells[tail + 1]
        at = cells[tail] + node
        s = nodes[at]
        if (s & ALIAS_BIT) != 0:  # another way to spell a word: its first way's slot
            at = cells[tail] + (s & PTS_MASK)
            s = nodes[at]
        if (s >> STAMP_SHIFT) != stamp:
            nodes[at] = (s & SLOT_CLEAR) | (stamp << STAMP_SHIFT)
            total = s & PTS_MASK
    at = cell * STRIDE
    mask = w & LETTER_MASK
    # no child letter on any neighbour (or no child at all): a dead end
    if (mask & cells[at + NBR_LETTERS]) == 0:
        return total
    first = (w >> CHILD_SHIFT) & CHILD_MASK
    saved = cells[at]
    cells[at] = 0
    k = at + FIRST_NBR
    end = k + cells[at + COUNT]
    while k < end:
        nb = cells[k]
        k += 1
        lbit = cells[nb * STRIDE]
        if (mask & lbit) != 0:
            # child_index() inlined by hand: this is the innermost loop
            x = mask & (lbit - 1)
            x = x - ((x >> 1) & 0x55555555)
            x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F
            child = first + (((x * 0x01010101) >> 24) & 0xFF)
            total += _dfs_wide(nodes, cells, nb, child)
    cells[at] = saved
    return total


def _dfs_count_wide(nodes: vec[i64], cells: vec[i64], cell: i64, node: i64, counter: vec[i64]) -> i64:
    """``_dfs_wide`` that also counts the new words in ``counter[0]`` (kept apart so
    the plain score's hot loop keeps its four register arguments)."""
    w = nodes[node]
    total: i64 = 0
    if (w & WORD_BIT) != 0:
        tail = len(cells) - 2
        stamp = cells[tail + 1]
        at = cells[tail] + node
        s = nodes[at]
        if (s & ALIAS_BIT) != 0:  # another way to spell a word: its first way's slot
            at = cells[tail] + (s & PTS_MASK)
            s = nodes[at]
        if (s >> STAMP_SHIFT) != stamp:
            nodes[at] = (s & SLOT_CLEAR) | (stamp << STAMP_SHIFT)
            total = s & PTS_MASK
            counter[0] += 1
    at = cell * STRIDE
    mask = w & LETTER_MASK
    if (mask & cells[at + NBR_LETTERS]) == 0:
        return total
    first = (w >> CHILD_SHIFT) & CHILD_MASK
    saved = cells[at]
    cells[at] = 0
    k = at + FIRST_NBR
    end = k + cells[at + COUNT]
    while k < end:
        nb = cells[k]
        k += 1
        lbit = cells[nb * STRIDE]
        if (mask & lbit) != 0:
            x = mask & (lbit - 1)
            x = x - ((x >> 1) & 0x55555555)
            x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
            x = (x + (x >> 4)) & 0x0F0F0F0F
            child = first + (((x * 0x01010101) >> 24) & 0xFF)
            total += _dfs_count_wide(nodes, cells, nb, child, counter)
    cells[at] = saved
    return total
