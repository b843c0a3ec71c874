"""The driver: owns a run's random generator, budget, Ctrl-C and consumers.

A searcher only yields events. The driver checks the budget after every
event, keeps the best boards (canonical form, so symmetric copies count
once), and hands every event to each consumer (a live display, a JSON-lines
run file, a test). ``--jobs N`` for a searcher that is not ``parallel`` runs
N independently seeded copies in worker processes and merges their events.
"""

from __future__ import annotations

import multiprocessing as mp
import multiprocessing.connection
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from .. import defaults
from ..constraints.fixed import require_support
from ..core.alphabet import ENGLISH
from ..core.errors import BoggleOptError
from ..proofs.executor import ExecutorLost, ExecutorWarning
from ..huge_pages import for_child_processes
from ..main_guard import Parcel, refuse_in_starting_worker, refuse_unguarded, start_failed
from ..signals import check as check_signals
from ..signals import TimeUp, deferred, held, stopping, time_limit
from .copies import MAX_DEATHS_IN_A_ROW, READY, Copy, Failed, close, copy_main, death, stopped_event
from .interface import Checkpoint, Event, Improved, Problem, Progress, Searcher, Stat



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
    #: ended by an error that ``run()`` raised on to its caller (the command
    #: prints it): a display need not say why it stopped as well
    error: bool = False
    finished: bool = False
    #: what happened to the run that its user should know (a worker that
    #: died and started again), one line each, as it happened
    notes: list[str] = field(default_factory=list)
    #: a board as people write it (the alphabet's ``write``: ``[ij]``, never
    #: a private symbol), for what consumers show and record
    write: Callable[[str], str] = field(default=str, repr=False)
    #: each cell's tile as the letters it spells (the alphabet's ``cells``:
    #: ``qu``, ``ij``), as a finish record lists a board's tiles
    cells: Callable[[str], list[str]] = field(default=ENGLISH.cells, repr=False)

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def ranked(self) -> list[tuple[str, int]]:
        """Boards found, best first (ties by board)."""
        return sorted(self.boards.items(), key=lambda kv: (-kv[1], kv[0]))


class Consumer(Protocol):
    def start(self, state: RunState) -> None: ...

    def event(self, event: Event, state: RunState) -> None: ...

    def finish(self, state: RunState) -> None: ...


#: seconds a stopped run waits for its copies' last events (a final checkpoint each)
DRAIN_SECONDS = 5.0


def check_jobs(jobs: int, where: str = "", hint: str = "") -> None:
    """The one cap on a run's processes (``defaults.MAX_JOBS``), wherever the
    number comes from: ``RunSpec.build`` checks it before any work, the driver
    again for one made by hand. ``where`` and ``hint`` frame the message."""
    if not 1 <= jobs <= defaults.MAX_JOBS:
        raise BoggleOptError(f"{where}jobs must be 1 to {defaults.MAX_JOBS}, got {jobs}{hint}")


@contextmanager
def _executor_notes(state: RunState) -> Iterator[None]:
    """For the block, an executor's ``ExecutorWarning`` (a cluster with no
    worker, say) becomes a note of the run: the display shows it and the run
    file keeps it. Other warnings are shown as before."""
    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: Any = None, line: str | None = None) -> None:
            if issubclass(category, ExecutorWarning):
                state.notes.append(str(message))
            else:
                shown(message, category, filename, lineno, file, line)

        warnings.simplefilter("always", ExecutorWarning)  # each time it is said, not once per line
        warnings.showwarning = show
        yield


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
        check_jobs(jobs)
        self.searcher = searcher
        self.problem = problem
        self.budget = budget
        self.seed = seed
        self.consumers = list(consumers)
        self.jobs = jobs
        self.resume_segment = resume_segment
        self.state = RunState(searcher.name, dict(settings or {}), budget)
        alphabet = problem.dictionary.alphabet
        self.state.write = str if alphabet.plain else alphabet.write  # (English: boards as they are)
        self.state.cells = alphabet.cells
        #: what worker processes rebuild the problem from (a run's spec), if anything
        self.spec: ProblemSource | None = None
        self._copies: list[Copy] = []  # of a run in worker processes

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
            with stopping(), _executor_notes(state):  # a signal before it stops the run here, at once
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
            state.stop_reason, state.error = str(exc), True
            raise
        except SystemExit as exc:  # a plugin's code called sys.exit: the command names it
            state.stop_reason, state.error = f"sys.exit({exc.code!r}) was called", True
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
        b = self.budget
        try:
            # compiled code that polls (a proof's classes) stops at the budget too
            with time_limit(None if b.seconds is None else self.state.started + b.seconds):
                for ev in events:
                    self.state.evaluations = self.problem.evaluations
                    self._handle(ev)
        except TimeUp:
            self._time_up()
            self._last_checkpoint(events)
            raise _Stop from None
        except (_Stop, StopRun, ExecutorLost, KeyboardInterrupt):
            self._last_checkpoint(events)
            raise
        finally:
            close(events)
            self.state.evaluations = self.problem.evaluations

    def _last_checkpoint(self, events: Iterator[Event]) -> None:
        """Let a stopped searcher yield its state once more (``Stopping``), so a
        resumed run continues from where this one stopped."""
        ev = stopped_event(events)
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
            stop = ctx.Event()
        seeds = self.seed_sequence()
        first_seeds = seeds.spawn(self.jobs)
        # by file, not down spawn's pipe (a resumed run's spec can be big)
        parcel = Parcel((spec, type(self.searcher), self.searcher.options))
        copies = self._copies = [Copy(i) for i in range(self.jobs)]

        def start(copy: Copy, seed: np.random.SeedSequence) -> None:
            reader, writer = ctx.Pipe(duplex=False)
            copy.process = ctx.Process(
                target=copy_main,
                args=(copy.index, parcel, seed, writer, stop, tuple(copy.checkpoints)),
                daemon=True,
            )
            copy.reader, copy.ready, copy.evaluations = reader, False, 0
            with held():  # a group Ctrl-C cannot hit a worker while it starts
                try:
                    copy.process.start()
                except OSError:  # the pipe to a worker that died reading its arguments
                    raise _start_failed([c.process for c in copies if c.process is not None]) from None
                finally:
                    writer.close()  # the worker's end: its death is end-of-file here

        try:
            for copy in copies:
                start(copy, first_seeds[copy.index])
            while any(not c.done for c in copies):
                live: dict[Any, Copy] = {c.reader: c for c in copies if not c.done and c.reader is not None}
                arrived = mp.connection.wait(list(live), timeout=0.2)
                if not arrived:
                    self._check_time()
                for conn in arrived:
                    copy = live[conn]
                    try:
                        message = copy.recv()
                    except (EOFError, OSError):
                        self._lost(copy, copies)
                        if not copy.done:
                            start(copy, seeds.spawn(1)[0])
                        continue
                    self._from_copy(copy, message)
        finally:
            stop.set()
            try:
                self._drain(copies)
            finally:
                for copy in copies:
                    if copy.process is not None and copy.process.pid is not None:
                        copy.process.join(timeout=0 if copy.process.exitcode is not None else 1)
                        if copy.process.is_alive():
                            copy.process.terminate()
                    if copy.reader is not None:
                        copy.reader.close()
                parcel.remove()

    def _from_copy(self, copy: Copy, message: tuple[int, int, Any], stopping: bool = False) -> None:
        """One message of a copy: its events go to the consumers as the run's
        own (after a stop, without checking the budget again)."""
        _, evals, ev = message
        if isinstance(ev, str) and ev == READY:
            copy.ready = True
            return
        if ev is None:  # it finished
            copy.done = True
            return
        if isinstance(ev, Failed):
            raise BoggleOptError(f"worker {copy.index}: {ev.message}")
        copy.deaths_in_a_row = 0  # it got somewhere
        copy.evaluations = evals
        if isinstance(ev, Checkpoint):  # a resumed copy continues from its own state
            ev = Checkpoint({**ev.record, "copy": copy.index})
            copy.checkpoints.append(ev.record)
        if isinstance(ev, Progress) and self.jobs > 1:
            ev = Progress({**ev.stats, "worker": copy.index})
        self.state.evaluations = sum(c.total for c in self._copies)
        if stopping:
            self._deliver(ev)
        else:
            self._handle(ev)

    def _lost(self, copy: Copy, copies: Sequence[Copy]) -> None:
        """A copy's pipe closed before it said it finished: its worker died.
        It starts again (the caller does) unless no copy has ever started, or
        it keeps dying before it reports anything."""
        proc = copy.process
        proc.join(timeout=5)  # its exit status, a moment after its pipe closed
        if not any(c.ready or c.restarts for c in copies):
            # none has started yet: they cannot (no main guard, a broken
            # install), and would fail the same way again
            raise _start_failed([proc])
        copy.base += copy.evaluations
        copy.evaluations = 0
        copy.deaths_in_a_row += 1
        how = death(proc.exitcode)
        when = f"{self.state.elapsed():.1f} s"
        if copy.deaths_in_a_row >= MAX_DEATHS_IN_A_ROW:
            copy.done = True
            if all(c.done and c.deaths_in_a_row >= MAX_DEATHS_IN_A_ROW for c in copies):
                raise BoggleOptError(
                    f"every worker process died {MAX_DEATHS_IN_A_ROW} times in a row without "
                    f"reporting anything (the last {how}); the run file keeps what was found"
                )
            self.state.notes.append(
                f"worker {copy.index} died at {when} ({how}), {MAX_DEATHS_IN_A_ROW} times in a row "
                "without reporting anything: its copy is given up, the others go on"
            )
            return
        copy.restarts += 1
        resumed = "its latest checkpoint" if copy.checkpoints else "where this run began"
        self.state.notes.append(
            f"worker {copy.index} died at {when} ({how}); its copy starts again from {resumed}"
        )

    def _drain(self, copies: Sequence[Copy]) -> None:
        """After a stop: the copies' last events (their boards, their final
        checkpoints) until each has finished, for a few seconds at most."""
        deadline = time.monotonic() + DRAIN_SECONDS
        while time.monotonic() < deadline:
            live: dict[Any, Copy] = {c.reader: c for c in copies if not c.done and c.reader is not None}
            if not live:
                return
            for conn in mp.connection.wait(list(live), timeout=max(0.0, deadline - time.monotonic())):
                copy = live[conn]
                try:
                    message = copy.recv()
                except (EOFError, OSError):
                    copy.done = True
                    continue
                try:
                    self._from_copy(copy, message, stopping=True)
                except BoggleOptError:
                    copy.done = True  # a failure as it stopped: what it found is kept

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

    def _deliver(self, ev: Event) -> None:
        """An event to the state and the consumers, whole: a signal waits
        until every consumer has it (the run file as the state)."""
        state = self.state
        with deferred():
            if isinstance(ev, Improved):
                if not self._record(ev.board, ev.score):
                    # known already (an earlier segment's board that a resumed
                    # searcher reports again, or a copy's repeat): the run file
                    # holds it, and writing it again grew a file by all its
                    # boards at every --resume
                    return
            elif isinstance(ev, Progress):
                state.stats = dict(ev.stats)
            for c in self.consumers:
                c.event(ev, state)

    def _handle(self, ev: Event) -> None:
        """An event delivered, then the budget checked."""
        self._deliver(ev)
        state = self.state
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
            self._time_up()
            raise _Stop

    def _time_up(self) -> None:
        self.state.stop_reason = f"used {self.budget.seconds:g} s"


def _start_failed(procs: Sequence[Any]) -> BoggleOptError:
    """The one-line error for workers that ended before they were ready; their
    exit status may name the cause (a main script without a guard)."""
    for p in procs:
        if p.pid is not None:
            p.join(timeout=1)  # a worker that is ending has its exit status in a moment
    return start_failed(p.exitcode for p in procs if p.pid is not None)
