"""``bnb``: branch and bound, proving which boards score at least ``min-score``.

Every board belongs to one class (a letter bucket per cell); one class per
symmetry orbit is solved (see ``boggle_opt.core.branch``) and the boards that
survive the bounds are re-scored with the real scorer. Classes run in
``problem.jobs`` worker processes, a few per worker in flight at a time and
handed out as results come back. Small sizes (up to ``COST_ORDER_MAX``
classes, e.g. 3x3 and 3x4) go biggest first by a cost model, so the work,
not the count, is balanced; larger ones (4x4: 1.06 million classes) come
from a lazy generator in a fixed shuffled order, so the classes done so far
are a fair sample for the ETA. Each finished class is a Checkpoint (its name
and boards), so a resumed run skips it and ends with the same boards.
"""

from __future__ import annotations

import itertools
import multiprocessing as mp
import resource
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import board_text, steepest_ascent
from boggle_opt.board_classes import (
    ClassSpace,
    CostModel,
    cell_buckets,
    class_letters,
    class_name,
    count_classes,
    default_buckets,
    letter_mask,
    parse_buckets,
)
from boggle_opt.core.branch import ClassSolver
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.scorer import Scorer
from boggle_opt.core.trie import PackedTrie
from boggle_opt.options import check
from boggle_opt.runrecords import RunFileError, check_boards, checked_pairs
from boggle_opt.signals import quiet_worker
from boggle_opt.search import Checkpoint, Event, Improved, Problem, Progress, SearcherBase

#: marks this searcher's checkpoint records in a run file
RECORD_KIND = "bnb"
#: the default ``switch`` ratio by size, measured on the anchor samples
#: (benchmarks/bnb_classes.py): 3x4 was as fast at 1.5 and 2.0 and slower
#: from 2.5; 4x4 takes the published run's 8000 at min score 3500
SWITCH_RATIOS: dict[str, float] = {"4x4": 8000 / 3500}
DEFAULT_SWITCH = 1.5
#: sizes with at most this many classes are solved biggest first by the cost
#: model (3x4 default buckets: 27,135 classes costed in about 2 s); more come
#: lazily in the fixed shuffled order of ``ClassSpace``
COST_ORDER_MAX = 50_000
#: classes in flight per worker process: enough that none idles while the
#: main process records a result, few enough that memory stays flat
WINDOW_PER_WORKER = 2
#: seconds between Progress events while waiting on workers, so the display
#: and the driver's time budget are not held up by one long class
HEARTBEAT_SECONDS = 0.5
#: times the worker pool may break (a worker killed, e.g. out of memory)
#: while a class is in flight before the run gives up on that class
MAX_POOL_BREAKS = 2


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
        switch_score: int,
    ) -> None:
        geometry = Geometry(cols, rows)
        trie = PackedTrie(keys, points)
        self.solver = ClassSolver(trie, geometry)
        self.scorer = Scorer(trie, geometry)
        self.buckets = buckets
        self.min_score = min_score
        self.switch_pct = switch_pct
        self.switch_score = switch_score

    def solve(self, cls: tuple[int, ...]) -> ClassResult:
        masks = [letter_mask(b) for b in class_letters(cls, self.buckets)]
        solver = self.solver
        candidates = solver.solve(masks, self.min_score, self.switch_pct, self.switch_score)
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
    quiet_worker()
    _worker_context = _Context(*args)


def _solve_in_worker(cls: tuple[int, ...]) -> ClassResult:
    assert _worker_context is not None, "worker not initialised"
    return _worker_context.solve(cls)


class BranchAndBound(SearcherBase["BranchAndBound.Options"]):
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
        switch: float | None = field(
            default=None,
            metadata={"help": "use the orderly bound once a tree's bound is at most switch x min-score "
                      "(none: 2.29 on 4x4, else 1.5)"},
        )
        switch_score: int | None = field(
            default=None,
            metadata={"help": "use the orderly bound once a tree's bound is at most this score, "
                      "instead of the switch ratio (the published 4x4 run used 8000 at min-score "
                      "3500); none or 0: the switch ratio"},
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
            check(self.switch is None or self.switch >= 1.0, "switch", f"must be >= 1, got {self.switch}")
            check(
                self.switch_score is None or self.switch_score >= 0,
                "switch-score", f"must be >= 0, got {self.switch_score}",
            )
            check(self.climb_seconds > 0, "climb-seconds", f"must be > 0, got {self.climb_seconds}")

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        opts = self.options
        geometry = problem.geometry
        default, default_corners = default_buckets(geometry)
        main = parse_buckets(opts.buckets or default)
        corner_text = opts.corner_buckets or ("" if opts.buckets else default_corners)
        corners = parse_buckets(corner_text) if corner_text else None
        label = " ".join(main) + (" / corners " + " ".join(corners) if corners else "")
        buckets = cell_buckets(geometry, main, corners)
        space = ClassSpace(geometry, [len(b) for b in buckets])
        total = count_classes(geometry, space.counts)
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
        done, found = _resumed_classes(problem.resumed, geometry, label, min_score)
        for board, score in found:
            yield Improved(board, score)
        best = max((s for _, s in found), default=-1)
        todo: Iterable[tuple[int, ...]]
        if total <= COST_ORDER_MAX:
            # biggest first: no worker idles at the end while another works
            # through a queue of big classes
            model = CostModel(problem.dictionary.keys, geometry, buckets)
            costs = {c: model.cost(c) for c in space.iterate(shuffled=False) if class_name(c) not in done}
            todo = sorted(costs, key=lambda c: -costs[c])
            stats = _Stats(total, len(done), sum(costs.values()))
        else:
            costs = {}
            todo = (c for c in space.iterate(shuffled=True) if class_name(c) not in done)
            stats = _Stats(total, len(done), float(total - len(done)))
        switch = opts.switch if opts.switch is not None else SWITCH_RATIOS.get(geometry.size, DEFAULT_SWITCH)
        args = (
            problem.dictionary.keys, problem.dictionary.points, geometry.cols, geometry.rows,
            buckets, min_score, round(switch * 100), opts.switch_score or 0,
        )
        yield Progress(stats.snapshot(best, min_score))
        results = _results(todo, args, problem.jobs)
        try:
            for item in results:
                if item is None:  # still waiting: refresh the display, let the driver check time
                    yield Progress(stats.snapshot(best, min_score))
                    continue
                cls, result = item
                stats.add(result, costs.get(cls, 1.0))
                boards = sorted({geometry.canonical(b): s for b, s in result.boards}.items())
                problem.evaluations += result.candidates
                yield Checkpoint({
                    "kind": RECORD_KIND, "class": result.name, "size": geometry.size,
                    "buckets": label, "min_score": min_score,
                    "boards": [[b, s] for b, s in boards],
                    # for reports: how the class went and what it cost
                    "pruned": result.pruned, "root_bound": result.root_bound,
                    "nodes": result.nodes, "candidates": result.candidates,
                    "seconds": round(
                        result.build_s + result.force_s + result.bound_s + result.rescore_s, 4
                    ),
                })
                for board, score in boards:
                    best = max(best, score)
                    yield Improved(board, score)
                if stats.due() or stats.done == stats.total:
                    yield Progress(stats.snapshot(best, min_score))
        finally:
            results.close()  # on a budget stop or Ctrl-C: stop the workers now


Task = tuple[int, ...]


def _results(
    todo: Iterable[Task], args: tuple[Any, ...], jobs: int
) -> Generator[tuple[Task, ClassResult] | None, None, None]:
    """Each class's result as it finishes, in this process or in ``jobs``
    workers; with workers, None every ``HEARTBEAT_SECONDS`` while none finishes."""
    classes = iter(todo)
    head = list(itertools.islice(classes, 2))
    if jobs > 1 and len(head) > 1:
        yield from _pool_results(itertools.chain(head, classes), args, jobs)
        return
    context: _Context | None = None
    for cls in itertools.chain(head, classes):
        context = context or _Context(*args)
        yield cls, context.solve(cls)


def _pool_results(
    classes: Iterator[Task], args: tuple[Any, ...], jobs: int
) -> Generator[tuple[Task, ClassResult] | None, None, None]:
    """A window of ``WINDOW_PER_WORKER * jobs`` classes in flight, refilled as
    they finish. A broken pool (a worker killed) is rebuilt and its classes
    resubmitted; a class in flight at ``MAX_POOL_BREAKS + 1`` breaks fails the run."""
    window = WINDOW_PER_WORKER * jobs
    retry: list[Task] = []  # classes whose pool broke under them, to resubmit first
    breaks: dict[Task, int] = {}
    exhausted = False
    while True:
        pool = _new_pool(args, jobs)
        pending: dict[Future[ClassResult], Task] = {}
        try:
            while True:
                while len(pending) < window and (retry or not exhausted):
                    cls = retry.pop() if retry else next(classes, None)
                    if cls is None:
                        exhausted = True
                        break
                    pending[pool.submit(_solve_in_worker, cls)] = cls
                if not pending:
                    return
                finished, _ = wait(pending, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED)
                if not finished:
                    yield None
                for future in finished:
                    result = future.result()  # BrokenProcessPool if a worker died
                    cls = pending.pop(future)
                    breaks.pop(cls, None)
                    yield cls, result
        except BrokenProcessPool:
            retry.extend(pending.values())
            for cls in pending.values():
                breaks[cls] = breaks.get(cls, 0) + 1
                if breaks[cls] > MAX_POOL_BREAKS:
                    raise BoggleOptError(
                        f"class {class_name(cls)}: a worker process died {breaks[cls]} times while it "
                        "was in flight (out of memory?); try fewer --jobs"
                    ) from None
        finally:
            _stop_pool(pool)


def _new_pool(args: tuple[Any, ...], jobs: int) -> ProcessPoolExecutor:
    # spawn: fork would copy whatever the parent holds
    return ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn"), initializer=_init_worker, initargs=args)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """Drop queued classes and end the workers at once, even mid-class
    (shutdown alone would wait for a class that may take minutes)."""
    processes = list(pool._processes.values()) if pool._processes else []  # no public way before 3.14
    manager: threading.Thread | None = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        if proc.is_alive():
            proc.terminate()
    for proc in processes:
        proc.join()
    if manager is not None:
        # its pipes close as it ends; left running, Python's exit hook may wake
        # it through a closed pipe ("Exception ignored ... handle is closed")
        manager.join(timeout=5)


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
            left = _duration(elapsed * (self.work_total - self.work_done) / self.work_done)
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


def _duration(seconds: float) -> str:
    """``42 s``, ``17 min``, ``5.3 h``, ``331 days``: an ETA's useful precision."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:,.0f} days"


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
            score = rec.get("min_score")
            if not isinstance(score, int) or isinstance(score, bool) or score < 1:
                raise RunFileError(f"run file: bnb setup's min score {score!r} is not a whole number >= 1")
            return rec
    return None


def _resumed_classes(
    records: tuple[Mapping[str, Any], ...], geometry: Geometry, label: str, min_score: int
) -> tuple[set[str], list[tuple[str, int]]]:
    """Finished classes of an earlier segment with the same size, buckets and
    min score: their names, and the boards they found."""
    done: set[str] = set()
    found: list[tuple[str, int]] = []
    for rec in records:
        if "class" in rec and _matches(rec, geometry, label) and rec.get("min_score") == min_score:
            name = rec["class"]
            where = f"run file: bnb class {str(name)[:40]}"
            if not isinstance(name, str):
                raise RunFileError(f"{where}: the class name is not a string")
            boards = checked_pairs(rec.get("boards", []), where)
            check_boards(boards, geometry, where)
            if name not in done:  # a class written twice counts once
                done.add(name)
                found.extend(boards)
    return done, found


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
    """Steepest one-letter ascents from uniformly random boards, restarted
    until ``seconds`` have passed; the best local optimum."""
    end = time.monotonic() + seconds
    best_board, best = "", -1
    while True:
        board = board_text(rng.integers(0, 26, problem.n_cells))
        board, score = steepest_ascent(problem, board, problem.score(board))
        if score > best:
            best_board, best = board, score
        if time.monotonic() >= end:
            return best_board, best


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(BranchAndBound)
