"""What a proof will cost, from a sample of its classes: the sampling and the sums.

``boggle-opt plan`` solves a seeded sample of a proof's classes and scales it
up. Two things make that estimate hold:

- **The sample.** Class times vary tenfold and more. Where the cost model of
  ``board_classes.CostModel`` can rank every class, the classes are sorted by
  it and cut into strata of equal count, two classes drawn from each: every
  stretch of the cost range is sampled, so 40 classes of 3x3 land within
  12-14% of the truth 90 times in 100, where a plain random draw lands
  within 19-22% (all 2,862 classes' times, resampled 3,000 times). Otherwise
  a plain seeded draw, one stratum.
- **What a proof spends beyond solving its classes**, each measured, not
  assumed: the main process's set-up (interpreter, imports, the word list,
  the class costs it sorts by), each worker's start (interpreter, imports,
  the word list's trie), the CPU each class costs beyond its solve (sending
  the task, returning the result, the run file's records and events), and
  the climb that sets a missing min score. ``MeasuredContext`` measures the
  solve and the workers' part in real worker processes, started as a proof
  starts them, so the sample pays what a proof's workers pay (cold caches,
  the run's own concurrency); the command measures the rest.
"""

from __future__ import annotations

import math
import os
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from .class_tasks import ClassContext, ClassResult, ClassTask

#: classes sampled from each stratum (2: the least that gives each its variance)
PER_STRATUM = 2
#: shard totals simulated at most (shards x classes per shard) before the
#: slowest shard is taken from a normal approximation instead
MAX_SIMULATED = 4_000_000


def rss_mb() -> float:
    """This process's peak resident memory so far, in MB (Linux: ru_maxrss is KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- the sample ------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """A sample: the drawn classes' places in the class list, the stratum of
    each, and each stratum's size (classes in the proof)."""

    places: list[int]
    strata: list[int]
    sizes: list[int]


def stratified_draw(costs: Sequence[float], n: int, rng: np.random.Generator) -> Draw:
    """``n`` places (all if fewer) drawn two a stratum from strata of equal
    count by ``costs`` (ties in place order): a sample that meets the whole
    cost range. One stratum (a plain draw) when ``costs`` are all alike."""
    total = len(costs)
    if n >= total:
        return Draw(list(range(total)), [0] * total, [total])
    ranked = sorted(range(total), key=lambda i: (costs[i], i))
    groups = max(1, n // PER_STRATUM) if len(set(costs)) > 1 else 1
    bounds = [round(total * g / groups) for g in range(groups + 1)]
    places: list[int] = []
    strata: list[int] = []
    sizes: list[int] = []
    for g in range(groups):
        lo, hi = bounds[g], bounds[g + 1]
        take = n // groups + (1 if g < n % groups else 0)
        chosen = rng.choice(hi - lo, size=min(take, hi - lo), replace=False)
        places.extend(ranked[lo + int(i)] for i in chosen)
        strata.extend([g] * len(chosen))
        sizes.append(hi - lo)
    return Draw(places, strata, sizes)


@dataclass(frozen=True)
class Scaled:
    """A per-class figure summed over the proof: the total, its standard
    error, and the weight of each sampled class (the classes it stands for)."""

    total: float
    error: float
    weights: list[float]


def scale_up(values: Sequence[float], strata: Sequence[int], sizes: Sequence[int]) -> Scaled:
    """The stratified estimate of the proof's total of ``values``: each
    stratum's mean times its size, summed; the variance sum_h N_h^2 (1 -
    n_h/N_h) s_h^2 / n_h (a stratum of one sampled class adds none)."""
    by: dict[int, list[float]] = {}
    for v, s in zip(values, strata):
        by.setdefault(s, []).append(v)
    total = variance = 0.0
    for s, vs in by.items():
        size, k = sizes[s], len(vs)
        mean = sum(vs) / k
        total += size * mean
        if k > 1:
            var = sum((v - mean) ** 2 for v in vs) / (k - 1)
            variance += size * size * (1 - k / size) * var / k
    weights = [sizes[s] / len(by[s]) for s in strata]
    return Scaled(total, math.sqrt(max(variance, 0.0)), weights)


def part_of_sample(values: Sequence[float], weights: Sequence[float], sampled: int) -> tuple[float, float | None]:
    """The proof's total from the first ``len(values)`` classes of a sample of
    ``sampled`` solved in random order (plan's running figure, and what an
    interrupt keeps), and its standard error (None from fewer than two).

    Each solved class, its value times its weight in the whole sample
    (``Scaled.weights``) times ``sampled``, is on its own an unbiased guess at
    the total, and the classes solved so far are a random part of the
    sample: their mean is the estimate, their spread over the root of their
    count its error. That error ignores the strata, so it is wider than the
    whole sample's: an honest figure while few strata have both their
    classes solved (a stratum's one class gives ``scale_up`` no variance)."""
    guesses = [v * w * sampled for v, w in zip(values, weights)]
    k = len(guesses)
    if k == 0:
        return 0.0, None
    mean = sum(guesses) / k
    if k < 2:
        return mean, None
    spread = sum((g - mean) ** 2 for g in guesses) / (k - 1)
    return mean, math.sqrt(spread / k)


# -- measured in the worker processes -------------------------------------


@dataclass(frozen=True)
class Measured:
    """One sampled class solved in a worker, with what it cost there."""

    result: ClassResult
    #: CPU seconds of the solve (tree, bounds, re-scoring)
    cpu: float
    #: the worker's CPU since its previous task ended (or since it was
    #: ready): receiving this task, returning the last result
    gap: float
    #: the worker's CPU when it was ready: interpreter, imports, the trie
    ready: float
    #: of which building the solver and trie (a proof of one job does only this)
    context: float
    #: the worker's peak memory after its set-up, and after this class (MB)
    base_mb: float
    peak_mb: float
    pid: int


class MeasuredContext:
    """A worker's ``ClassContext`` that measures the CPU of each task and of
    the worker around it (a ``WorkerSetup`` factory: ``LocalSession`` starts
    it as a proof starts its workers)."""

    def __init__(self, *args: Any) -> None:
        start = time.process_time()
        self.inner = ClassContext(*args)
        # the kernel spends about 0.1 s once per process in its first two
        # solves, whatever the class (measured on 2x3 and 3x3): a proof's
        # worker pays it once, so it is the worker's start, not a cost to
        # scale up with the sampled classes. Two solves of the first class
        # (every cell its first bucket: a tiny tree) pay it here.
        cols, rows = args[2], args[3]
        for _ in range(2):
            self.inner.run(ClassTask((0,) * (cols * rows)))
        self.ready = time.process_time()
        self.context = self.ready - start
        self.base_mb = rss_mb()
        self.last = self.ready

    def run(self, task: ClassTask) -> Measured:
        before = time.process_time()
        result = self.inner.run(task)
        after = time.process_time()
        gap, self.last = before - self.last, after
        return Measured(result, after - before, gap, self.ready, self.context, self.base_mb, rss_mb(),
                        os.getpid())


# -- the whole proof and its shards ---------------------------------------


@dataclass(frozen=True)
class Overheads:
    """CPU seconds a proof spends beyond solving its classes, each measured."""

    #: the main process before its first class: interpreter, imports, plugins,
    #: the word list, the class list and costs, the run file's start
    main: float
    #: one worker process's start (0 for a proof of one job: no workers)
    worker: float
    #: worker processes the proof starts
    workers: int
    #: per class, beyond its solve: dispatch, results, records and events
    per_class: float
    #: the climb that sets a missing min score (0 when it is given)
    climb: float = 0.0

    def fixed(self) -> float:
        """What the proof spends once, whatever its classes."""
        return self.main + self.worker * self.workers + self.climb

    def total(self, classes: int) -> float:
        return self.fixed() + self.per_class * classes


@dataclass(frozen=True)
class ShardSpread:
    """The solve CPU of one shard: the mean, and the slowest of the shards."""

    mean: float
    slowest: float
    #: ``"resampled"`` (shards simulated from the sample) or ``"normal"``
    #: (too many to simulate: the expected maximum of normal shard totals)
    method: str


def shard_spread(
    values: Sequence[float], weights: Sequence[float], per_shard: float, shards: int,
    rng: np.random.Generator,
) -> ShardSpread:
    """How the solve CPU of ``shards`` shards of ``per_shard`` classes each
    (on average) spreads. Shard K holds every N-th class, so each is a draw
    from the whole class space: shards are drawn from the sample's classes
    (each as likely as the classes it stands for) and summed; the slowest
    shard is the median, over a few such draws, of the largest. A sample can
    show no class slower than its slowest, so neither can this."""
    v = np.asarray(values, dtype=np.float64)
    p = np.asarray(weights, dtype=np.float64)
    p = p / p.sum()
    mean_class = float(v @ p)
    sd_class = math.sqrt(max(float(((v - mean_class) ** 2) @ p), 0.0))
    m_lo = max(int(per_shard), 0)
    frac = per_shard - m_lo  # this share of the shards hold one class more
    mean = mean_class * per_shard
    if shards * (m_lo + 1) <= MAX_SIMULATED and m_lo + 1 > 0:
        maxima = []
        for _ in range(5):
            counts = np.full(shards, m_lo)
            counts[: round(frac * shards)] += 1
            draws = rng.choice(len(v), size=(shards, m_lo + 1), p=p)
            take = np.arange(m_lo + 1)[None, :] < counts[:, None]
            maxima.append(float((v[draws] * take).sum(axis=1).max()))
        return ShardSpread(mean, float(np.median(maxima)), "resampled")
    # the expected largest of N standard normals, to two terms
    z = math.sqrt(2 * math.log(shards)) if shards > 1 else 0.0
    if z > 0:
        z -= (math.log(math.log(shards)) + math.log(4 * math.pi)) / (2 * z)
    return ShardSpread(mean, mean + max(z, 0.0) * sd_class * math.sqrt(per_shard), "normal")
