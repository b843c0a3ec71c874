"""The sorted build of an orderly tree: each path to a word as one integer
key, sorted, then the tree written from the sorted keys. Compiled with mypyc.

A path's key is a number in mixed radix, one digit per position (position 0
the most significant): 0 if the path skips the position, else 1 + the rank of
its letter in the cell's set. Sorted keys list the paths of every tree node
together, in the order the arena wants them, so the tree is written in one
sweep with sequential reads: no per-path records to chase (inserting paths
one by one into records cost three times as much), a quarter of their
memory, and duplicates (one word by two orders of the same cells) near each
other. The radix is the cell's letter count + 1, so a 4x4 class of the usual
buckets needs about 52 bits; a class whose keys need more than
``KEY_BITS`` uses the record build instead.

Each key carries its word (trie node, for its points and to count a word
once): packed below the key where both fit in 63 bits (3x4 classes: about
40 + 20 bits), else in a second vector.
"""

from __future__ import annotations

from typing import Final

from librt.vecs import extend, vec
from mypy_extensions import i32, i64

from .arena import BOUND, HEAD, I32_MAX, KIDS, LEAF_LIMIT, LOW_BITS, MAX_POINTS, SLOT
from .families import Families, intern
from .trie import popcount26

KEY_BITS: Final[i64] = 62
KEY_LIMIT: Final[i64] = 1 << KEY_BITS
# trie points are tagged with this if the word repeats a letter (only such a
# word can reach one leaf by two paths)
REPEATS_BIT: Final[i64] = 1 << 40
RADIX_BITS: Final[i64] = 11
RADIX: Final[i64] = 1 << RADIX_BITS
# st[]: the emission's state, in one vector (attribute reads would cost
# reference counting per node)
ST_TOP: Final[i64] = 0  # the arena's fill
ST_SP: Final[i64] = 1  # the runs stack's fill
ST_NODES: Final[i64] = 2  # sum and choice nodes written (shared leaves each time)
ST_SHIFT: Final[i64] = 3  # a key is stored shifted by this (its word packed below)
ST_WORD: Final[i64] = 4  # mask of a stored value's word
# != 0: every word is checked against the others of its key (a forced build:
# two paths of one word over different forced cells share a key without
# repeating a letter)
ST_ALL_WORDS: Final[i64] = 5
ST_WORDS: Final[i64] = 6  # words of st[]
RUN: Final[i64] = 4  # a run: position, digit, first key, end


# zeros copied at a time into a new buffer (32 KB)
ZERO_BLOCK: Final[i64] = 4096


def zeros64(count: i64) -> vec[i64]:
    """``count`` zeros in a buffer of exactly that capacity."""
    return grown64(vec[i64](capacity=count), count)


def grown64(v: vec[i64], words: i64) -> vec[i64]:
    """``v`` with zeros appended to ``words`` words, copied in from a small
    block: ``vec[i64]([0] * n)`` first makes a list of ``n`` items, which
    sits beside the buffer (8 MB a million) at a build's peak."""
    block = vec[i64]([0] * min(max(words - len(v), 0), ZERO_BLOCK))
    while len(v) + len(block) <= words and len(block) > 0:
        v = extend(v, block)
    if len(v) < words:
        v = extend(v, block[: words - len(v)])
    return v


def radix_sort(
    keys: vec[i64], vals: vec[i64], tmp_keys: vec[i64], tmp_vals: vec[i64], count: i64, low: i64,
    bits: i64, carry: bool,
) -> bool:
    """Sort ``keys[:count]`` by their bits ``low`` to ``bits`` (the rest keep
    their order), ``vals`` alongside if ``carry``, least significant digits
    first through the ``tmp`` buffers. True if the result ended in ``tmp``."""
    counts = vec[i64]([0] * RADIX)
    swapped = False
    shift = low
    while shift < bits:
        for d in range(RADIX):
            counts[d] = 0
        for i in range(count):
            counts[(keys[i] >> shift) & (RADIX - 1)] += 1
        if counts[(keys[0] >> shift) & (RADIX - 1)] != count:  # else every key has this digit
            at: i64 = 0
            for d in range(RADIX):
                c = counts[d]
                counts[d] = at
                at += c
            for i in range(count):
                k = keys[i]
                d = (k >> shift) & (RADIX - 1)
                to = counts[d]
                counts[d] = to + 1
                tmp_keys[to] = k
                if carry:
                    tmp_vals[to] = vals[i]
            keys, tmp_keys = tmp_keys, keys
            if carry:
                vals, tmp_vals = tmp_vals, vals
            swapped = not swapped
        shift += RADIX_BITS
    return swapped


def emit_sum(
    keys: vec[i64], vals: vec[i64], points_of: vec[i64], a: vec[i32], weight: vec[i64],
    letter_of: vec[i64], leaves: vec[i64], runs: vec[i64], st: vec[i64], lo: i64, hi: i64,
    p: i64, base: i64, fams: Families,
) -> i64:
    """Write the sum node of the sorted keys ``lo..hi``, which share the
    digits of positions up to ``p`` (their value ``base``), and its family
    at the arena's top, then its children's families; return the node (an
    older one where the family repeats one: ``families``).

    Its own words have key ``base`` and come first; then come runs of keys
    with the same next position and letter, the positions from last to first
    (a later next position leaves more leading zero digits). A key is
    ``keys[i] >> st[ST_SHIFT]``, its word ``vals[i] & st[ST_WORD]``."""
    shift = st[ST_SHIFT]
    wmask = st[ST_WORD]
    all_words = st[ST_ALL_WORDS] != 0
    i = lo
    points: i64 = 0
    while i < hi and (keys[i] >> shift) == base:
        tagged = points_of[vals[i] & wmask]
        if ((tagged & REPEATS_BIT) == 0 and not all_words) or _first_word(vals, wmask, lo, i):
            points += tagged & (REPEATS_BIT - 1)
        i += 1
    sp0 = st[ST_SP]
    sp = sp0
    k: i64 = 0
    words = KIDS
    last: i64 = -1
    while i < hi:
        rem = (keys[i] >> shift) - base
        q = p + 1
        while weight[q] > rem:
            q += 1
        w = weight[q]
        d = rem // w
        end = base + (d + 1) * w
        j = run_end(keys, shift, i, hi, end)
        if q != last:
            k += 1
            words += 1 + KIDS
            last = q
        words += SLOT
        runs[sp] = q
        runs[sp + 1] = d
        runs[sp + 2] = i
        runs[sp + 3] = j
        sp += RUN
        i = j
    st[ST_NODES] += 1 + k
    if k == 0 and points < LEAF_LIMIT:
        shared = leaves[points]
        if shared >= 0:
            return shared
        leaves[points] = st[ST_TOP]
    st[ST_SP] = sp
    at = st[ST_TOP]
    st[ST_TOP] = at + words
    bound = points
    out = at + KIDS
    fam = at + KIDS + k
    g = sp
    while g > sp0:
        # the runs of the next position (from the first), letters in order
        q = runs[g - RUN]
        s = g - RUN
        while s > sp0 and runs[s - RUN] == q:
            s -= RUN
        a[out] = i32(fam)
        out += 1
        mask: i64 = 0
        cb: i64 = 0
        slot = fam + KIDS
        w = weight[q]
        for r in range(s, g, RUN):
            d = runs[r + 1]
            child = emit_sum(
                keys, vals, points_of, a, weight, letter_of, leaves, runs, st, runs[r + 2], runs[r + 3], q,
                base + d * w, fams,
            )
            sb = i64(a[child + BOUND])
            a[slot] = i32(child)
            a[slot + 1] = i32(sb)
            slot += SLOT
            mask |= i64(1) << letter_of[q * 27 + d]
            if sb > cb:
                cb = sb
        a[fam + HEAD] = i32(mask << LOW_BITS | q)
        a[fam + BOUND] = i32(cb)
        fam = slot
        bound += cb
        g = s
    st[ST_SP] = sp0
    if bound > I32_MAX:
        raise ValueError("class too big: a bound of its tree exceeds 2**31")
    if points > MAX_POINTS:
        raise ValueError("class too big: a node's points exceed 2**26")
    a[at + HEAD] = i32(points << LOW_BITS | k)
    a[at + BOUND] = i32(bound)
    if not fams.on:
        return at
    same = intern(fams, a, at, at + words)
    if same != at and st[ST_TOP] == at + words:
        st[ST_TOP] = at
    return same


def run_end(keys: vec[i64], shift: i64, i: i64, hi: i64, end: i64) -> i64:
    """The first index after ``i`` (below ``hi``) whose key is at least
    ``end``: by galloping, since near the root a run is long (scanning it
    cost a read per key per level)."""
    step: i64 = 1
    lo = i  # keys[lo] < end
    while lo + step < hi and (keys[lo + step] >> shift) < end:
        lo += step
        step += step
    top = min(lo + step, hi)  # keys[top] >= end, or top == hi
    while top - lo > 1:
        mid = (lo + top) >> 1
        if (keys[mid] >> shift) < end:
            lo = mid
        else:
            top = mid
    return top


def key_points(keys: vec[i64], vals: vec[i64], points_of: vec[i64], st: vec[i64], lo: i64, hi: i64) -> i64:
    """Points of the words of keys ``lo..hi`` (all one key), each word once."""
    wmask = st[ST_WORD]
    points: i64 = 0
    for i in range(lo, hi):
        if _first_word(vals, wmask, lo, i):
            points += points_of[vals[i] & wmask] & (REPEATS_BIT - 1)
    return points


def drop_supersets(
    keys: vec[i64], vals: vec[i64], uses: vec[i64], count: i64, shift: i64, wmask: i64, word_bits: i64,
    weight: vec[i64], radix: vec[i64], lo_pos: i64, n: i64, packed: bool,
) -> i64:
    """Drop every path whose (cell, letter) pairs over positions ``lo_pos``
    and after strictly contain those of another path of the same word (the
    forced build: the positions before ``lo_pos`` have one letter each and
    are not in the keys); return the paths kept, moved to the front.
    ``uses[i]`` holds path i's positions as bits (those before ``lo_pos``
    are ignored), so a key's digits are only worked out (a division each)
    for the pairs whose positions could be a strict subset; a dropped path's
    ``uses`` entry becomes -1.

    Why the bound stays an upper bound: a board of the forced subclass that
    realizes a dropped path realizes every path whose pairs are a subset of
    its own (the forced cells hold their letters on every board), so the
    word is still counted through a minimal path, which has no strict subset
    and so is never dropped; and a word scores once however many paths find
    it. A key's digit at position p is (key // weight[p]) % radix[p], 0 when
    the path skips p."""
    if count < 2:
        return count
    # paths grouped by word: (word << 32 | index), sorted by the word
    order = zeros64(count)
    tmp = zeros64(count)
    for i in range(count):
        order[i] = ((vals[i] & wmask) << 32) | i
    if radix_sort(order, order, tmp, tmp, count, 32, 32 + word_bits, False):
        order, tmp = tmp, order
    # each path's key and unforced positions gathered in the word order, so
    # the comparisons below read them in sequence (reading them through
    # ``order`` missed the cache at every pair); a dropped path's positions
    # become -1, here and in ``uses``
    gk = tmp
    gu = zeros64(count)
    free = ~((i64(1) << lo_pos) - 1)
    for x in range(count):
        idx = order[x] & 0xFFFFFFFF
        gk[x] = keys[idx] >> shift
        gu[x] = uses[idx] & free
    tier = vec[i64]()  # the group's paths by their count of unforced cells
    starts = vec[i64]([0] * (n + 2))
    dropped: i64 = 0
    g: i64 = 0
    while g < count:
        word = order[g] >> 32
        e = g + 1
        while e < count and (order[e] >> 32) == word:
            e += 1
        size = e - g
        if size >= 2:
            if len(tier) < size:
                tier = zeros64(size)
            for c in range(n + 2):
                starts[c] = 0
            for x in range(g, e):
                starts[popcount26(gu[x]) + 1] += 1
            for c in range(1, n + 2):
                starts[c] += starts[c - 1]
            for x in range(g, e):
                c = popcount26(gu[x])
                tier[starts[c]] = x
                starts[c] += 1
            # (starts[c] is now where the tiers after c begin) a strict subset
            # has fewer cells: x is compared only with the paths of later
            # tiers (paths of one word have as many cells each, so x has more
            # of them forced, which is rare); a dropped x is no witness
            # needed: what dropped it is a strict subset of whatever x is
            for i in range(size):
                x = tier[i]
                ux = gu[x]
                if ux < 0:
                    continue
                t = starts[popcount26(ux)]
                if t >= size:
                    break
                kx = gk[x]
                for j in range(t, size):
                    y = tier[j]
                    uy = gu[y]
                    # x's pairs a strict subset of y's: y is redundant
                    if uy < 0 or (ux & ~uy) != 0:
                        continue
                    ky = gk[y]
                    same = True
                    m = ux
                    while m != 0:
                        low: i64 = m & -m
                        m ^= low
                        p = popcount26(low - 1)
                        if (kx // weight[p]) % radix[p] != (ky // weight[p]) % radix[p]:
                            same = False
                            break
                    if same:
                        gu[y] = -1
                        uses[order[y] & 0xFFFFFFFF] = -1
                        dropped += 1
        g = e
    if dropped == 0:
        return count
    kept: i64 = 0
    for i in range(count):
        if uses[i] >= 0:
            keys[kept] = keys[i]
            if not packed:
                vals[kept] = vals[i]
            kept += 1
    return kept


def _first_word(vals: vec[i64], wmask: i64, lo: i64, i: i64) -> bool:
    """Whether no key before ``i`` (from ``lo``, all with key i's key) is
    the same word: the same word by two orders of the same cells counts once."""
    word = vals[i] & wmask
    for j in range(lo, i):
        if (vals[j] & wmask) == word:
            return False
    return True
