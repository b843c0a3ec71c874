"""The driver: owns a run's random generator, budget, Ctrl-C and consumers.

A searcher only yields events. The driver checks the budget after every
event, keeps the best boards (canonical form, so symmetric copies count
once), and hands every event to each consumer (a live display, a JSON-lines
run file, a test). ``--jobs N`` for a searcher that is not ``parallel`` runs
N independently seeded copies in worker processes and merges their events.
"""

from __future__ import annotations

import multiprocessing as mp
import queue
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..constraints.fixed import require_support
from ..core.errors import BoggleOptError
from ..proofs.executor import ExecutorLost
from ..huge_pages import for_child_processes
from ..main_guard import Parcel, refuse_in_starting_worker, refuse_unguarded, start_failed
from ..signals import check as check_signals
from ..signals import held, stopping, worker_start
from .interface import Checkpoint, Event, Improved, Problem, Progress, Searcher, Stat, Stopping



@dataclass(frozen=True)
class Budget:
    """When to stop; ``None`` means no limit of that kind."""

    seconds: float | None = None
    evaluations: int | None = None
    target: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None and not self.seconds > 0:
            raise BoggleOptError(f"a time budget must be > 0 seconds, got {self.seconds}")
        if self.evaluations is not None and self.evaluations < 1:
            raise BoggleOptError(f"an evaluation budget must be >= 1, got {self.evaluations}")

    @property
    def unlimited(self) -> bool:
        return self.seconds is None and self.evaluations is None and self.target is None


@dataclass
class RunState:
    """What consumers may read at any moment (a display polls it)."""

    searcher: str
    settings: Mapping[str, Any]
    budget: Budget
    started: float = field(default_factory=time.monotonic)
    evaluations: int = 0
    #: best score per canonical board
    boards: dict[str, int] = field(default_factory=dict)
    best_board: str = ""
    best_score: int = -1
    #: (seconds since start, best score) each time the best improved
    history: list[tuple[float, int]] = field(default_factory=list)
    #: latest Progress stats (per worker when several run)
    stats: dict[str, Stat] = field(default_factory=dict)
    stop_reason: str = ""
    #: stopped by a failure (``ExecutorLost``: e.g. a lost cluster), not by
    #: its budget or the user: the command says so and exits non-zero
    failed: bool = False
    finished: bool = False

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def ranked(self) -> list[tuple[str, int]]:
        """Boards found, best first (ties by board)."""
        return sorted(self.boards.items(), key=lambda kv: (-kv[1], kv[0]))


class Consumer(Protocol):
    def start(self, state: RunState) -> None: ...

    def event(self, event: Event, state: RunState) -> None: ...

    def finish(self, state: RunState) -> None: ...


class _Stop(Exception):
    pass


class StopRun(BoggleOptError):
    """Raised by a consumer to end the run early, keeping what was found
    (e.g. a run file that can no longer be written); the message is the
    stop reason."""


class ProblemSource(Protocol):
    """What a worker process rebuilds its copy of the problem from (picklable):
    a run's spec (``boggle_opt.runs.run.RunSpec``) is one."""

    def worker_problem(self) -> Problem: ...


class Driver:
    """Run one searcher on one problem; ``run()`` returns the final state.

    The constructor takes a run's facts one by one (a prepared run,
    ``boggle_opt.runs.run.PreparedRun.driver``, passes them from its spec); ``jobs``
    above 1 also needs ``spec``, a ``ProblemSource`` from which worker processes
    rebuild the problem.
    """

    def __init__(
        self,
        searcher: Searcher,
        problem: Problem,
        budget: Budget,
        seed: int | None,
        consumers: Sequence[Consumer] = (),
        jobs: int = 1,
        settings: Mapping[str, Any] | None = None,
        resume_segment: int = 0,
    ) -> None:
        require_support(searcher, problem.constraints)
        self.searcher = searcher
        self.problem = problem
        self.budget = budget
        self.seed = seed
        self.consumers = list(consumers)
        self.jobs = jobs
        self.resume_segment = resume_segment
        self.state = RunState(searcher.name, dict(settings or {}), budget)
        #: what worker processes rebuild the problem from (a run's spec), if anything
        self.spec: ProblemSource | None = None

    def seed_sequence(self) -> np.random.SeedSequence:
        # a resumed run continues with fresh draws, not a replay of the first
        key = (self.resume_segment,) if self.resume_segment else ()
        return np.random.SeedSequence(self.seed, spawn_key=key)

    def add_known(self, board: str, score: int) -> None:
        """A board found by an earlier segment of a resumed run."""
        self._record(board, score)

    def run(self) -> RunState:
        state = self.state
        state.started = time.monotonic()
        for c in self.consumers:
            c.start(state)
        try:
            with stopping():  # a signal before it stops the run here, at once
                if self.jobs > 1 and not getattr(self.searcher, "parallel", False):
                    self._run_workers()
                else:
                    self._run_here()
            if not state.stop_reason:
                state.stop_reason = "searcher finished"
        except _Stop:
            pass
        except StopRun as exc:
            state.stop_reason = str(exc)
        except ExecutorLost as exc:
            state.stop_reason = str(exc)
            state.failed = True
        except BoggleOptError as exc:
            # e.g. a proof's failed tasks: the finish record says why it ended
            state.stop_reason = str(exc)
            raise
        except KeyboardInterrupt as exc:
            # SIGTERM and SIGHUP arrive as a KeyboardInterrupt naming the signal
            state.stop_reason = str(exc) or "interrupted"
        finally:
            state.finished = True
            for c in self.consumers:
                c.finish(state)
        return state

    # -- one process -------------------------------------------------------

    def _run_here(self) -> None:
        rng = np.random.default_rng(self.seed_sequence())
        events = self.searcher.search(self.problem, rng)
        try:
            for ev in events:
                self.state.evaluations = self.problem.evaluations
                self._handle(ev)
        except (_Stop, StopRun, ExecutorLost, KeyboardInterrupt):
            self._last_checkpoint(events)
            raise
        finally:
            _close(events)
            self.state.evaluations = self.problem.evaluations

    def _last_checkpoint(self, events: Iterator[Event]) -> None:
        """Let a stopped searcher yield its state once more (``Stopping``), so a
        resumed run continues from where this one stopped."""
        throw = getattr(events, "throw", None)
        if throw is None:
            return
        try:
            ev = throw(Stopping())
        except (Stopping, StopIteration):
            return  # a searcher that keeps no state
        if isinstance(ev, Progress):  # a proof's counts as it stopped
            self.state.stats = dict(ev.stats)
        if isinstance(ev, (Checkpoint, Progress)):
            for c in self.consumers:
                c.event(ev, self.state)

    # -- several processes -------------------------------------------------

    def _run_workers(self) -> None:
        spec = self.spec
        if spec is None:
            raise BoggleOptError(
                "several jobs need a run specification to rebuild the problem in worker "
                "processes (PreparedRun.driver)"
            )
        refuse_in_starting_worker()
        refuse_unguarded()
        ctx = mp.get_context("spawn")
        for_child_processes()
        with held():
            events: Any = ctx.Queue()
            stop = ctx.Event()
        seeds = self.seed_sequence().spawn(self.jobs)
        # by file, not down spawn's pipe (a resumed run's spec can be big)
        parcel = Parcel((spec, type(self.searcher), self.searcher.options))
        procs = [
            ctx.Process(
                target=_worker,
                args=(i, parcel, seeds[i], events, stop),
                daemon=True,
            )
            for i in range(self.jobs)
        ]
        counts = [0] * self.jobs
        running = self.jobs
        ready: set[int] = set()
        try:
            with held():  # a group Ctrl-C cannot hit a worker while it starts
                for p in procs:
                    try:
                        p.start()
                    except OSError:  # the pipe to a worker that died reading its arguments
                        raise _start_failed(procs) from None
            while running:
                try:
                    worker, evals, ev = events.get(timeout=0.2)
                except queue.Empty:
                    self._check_time()
                    unready = [p for i, p in enumerate(procs) if i not in ready]
                    if any(p.exitcode is not None for p in unready) and events.empty():
                        raise _start_failed(unready)
                    if not any(p.is_alive() for p in procs) and events.empty():
                        raise BoggleOptError("worker processes ended without reporting")
                    continue
                if isinstance(ev, str) and ev == _READY:
                    ready.add(worker)
                    continue
                if ev is None:  # worker done
                    running -= 1
                    continue
                if isinstance(ev, BaseException):
                    raise BoggleOptError(f"worker {worker}: {type(ev).__name__}: {ev}")
                counts[worker] = evals
                self.state.evaluations = sum(counts)
                if isinstance(ev, Checkpoint):  # a resumed copy continues from its own state
                    ev = Checkpoint({**ev.record, "copy": worker})
                if isinstance(ev, Progress) and self.jobs > 1:
                    ev = Progress({**ev.stats, "worker": worker})
                self._handle(ev)
        finally:
            stop.set()
            for p in procs:
                if p.pid is None:
                    continue  # never started
                p.join(timeout=5)
                if p.is_alive():
                    p.terminate()
            parcel.remove()

    # -- shared ------------------------------------------------------------

    def _record(self, board: str, score: int) -> bool:
        # fixed cells break the symmetry: a rotated copy would not meet --fix
        fixed = bool(self.problem.constraints.fix)
        canon = board if fixed else self.problem.geometry.canonical(board)
        state = self.state
        if state.boards.get(canon, -1) >= score:
            return False
        state.boards[canon] = score
        if score > state.best_score:
            state.best_score, state.best_board = score, board
            state.history.append((state.elapsed(), score))
        return True

    def _handle(self, ev: Event) -> None:
        state = self.state
        if isinstance(ev, Improved):
            self._record(ev.board, ev.score)
        elif isinstance(ev, Progress):
            state.stats = dict(ev.stats)
        for c in self.consumers:
            c.event(ev, state)
        b = self.budget
        if b.target is not None and state.best_score >= b.target:
            state.stop_reason = f"reached target {b.target}"
            raise _Stop
        if b.evaluations is not None and state.evaluations >= b.evaluations:
            state.stop_reason = f"used {b.evaluations:,} evaluations"
            raise _Stop
        self._check_time()

    def _check_time(self) -> None:
        # a signal whose exception was lost on its way still stops the run
        check_signals()
        b = self.budget
        if b.seconds is not None and self.state.elapsed() >= b.seconds:
            self.state.stop_reason = f"used {b.seconds:g} s"
            raise _Stop


#: a worker's first message: it started (one that ends before saying so could not start)
_READY = "ready"


def _start_failed(procs: Sequence[Any]) -> BoggleOptError:
    """The one-line error for workers that ended before they were ready; their
    exit status may name the cause (a main script without a guard)."""
    for p in procs:
        if p.pid is not None:
            p.join(timeout=1)  # a worker that is ending has its exit status in a moment
    return start_failed(p.exitcode for p in procs if p.pid is not None)


def _close(events: Iterator[Event]) -> None:
    # a generator's finally blocks run now, not whenever it is collected
    close = getattr(events, "close", None)
    if close is not None:
        close()


def _worker(
    index: int,
    parcel: Parcel[tuple[ProblemSource, Any, Any]],
    seed: np.random.SeedSequence,
    events: Any,
    stop: Any,
) -> None:
    """One independently seeded copy of a searcher, in its own process."""
    worker_start()
    events.put((index, 0, _READY))
    try:
        spec, searcher_cls, options = parcel.load()
        problem = spec.worker_problem()
        # its own checkpoints (and those of a run on one process): not its siblings'
        problem.resumed = tuple(r for r in problem.resumed if r.get("copy", index) == index)
        searcher = searcher_cls(options)
        gen: Iterator[Event] = searcher.search(problem, np.random.default_rng(seed))
        for ev in gen:
            events.put((index, problem.evaluations, ev))
            if stop.is_set():
                _close(gen)
                break
    except KeyboardInterrupt:
        pass  # the parent saw Ctrl-C too and keeps what was reported
    except BaseException as exc:  # report, don't die silently
        events.put((index, 0, exc))
    events.put((index, 0, None))
