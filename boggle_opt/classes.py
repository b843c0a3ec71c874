"""Board classes for branch and bound: letter buckets and their enumeration.

A partition of a-z into buckets turns every board into a class: each cell
takes the bucket of its letter. Classes equivalent under the board's
symmetries hold the same boards up to symmetry, so one per orbit is kept.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Sequence

import numpy as np

from .core.errors import BoggleOptError
from .core.geometry import Geometry

#: REFERENCE.md's buckets, found by heuristic search
BUCKETS_2 = "aeiosuy bcdfghjklmnpqrtvwxz"
BUCKETS_3 = "aeijou bcdfgmpqvwxz hklnrsty"
BUCKETS_4 = "aeiou bdfgjqvwxz lnrsy chkmpt"
#: enumerating classes is plain Python (3x4: 104,976 assignments, 0.3 s); 4x4 with
#: the default buckets (8.5 million, and years of solving) is refused
MAX_ASSIGNMENTS = 2_000_000


class BucketError(BoggleOptError, ValueError):
    """Letter buckets that are not a partition of a-z, or a malformed class."""


def default_buckets(geometry: Geometry) -> tuple[str, str]:
    """Buckets and corner buckets ("" = the same) for a size. Fewer buckets
    mean fewer, bigger classes (bigger trees, more memory); on 3x3 three
    buckets measured fastest (2: as fast but 4x the memory; 4: twice as slow).
    Larger boards take REFERENCE.md's 3x4 choice: 2 buckets in the corners."""
    if geometry.n <= 9:
        return BUCKETS_3, ""
    return BUCKETS_3, BUCKETS_2


def corner_cells(geometry: Geometry) -> list[int]:
    last_col = (geometry.cols - 1) * geometry.rows
    return sorted({0, geometry.rows - 1, last_col, last_col + geometry.rows - 1})


def cell_buckets(geometry: Geometry, buckets: list[str], corners: list[str] | None = None) -> list[list[str]]:
    """The bucket list of each cell (corners may have their own partition)."""
    corner = set(corner_cells(geometry)) if corners else set()
    return [corners if c in corner and corners else buckets for c in range(geometry.n)]


def parse_buckets(text: str) -> list[str]:
    """Buckets separated by spaces or ``|``; they must cover a-z exactly once."""
    parts = text.replace("|", " ").lower().split()
    if not parts:
        raise BucketError("buckets: expected letter groups such as 'aeiou bcdfg...'")
    seen: dict[str, int] = {}
    for i, part in enumerate(parts):
        for ch in part:
            if ch not in string.ascii_lowercase:
                raise BucketError(f"buckets: {ch!r} is not a letter a-z (in {part!r})")
            if ch in seen:
                raise BucketError(f"buckets: letter {ch!r} is in more than one bucket")
            seen[ch] = i
    missing = "".join(ch for ch in string.ascii_lowercase if ch not in seen)
    if missing:
        raise BucketError(f"buckets: letters {missing!r} are in no bucket; every a-z must be in one")
    return ["".join(sorted(p)) for p in parts]


def letter_mask(letters: str) -> int:
    mask = 0
    for ch in letters:
        mask |= 1 << (ord(ch) - 97)
    return mask


def parse_class(text: str, geometry: Geometry) -> list[str]:
    """A class written as one letter set per cell, e.g. ``"lnrsy aeiou ..."``."""
    parts = text.lower().split()
    if len(parts) != geometry.n:
        raise BucketError(
            f"a {geometry.size} class needs {geometry.n} letter sets, got {len(parts)}"
        )
    for part in parts:
        bad = [ch for ch in part if ch not in string.ascii_lowercase]
        if bad:
            raise BucketError(f"class: {bad[0]!r} is not a letter a-z (in {part!r})")
    return ["".join(sorted(set(p))) for p in parts]


def enumerate_classes(geometry: Geometry, n_buckets: int | Sequence[int]) -> list[tuple[int, ...]]:
    """Every assignment of bucket numbers to cells (``n_buckets`` per cell,
    or one count for all) that is the smallest of its symmetry orbit, in
    lexicographic order. Symmetries map corners to corners, so corners may
    have their own count."""
    counts = [n_buckets] * geometry.n if isinstance(n_buckets, int) else list(n_buckets)
    total = 1
    for k in counts:
        total *= k
    if total > MAX_ASSIGNMENTS:
        raise BucketError(
            f"{geometry.size} with these buckets has {total:,} bucket assignments to sort "
            f"into classes; at most {MAX_ASSIGNMENTS:,} are supported (use fewer buckets)"
        )
    perms = geometry.symmetries[1:]
    out: list[tuple[int, ...]] = []
    for cls in itertools.product(*[range(k) for k in counts]):
        if all(cls <= tuple(cls[i] for i in p) for p in perms):
            out.append(cls)
    return out


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

    def __init__(self, keys: list[bytes], geometry: Geometry, buckets: list[list[str]]) -> None:
        counts = np.zeros((26, 26, 26))
        for key in keys:
            if len(key) >= 3:
                counts[key[0] - 97, key[1] - 97, key[2] - 97] += 1
        self.counts = counts
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
            idx = [[ord(ch) - 97 for ch in s] for s in key]
            self._table[key] = float(self.counts[np.ix_(*idx)].sum())
        return self._table[key]

    def cost(self, cls: tuple[int, ...]) -> float:
        sets = class_letters(cls, self.buckets)
        return sum(self._words(sets[a], sets[b], sets[c]) for a, b, c in self.paths)
