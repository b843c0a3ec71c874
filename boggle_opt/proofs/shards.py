"""Shards: a proof's classes cut into N disjoint parts that run anywhere.

Shard K of N holds the canonical classes whose place in the class space's
lexicographic order (``ClassSpace.iterate(shuffled=False)``) is K - 1 modulo
N. That is decided by the class space alone (the size and the buckets), so
the same N gives the same shards on any machine and in any release that
keeps the class space, and no file needs to say which classes a shard has.
Taking every N-th class deals each shard a fair share of every stretch of
the space, so the shards' costs differ by their sampling noise only
(``boggle-opt plan --shards N`` prints it).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..core.errors import BoggleOptError
from .board_classes import ClassSpace

#: the most shards a proof may be cut into
MAX_SHARDS = 10_000_000


class ShardError(BoggleOptError, ValueError):
    """A shard that is not ``K/N`` with 1 <= K <= N."""


def parse_shard(text: str) -> tuple[int, int]:
    """``"3/8"`` -> (3, 8)."""
    k_text, _, n_text = text.partition("/")
    # ASCII digits only (int() takes other scripts' digits, and refuses thousands of them)
    digits = len(str(MAX_SHARDS))
    if not all(t.isascii() and t.isdigit() and len(t) <= digits for t in (k_text, n_text)):
        raise ShardError(f"shard {text[:40]!r} is not K/N (e.g. 3/8: the third of 8 shards; N at most "
                         f"{MAX_SHARDS:,})")
    k, n = int(k_text), int(n_text)
    if not 1 <= k <= n:
        raise ShardError(f"shard {text!r}: K must be from 1 to N ({n})")
    if n > MAX_SHARDS:
        raise ShardError(f"shard {text!r}: at most {MAX_SHARDS:,} shards")
    return k, n


def shard_classes(space: ClassSpace, k: int, n: int) -> Iterator[tuple[int, ...]]:
    """The canonical classes of shard ``k`` of ``n``, in lexicographic order."""
    for index, cls in enumerate(space.iterate(shuffled=False)):
        if index % n == k - 1:
            yield cls
