"""Which shards of a proof verify was given, and what that makes of it.

Every file of a sharded proof names its shard, K of N (``proofs.shards``:
shard K holds the canonical classes whose place in lexicographic order is
K - 1 modulo N). ``read_shards`` checks the files' marks (the same N, no K
twice) and returns the set given: all N, a whole proof; fewer, a partial
set, whose classes verify checks exactly as a whole proof's and then
states as what it is, not as a proof. The marks decide only which classes
the files must hold between them; each file must hold classes of its own
shard only, and every class of the shards given exactly once, so a mark
that lies is a hole, not a way round a check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..proofs.shards import ShardError, parse_shard
from .proof_facts import Hole, ProofFacts


@dataclass(frozen=True)
class ShardSet:
    """The shards given: ``count`` N (0: whole runs), ``given`` the Ks in
    order, ``of_file`` each file's K (0: a whole run)."""

    count: int = 0
    given: tuple[int, ...] = ()
    of_file: tuple[int, ...] = ()

    @property
    def partial(self) -> bool:
        """Fewer than all the shards of the proof."""
        return bool(self.count) and len(self.given) < self.count

    @property
    def missing(self) -> list[int]:
        have = set(self.given)
        return [k for k in range(1, self.count + 1) if k not in have]

    def holds(self, ranks: np.ndarray) -> np.ndarray:
        """Whether each canonical class, by its place in lexicographic order
        (0-based), is of a shard given."""
        if not self.partial:
            return np.ones(len(ranks), dtype=bool)
        wanted = np.zeros(self.count, dtype=bool)
        wanted[np.asarray(self.given, dtype=np.int64) - 1] = True
        held: np.ndarray = wanted[ranks % self.count]
        return held

    def given_text(self) -> str:
        """``shard 1 of 100``, ``shards 1-3 of 4``, ``shards 1, 3 and 5-9 of 20``."""
        return f"shard{'s' * (len(self.given) != 1)} {spans(self.given)} of {self.count:,}"

    def missing_text(self) -> str:
        """``99 shards missing (2-100)``, ``shard 4 missing``."""
        missing = self.missing
        if len(missing) == 1:
            return f"shard {missing[0]:,} missing"
        return f"{len(missing):,} shards missing ({spans(missing)})"


def spans(ks: Sequence[int], most: int = 6) -> str:
    """Sorted numbers as runs: ``1-3, 5 and 7``; past ``most`` runs, ``... and N more``."""
    runs: list[tuple[int, int]] = []
    for k in ks:
        if runs and k == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], k)
        else:
            runs.append((k, k))
    # a run of two is two numbers: "1 and 2", not "1-2"
    runs = [r for a, b in runs for r in ([(a, a), (b, b)] if b == a + 1 else [(a, b)])]
    texts = [f"{a:,}" if a == b else f"{a:,}-{b:,}" for a, b in runs]
    if len(texts) > most:
        rest = sum(b - a + 1 for a, b in runs[most:])
        return ", ".join(texts[:most]) + f" and {rest:,} more"
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " and " + texts[-1]


def read_shards(settings: Sequence[tuple[str, Mapping[str, Any]]], whole: bool = False) -> ShardSet:
    """The shards the files (path, settings) are of, each given once, all of
    one N; ``whole``: all N of them, or ``Hole`` names the missing."""
    marks: dict[int, str] = {}
    of_file: list[int] = []
    count = 0
    for path, s in settings:
        options = s.get("options")
        shard = (options.get("shard") or None) if isinstance(options, dict) else None
        if shard is None:
            if count:
                raise Hole(f"{path} is a whole run, {next(iter(marks.values()))} a shard: give one or the other")
            of_file.append(0)
            continue
        if not (isinstance(shard, str) and shard.count("/") == 1):
            raise Hole(f"{path}: its shard {str(shard)[:20]!r} is not K/N")
        try:
            k, n = parse_shard(shard)
        except ShardError as exc:
            raise Hole(f"{path}: {exc}") from None
        if count and n != count:
            raise Hole(f"{path} is shard {shard}, of {n} shards; {next(iter(marks.values()))} is of {count}")
        if of_file and not count:
            raise Hole(f"{path} is a shard, {settings[0][0]} a whole run: give one or the other")
        count = n
        if k in marks:
            raise Hole(f"shard {k}/{n} is given twice: {marks[k]} and {path}")
        marks[k] = path
        of_file.append(k)
    result = ShardSet(count, tuple(sorted(marks)), tuple(of_file))
    if whole and result.partial:
        missing = result.missing
        named = ", ".join(f"{k}/{count}" for k in missing[:5]) + (f" and {len(missing) - 5:,} more" if len(missing) > 5 else "")
        raise Hole(f"shard{'s' * (len(missing) > 1)} {named} missing: {len(marks):,} of {count:,} shards given, "
                   "and this needs all of them (verify checks some shards of a proof)")
    return result


class Scope:
    """The boards a witness may ask about: ``board in scope`` is True if the
    records hold it (``found``, canonical boards) or, of a partial set, if
    its class is of a shard not given (nothing to look it up in; those are
    kept in ``outside``, to say how many)."""

    def __init__(self, found: set[str], proof: ProofFacts, in_shards: np.ndarray | None) -> None:
        self.found = found
        self.in_shards = in_shards
        self.outside: set[str] = set()
        self.proof = proof
        # per cell: its letters' bucket numbers
        self.digit = [{ch: b for b, letters in enumerate(buckets) for ch in letters} for buckets in proof.buckets]

    def __contains__(self, board: object) -> bool:
        if board in self.found:
            return True
        if self.in_shards is None or not isinstance(board, str):
            return False
        try:
            number = self.class_number(board)
        except KeyError:  # a letter no bucket of its cell has: no board of the proof
            return False
        if not self.in_shards[number]:
            self.outside.add(board)
            return True
        return False

    def class_number(self, board: str) -> int:
        """The canonical class (assignment number) of a board: the smallest
        number of its bucket assignment's symmetric images."""
        proof = self.proof
        digits = [self.digit[cell][ch] for cell, ch in enumerate(board)]
        return min(sum(digits[src] * w for src, w in zip(perm, proof.weights)) for perm in proof.geometry.symmetries)
