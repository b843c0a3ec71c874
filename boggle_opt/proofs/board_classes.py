"""Board classes for branch and bound: buckets of tiles and their enumeration.

A partition of the alphabet's tiles into buckets turns every board into a
class: each cell takes the bucket of its tile. Classes equivalent under the
board's symmetries hold the same boards up to symmetry, so one per orbit is
kept. Buckets, classes and part keys are written in the alphabet's symbols
(``core.alphabet``; English: a-z with ``q`` for Qu), each bucket sorted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import itertools
import math
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from functools import cache

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..core.alphabet import MAX_BNB_TILES, MAX_TILES
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..core.trie import LATIN as LATIN  # English's symbols, for callers above the core

#: docs/reference.md's buckets, found by heuristic search
BUCKETS_2 = "aeiosuy bcdfghjklmnpqrtvwxz"
BUCKETS_3 = "aeijou bcdfgmpqvwxz hklnrsty"
BUCKETS_4 = "aeiou bdfgjqvwxz lnrsy chkmpt"
#: one bucket: every letter (the default corners from 3x4 up)
BUCKETS_1 = LATIN
#: the most tiles of one cell's set in a class: the kernel packs a cell's
#: set beside its position in one 32-bit arena word
MAX_CELL_TILES = MAX_BNB_TILES
#: the most tiles of an alphabet branch and bound plays (a trie node's mask)
MAX_ALPHABET = MAX_TILES
#: characters that separate buckets (" ", "|") and a part key's pieces ("."):
#: no tile's symbol may be one
RESERVED = " |."


class BucketError(BoggleOptError, ValueError):
    """Buckets that are not a partition of the alphabet's tiles, or a malformed class."""


def _what(symbols: str, write: Callable[[str], str] = str) -> str:
    """How messages name the alphabet: ``a-z`` for English's."""
    return "a letter a-z" if symbols == LATIN else f"a tile of this alphabet ({_listed(symbols, write)})"


def _listed(symbols: str, write: Callable[[str], str] = str) -> str:
    """The tiles, as people write them (``write``: ``[ij]`` for its symbol)."""
    text = " ".join(map(write, symbols)).replace(" ".join(LATIN), "a-z")
    return text if len(text) <= 40 else text[:37] + "..."


def check_alphabet(name: str, symbols: str) -> None:
    """Refuse, in one line, an alphabet branch and bound cannot play: more than
    ``MAX_ALPHABET`` tiles, or a symbol that buckets or part keys use as a
    separator."""
    if len(symbols) > MAX_ALPHABET:
        raise BucketError(f"searcher 'bnb' plays alphabets of at most {MAX_ALPHABET} tiles; {name} has "
                          f"{len(symbols)}: annealing, hillclimb and genetic play it")
    bad = [ch for ch in symbols if ch in RESERVED or ch.isspace()]
    if bad:
        raise BucketError(f"searcher 'bnb': {name}'s tile symbol {bad[0]!r} separates buckets or part keys; "
                          "give that tile another symbol")


def base_letter(letters: str) -> str:
    """The a-z letter a tile's letters start from, as its bucket is chosen:
    accents dropped (``ä``, ``å``, ``à`` -> ``a``; ``ñ`` -> ``n``), a letter
    NFD does not split named by Unicode (``ł`` LATIN SMALL LETTER L WITH
    STROKE -> ``l``, ``ß`` SHARP S -> ``s``, ``æ`` AE -> ``a``), a
    multi-letter tile by its first letter (``ij`` -> ``i``); "" if none
    (another script)."""
    first = letters[:1]
    stripped = "".join(c for c in unicodedata.normalize("NFD", first) if not unicodedata.combining(c))
    if len(stripped) == 1 and "a" <= stripped <= "z":
        return stripped
    name = unicodedata.name(first, "")
    if not name.startswith("LATIN ") or " LETTER " not in name:
        return ""
    words = name.split(" LETTER ", 1)[1].split(" WITH ")[0].split()
    # SHARP S -> s (the one-letter word), AE -> a (the first letter)
    single = [w for w in words if len(w) == 1]
    letter = (single[0] if single else words[0][:1] if words else "").lower()
    return letter if len(letter) == 1 and "a" <= letter <= "z" else ""


def extend_buckets(text: str, symbols: str, spellings: Sequence[str] | None = None) -> str:
    """English buckets ``text`` (a-z) carried over to another alphabet: each
    tile joins the bucket of its base letter (``base_letter``), a tile with
    none (another script) the bucket with fewest tiles so far; letters the
    alphabet lacks (Polish q v x) are dropped, and so is a bucket left empty.
    ``spellings``: each tile's letters, in code order (default: its symbol).
    English's own buckets come back unchanged."""
    if symbols == LATIN:
        return text
    letters = list(spellings) if spellings is not None else list(symbols)
    groups = text.split()
    home = {ch: i for i, g in enumerate(groups) for ch in g}
    out: list[list[str]] = [[] for _ in groups]
    homeless: list[str] = []
    for symbol, spelled in zip(symbols, letters):
        base = base_letter(spelled)
        if base in home:
            out[home[base]].append(symbol)
        else:
            homeless.append(symbol)
    for symbol in homeless:
        min(out, key=len).append(symbol)
    return " ".join("".join(sorted(g)) for g in out if g)


def default_buckets(geometry: Geometry, symbols: str = LATIN,
                    spellings: Sequence[str] | None = None) -> tuple[str, str]:
    """Buckets and corner buckets ("" = the same) for a size. Fewer buckets
    mean fewer, bigger classes (bigger trees, more memory); on 3x3 three
    buckets measured fastest (2: as fast but 4x the memory; 4: twice as slow).
    From 3x4 up the corners take one bucket: a corner has 3 neighbours and
    comes last in the cell order, so one class that leaves its corners free
    shares the build and the forcing of the other cells that the research
    line's 2 corner buckets repeat over 16 classes. Solving each such class
    whole took 0.51x the CPU of its 16 sub-classes on 40 random 4x4 classes,
    and under half on 3x4, at up to twice the peak memory (docs/benchmarks.md).

    Another alphabet (``symbols``, its tiles' ``spellings``): the same
    buckets, each tile in its base letter's (``extend_buckets``); the corners'
    one bucket, where it would pass ``MAX_CELL_TILES``, is two
    (``BUCKETS_2`` extended the same way)."""
    main = extend_buckets(BUCKETS_3, symbols, spellings)
    if geometry.n <= 9:
        corners = ""
    elif len(symbols) <= MAX_CELL_TILES:
        corners = extend_buckets(BUCKETS_1, symbols, spellings)
    else:
        corners = extend_buckets(BUCKETS_2, symbols, spellings)
    for text in (main, corners):
        for bucket in text.split():
            if len(bucket) > MAX_CELL_TILES:
                raise BucketError(f"default buckets: {bucket!r} has {len(bucket)} tiles; a cell's set holds at "
                                  f"most {MAX_CELL_TILES}: give -o buckets and -o corner-buckets")
    return main, corners


def corner_cells(geometry: Geometry) -> list[int]:
    last_col = (geometry.cols - 1) * geometry.rows
    return sorted({0, geometry.rows - 1, last_col, last_col + geometry.rows - 1})


def cell_buckets(geometry: Geometry, buckets: list[str], corners: list[str] | None = None) -> list[list[str]]:
    """The bucket list of each cell (corners may have their own partition)."""
    corner = set(corner_cells(geometry)) if corners else set()
    return [corners if c in corner and corners else buckets for c in range(geometry.n)]


#: between the buckets and the corners' buckets in a label
CORNERS_SEPARATOR = " / corners "


def buckets_label(main: list[str], corners: list[str] | None) -> str:
    """The buckets as run files record them: ``"aeijou ... / corners ..."``."""
    return " ".join(main) + (CORNERS_SEPARATOR + " ".join(corners) if corners else "")


def split_label(label: str) -> tuple[str, str]:
    """A label's buckets and corner buckets ("" if the corners have none of their own)."""
    main, _, corners = label.partition(CORNERS_SEPARATOR)
    return main, corners


def parse_buckets(text: str, symbols: str | None = LATIN, write: Callable[[str], str] = str) -> list[str]:
    """Buckets separated by spaces or ``|``; they must cover the alphabet's
    ``symbols`` (English: a-z) exactly once, each bucket at most
    ``MAX_CELL_TILES`` tiles. ``symbols`` None: only what needs no alphabet
    (some bucket, no symbol twice), as options are checked before the word
    list's language is known. ``write``: symbols as messages write them
    (``Alphabet.write``: ``[ij]``, never a private symbol)."""
    parts = text.replace("|", " ").lower().split()
    if not parts:
        raise BucketError("buckets: expected letter groups such as 'aeiou bcdfg...'")
    seen: dict[str, int] = {}
    for i, part in enumerate(parts):
        for ch in part:
            if symbols is not None and ch not in symbols:
                raise BucketError(f"buckets: {write(ch)!r} is not {_what(symbols, write)} "
                                  f"(in {write(part)[:40]!r})")
            if ch in seen:
                raise BucketError(f"buckets: {'letter' if symbols == LATIN else 'tile'} {write(ch)!r} is in "
                                  "more than one bucket")
            seen[ch] = i
        if len(part) > MAX_CELL_TILES:
            raise BucketError(f"buckets: {write(part)[:40]!r} has {len(part)} tiles; a bucket holds at most "
                              f"{MAX_CELL_TILES}")
    if symbols is None:
        return ["".join(sorted(p)) for p in parts]
    missing = "".join(ch for ch in symbols if ch not in seen)
    if missing:
        if symbols == LATIN:
            raise BucketError(f"buckets: letters {missing!r} are in no bucket; every a-z must be in one")
        raise BucketError(f"buckets: tiles {write(missing)[:40]!r} are in no bucket; every tile of the "
                          f"alphabet ({_listed(symbols, write)}) must be in one")
    return ["".join(sorted(p)) for p in parts]


@cache
def _codes(symbols: str) -> dict[str, int]:
    return {ch: i for i, ch in enumerate(symbols)}


def letter_mask(letters: str, symbols: str = LATIN) -> int:
    """The kernel's mask of a cell's tiles: bit k for the tile of code k."""
    mask = 0
    if symbols == LATIN:
        for ch in letters:
            mask |= 1 << (ord(ch) - 97)
        return mask
    codes = _codes(symbols)
    for ch in letters:
        mask |= 1 << codes[ch]
    return mask


def tile_code(symbol: str, symbols: str = LATIN) -> int:
    """A symbol's tile code (English: ``ord(letter) - 97``); -1 if no tile has it."""
    return _codes(symbols).get(symbol, -1)


def parse_class(text: str, geometry: Geometry, symbols: str = LATIN, write: Callable[[str], str] = str) -> list[str]:
    """A class written as one tile set per cell, e.g. ``"lnrsy aeiou ..."``
    (in the alphabet's ``symbols``), each at most ``MAX_CELL_TILES`` tiles;
    ``write``: symbols as messages write them (``[ij]``, as ``parse_buckets``)."""
    parts = text.lower().split()
    if len(parts) != geometry.n:
        raise BucketError(
            f"a {geometry.size} class needs {geometry.n} letter sets, got {len(parts)}"
        )
    for part in parts:
        bad = [ch for ch in part if ch not in symbols]
        if bad:
            raise BucketError(f"class: {write(bad[0])!r} is not {_what(symbols, write)} "
                              f"(in {write(part)[:40]!r})")
    sets = ["".join(sorted(set(p))) for p in parts]
    for s in sets:
        if len(s) > MAX_CELL_TILES:
            raise BucketError(f"class: the set {write(s)[:40]!r} has {len(s)} tiles; a cell's set holds at most "
                              f"{MAX_CELL_TILES}")
    return sets


def _counts(geometry: Geometry, n_buckets: int | Sequence[int]) -> list[int]:
    counts = [n_buckets] * geometry.n if isinstance(n_buckets, int) else list(n_buckets)
    if len(counts) != geometry.n or min(counts) < 1:
        raise BucketError(f"{geometry.size}: expected {geometry.n} bucket counts >= 1, got {counts}")
    if any(counts[p[i]] != counts[i] for p in geometry.symmetries for i in range(geometry.n)):
        raise BucketError("bucket counts must be the same on cells that a symmetry swaps")
    return counts


def count_classes(geometry: Geometry, n_buckets: int | Sequence[int]) -> int:
    """The number of canonical classes (symmetry orbits of bucket assignments),
    by Burnside's lemma: the mean over symmetries of the assignments each
    leaves unchanged (one free choice per cycle of the symmetry)."""
    counts = _counts(geometry, n_buckets)
    fixed = 0
    for perm in geometry.symmetries:
        seen = [False] * geometry.n
        product = 1
        for start in range(geometry.n):
            if not seen[start]:
                cell = start
                while not seen[cell]:
                    seen[cell] = True
                    cell = perm[cell]
                product *= counts[start]
        fixed += product
    return fixed // len(geometry.symmetries)


class ClassSpace:
    """Every assignment of bucket numbers to cells, numbered in mixed radix
    (cell 0 the most significant digit), so comparing two assignments'
    numbers compares them lexicographically. An assignment is canonical when
    its number is the smallest of its images under the board's symmetries
    (which map corners to corners, so corners may have their own count).

    Numbers are split into groups of consecutive digits (4x4: two groups of
    2,916 values); tables give each group value's digits and its part of the
    number of every image, so testing a block of numbers is a few divisions
    and table look-ups in numpy, with no per-cell work."""

    #: assignments tested per numpy step (a few MB on 4x4)
    BLOCK = 1 << 16
    #: the most values in one group's tables
    GROUP_MAX = 1 << 16

    def __init__(self, geometry: Geometry, n_buckets: int | Sequence[int]) -> None:
        self.geometry = geometry
        self.counts = counts = _counts(geometry, n_buckets)
        n = geometry.n
        weights = [1] * n
        for i in range(n - 2, -1, -1):
            weights[i] = weights[i + 1] * counts[i + 1]
        self.total = total = weights[0] * counts[0]
        if total >= 1 << 62:
            raise BucketError(f"{geometry.size} with these buckets has {total:,} bucket assignments; too many")
        # weight of each cell's digit in the number of the assignment's image
        # under each symmetry other than the identity (image[i] = cls[p[i]])
        image_weights = [[0] * (len(geometry.symmetries) - 1) for _ in range(n)]
        for s, perm in enumerate(geometry.symmetries[1:]):
            for i, src in enumerate(perm):
                image_weights[src][s] = weights[i]
        # groups of consecutive cells, from the last, of about equal size
        n_groups = max(1, math.ceil(math.log(total) / math.log(self.GROUP_MAX))) if total > 1 else 1
        target = total ** (1 / n_groups)
        groups: list[list[int]] = []
        cell = n - 1
        while cell >= 0:
            group = [cell]
            size = counts[cell]
            cell -= 1
            while cell >= 0 and size < target and size * counts[cell] <= self.GROUP_MAX:
                group.insert(0, cell)
                size *= counts[cell]
                cell -= 1
            groups.insert(0, group)
        #: per group: (weight of its value in the number, number of values,
        #: digits of each value as tuples, image parts of each value)
        self.groups: list[tuple[int, int, list[tuple[int, ...]], np.ndarray]] = []
        for group in groups:
            values = list(itertools.product(*[range(counts[c]) for c in group]))
            parts = np.array(
                [[sum(d * image_weights[c][s] for d, c in zip(v, group)) for s in range(len(image_weights[0]))]
                 for v in values],
                dtype=np.int64,
            ).reshape(len(values), -1)
            self.groups.append((weights[group[-1]], len(values), values, parts))
        # a block's numbers are start + step * k (mod total): no int64 overflow
        self.block = max(1, min(self.BLOCK, (1 << 62) // total))
        self.step = self._step()

    def _step(self) -> int:
        """A step coprime to the number of assignments, near total / golden
        ratio: visiting ``k * step mod total`` for k = 0, 1, ... is a fixed
        permutation whose every stretch is spread evenly over all assignments
        (a Weyl sequence), and it is plain integer arithmetic, the same on
        every machine and numpy version."""
        total = self.total
        step = max(1, round(total * 0.6180339887498949))
        while math.gcd(step, total) != 1:
            step += 1
        return step

    def canonical(self, numbers: np.ndarray) -> list[tuple[int, ...]]:
        """The canonical ones of these assignment numbers, as bucket numbers by cell."""
        values = [(numbers // weight) % size for weight, size, _, _ in self.groups]
        images: np.ndarray | None = None
        for (_, _, _, parts), v in zip(self.groups, values):
            images = parts[v] if images is None else images + parts[v]
        if images is not None and images.shape[1] > 0:
            keep = numbers <= images.min(axis=1)
            values = [v[keep] for v in values]
        out: list[tuple[int, ...]] = []
        for (_, _, digits, _), v in zip(self.groups, values):
            if not out:
                out = [digits[i] for i in v.tolist()]
            else:
                out = [head + digits[i] for head, i in zip(out, v.tolist())]
        return out

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        return self.iterate(shuffled=True)

    def iterate(self, shuffled: bool = True) -> Iterator[tuple[int, ...]]:
        """Canonical classes one at a time, in memory independent of their
        number: in lexicographic order, or (``shuffled``) in the fixed order
        of the Weyl permutation, so any stretch of the sequence is a fair
        sample of the whole (for an ETA) and a resumed run sees the same
        sequence."""
        total = self.total
        step = self.step if shuffled else 1
        offsets = (np.arange(self.block, dtype=np.int64) * step) % total
        for begin in range(0, total, self.block):
            size = min(self.block, total - begin)
            numbers = offsets[:size] + begin * step % total
            numbers[numbers >= total] -= total
            yield from self.canonical(numbers)


def iterate_classes(
    geometry: Geometry, n_buckets: int | Sequence[int], shuffled: bool = True
) -> Iterator[tuple[int, ...]]:
    """Canonical classes lazily (see ``ClassSpace.iterate``)."""
    return ClassSpace(geometry, n_buckets).iterate(shuffled)


def enumerate_classes(geometry: Geometry, n_buckets: int | Sequence[int]) -> list[tuple[int, ...]]:
    """Every assignment of bucket numbers to cells (``n_buckets`` per cell,
    or one count for all) that is the smallest of its symmetry orbit, in
    lexicographic order, as a list (4x4 with the default buckets: 1.06
    million; use ``iterate_classes`` to go through them in flat memory)."""
    return list(iterate_classes(geometry, n_buckets, shuffled=False))


def class_name(cls: tuple[int, ...]) -> str:
    """A class's compact name for run files: its bucket numbers, e.g. ``"012..."``."""
    return "".join(str(b) if b < 10 else chr(ord("a") + b - 10) for b in cls)


def class_letters(cls: tuple[int, ...], buckets: list[list[str]]) -> list[str]:
    """The letter set of each cell, from its bucket number and the cell's buckets."""
    return [buckets[c][b] for c, b in enumerate(cls)]


class CostModel:
    """Relative work of a class, to hand out the big ones first: the words
    whose first three letters fit some three-cell path of the class. On a
    sample of 3x3 classes its rank correlation with solve time was 0.82 (the
    class's board count: -0.79)."""

    def __init__(self, keys: list[bytes], geometry: Geometry, buckets: list[list[str]],
                 symbols: str = LATIN) -> None:
        # a key's bytes are tile codes plus 97 (``core.trie.KEY_BASE``)
        n = len(symbols)
        counts = np.zeros((n, n, n))
        for key in keys:
            if len(key) >= 3:
                counts[key[0] - 97, key[1] - 97, key[2] - 97] += 1
        self.counts = counts
        self.codes = _codes(symbols)
        self.buckets = buckets
        self.paths = [
            (a, b, c)
            for a in range(geometry.n)
            for b in geometry.neighbours(a)
            for c in geometry.neighbours(b)
            if c != a
        ]
        self._table: dict[tuple[str, str, str], float] = {}

    def _words(self, s1: str, s2: str, s3: str) -> float:
        key = (s1, s2, s3)
        if key not in self._table:
            idx = [[self.codes[ch] for ch in s] for s in key]
            self._table[key] = float(self.counts[np.ix_(*idx)].sum())
        return self._table[key]

    def costs(self, classes: Sequence[tuple[int, ...]]) -> list[float]:
        """The cost of each class: over the three-cell paths, the words that
        fit the path's letter sets. In bulk, per path a table over its
        cells' buckets gathered for every class at once (4x4's 67,257
        classes one at a time took about 4 s, so: 0.5 s)."""
        if not classes:
            return []
        cls = np.asarray(classes, dtype=np.intp)
        total = np.zeros(len(classes))
        for a, b, c in self.paths:
            ba, bb, bc = self.buckets[a], self.buckets[b], self.buckets[c]
            table = np.array([[[self._words(x, y, z) for z in bc] for y in bb] for x in ba])
            total += table[cls[:, a], cls[:, b], cls[:, c]]
        return [float(x) for x in total]


#: classes finished before the cost model's exponent is fitted to their times
FIT_AFTER = 30
#: in a resumed run whose earlier classes make up FIT_AFTER: the classes this
#: segment finishes before its time left is shown (its workers' first classes
#: are still in flight when the first one ends)
PRIMED_AFTER = 5


class Calibration:
    """How long the classes left will take, from the cost model fitted to the
    classes done. The model ranks classes well but time grows faster than its
    cost (about as cost ** 2.5 on 3x4), so an estimate linear in cost put the
    ETA of a biggest-first 3x4 proof at 2-3x the truth. Time ~ cost ** b, with
    b fitted (least squares, log-log) to the classes done; the scale cancels:
    time left = elapsed x (sum of cost ** b left) / (sum of cost ** b done)."""

    def __init__(self, todo: Sequence[float]) -> None:
        self.todo = np.asarray(todo, dtype=np.float64)
        self.costs: list[float] = []
        self.seconds: list[float] = []
        self.exponent = 1.0
        self._fitted_at = 0
        # the sums of cost ** b, kept between calls (the display asks four
        # times a second; a 4x4 proof has a million classes): redone only
        # when b is refitted, the done ones extended as classes finish
        self._power = float("nan")
        self._todo_sum = 0.0
        self._done_sum = 0.0
        self._summed = 0
        # classes an earlier segment of a resumed run finished: they fit b only
        self.earlier_costs: list[float] = []
        self.earlier_seconds: list[float] = []

    def prime(self, costs: Sequence[float], seconds: Sequence[float]) -> None:
        """The classes earlier segments finished (a resumed run), with their
        recorded seconds: the exponent is fitted to them from the start, so
        a resumed proof shows its time left after a few classes, not after
        FIT_AFTER more. The time left still scales this segment's elapsed
        time by the classes this segment finished: elapsed time is not kept
        across segments, and the machine may be another."""
        self.earlier_costs = [float(c) for c in costs]
        self.earlier_seconds = [float(x) for x in seconds]

    def add(self, cost: float, seconds: float) -> None:
        """A class of this cost finished, having taken ``seconds`` of work."""
        self.costs.append(cost)
        self.seconds.append(seconds)

    @property
    def fitted(self) -> bool:
        """Whether enough classes are done for the exponent to be fitted (and,
        in a resumed run, enough of them in this segment to time it)."""
        here = len(self.costs)
        return here >= FIT_AFTER or (here >= PRIMED_AFTER and here + len(self.earlier_costs) >= FIT_AFTER)

    def fit(self) -> float:
        """The exponent b, refitted as classes finish (1 until there are enough,
        or while their costs are all alike), kept within [0.5, 4]."""
        n = len(self.costs) + len(self.earlier_costs)
        if n >= FIT_AFTER and n >= self._fitted_at * 1.1:
            self._fitted_at = n
            c = np.log(np.maximum(np.asarray(self.earlier_costs + self.costs), 1e-9))
            s = np.log(np.maximum(np.asarray(self.earlier_seconds + self.seconds), 1e-4))
            if float(np.std(c)) > 1e-3:
                slope = float(np.polyfit(c, s, 1)[0])
                self.exponent = min(4.0, max(0.5, slope))
        return self.exponent

    def time_left(self, elapsed: float) -> float | None:
        """Seconds left for the classes not done, or None before any is done."""
        if not self.costs:
            return None
        b = self.fit()
        if b != self._power:
            self._power = b
            self._todo_sum = float(np.sum(self.todo ** b))
            self._done_sum = 0.0
            self._summed = 0
        if self._summed < len(self.costs):
            self._done_sum += float(np.sum(np.asarray(self.costs[self._summed:]) ** b))
            self._summed = len(self.costs)
        done = self._done_sum
        left = self._todo_sum - done
        return elapsed * max(left, 0.0) / done if done > 0 else None
