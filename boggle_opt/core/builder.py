"""Build a board class's orderly tree (``tree.Tree``) from every path of
every word over the class's letters. Compiled with mypyc.

``TreeBuilder.build_within`` finds the paths and writes the tree from them:
as sorted mixed-radix keys (``path_keys``) where a class's keys fit in 62
bits, else through build records frozen into nodes; a big class in passes by
the first position of a path's sorted cells. ``build_forced`` writes a
forced subtree again de-duplicated. The tree's layout and its forcing are in
``tree``; the orderly bound that reads it is in ``orderly``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i32, i64

from .arena import BOUND, HEAD, I32_MAX, KIDS, LEAF_LIMIT, LOW_BITS, MAX_POINTS, SLOT
from .families import Families, intern
from .geometry import Geometry
from .pages import release_from, release_range64, trim_heap
from .path_keys import (
    KEY_BITS, KEY_LIMIT, REPEATS_BIT, ST_ALL_WORDS, ST_NODES, ST_SHIFT, ST_SP, ST_TOP, ST_WORD, ST_WORDS,
    drop_supersets, emit_sum, key_points, radix_sort, run_end, grown64, zeros64,
)
from .tree import Tree, fresh32, grown32, reserved64
from .trie import CHILD_MASK, CHILD_SHIFT, LETTER_MASK, WORD_BIT, PackedTrie, popcount26, tile_bit

# Build records (one ``vec[i32]``, 0 = no child): a sum record after position
# ``base`` is [points, a slot per position base+1 .. n-1]; a choice record at
# position p is [p, a slot per letter of the cell's set]. A child is one read
# away (a sibling list cost a cache miss per sibling).

NBR_STRIDE: Final[i64] = 9  # count, then up to 8 neighbour positions
# Used-cell masks are shifted by positions: mypyc compiles ``1 << p`` as a
# 32-bit shift, so positions stay below 31.
MAX_CELLS: Final[i64] = 31
# Paths one build pass may record (a letter with more is a pass of its own).
# The records take about 30 words a path, so this bounds their memory, and
# small records stay in the cache: on the hardest 4x4 sample class, passes of
# 1 million paths built faster than one pass of all 12 million.
PASS_PATHS: Final[i64] = 500_000
# Sizes set aside before a build, once its paths are known, so that neither
# vector is copied to grow while it is big (that held both copies, nearly
# doubling the peak): measured build records per path of a pass, and arena
# words per path of the class, which grows with the board: at the forcing's
# peak 9.5-10.4 on the hardest 3x4 sample classes, 10.8 on the hardest 4x4 one.
# The arena's size is only reserved (capacity, not yet resident); its pages
# are touched as the tree grows into them, a root run of the emission
# (EMIT_WORDS_PER_PATH a path, more if a run needs it: the built tree takes
# 8.4 on the biggest 3x4 sample class, 11.7 on the hardest 4x4 one) or a
# forcing at a time, so the resident memory follows what the tree uses, not
# the estimate.
RECORD_WORDS_PER_PATH: Final[i64] = 32
ARENA_WORDS_PER_PATH_SMALL: Final[i64] = 11  # up to 15 cells
ARENA_WORDS_PER_PATH: Final[i64] = 14
EMIT_WORDS_PER_PATH_SMALL: Final[i64] = 9
EMIT_WORDS_PER_PATH: Final[i64] = 12
# with shared families (``families``) the tree takes 3.2-3.4 words a path on
# the biggest 4x4 classes; a run that needs more is written again
EMIT_WORDS_PER_PATH_SHARED: Final[i64] = 5
# and the arena, tree and forcing, then: the best 4x4 board's class peaks at
# 4.3 words a path (the reserve makes half of this resident at once)
ARENA_WORDS_PER_PATH_SHARED: Final[i64] = 6
# Records bigger than this (words) are freed after a build, for the forcing;
# smaller ones are kept for the next class (small classes come by thousands).
KEEP_RECORDS: Final[i64] = RECORD_WORDS_PER_PATH * PASS_PATHS
# The sorted build keeps 2 words a path (its key, then a copy for the sort),
# 4 where the word is not packed into the key: words one of its passes may
# hold (384 MB: 12 million paths unpacked, so 4x4 classes of up to about 50
# million nodes are built in one pass; a class built in passes searches
# again, counting first and then per pass: at 16 million words the 4x4
# anchor sample's builds took 27% longer, for 100 MB less peak), and key
# buffers of up to 8 MB kept from one build to the next, forced builds too
# (a 3x3 proof's classes come by thousands, and freed they are zeroed again
# each time; 2 MB between forced builds saved 3 MB on the 4x4 anchor sample
# and cost a test that forces de-duplicated builds everywhere 10%).
KEY_PASS_WORDS: Final[i64] = 48_000_000
KEEP_KEYS: Final[i64] = 1 << 20
# A de-duplicated forced build's key buffers past KEEP_KEYS are given back
# when it ends, and the next one's come anew: the system zeroes every page
# of them again (a 4x4 tail class's 113 rebuilds spent 7% of its CPU in the
# kernel's page zeroing, docs/benchmarks.md). A worker with memory to spare
# keeps them from one forced build to the next, up to ``keep_forced`` words
# each (``proofs/memory.py``); at 1 GB it keeps KEEP_KEYS, as before.
# keys given back at a time as the tree takes them in (8 MB)
RELEASE_KEYS: Final[i64] = 1 << 20
# keys grown at a time within their room (2 MB)
KEY_BLOCK: Final[i64] = 1 << 18
# A class whose arena estimate is at least this many words (4 bytes each)
# shares its tree's repeated families (TreeBuilder.share_words): 700 MB.
# Not shared, a 4x4 class peaks at 1.13-1.34 times its estimate (in MiB of
# RSS over MB of estimate: the tree, 12.6 bytes a node, its forcing and the
# process's base; 24 classes of estimates 690-1,060 MB in
# benchmarks/bnb-4x4-corners120.tsv), so from about 750 MB it would pass
# 1 GB; shared it peaks at 0.43-0.65 times (the 1 GB threshold left 13 of
# those 120 classes at 1,011-1,350 MB; shared, 516-580). Sharing costs such
# a class 10-28% more CPU (1.16x on four measured back to back; its forcing
# reads shared nodes far apart), so below this it is not shared. A class
# built in one pass is never shared and has no estimate, but a pass holds at
# most 12 million paths where keys are not packed (every 4x4 class of bnb's
# default buckets with ENABLE2K: 53 or more key bits and 19 for the trie
# node), 672 MB at 14 words a path; the sample's peak there 903 MB. (docs/benchmarks.md,
# 2026-11-27.)
SHARE_ARENA_WORDS: Final[i64] = 175_000_000
# The arena is kept for the next class, but only this many of its words stay
# resident (256 MB; ``pages``): memory the system gives anew is zeroed as it
# is first touched, and the rest given back so that a big class's arena does
# not sit beside the next build's paths. Where pages cannot be given back,
# an arena of more than KEEP_ARENA_WHOLE words is let go when the next build
# starts.
KEEP_ARENA: Final[i64] = 1 << 26
# A choice node packs its cell's tile set beside its position in one i32
# arena word (``arena.HEAD``): 26 bits of tiles. An alphabet of at most 26
# tiles (English) writes them as they are; a wider one (up to 32: Polish)
# writes a cell's tiles as bits of the class's own set for that cell (its
# frame, ``set_frame``): the k-th bit is the frame's k-th tile, which keeps
# the order of the tiles, so a slot's index is the same either way, and a
# cell of a class may hold at most 26 tiles (``core.alphabet.MAX_BNB_TILES``).
BNB_TILES: Final[i64] = 26
# per-tile tables (paths by letter, digit weights) have a row this wide
TILE_ROOM: Final[i64] = 32
# _repeats' flag: above every tile bit of a trie node's mask
REPEAT_SHIFT: Final[i64] = 32
REPEAT_FLAG: Final[i64] = 1 << 32
KEEP_ARENA_WHOLE: Final[i64] = 1 << 24
# And once a class's paths are known, only this many words a path of it: its
# built tree takes at least 6.3 words a path on the 3x4 anchor sample and 11.3
# on the 4x4 one, less the sort's copy of the keys (2 and 4 words a path).
KEPT_WORDS_PER_PATH_SMALL: Final[i64] = 4
KEPT_WORDS_PER_PATH: Final[i64] = 7




class TreeBuilder:
    """Builds the orderly tree of any class of one board size and word list."""

    trie_nodes: vec[i64]
    symbols: str  # the trie's alphabet, and how it spells its words (``scoring_trie``)
    aliases: vec[i64]
    spellings: list[str]
    # per trie node: its points, and REPEATS_BIT if its key repeats a letter
    # (one read in the search, where a second vector cost a cache miss)
    trie_points: vec[i64]
    n_words: i64
    n: i64
    geometry: Geometry
    order: list[int]  # cell of each position
    nbrs: vec[i64]  # per position, stride NBR_STRIDE, in positions
    masks: vec[i64]  # letters allowed at each position (the class)
    letter_at: vec[i64]  # letter of each position on the current path
    b: vec[i32]  # build records (32 bits: they hold indices and a leaf's points)
    b_top: i64
    n_records: i64
    counts: vec[i64]  # letters allowed at each position
    seen: vec[i64]  # open-addressing set of (leaf, word) keys already added
    n_seen: i64
    # the previous word's path in position order: position, letter, sum record
    prev_pos: vec[i64]
    prev_letter: vec[i64]
    prev_rec: vec[i64]
    prev_len: i64
    counting: bool  # the search counts paths (paths_at) instead of recording them
    cap: i64  # > 0: give up the pass once its records exceed this many words
    aborted: bool  # the pass was given up
    pass_bit: i64  # the positions, one of which every recorded path of this pass uses
    blocked: i64  # the positions before it, which no path of this pass uses
    paths_at: vec[i64]  # paths by first position and its letter (TILE_ROOM a position)
    leaves: vec[i64]  # the shared childless sum node of each points value, or -1
    # the root's choice nodes, by position: letters, bound, and their sum
    # children sums[pos_first:pos_end]
    pos_mask: vec[i64]
    pos_bound: vec[i64]
    pos_first: vec[i64]
    pos_end: vec[i64]
    sums: vec[i64]
    pass_paths: i64  # at most this many paths a pass, unless one letter has more
    key_pass_words: i64  # the sorted build's budget in key words
    # the sorted build (path_keys): paths as keys, their values, sort buffers
    use_keys: bool  # the sorted build where keys fit (off: always the record build)
    pack_words: bool  # pack words into keys where both fit (off: a second vector)
    keyed: bool  # this class's keys fit: the search records keys, not records
    keys: vec[i64]
    vals: vec[i64]  # the words, where not packed into the keys (else empty)
    uses: vec[i64]  # a forced build's paths' positions (bit masks), by the keys' index
    packed: bool  # each key holds its word in its low word_bits bits
    word_bits: i64
    tmp_keys: vec[i64]
    tmp_vals: vec[i64]
    n_keys: i64
    key_cap: i64  # > 0: give up the pass once it has this many paths
    # keys, vals and uses each have room (capacity) for this many paths, not
    # yet resident: a pass of unknown size grows into it in place
    key_room: i64
    key_bits: i64  # the class's keys are below 2**key_bits
    weight: vec[i64]  # per position: its digit's weight in a key
    digit_w: vec[i64]  # per position and letter (TILE_ROOM a position): (rank + 1) * weight
    letter_of: vec[i64]  # per position and digit (27 a position): the letter
    # per position and digit: the letter as a choice node's mask writes it
    # (``letter_of`` itself in a narrow alphabet; its rank in the frame in a wide one)
    mark_of: vec[i64]
    # a wide alphabet (more than BNB_TILES tiles): choice masks are written
    # relative to ``frame``, each position's tile set in the class being solved
    wide: bool
    frame: vec[i64]
    runs: vec[i64]  # the emission's stack of runs
    st: vec[i64]  # the emission's state
    passes: i64  # passes of the last build
    # a forced build (build_forced): positions below this have one letter
    # each and take no digit in the keys; 0 in a class's build
    skip: i64
    root_points: i64  # points of the paths that lie wholly on those positions
    forced_nodes: i64  # nodes of the last forced build
    radix: vec[i64]  # per position: its digit's radix (letters + 1)
    records_peak: i64  # most record words one pass of the last build used
    fams: Families  # the families of the build under way, to share repeats
    # share repeated families in a build whose arena estimate (words) is at
    # least this: 0 in every build (forced ones too), -1 in none
    share_words: i64
    # every build_within shares, whatever its estimate (a split class's parts);
    # build_forced's de-duplicated trees keep share_words' rule
    share_all: bool
    need: i64  # the last build's arena estimate (words), 0 if it took one pass
    release_every: i64  # a big pass's keys given back this many at a time (0: never)
    keys_released: i64  # keys given back so far (a statistic, for tests)
    # a forced build's key buffers (keys, their words, uses, the sort's
    # copies) of up to this many words each are kept for the next one
    keep_forced: i64
    # called between the search's starts (a cell and letter each), before a
    # pass's sort and between the root's runs it writes, if set: as
    # ClassSolver.poll, so that a signal stops a big build (20 s on 4x4) at once
    poll: Callable[[], None] | None

    def __init__(self, trie: PackedTrie, geometry: Geometry, order: list[int]) -> None:
        n = geometry.n
        if n > MAX_CELLS:
            raise ValueError(f"boards of more than {MAX_CELLS} cells are not supported")
        self.trie_nodes = trie.nodes
        self.symbols = trie.symbols
        self.aliases = trie.aliases
        self.spellings = trie.spellings
        self.wide = len(trie.symbols) > BNB_TILES
        self.frame = vec[i64]([0] * n)
        repeats = _repeats(trie.nodes)
        depths = _depths(trie.nodes)
        # A word that tiles spell in several ways is scored at its first way's
        # node (``Scorer``), which may be too long for the board while a way
        # through a multi-letter tile fits (``blije`` is b-l-[ij]-e on 2x2):
        # such a node keeps its points.
        fits = vec[i64]([0] * len(trie.points))
        j: i64 = 0
        while j < len(trie.aliases):
            if depths[trie.aliases[j]] <= n:
                fits[trie.aliases[j + 1]] = 1
            j += 2
        tagged = vec[i64]([0] * len(trie.points))
        for i in range(len(trie.points)):
            # A word of more tiles than the board has cells is on no board of
            # it (a path visits each cell once), so its points are never read:
            # kept as 0, not refused (pow2 gives a 45-letter YAWL word 2**42).
            pts = trie.points[i] if depths[i] <= n or fits[i] != 0 else 0
            if pts < 0 or pts >= REPEATS_BIT:
                raise ValueError("word points must be >= 0 and below 2**40")
            tagged[i] = pts | (REPEATS_BIT if repeats[i] != 0 else 0)
        self.trie_points = tagged
        self.n_words = trie.n_words
        self.n = n
        self.geometry = geometry
        self.order = []
        self.nbrs = vec[i64]()
        self.set_order(order)
        self.masks = vec[i64]([0] * n)
        self.letter_at = vec[i64]([0] * n)
        self.b = vec[i32]()
        self.b_top = 0
        self.n_records = 0
        self.counts = vec[i64]([0] * n)
        self.seen = vec[i64]([0] * 1024)
        self.n_seen = 0
        self.prev_pos = vec[i64]([0] * n)
        self.prev_letter = vec[i64]([0] * n)
        self.prev_rec = vec[i64]([0] * n)
        self.prev_len = 0
        self.counting = False
        self.cap = 0
        self.aborted = False
        self.poll = None
        self.pass_bit = 0
        self.blocked = 0
        self.paths_at = vec[i64]([0] * (TILE_ROOM * n))
        self.leaves = vec[i64]([-1] * LEAF_LIMIT)
        self.pos_mask = vec[i64]([0] * n)
        self.pos_bound = vec[i64]([0] * n)
        self.pos_first = vec[i64]([0] * n)
        self.pos_end = vec[i64]([0] * n)
        self.sums = vec[i64]()
        self.pass_paths = PASS_PATHS
        self.key_pass_words = KEY_PASS_WORDS
        self.passes = 0
        self.use_keys = True
        self.pack_words = True
        self.keyed = False
        self.keys = vec[i64]()
        self.vals = vec[i64]()
        self.uses = vec[i64]()
        self.tmp_keys = vec[i64]()
        self.tmp_vals = vec[i64]()
        self.n_keys = 0
        self.key_cap = 0
        self.key_room = 0
        self.key_bits = 0
        self.weight = vec[i64]([0] * n)
        self.digit_w = vec[i64]([0] * (TILE_ROOM * n))
        self.letter_of = vec[i64]([0] * (27 * n))
        self.mark_of = self.letter_of if not self.wide else vec[i64]([0] * (27 * n))
        self.runs = vec[i64]([0] * (4 * 26 * n * (n + 1) + 64))
        self.st = vec[i64]([0] * ST_WORDS)
        self.skip = 0
        self.root_points = 0
        self.forced_nodes = 0
        self.radix = vec[i64]([0] * n)
        self.packed = False
        self.need = 0
        self.fams = Families()
        self.share_words = SHARE_ARENA_WORDS
        self.share_all = False
        self.release_every = RELEASE_KEYS
        self.keys_released = 0
        self.keep_forced = KEEP_KEYS
        self.word_bits = 0
        while (len(trie.nodes) >> self.word_bits) > 0:
            self.word_bits += 1

    def set_order(self, order: list[int]) -> None:
        """Build the next trees with cells in ``order`` (a permutation)."""
        n = self.n
        if sorted(order) != list(range(n)):
            raise ValueError("the cell order must be a permutation of the cells")
        if order == self.order:
            return
        self.order = list(order)
        pos_of = [0] * n
        for p in range(n):
            pos_of[order[p]] = p
        nbrs = vec[i64]([0] * (n * NBR_STRIDE))
        for p in range(n):
            cells = self.geometry.neighbours(order[p])
            nbrs[p * NBR_STRIDE] = len(cells)
            for j in range(len(cells)):
                nbrs[p * NBR_STRIDE + 1 + j] = pos_of[cells[j]]
        self.nbrs = nbrs

    def set_frame(self, masks: list[int]) -> None:
        """The tile set of each cell (by cell) of the class the next trees
        are of, and of any subclass of it: a wide alphabet's choice masks
        are written relative to it (a no-op in a narrow one). Call after
        ``set_order``."""
        if not self.wide:
            return
        for p in range(self.n):
            m: i64 = masks[self.order[p]]
            if popcount26(m) > BNB_TILES:
                raise ValueError(f"a cell of a class holds at most {BNB_TILES} tiles, not {popcount26(m)}")
            self.frame[p] = m

    def scoring_trie(self) -> PackedTrie:
        """The word list as this builder holds it, for a ``Scorer`` of its
        board size, so that a worker need not keep the trie's own points
        beside these: the trie's node words, and its points except that a
        word of more tiles than the board has cells has 0, which no board of
        the size spells (a path visits each cell once)."""
        tagged = self.trie_points
        points = vec[i64](capacity=len(tagged))
        for i in range(len(tagged)):
            points = append(points, tagged[i] & (REPEATS_BIT - 1))
        return PackedTrie([], [], (self.trie_nodes, points, self.n_words), symbols=self.symbols,
                          aliases=self.aliases, spellings=self.spellings)

    def build(self, cell_masks: list[int], into: Tree | None = None) -> Tree:
        """The orderly tree of the class (``build_within`` without a limit)."""
        tree = self.build_within(cell_masks, into, 0)
        assert tree is not None
        return tree

    def build_within(
        self, cell_masks: list[int], into: Tree | None, max_words: i64, counted: bool = False,
    ) -> Tree | None:
        """The orderly tree of the class with letters ``cell_masks[cell]``
        (bit k = letter a+k) at each cell. With ``into``, that tree's arena is
        reused (the tree it held is overwritten).

        A pass finds every path to a word and writes the tree from them:
        from their sorted keys (path_keys) where the class's keys fit in 62
        bits, else by inserting them into build records and freezing those.

        A small class is built in one pass. A big one (its records outgrow
        a pass's budget) is built in passes after a search that counts its
        paths by the first position of their sorted cells and its letter:
        each pass records the paths that start at a range of positions, or
        at one position with some of its letters, and freezes them before
        the next, so the records stay within a budget (and in the cache)
        and the arena is sized once. A pass searches only the positions from
        its own on, so the passes repeat part of the search, a small part of
        a build.

        With ``max_words`` > 0, a class whose counted paths need an arena of
        more than that many words (``need``) is not built: None (a caller
        can then build it in parts).

        With ``counted``, the caller has set this class's path counts
        (``paths_at``, as the counting search sets them; ``part_counts``):
        the class is built in counted passes at once, neither tried in one
        pass nor searched to count its paths."""
        n = self.n
        self.need = 0
        if len(cell_masks) != n:
            raise ValueError(f"a class needs {n} letter sets, got {len(cell_masks)}")
        for p in range(n):
            m: i64 = cell_masks[self.order[p]]
            if m <= 0 or (m >> len(self.symbols)) != 0:
                raise ValueError("each cell needs a non-empty set of the alphabet's tiles")
            if popcount26(m) > BNB_TILES or (self.wide and (m & ~self.frame[p]) != 0):
                raise ValueError(f"a cell of a class holds at most {BNB_TILES} tiles, of the "
                                 "class set_frame was given")
            self.masks[p] = m
            self.counts[p] = popcount26(m)
        self.skip = 0
        self.root_points = 0
        self.st[ST_ALL_WORDS] = 0
        self.counting = False  # left set by a build a poll stopped in its counting search
        self._key_digits()
        tree = into if into is not None else Tree(vec[i32](), 0, 0, n, 0)
        if len(tree.a) > KEEP_ARENA_WHOLE and not release_from(tree.a, KEEP_ARENA):
            # a big arena would sit beside this build's paths
            tree.let_go()
        tree.top = 0
        tree.n = n
        nodes: i64 = 1  # the root
        self._reset_passes()
        if len(self.keys) > KEEP_KEYS or len(self.tmp_keys) > 0:
            # the last class's forced builds kept their keys (keep_forced):
            # not beside this class's search and tree, which take their own
            self._let_go_keys()
            self.tmp_keys, self.tmp_vals = vec[i64](), vec[i64]()
        if self.share_all:
            self.fams.on = True
        if not counted:
            # most classes are small: one pass over every position, given up
            # once its records outgrow a pass's budget
            whole = self._pass(tree, 0, n - 1, 0, self._budget())
            if whole >= 0:
                return self._finish(tree, nodes + whole)
            for i in range(TILE_ROOM * n):
                self.paths_at[i] = 0
            self.counting = True
            self._search(0, (1 << n) - 1, 0)
            self.counting = False
        paths_total: i64 = 0
        # a pass takes at least one letter, so the busiest letter sets the
        # records' size: passes may fill up to that at no cost in memory
        budget = self._key_paths() if self.keyed else self.pass_paths
        for i in range(TILE_ROOM * n):
            paths_total += self.paths_at[i]
            budget = max(budget, self.paths_at[i])
        self.fams.on = False  # (the estimate without sharing)
        need = self._arena_per_path() * paths_total + 64 * n
        self.need = need
        if max_words > 0 and need > max_words:
            return None
        # a big class shares its repeated families (``families``): its tree
        # takes a third to a quarter of the memory, for a slower build and
        # forcing (the shared nodes lie far apart), so only where memory is
        # what limits
        self.fams.on = self.share_all or (self.share_words >= 0 and need >= self.share_words)
        if self.fams.on:
            need = self._arena_per_path() * paths_total + 64 * n
        tree.fit(need)
        # each pass records the paths whose sorted cells start at positions
        # lo..hi (as many as the budget takes), or at one position with
        # some of its letters (a position with more paths than the budget)
        p = 0
        while p < n:
            here = self._paths_from(p)
            if here == 0:
                p += 1
                continue
            if here <= budget:
                hi = p
                paths = here
                while hi + 1 < n and paths + self._paths_from(hi + 1) <= budget:
                    hi += 1
                    paths += self._paths_from(hi)
                nodes += self._pass(tree, p, hi, paths)
                p = hi + 1
                continue
            full = self.masks[p]
            left = full
            while left != 0:
                # the next letters of this position, as many as the budget takes
                group: i64 = 0
                paths = 0
                while left != 0:
                    bit: i64 = left & -left
                    more = self.paths_at[p * TILE_ROOM + popcount26(bit - 1)]
                    if group != 0 and paths + more > budget:
                        break
                    group |= bit
                    paths += more
                    left ^= bit
                if paths > 0:
                    self.masks[p] = group
                    self.counts[p] = popcount26(group)
                    nodes += self._pass(tree, p, p, paths)
            self.masks[p] = full
            self.counts[p] = popcount26(full)
            p += 1
        return self._finish(tree, nodes)

    def build_forced(self, tree: Tree, masks: vec[i64], level: i64) -> i64:
        """Write above ``tree``'s top the orderly tree of the subclass with
        letters ``masks[p]`` at each position p, where the positions before
        ``level`` have one letter each (forced), de-duplicated: a path's key
        leaves out the forced positions, each word counts once per key, and a
        path whose unforced (cell, letter) pairs strictly contain another
        path's of the same word is dropped (``drop_supersets`` says why the
        bound stays true). Its root, or -1 if the subclass needs more than one
        pass or wider keys than fit (then force by merging instead).

        The tree is of the same shape as the merged one (choice nodes for
        positions ``level`` and after; the paths wholly on forced cells are
        the root's points), so forcing and the orderly bound take it as is;
        its bound is never above the merged tree's and often far below."""
        n = self.n
        for p in range(n):
            self.masks[p] = masks[p]
            self.counts[p] = popcount26(masks[p])
        self.skip = level
        self.root_points = 0
        self._key_digits()
        if not self.keyed:
            self.skip = 0
            return -1
        self.st[ST_ALL_WORDS] = 1
        base_top = tree.top
        root = tree.root
        n_nodes = tree.n_nodes
        self._reset_passes()
        whole = self._pass(tree, 0, n - 1, 0, self._budget())
        out: i64 = -1
        if whole >= 0:
            out = self._finish(tree, 1 + whole).root
            self.forced_nodes = tree.n_nodes
        else:
            tree.top = base_top
        tree.root = root
        tree.n_nodes = n_nodes
        self.st[ST_ALL_WORDS] = 0
        self.skip = 0
        return out

    def path_counts(self) -> vec[i64]:
        """A copy of the path counts of the class whose build was just
        refused for its estimate (``build_within`` returned None)."""
        out = vec[i64]([0] * (TILE_ROOM * self.n))
        for i in range(TILE_ROOM * self.n):
            out[i] = self.paths_at[i]
        return out

    def exact_parts(self, p: i64) -> bool:
        """Whether the refused class's counts give its parts' by the letters
        of position ``p`` exactly (``part_counts``): no path starts before
        ``p``, so every path on ``p`` starts there (``p`` = 0 always)."""
        for q in range(p):
            if self._paths_from(q) != 0:
                return False
        return True

    def part_counts(self, counts: vec[i64], p: i64, letters: i64) -> None:
        """Set ``paths_at`` to the counts of the part of the refused class
        (``counts``, from ``path_counts()``) with only ``letters`` at position
        ``p``, where ``exact_parts(p)``: the paths that start at ``p`` on
        its other letters are the ones the part leaves out."""
        for i in range(TILE_ROOM * self.n):
            self.paths_at[i] = counts[i]
        for letter in range(TILE_ROOM):
            if ((letters >> letter) & 1) == 0:
                self.paths_at[p * TILE_ROOM + letter] = 0

    def letter_groups(self, p: i64, mask: i64, max_words: i64) -> list[int]:
        """The letters ``mask`` of position ``p`` of the class whose build was
        just refused for its estimate (``build_within`` returned None, its
        paths counted), in groups each of whose subclasses (the class with
        only those letters at ``p``) estimates at most ``max_words`` arena
        words, as ``build_within`` estimates: as few groups as first fit,
        the busiest letters first, finds (in the order of their lowest
        letters). A subclass's estimate counts the paths that start at ``p``
        with its letters and every path that does not start at ``p``, so it
        is at least the estimate ``build_within`` makes of it. A letter
        that alone estimates more is a group of its own (every letter, with
        ``max_words`` 0)."""
        per_path = self._unshared_per_path()
        total: i64 = 0
        for i in range(TILE_ROOM * self.n):
            total += self.paths_at[i]
        common = total - self._paths_from(p)
        room = (max_words - 64 * self.n) // per_path - common  # paths of p's letters a group may hold
        letters: list[tuple[int, int]] = []
        m = mask
        while m != 0:
            bit: i64 = m & -m
            m ^= bit
            letters.append((-int(self.paths_at[p * TILE_ROOM + popcount26(bit - 1)]), int(bit)))
        letters.sort()
        groups: list[int] = []
        held: list[int] = []
        for neg, one in letters:
            paths = -neg
            placed = False
            for g in range(len(groups)):
                if held[g] + paths <= room:
                    groups[g] |= one
                    held[g] += paths
                    placed = True
                    break
            if not placed:
                groups.append(one)
                held.append(paths)
        groups.sort(key=lambda g: g & -g)  # lowest letter first, as one letter a part goes
        return groups

    def _reset_passes(self) -> None:
        """Forget the last build's root family, shared leaves and families."""
        self.sums = vec[i64]()
        for q in range(self.n):
            self.pos_mask[q] = 0
            self.pos_bound[q] = 0
        for i in range(LEAF_LIMIT):
            self.leaves[i] = -1
        self.fams.clear()
        self.fams.on = self.share_words == 0
        self.passes = 0
        self.records_peak = 0

    def _finish(self, tree: Tree, nodes: i64) -> Tree:
        """Write the root's family (its choice nodes from ``pos_*``)."""
        n = self.n
        # the root's family
        sums = self.sums
        k: i64 = 0
        for q in range(n):
            if self.pos_mask[q] != 0:
                k += 1
        nodes += k  # the root's choice nodes, each counted once
        at = tree._reserve(KIDS + k + k * KIDS + SLOT * len(sums))
        a = tree.a
        bound: i64 = 0
        fam = at + KIDS + k
        out = at + KIDS
        for q in range(n):
            if self.pos_mask[q] == 0:
                continue
            a[out] = i32(fam)
            out += 1
            a[fam + HEAD] = i32(self.pos_mask[q] << LOW_BITS | q)
            a[fam + BOUND] = i32(self.pos_bound[q])
            slot = fam + KIDS
            for x in range(self.pos_first[q], self.pos_end[q]):
                a[slot] = i32(sums[x])
                a[slot + 1] = a[sums[x] + BOUND]
                slot += SLOT
            fam = slot
            bound += self.pos_bound[q]
        points = self.root_points  # (0 but in a forced build)
        bound += points
        if bound > I32_MAX:
            raise ValueError("class too big: a bound of its tree exceeds 2**31")
        a[at + HEAD] = i32(points << LOW_BITS | k)
        a[at + BOUND] = i32(bound)
        tree.root = at
        tree.n_nodes = nodes
        freed = False
        if len(self.b) > KEEP_RECORDS:
            # records the size of a big pass: free them for the forcing
            self.b = vec[i32]()
            self.seen = vec[i64]([0] * 1024)
            self.n_seen = 0
            freed = True
        if len(self.keys) > KEEP_KEYS and not self._keeps_keys():
            self._let_go_keys()
            freed = True
        self.fams.clear()  # (a big table is let go for the forcing)
        if freed and self.skip == 0:
            # what malloc keeps of freed buffers goes back too (buffers of up
            # to 32 MB come from its heap once it has freed one that size,
            # and the heap gives back only its top); not after a forced
            # build, whose next one would take that memory anew (trimmed
            # after each, a test forcing de-duplicated builds at every level
            # took 10% longer, for 3 MB less on the 4x4 anchor sample)
            trim_heap()
        return tree

    def _let_go_keys(self) -> None:
        """Give back the paths' keys, their words and uses, and their room."""
        self.keys = vec[i64]()
        self.vals = vec[i64]()
        self.uses = vec[i64]()
        self.key_room = 0

    def _keeps_keys(self) -> bool:
        """Whether this build, a forced one, keeps its key buffers for the
        next (``keep_forced``) rather than giving them back."""
        return (
            self.skip > 0 and self.keep_forced > KEEP_KEYS
            and max(len(self.keys), len(self.tmp_keys)) <= self.keep_forced
        )

    def _arena_per_path(self) -> i64:
        """Arena words to set aside a path: the tree and its forcing."""
        if self.fams.on:
            return ARENA_WORDS_PER_PATH_SHARED
        return self._unshared_per_path()

    def _unshared_per_path(self) -> i64:
        """Arena words a path of a tree that does not share its families:
        what the estimates ``build_within`` compares with its limits take."""
        return ARENA_WORDS_PER_PATH if self.n >= 16 else ARENA_WORDS_PER_PATH_SMALL

    def _kept_per_path(self) -> i64:
        """Arena words a path that a class's built tree surely fills, less
        the sort's copy of its keys (2 words a path packed, 4 not)."""
        return KEPT_WORDS_PER_PATH if self.n >= 16 else KEPT_WORDS_PER_PATH_SMALL

    def _budget(self) -> i64:
        """The whole pass's cap: record words, or paths of the sorted build."""
        if self.keyed:
            return self._key_paths()
        return RECORD_WORDS_PER_PATH * self.pass_paths

    def _key_paths(self) -> i64:
        """Paths a pass of the sorted build may hold."""
        return self.key_pass_words // (2 if self.packed else 4)

    def _key_digits(self) -> None:
        """Each position's digit weight and values for this class's letter
        sets, and whether its keys fit (else the record build)."""
        n = self.n
        w: i64 = 1
        wide = False
        for p in range(n - 1, -1, -1):
            if p < self.skip:
                # no digit: a weight above every key, so the emission never
                # takes this position for a key's next one
                self.weight[p] = KEY_LIMIT
                self.radix[p] = 1
                for letter in range(TILE_ROOM):
                    self.digit_w[p * TILE_ROOM + letter] = 0
                continue
            self.weight[p] = w
            m = self.masks[p]
            rank: i64 = 0
            frame = self.frame[p]
            for letter in range(TILE_ROOM):
                self.digit_w[p * TILE_ROOM + letter] = 0
                if (m >> letter) & 1 != 0:
                    rank += 1
                    self.digit_w[p * TILE_ROOM + letter] = rank * w
                    self.letter_of[p * 27 + rank] = letter
                    if self.wide:
                        self.mark_of[p * 27 + rank] = popcount26(frame & (tile_bit(letter) - 1))
            self.radix[p] = rank + 1
            if wide or w > KEY_LIMIT // (rank + 1):
                wide = True
            else:
                w *= rank + 1
        bits: i64 = 0
        while w > 0:  # (mypyc shifts a literal 1 in 32 bits)
            w >>= 1
            bits += 1
        if wide:
            bits = KEY_BITS + 1
        self.key_bits = bits
        self.keyed = self.use_keys and bits <= KEY_BITS
        self.packed = self.pack_words and bits + self.word_bits <= 63

    def _paths_from(self, p: i64) -> i64:
        """Paths whose sorted cells start at position ``p``."""
        total: i64 = 0
        for i in range(p * TILE_ROOM, p * TILE_ROOM + TILE_ROOM):
            total += self.paths_at[i]
        return total

    def _pass(self, tree: Tree, lo: i64, hi: i64, paths: i64, cap: i64 = 0) -> i64:
        """Record the paths starting at positions lo..hi (about ``paths`` of
        them) and freeze their sum nodes into ``tree``; the root's choice
        nodes are collected in ``pos_*``. Returns the nodes frozen, or -1 if
        the records outgrew ``cap`` words (if > 0) and nothing was frozen."""
        if self.keyed:
            return self._pass_keyed(tree, lo, hi, paths, cap)
        n = self.n
        self._clear(paths)
        self.cap = cap
        self.aborted = False
        self._search(lo, ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1), (1 << lo) - 1)
        self.cap = 0
        if self.aborted:
            self.aborted = False
            return -1
        self.passes += 1
        self.records_peak = max(self.records_peak, self.b_top)
        nodes = self.n_records - 1  # not the root
        top = vec[i64]([tree._reserve((KIDS + SLOT) * self.n_records)])
        b = self.b
        for q in range(lo, hi + 1):
            c = i64(b[1 + q])  # the root record's slot for q
            if c == 0:
                continue
            nodes -= 1  # the root's choice nodes are counted once, by build()
            if self.pos_mask[q] == 0:
                self.pos_first[q] = len(self.sums)
            j = c + 1
            m = self.masks[q]
            while m != 0:
                bit: i64 = m & -m
                m ^= bit
                srec = i64(b[j])
                j += 1
                if srec != 0:
                    child = _freeze_sum(
                        b, tree.a, self.masks, self.counts, self.leaves, n, top, srec, q, self.fams,
                        self.frame, self.wide,
                    )
                    self.sums = append(self.sums, child)
                    self.pos_mask[q] |= _marked(bit, self.frame[q]) if self.wide else bit
                    self.pos_bound[q] = max(self.pos_bound[q], i64(tree.a[child + BOUND]))
            self.pos_end[q] = len(self.sums)
        tree.top = top[0]
        return nodes

    def _pass_keyed(self, tree: Tree, lo: i64, hi: i64, paths: i64, cap: i64) -> i64:
        """``_pass`` by the sorted build: record the keys of the paths,
        sort them, and write the root's sum children from them."""
        packed = self.packed
        if paths == 0 and cap > self.key_room:
            # a pass of unknown size (a class's first try, a forced build):
            # room up to its cap, untouched, so that the keys grow in place;
            # grown past their room they were copied, both copies resident
            # (a 3x4 class of 4.2 million paths held 83 MB of keys so)
            self._let_go_keys()
            try:
                keys = reserved64(cap)
                vals = reserved64(cap)
                uses = reserved64(cap)
                self.keys, self.vals, self.uses, self.key_room = keys, vals, uses, cap
            except MemoryError:
                pass  # no address space for the room (a ulimit -v): grown as they were
        # (a buffer sized here has no room past its length)
        if len(self.keys) < paths:
            self.keys = vec[i64]()
            self.keys = zeros64(paths)
            self.key_room = 0
        if not packed and len(self.vals) < len(self.keys):
            self.vals = vec[i64]()
            self.vals = zeros64(len(self.keys))
            self.key_room = 0
        if self.skip > 0 and len(self.uses) < len(self.keys):
            self.uses = vec[i64]()
            self.uses = zeros64(len(self.keys))
            self.key_room = 0
        self.n_keys = 0
        self.key_cap = cap
        self.aborted = False
        self._search(lo, ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1), (1 << lo) - 1)
        self.key_cap = 0
        if self.aborted:
            self.aborted = False
            return -1
        self.passes += 1
        count = self.n_keys
        self.records_peak = max(self.records_peak, (2 if packed else 4) * count)
        if self.skip > 0:
            count = drop_supersets(
                self.keys, self.keys if packed else self.vals, self.uses, count, self.word_bits if packed else 0,
                (1 << self.word_bits) - 1, self.word_bits, self.weight, self.radix, self.skip, self.n, packed,
            )
            self.n_keys = count
        if count == 0:
            return 0
        need = tree.top + self._arena_per_path() * count + 1024
        if tree.top == 0:
            if not tree.keeps(need):
                # fit() below will reserve a new arena: the kept one goes
                # now, not after sitting beside the keys and the sort's copy
                tree.let_go()
            else:
                # the arena kept from the last class stays resident only as
                # far as this class's tree surely reaches, less the sort's
                # copy, so that beside that copy it never holds more than the
                # tree will
                release_from(tree.a, self._kept_per_path() * count)
        if len(self.tmp_keys) < count:
            self.tmp_keys = vec[i64]()
            self.tmp_keys = zeros64(count)
        if not packed and len(self.tmp_vals) < count:
            self.tmp_vals = vec[i64]()
            self.tmp_vals = zeros64(count)
        shift = self.word_bits if packed else 0
        if self.poll is not None:
            self.poll()
        if radix_sort(
            self.keys, self.vals, self.tmp_keys, self.tmp_vals, count, shift, shift + self.key_bits, not packed
        ):
            self.keys, self.tmp_keys = self.tmp_keys, self.keys
            if not packed:
                self.vals, self.tmp_vals = self.tmp_vals, self.vals
        if not self._keeps_keys():
            # the sort's copy is not needed while the tree is written
            self.tmp_keys = vec[i64]()
            self.tmp_vals = vec[i64]()
        st = self.st
        st[ST_SHIFT] = shift
        st[ST_WORD] = (1 << self.word_bits) - 1 if packed else -1
        if tree.top == 0:
            # the first pass: reserve the class's arena, tree and forcing
            # (a vector grown past its capacity is copied, holding both)
            tree.fit(need)
        return self._emit_root(tree, count)

    def _emit_root(self, tree: Tree, count: i64) -> i64:
        """Write the root's sum children from the pass's sorted keys (their
        choice nodes are collected in ``pos_*``); return the nodes written."""
        keys = self.keys
        vals = self.keys if self.packed else self.vals
        weight = self.weight
        st = self.st
        shift = st[ST_SHIFT]
        st[ST_TOP] = tree.top
        st[ST_SP] = 0
        st[ST_NODES] = 0
        i: i64 = 0
        # a big pass's keys are given back as the tree takes them in (no run
        # reads keys before its own), so that the tree's last runs are not
        # written beside all of them: the 4x4 anchor sample's biggest class
        # held about 180 MB of keys at the end of its build
        every = self.release_every if len(keys) > KEEP_KEYS and not self._keeps_keys() else 0
        released: i64 = 0
        while i < count:
            if every > 0 and i - released >= every:
                release_range64(keys, released, i)
                if not self.packed:
                    release_range64(vals, released, i)
                self.keys_released += i - released
                released = i
            if self.poll is not None:
                self.poll()
            # the root's runs: next position and letter (positions from last to first)
            rem = keys[i] >> shift
            if rem == 0:
                # (a forced build) paths wholly on the forced positions: the root's points
                j = run_end(keys, shift, i, count, 1)
                self.root_points += key_points(keys, vals, self.trie_points, st, i, j)
                i = j
                continue
            q: i64 = 0
            while weight[q] > rem:
                q += 1
            d = rem // weight[q]
            end = (d + 1) * weight[q]
            j = run_end(keys, shift, i, count, end)
            # the run's room, touched now (the vectors check every index: a
            # run that needs more is taken back and written again)
            per_path = EMIT_WORDS_PER_PATH if self.n >= 16 else EMIT_WORDS_PER_PATH_SMALL
            if self.fams.on:
                per_path = EMIT_WORDS_PER_PATH_SHARED
            room = per_path * (j - i) + 1024
            child: i64 = -1
            while child < 0:
                run_top = st[ST_TOP]
                run_nodes = st[ST_NODES]
                tree.room(run_top + room)
                try:
                    child = emit_sum(
                        keys, vals, self.trie_points, tree.a, weight, self.mark_of, self.leaves, self.runs, st,
                        i, j, q, d * weight[q], self.fams,
                    )
                except IndexError:
                    st[ST_TOP] = run_top
                    st[ST_NODES] = run_nodes
                    st[ST_SP] = 0
                    for x in range(LEAF_LIMIT):
                        if self.leaves[x] >= run_top:
                            self.leaves[x] = -1
                    self.fams.forget_from(tree.a, run_top)
                    room += room // 2
            if self.pos_mask[q] == 0:
                self.pos_first[q] = len(self.sums)
            self.sums = append(self.sums, child)
            self.pos_mask[q] |= i64(1) << self.mark_of[q * 27 + d]
            self.pos_bound[q] = max(self.pos_bound[q], i64(tree.a[child + BOUND]))
            self.pos_end[q] = len(self.sums)
            i = j
        tree.top = st[ST_TOP]
        return st[ST_NODES]

    def _put(self, key: i64, word: i64, used: i64) -> None:
        """Record one path's key and word (the sorted build)."""
        at = self.n_keys
        if at >= len(self.keys):
            if self.key_cap > 0 and at >= self.key_cap:
                self.aborted = True  # the pass is too big: build() counts and splits
                return
            # in the room, a block at a time (zeros written are resident)
            more = at + KEY_BLOCK if at < self.key_room else max(at + at // 2, 1 << 16)
            if self.key_cap > 0:
                more = min(more, self.key_cap)
            self.keys = grown64(self.keys, more)
            if not self.packed:
                self.vals = grown64(self.vals, more)
            if self.skip > 0:
                self.uses = grown64(self.uses, more)
        if self.packed:
            self.keys[at] = (key << self.word_bits) | word
        else:
            self.keys[at] = key
            self.vals[at] = word
        if self.skip > 0:
            self.uses[at] = used
        self.n_keys = at + 1

    def _search(self, start: i64, pass_bit: i64, blocked: i64) -> None:
        """Every path over positions ``start`` and after (the ``blocked`` ones
        before it are never entered) that uses one of ``pass_bit``: recorded,
        or counted if ``counting``."""
        self.pass_bit = pass_bit
        self.blocked = blocked
        root_word = self.trie_nodes[0]
        rmask = root_word & LETTER_MASK
        first = (root_word >> CHILD_SHIFT) & CHILD_MASK
        for q in range(start, self.n):
            m = self.masks[q] & rmask
            while m != 0:
                bit: i64 = m & -m
                m ^= bit
                letter = popcount26(bit - 1)
                self.letter_at[q] = letter
                if self.poll is not None:
                    self.poll()
                _dfs(
                    self, self.trie_nodes, self.trie_points, self.nbrs, self.masks, self.letter_at,
                    self.digit_w, q, first + popcount26(rmask & (bit - 1)), blocked | (1 << q),
                    self.digit_w[q * TILE_ROOM + letter],
                )

    def _clear(self, paths: i64) -> None:
        """Empty build records (just the root), sized for ``paths`` paths,
        and duplicate set."""
        n = self.n
        need = RECORD_WORDS_PER_PATH * paths + 2 * n * (n + 28)
        if len(self.b) < need:
            self.b = vec[i32]()
            self.b = fresh32(need)
        for i in range(1 + n):
            self.b[i] = 0  # the root: no points, no children
        self.b_top = 1 + n
        self.n_records = 1
        self.prev_len = 0
        if self.n_seen > 0:
            self.seen = vec[i64]([0] * 1024)
        self.n_seen = 0

    def _add(self, word: i64, used: i64, tagged: i64) -> None:
        """Add one path's word: its cells in position order, each a choice
        record then a sum record. The part shared with the previous word's
        sorted path is not walked again."""
        b = self.b
        n = self.n
        top = self.b_top
        if self.cap > 0 and top > self.cap:
            self.aborted = True  # the pass is too big: build() counts and splits
            return
        if top + n * (n + 28) > len(b):
            if len(b) > I32_MAX // 2:
                raise ValueError("class too big: its tree needs more than 2**31 record words")
            # half as big again (they are freed after each build); new
            # records are cleared as they are made
            b = grown32(b, top + n * (n + 28), len(b) + len(b) // 2)
            self.b = b
        masks = self.masks
        counts = self.counts
        letter_at = self.letter_at
        prev_pos = self.prev_pos
        prev_letter = self.prev_letter
        prev_rec = self.prev_rec
        prev_len = self.prev_len
        made: i64 = 0
        shared = True
        cur: i64 = 0
        base: i64 = -1
        i: i64 = 0
        u = used
        while u != 0:
            bit: i64 = u & -u
            u ^= bit
            pos = popcount26(bit - 1)
            letter = letter_at[pos]
            if shared and i < prev_len and prev_pos[i] == pos and prev_letter[i] == letter:
                cur = prev_rec[i]
                base = pos
                i += 1
                continue
            shared = False
            slot = cur + pos - base
            choice = i64(b[slot])
            if choice == 0:
                choice = top
                b[top] = i32(pos)
                for j in range(top + 1, top + 1 + counts[pos]):
                    b[j] = 0
                top += 1 + counts[pos]
                b[slot] = i32(choice)
                made += 1
            slot = choice + 1 + popcount26(masks[pos] & ((i64(1) << letter) - 1))
            cur = i64(b[slot])
            if cur == 0:
                cur = top
                for j in range(top, top + n - pos):
                    b[j] = 0
                top += n - pos
                b[slot] = i32(cur)
                made += 1
            base = pos
            prev_pos[i] = pos
            prev_letter[i] = letter
            prev_rec[i] = cur
            i += 1
        self.prev_len = i
        self.b_top = top
        self.n_records += made
        # the same word reaches the same leaf twice only by two orders of the
        # same cells, which needs two cells with the same letter
        if (tagged & REPEATS_BIT) == 0 or self._first_time(cur * (1 << 24) + word):
            total = i64(b[cur]) + (tagged & (REPEATS_BIT - 1))
            if total > I32_MAX:
                raise ValueError("points of one tree leaf exceed 2**31")
            b[cur] = i32(total)

    def _first_time(self, key: i64) -> bool:
        """Record ``key`` (> 0) in the open-addressing set; False if it was there."""
        seen = self.seen
        cap = len(seen)
        if 2 * (self.n_seen + 1) > cap:
            old = seen
            cap = 2 * cap
            seen = vec[i64]([0] * cap)
            for x in old:
                if x != 0:
                    h = _slot(x, cap)
                    while seen[h] != 0:
                        h = (h + 1) & (cap - 1)
                    seen[h] = x
            self.seen = seen
        h = _slot(key, cap)
        while True:
            x = seen[h]
            if x == key:
                return False
            if x == 0:
                seen[h] = key
                self.n_seen += 1
                return True
            h = (h + 1) & (cap - 1)


def _dfs(
    bld: TreeBuilder, nodes: vec[i64], points: vec[i64], nbrs: vec[i64], masks: vec[i64],
    letter_at: vec[i64], digit_w: vec[i64], pos: i64, node: i64, used: i64, key: i64,
) -> None:
    """Every path from trie ``node`` reached at ``pos`` over the class's letters."""
    w = nodes[node]
    if bld.aborted:
        return
    if (w & WORD_BIT) != 0 and (used & bld.pass_bit) != 0:
        tagged = points[node]
        if (tagged & (REPEATS_BIT - 1)) > 0:
            if bld.counting:
                # counting: paths by their first position and its letter
                first_pos = popcount26((used & -used) - 1)
                bld.paths_at[first_pos * TILE_ROOM + letter_at[first_pos]] += 1
            elif bld.keyed:
                bld._put(key, node, used ^ bld.blocked)
            else:
                bld._add(node, used ^ bld.blocked, tagged)
    mask = w & LETTER_MASK
    if mask == 0:
        return
    first = (w >> CHILD_SHIFT) & CHILD_MASK
    at = pos * NBR_STRIDE
    end = at + 1 + nbrs[at]
    k = at + 1
    while k < end:
        nb = nbrs[k]
        k += 1
        nbit: i64 = 1 << nb
        if (used & nbit) != 0:
            continue
        m = mask & masks[nb]
        while m != 0:
            bit: i64 = m & -m
            m ^= bit
            letter = popcount26(bit - 1)
            letter_at[nb] = letter
            _dfs(
                bld, nodes, points, nbrs, masks, letter_at, digit_w, nb, first + popcount26(mask & (bit - 1)),
                used | nbit, key + digit_w[nb * TILE_ROOM + letter],
            )


# Freezing: module-level functions with the vectors as arguments (attribute
# reads would cost reference counting per node); ``top[0]`` is the arena's
# fill, whose capacity the caller has already reserved. A sum node takes its
# family (the node, then its choice children) at the top, then each of its
# choice children's sum children does the same.


def _freeze_sum(
    b: vec[i32], a: vec[i32], masks: vec[i64], counts: vec[i64], leaves: vec[i64], n: i64,
    top: vec[i64], rec: i64, base: i64, fams: Families, frame: vec[i64], wide: bool,
) -> i64:
    """Write a sum record's node and its family at the top; return the node
    (an older one where the family repeats one: ``families``)."""
    k: i64 = 0
    words = KIDS
    for j in range(rec + 1, rec + n - base):
        c = i64(b[j])
        if c != 0:
            k += 1
            words += 1 + KIDS
            pos = i64(b[c])
            for x in range(c + 1, c + 1 + counts[pos]):
                if b[x] != 0:
                    words += SLOT
    points = i64(b[rec])
    if k == 0 and points < LEAF_LIMIT:
        shared = leaves[points]
        if shared >= 0:
            return shared
        leaves[points] = top[0]
    at = top[0]
    top[0] = at + words
    bound = points
    out = at + KIDS
    fam = at + KIDS + k
    for pos in range(base + 1, n):
        c = i64(b[rec + pos - base])
        if c != 0:
            a[out] = i32(fam)
            out += 1
            # the choice node: mask and slots here, its sum children's families at the top
            mask: i64 = 0
            cb: i64 = 0
            slot = fam + KIDS
            m = masks[pos]
            j = c + 1
            while m != 0:
                bit: i64 = m & -m
                m ^= bit
                s = i64(b[j])
                j += 1
                if s != 0:
                    mask |= bit
                    child = _freeze_sum(b, a, masks, counts, leaves, n, top, s, pos, fams, frame, wide)
                    sb = i64(a[child + BOUND])
                    a[slot] = i32(child)
                    a[slot + 1] = i32(sb)
                    slot += SLOT
                    if sb > cb:
                        cb = sb
            if wide:
                mask = framed(mask, frame[pos])
            a[fam + HEAD] = i32(mask << LOW_BITS | pos)
            a[fam + BOUND] = i32(cb)
            fam = slot
            bound += cb
    if bound > I32_MAX:
        raise ValueError("class too big: a bound of its tree exceeds 2**31")
    if points > MAX_POINTS:
        raise ValueError("class too big: a node's points exceed 2**26")
    a[at + HEAD] = i32(points << LOW_BITS | k)
    a[at + BOUND] = i32(bound)
    if not fams.on:
        return at
    same = intern(fams, a, at, at + words)
    if same != at and top[0] == at + words:
        top[0] = at
    return same


def _slot(key: i64, cap: i64) -> i64:
    """Hash of a (leaf << 24 | word) key into a power-of-two table, without overflow."""
    return ((key >> 24) * 40503 + (key & 0xFFFFFF) * 2654435) & (cap - 1)


def _depths(nodes: vec[i64]) -> vec[i64]:
    """Per trie node, its depth: the tiles of its key (``q`` is one tile).
    Children come after their parent (breadth first): one pass suffices."""
    count = len(nodes)
    depth = vec[i64]([0] * count)
    for i in range(count):
        w = nodes[i]
        first = (w >> CHILD_SHIFT) & CHILD_MASK
        k: i64 = 0
        m = w & LETTER_MASK
        while m != 0:
            m &= m - 1
            depth[first + k] = depth[i] + 1
            k += 1
    return depth


def _repeats(nodes: vec[i64]) -> vec[i64]:
    """Per trie node, 1 if the letters from the root to it repeat one.

    Children always have larger indices than their parent (the trie is
    numbered breadth first), so one pass in index order suffices."""
    count = len(nodes)
    seen = vec[i64]([0] * count)  # tiles on the way, bit REPEAT_SHIFT: a repeat
    for i in range(count):
        w = nodes[i]
        mask = w & LETTER_MASK
        first = (w >> CHILD_SHIFT) & CHILD_MASK
        here = seen[i]
        k: i64 = 0
        m = mask
        while m != 0:
            bit: i64 = m & -m
            m ^= bit
            child = here | bit
            if (here & bit) != 0:
                child |= REPEAT_FLAG
            seen[first + k] = child
            k += 1
    for i in range(count):
        seen[i] = (seen[i] >> REPEAT_SHIFT) & 1
    return seen


def _marked(bit: i64, frame: i64) -> i64:
    """A tile's bit as a wide alphabet's choice mask writes it: its rank in ``frame``."""
    return tile_bit(popcount26(frame & (bit - 1)))


def framed(mask: i64, frame: i64) -> i64:
    """A set of tiles (a subset of ``frame``) as bits of ``frame``'s tiles:
    how a wide alphabet's choice masks write it."""
    out: i64 = 0
    m = mask
    while m != 0:
        bit: i64 = m & -m
        m ^= bit
        out |= _marked(bit, frame)
    return out


def unframed(marks: i64, frame: i64) -> i64:
    """The inverse of ``framed``: bits of ``frame``'s tiles as the tiles."""
    out: i64 = 0
    rank: i64 = 0
    f = frame
    while f != 0:
        bit: i64 = f & -f
        f ^= bit
        if ((marks >> rank) & 1) != 0:
            out |= bit
        rank += 1
    return out
