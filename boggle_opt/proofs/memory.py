"""A worker's memory, and the kernel's choices it decides.

The kernel trades CPU for memory in a few places: a tree estimated big
shares its repeated families (``TreeBuilder.share_words``: slower builds and
forcing, a third to a quarter of the memory), a class estimated bigger still
is solved in parts by the letters of a cell (``ClassSolver.split_words``, and on
16 cells its parts again: ``split_again_words``, ``split_deep_words``), and a
build keeps at most so many paths' keys or records at once
(``TreeBuilder.key_pass_words``, ``pass_paths``: a build past them counts
its paths and builds in passes, and a de-duplicated forced build past them
falls back to merging), and a worker with memory past the default keeps a
forced build's key buffers for the next (``TreeBuilder.keep_forced``). The
kernel's own thresholds keep every 4x4 class measured under 1 GB, the
worker's base included (906 MB at most over the 4x4 proof's first hundredth, 673 classes; docs/benchmarks.md): they are a
worker's of ``DEFAULT_WORKER_MB``, 1000 MB, and each scales in proportion
to the worker's memory, so a worker of 2 or 4 GB keeps more of a big tree
whole and shares and splits less. At the default they are the kernel's
own, word for word. (They were once a 2000 MB worker's, a class aiming at
half of it: a 1 GB worker then shared classes that fit it whole, the 4x4
anchor sample's of 370-670 MB, for 1.25x their CPU.) None of them changes which boards a class
yields (the proof does not depend on it); a split class's root bound may be
lower than its whole tree's where cells of one letter come first in its
order, so verify compares root bounds only at the run's own memory.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..core.branch import ClassSolver

#: the worker memory (MB) the kernel's own thresholds fit (every 4x4 class
#: measured under 1 GB, issue 45; the 1 GB-a-vCPU shapes, issue 79); plan's
#: and bnb's default, safe wherever a core has 1 GB
DEFAULT_WORKER_MB: float = 1000  # (an int: a default run file records and shows 1000)

#: how a big class stays within the worker: ``share`` (the kernel's own: a
#: tree estimated big shares its families; splitting only past that) or
#: ``split`` (issue 79, part 2, the research line's #190: never share; a
#: class estimated past the share threshold is solved one letter of a cell
#: at a time instead, and a part still past it one letter of its next cell,
#: as deep as it takes). For measurement (benchmarks' ``--way``); a run's
#: workers share.
WAYS: tuple[str, ...] = ("share", "split")

#: the most memory (MB) a worker may be given: a petabyte (bnb's
#: ``worker-memory``, every ``--worker-memory``)
MAX_WORKER_MB: float = 1e9
#: the largest threshold: the kernel's are 64-bit integers, and a worker big
#: enough to reach it shares, splits and passes nothing anyway
MAX_WORDS: int = 1 << 62


def scaled(words: int, worker_mb: float) -> int:
    """A threshold measured at ``DEFAULT_WORKER_MB`` for a worker of
    ``worker_mb``: in proportion, at least 1 (0 would mean "every class" to
    the builder's sharing and "never" to a split), at most ``MAX_WORDS``."""
    if worker_mb == DEFAULT_WORKER_MB:
        return words  # exactly the kernel's own
    value = words * (worker_mb / DEFAULT_WORKER_MB)
    return MAX_WORDS if not value < MAX_WORDS else max(1, int(value))  # (inf and nan: the most)


def fit_memory(solver: ClassSolver, worker_mb: float, way: str = "share") -> None:
    """Set a fresh ``solver``'s memory thresholds for a worker of ``worker_mb``
    MB (at ``DEFAULT_WORKER_MB`` and ``share``: as the kernel sets them
    itself), staying within it the ``way`` given (``WAYS``)."""
    if way not in WAYS:
        raise ValueError(f"way {way!r}: not one of {', '.join(WAYS)}")
    # the kernel is imported here, not above: bnb registers with this module's
    # default, and a command that never solves a class must not load the kernel
    from ..core.branch import (
        SPLIT_AGAIN_WORDS_BIG, SPLIT_ARENA_WORDS, SPLIT_ARENA_WORDS_BIG, SPLIT_DEEP_WORDS_BIG, SPLIT_MIN_CELLS,
    )
    from ..core.builder import KEEP_KEYS, KEY_PASS_WORDS, PASS_PATHS, SHARE_ARENA_WORDS

    big = solver.n >= SPLIT_MIN_CELLS
    solver.split_words = scaled(SPLIT_ARENA_WORDS_BIG if big else SPLIT_ARENA_WORDS, worker_mb)
    # boards under 16 cells never split twice (0: off, at any memory)
    solver.split_again_words = scaled(SPLIT_AGAIN_WORDS_BIG, worker_mb) if big else 0
    solver.split_deep_words = scaled(SPLIT_DEEP_WORDS_BIG, worker_mb) if big else 0
    solver.share_parts = big
    builder = solver.builder
    builder.share_words = scaled(SHARE_ARENA_WORDS, worker_mb)
    builder.key_pass_words = scaled(KEY_PASS_WORDS, worker_mb)
    builder.pass_paths = scaled(PASS_PATHS, worker_mb)
    # memory past the kernel's own worker keeps a forced build's key buffers
    # for the next (TreeBuilder.keep_forced): each of at most an eighth of
    # that spare memory (8-byte words), so its five stay within two thirds
    # of it; a worker of 1 GB or less gives them back as the kernel does
    keep = max(worker_mb - DEFAULT_WORKER_MB, 0.0) * 1e6 / 64
    builder.keep_forced = MAX_WORDS if not keep < MAX_WORDS else max(KEEP_KEYS, int(keep))
    if way == "split":
        # where the kernel would share, split; every part of every size may
        # split again (its own thresholds split 3x4 classes only past 4 GB)
        limit = scaled(SHARE_ARENA_WORDS, worker_mb)
        solver.split_words = solver.split_again_words = solver.split_deep_words = limit
        solver.share_parts = False
        builder.share_words = -1  # never
