"""``bnb``: branch and bound, proving which boards score at least ``min-score``.

Every board belongs to one class (a letter bucket per cell); one class per
symmetry orbit is solved (see ``boggle_opt.core.branch``) and the boards that
survive the bounds are re-scored with the real scorer. Classes run in
``problem.jobs`` worker processes, biggest first, handed out one at a time so
the work, not the count, is balanced. Each finished class is a Checkpoint
(its name and boards), so a resumed run skips it and ends with the same boards.
"""

from __future__ import annotations

import multiprocessing as mp
import resource
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boggle_opt import hookimpl
from boggle_opt.classes import (
    CostModel,
    cell_buckets,
    class_letters,
    class_name,
    default_buckets,
    enumerate_classes,
    letter_mask,
    parse_buckets,
)
from boggle_opt.core.branch import ClassSolver
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.scorer import Scorer
from boggle_opt.core.trie import PackedTrie
from boggle_opt.options import check
from boggle_opt.search import Checkpoint, Event, Improved, Problem, Progress, SearcherBase

#: marks this searcher's checkpoint records in a run file
RECORD_KIND = "bnb"


@dataclass(frozen=True)
class ClassResult:
    """What solving one class gave: boards >= min score and where time went."""

    name: str
    boards: list[tuple[str, int]]
    pruned: bool  # the root bound was below the min score
    root_bound: int
    nodes: int
    candidates: int
    build_s: float
    force_s: float
    bound_s: float
    rescore_s: float
    peak_mb: float


class _Context:
    """Per-process state: the solver and scorer of one size and word list."""

    def __init__(
        self,
        keys: list[bytes],
        points: list[int],
        cols: int,
        rows: int,
        buckets: list[list[str]],
        min_score: int,
        switch_pct: int,
    ) -> None:
        geometry = Geometry(cols, rows)
        trie = PackedTrie(keys, points)
        self.solver = ClassSolver(trie, geometry)
        self.scorer = Scorer(trie, geometry)
        self.buckets = buckets
        self.min_score = min_score
        self.switch_pct = switch_pct

    def solve(self, cls: tuple[int, ...]) -> ClassResult:
        masks = [letter_mask(b) for b in class_letters(cls, self.buckets)]
        solver = self.solver
        candidates = solver.solve(masks, self.min_score, self.switch_pct)
        t0 = time.perf_counter()
        boards = []
        for board in candidates:
            score = self.scorer.score(board)
            if score >= self.min_score:
                boards.append((board, score))
        rescore = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        return ClassResult(
            class_name(cls), boards, solver.root_bound < self.min_score, solver.root_bound,
            solver.n_nodes, len(candidates),
            solver.build_seconds, solver.force_seconds, solver.bound_seconds, rescore, peak,
        )


_worker_context: _Context | None = None


def _init_worker(*args: Any) -> None:
    global _worker_context
    _worker_context = _Context(*args)


def _solve_in_worker(cls: tuple[int, ...]) -> ClassResult:
    assert _worker_context is not None, "worker not initialised"
    return _worker_context.solve(cls)


class BranchAndBound(SearcherBase):
    """Branch and bound: prove which boards score at least min-score, over every board."""

    name = "bnb"
    parallel = True
    exhaustive = True

    @dataclass(frozen=True, kw_only=True)
    class Options:
        min_score: int | None = field(
            default=None,
            metadata={"help": "report every board scoring at least this (none: a short hill climb's best)"},
        )
        buckets: str = field(
            default="",
            metadata={"help": "letter buckets covering a-z once, e.g. 'aeiou bdfgjqvwxz lnrsy chkmpt' "
                      "(empty: the default for the size)"},
        )
        corner_buckets: str = field(
            default="",
            metadata={"help": "other buckets for the 4 corner cells, e.g. 'aeiosuy "
                      "bcdfghjklmnpqrtvwxz' (empty: as buckets, or the size's default)"},
        )
        switch: float = field(
            default=1.5,
            metadata={"help": "use the orderly bound once a tree's bound is below switch x min-score"},
        )
        climb_seconds: float = field(
            default=5.0, metadata={"help": "length of the hill climb that sets a missing min-score"}
        )

        def __post_init__(self) -> None:
            check(
                self.min_score is None or self.min_score >= 1,
                "min-score", f"must be >= 1, got {self.min_score}",
            )
            if self.buckets:
                parse_buckets(self.buckets)  # raises a one-line ValueError
            if self.corner_buckets:
                parse_buckets(self.corner_buckets)
            check(self.switch >= 1.0, "switch", f"must be >= 1, got {self.switch}")
            check(self.climb_seconds > 0, "climb-seconds", f"must be > 0, got {self.climb_seconds}")

    options: Options

    def __init__(self, options: Options | None = None) -> None:
        super().__init__(options if options is not None else BranchAndBound.Options())

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        opts = self.options
        geometry = problem.geometry
        default, default_corners = default_buckets(geometry)
        main = parse_buckets(opts.buckets or default)
        corner_text = opts.corner_buckets or ("" if opts.buckets else default_corners)
        corners = parse_buckets(corner_text) if corner_text else None
        label = " ".join(main) + (" / corners " + " ".join(corners) if corners else "")
        buckets = cell_buckets(geometry, main, corners)
        # before any climb: a size with too many classes fails at once
        classes = enumerate_classes(geometry, [len(b) for b in buckets])
        setup = _resumed_setup(problem.resumed, geometry, label)
        min_score = opts.min_score
        if min_score is None and setup is not None:
            min_score = int(setup["min_score"])  # the first segment's climb decided it
        if min_score is None:
            board, min_score = _climb(problem, rng, opts.climb_seconds)
            yield Improved(board, min_score)
        yield Checkpoint({
            "kind": RECORD_KIND, "setup": True, "size": geometry.size,
            "buckets": label, "min_score": min_score,
        })
        done = _resumed_classes(problem.resumed, geometry, label, min_score)
        for rec in done.values():
            for board, score in rec:
                yield Improved(board, score)
        todo = [c for c in classes if class_name(c) not in done]
        model = CostModel(problem.dictionary.keys, geometry, buckets)
        costs = {c: model.cost(c) for c in todo}
        todo.sort(key=lambda c: -costs[c])
        stats = _Stats(len(classes), len(classes) - len(todo), sum(costs.values()))
        best = max((s for rec in done.values() for _, s in rec), default=-1)
        args = (
            problem.dictionary.keys, problem.dictionary.points, geometry.cols, geometry.rows,
            buckets, min_score, round(opts.switch * 100),
        )
        yield Progress(stats.snapshot(best, min_score))
        for cls, result in _results(todo, args, problem.jobs):
            stats.add(result, costs[cls])
            boards = sorted({geometry.canonical(b): s for b, s in result.boards}.items())
            problem.evaluations += result.candidates
            yield Checkpoint({
                "kind": RECORD_KIND, "class": result.name, "size": geometry.size,
                "buckets": label, "min_score": min_score,
                "boards": [[b, s] for b, s in boards],
            })
            for board, score in boards:
                best = max(best, score)
                yield Improved(board, score)
            if stats.due() or stats.done == stats.total:
                yield Progress(stats.snapshot(best, min_score))


def _results(
    todo: list[tuple[int, ...]], args: tuple[Any, ...], jobs: int
) -> Iterator[tuple[tuple[int, ...], ClassResult]]:
    """Each class's result as it finishes, in this process or in ``jobs`` workers."""
    if jobs <= 1 or len(todo) <= 1:
        context = _Context(*args)
        for cls in todo:
            yield cls, context.solve(cls)
        return
    ctx = mp.get_context("spawn")  # fork would copy whatever the parent holds
    pool = ctx.Pool(jobs, initializer=_init_worker, initargs=args)
    try:
        # one class at a time, biggest first: no worker idles at the end
        # while another works through a queue of big classes
        by_name = {class_name(c): c for c in todo}
        for result in pool.imap_unordered(_solve_in_worker, todo, chunksize=1):
            yield by_name[result.name], result
    finally:
        pool.terminate()  # on Ctrl-C or a budget stop, drop what is queued
        pool.join()


class _Stats:
    """Running totals shown by the display and the benchmark."""

    def __init__(self, total: int, resumed: int, work: float) -> None:
        self.total = total
        self.done = resumed
        self.resumed = resumed
        self.work_total = work
        self.work_done = 0.0
        self.pruned = 0
        self.candidates = 0
        self.boards = 0
        self.nodes_max = 0
        self.build_s = self.force_s = self.bound_s = self.rescore_s = 0.0
        self.peak_mb = 0.0
        self.started = time.monotonic()
        self.last = 0.0

    def add(self, r: ClassResult, cost: float) -> None:
        self.done += 1
        self.work_done += cost
        self.pruned += int(r.pruned)
        self.candidates += r.candidates
        self.boards += len(r.boards)
        self.nodes_max = max(self.nodes_max, r.nodes)
        self.build_s += r.build_s
        self.force_s += r.force_s
        self.bound_s += r.bound_s
        self.rescore_s += r.rescore_s
        self.peak_mb = max(self.peak_mb, r.peak_mb)

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last >= 0.25:
            self.last = now
            return True
        return False

    def snapshot(self, best: int, min_score: int) -> Mapping[str, int | float | str]:
        elapsed = time.monotonic() - self.started
        left = ""
        if self.work_done > 0 and self.work_total > 0:
            rest = elapsed * (self.work_total - self.work_done) / self.work_done
            left = f"{rest:.0f} s"
        return {
            "classes": f"{self.done:,}/{self.total:,}",
            "pruned at root": self.pruned,
            "candidates": self.candidates,
            "boards >= min": self.boards,
            "best": best,
            "min score": min_score,
            "time left": left,
            "tree build s": round(self.build_s, 2),
            "merge s": round(self.force_s, 2),
            "orderly bound s": round(self.bound_s, 2),
            "re-score s": round(self.rescore_s, 2),
            "largest tree": self.nodes_max,
            "worker peak MB": round(self.peak_mb, 1),
        }


def _matches(rec: Mapping[str, Any], geometry: Geometry, label: str) -> bool:
    return (
        rec.get("kind") == RECORD_KIND
        and rec.get("size") == geometry.size
        and rec.get("buckets") == label
    )


def _resumed_setup(
    records: tuple[Mapping[str, Any], ...], geometry: Geometry, label: str
) -> Mapping[str, Any] | None:
    for rec in records:
        if rec.get("setup") and _matches(rec, geometry, label):
            return rec
    return None


def _resumed_classes(
    records: tuple[Mapping[str, Any], ...], geometry: Geometry, label: str, min_score: int
) -> dict[str, list[tuple[str, int]]]:
    """Finished classes of an earlier segment with the same size, buckets and min score."""
    done: dict[str, list[tuple[str, int]]] = {}
    for rec in records:
        if "class" in rec and _matches(rec, geometry, label) and rec.get("min_score") == min_score:
            done[str(rec["class"])] = [(str(b), int(s)) for b, s in rec.get("boards", [])]
    return done


def _climb(problem: Problem, rng: np.random.Generator, seconds: float) -> tuple[str, int]:
    """A good board fast, to set the min score: the hillclimb plugin if it is
    installed, else a plain best-letter-change climb with restarts."""
    try:
        from .hillclimb import quick_best
    except ImportError:
        return _local_climb(problem, rng, seconds)
    board, score = quick_best(problem, rng, seconds=seconds)
    if score < 1:
        return _local_climb(problem, rng, seconds)
    return board, score


def _local_climb(problem: Problem, rng: np.random.Generator, seconds: float) -> tuple[str, int]:
    n = problem.n_cells
    end = time.monotonic() + seconds
    best_board, best = "", -1
    while True:
        board = "".join(chr(97 + int(x)) for x in rng.integers(0, 26, n))
        score = problem.score(board)
        while True:
            scores = problem.neighbourhood(board)
            i = int(np.argmax(scores))
            if scores[i] <= score:
                break
            cell, letter = divmod(i, 26)
            board = board[:cell] + chr(97 + letter) + board[cell + 1 :]
            score = scores[i]
        if score > best:
            best_board, best = board, score
        if time.monotonic() >= end:
            return best_board, best


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(BranchAndBound)
