"""Board classes for branch and bound: letter buckets and their enumeration.

A partition of a-z into buckets turns every board into a class: each cell
takes the bucket of its letter. Classes equivalent under the board's
symmetries hold the same boards up to symmetry, so one per orbit is kept.
"""

from __future__ import annotations

import itertools
import string

from .core.errors import BoggleOptError
from .core.geometry import Geometry

#: REFERENCE.md's buckets, found by heuristic search
BUCKETS_2 = "aeiosuy bcdfghjklmnpqrtvwxz"
BUCKETS_3 = "aeijou bcdfgmpqvwxz hklnrsty"
BUCKETS_4 = "aeiou bdfgjqvwxz lnrsy chkmpt"


class BucketError(BoggleOptError, ValueError):
    """Letter buckets that are not a partition of a-z, or a malformed class."""


def default_buckets(geometry: Geometry) -> str:
    """The measured-fastest bucket count for a size: fewer buckets mean
    fewer, bigger classes (bigger trees, more memory)."""
    if geometry.n <= 9:
        return BUCKETS_3
    return BUCKETS_3


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


def enumerate_classes(geometry: Geometry, n_buckets: int) -> list[tuple[int, ...]]:
    """Every assignment of bucket numbers to cells that is the smallest of
    its symmetry orbit, in lexicographic order."""
    perms = geometry.symmetries[1:]
    out: list[tuple[int, ...]] = []
    for cls in itertools.product(range(n_buckets), repeat=geometry.n):
        if all(cls <= tuple(cls[i] for i in p) for p in perms):
            out.append(cls)
    return out


def class_name(cls: tuple[int, ...]) -> str:
    """A class's compact name for run files: its bucket numbers, e.g. ``"012..."``."""
    return "".join(str(b) if b < 10 else chr(ord("a") + b - 10) for b in cls)


def class_letters(cls: tuple[int, ...], buckets: list[str]) -> list[str]:
    return [buckets[b] for b in cls]
