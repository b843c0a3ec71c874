"""Executors: where a searcher's independent tasks run (this machine, a Dask cluster, ...).

An executor is a plugin (``register_executors``): a class with a ``name``, a
one-line summary and ``open(setup)``, which starts workers that each build
one context with ``setup`` (e.g. a solver and its word list) and returns an
``ExecutorSession``. A session runs tasks and reports each one back as
``Done`` (its result) or ``Lost`` (its worker died under it). It does no
bookkeeping of its own: ``TaskRunner`` keeps a bounded window of tasks in
flight, resubmits, splits or gives up on lost ones, so every executor
behaves the same way.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..core.errors import BoggleOptError
# for executors that start worker processes (huge pages for their trees)
from ..huge_pages import for_child_processes as for_child_processes
# for executors whose packages are an optional extra (``check_available``)
from ..lazy import MissingExtra as MissingExtra, require as require
# for a searcher's long compiled work in the run's process (longword's path
# listing): a time budget or a signal stops it there, as it stops a class
from ..signals import poll as poll

T = TypeVar("T")
R = TypeVar("R")

#: tasks in flight per worker: enough that none idles while the main process
#: records a result, few enough that memory and lost work stay small
WINDOW_PER_WORKER = 2
#: times a task may be lost (its worker died) and retried as it is before it
#: is reported as failed
MAX_RETRIES = 2
#: seconds between heartbeats while no task finishes
HEARTBEAT_SECONDS = 0.5


class ExecutorError(BoggleOptError):
    """An executor that cannot start (a missing extra, an unreachable scheduler)."""


class ExecutorLost(ExecutorError):
    """The executor went away mid-run (e.g. a Dask scheduler killed): the run
    stops as at a budget stop, keeping what it found, and the command then
    fails with the message (the stop reason)."""


class ExecutorWarning(UserWarning):
    """Something the user of a run should know about its executor, as it
    happens (e.g. a cluster with no worker connected): an executor says it
    with ``warnings.warn``, and the driver makes it a note of the run, which
    the display shows and the run file keeps."""


class TaskContext(Protocol):
    """Per-worker state that runs tasks; built once per worker process."""

    def run(self, task: Any) -> Any: ...


@dataclass(frozen=True)
class WorkerSetup:
    """How a worker builds its context: ``factory(*args)``. Both must pickle
    (a module-level callable); ``token`` names the setup, so a worker that
    serves several runs keeps one context per setup."""

    factory: Callable[..., TaskContext]
    args: tuple[Any, ...]
    token: str


#: a cluster scheduler's address: ``[SCHEME://]HOST:PORT`` (Dask's schemes
#: that reach another process; an IPv6 host in brackets)
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ucx|ws|wss)://)?(\[[0-9a-fA-F:.]+\]|[^\s:/\[\]]+):([0-9]{1,5})")


def check_scheduler_address(text: str) -> str:
    """``text`` if it has the form of a scheduler's address, else a one-line
    error at once: an impossible port would otherwise wait out the whole
    connect timeout before it is refused."""
    found = _ADDRESS.fullmatch(text)
    if found is None or not 1 <= int(found.group(2)) <= 65535:
        raise ExecutorError(
            f"bad scheduler address {text[:60]!r}: expected tcp://HOST:PORT with PORT from 1 to 65535"
        )
    return text


@dataclass(frozen=True)
class ExecutorSettings:
    """What the command line says about the executor."""

    #: worker processes to start (``--jobs``)
    jobs: int = 1
    #: an existing cluster's address (``--scheduler``), for executors that take one
    scheduler: str | None = None


@dataclass(frozen=True)
class Done(Generic[T, R]):
    task: T
    result: R


@dataclass(frozen=True)
class Lost(Generic[T]):
    """The worker running ``task`` died (killed, out of memory, crashed)."""

    task: T
    reason: str


class ExecutorSession(Protocol):
    """Running workers. ``submit`` never blocks; ``collect`` waits up to
    ``timeout`` seconds and returns what finished (maybe nothing)."""

    @property
    def workers(self) -> int: ...

    def submit(self, task: Any) -> None: ...

    def collect(self, timeout: float) -> list[Done[Any, Any] | Lost[Any]]: ...

    def close(self) -> None: ...


class Executor(Protocol):
    """What the runner needs of an executor class. It may also have a static
    ``check_available()`` that raises ``MissingExtra`` when a package it needs
    is not installed: a run calls it before any work (``RunSpec.build``)."""

    name: ClassVar[str]

    def __init__(self, settings: ExecutorSettings) -> None: ...

    def open(self, setup: WorkerSetup) -> ExecutorSession: ...


@dataclass(frozen=True)
class Split(Generic[T]):
    """``task`` was lost and is replaced by ``into`` (together the same work)."""

    task: T
    into: tuple[T, ...]
    reason: str


@dataclass(frozen=True)
class Failed(Generic[T]):
    """``task`` was lost ``attempts`` times and cannot be split: given up."""

    task: T
    reason: str
    attempts: int


class TaskRunner(Generic[T, R]):
    """Feeds ``tasks`` to a session, ``WINDOW_PER_WORKER`` per worker in
    flight, and yields what happens to each: ``Done``, ``Split`` (a lost task
    that ``split_lost`` divides: a worker killed for memory gets smaller
    pieces back, not the same task again), ``Failed`` (lost more than
    ``max_retries`` times and not divisible), or None every
    ``HEARTBEAT_SECONDS`` while nothing finishes. ``add`` puts tasks ahead of
    the rest (e.g. the pieces of a task too big to solve whole)."""

    def __init__(
        self,
        session: ExecutorSession,
        tasks: Iterable[T],
        *,
        split_lost: Callable[[T], Sequence[T]] | None = None,
        max_retries: int = MAX_RETRIES,
        window_per_worker: int = WINDOW_PER_WORKER,
        heartbeat: float = HEARTBEAT_SECONDS,
    ) -> None:
        self.session = session
        self._tasks: Iterator[T] = iter(tasks)
        self._first: deque[T] = deque()
        self.split_lost = split_lost
        self.max_retries = max_retries
        self.window_per_worker = window_per_worker
        self.heartbeat = heartbeat
        self._losses: dict[T, int] = {}
        #: each task in flight and when it was submitted (wall clock), oldest first
        self._since: list[tuple[T, float]] = []
        self.retries = 0
        self.splits = 0
        self.failed = 0

    def add(self, tasks: Sequence[T]) -> None:
        self._first.extendleft(reversed(tasks))

    def _next(self) -> T | None:
        if self._first:
            return self._first.popleft()
        return next(self._tasks, None)

    def events(self) -> Generator[Done[T, R] | Split[T] | Failed[T] | None, None, None]:
        exhausted = False
        while True:
            window = max(1, self.window_per_worker * self.session.workers)
            while self.in_flight < window and (self._first or not exhausted):
                task = self._next()
                if task is None:
                    exhausted = True
                    break
                self.session.submit(task)
                self._since.append((task, time.time()))
            if self.in_flight == 0:
                return
            outcomes = self.session.collect(self.heartbeat)
            if not outcomes:
                yield None
            for outcome in outcomes:
                self._forget(outcome.task)
                if isinstance(outcome, Done):
                    self._losses.pop(outcome.task, None)
                    yield outcome
                else:
                    yield self._lost(outcome)

    @property
    def in_flight(self) -> int:
        """Tasks submitted whose outcome has not come."""
        return len(self._since)

    def oldest_since(self) -> float:
        """When the oldest task in flight was submitted (``time.time()``), or
        0.0 if none is: a display shows how long it has run (a worker takes
        its tasks in the order submitted, so the oldest is running)."""
        return self._since[0][1] if self._since else 0.0

    def _forget(self, task: T) -> None:
        for i, (t, _) in enumerate(self._since):
            if t == task:
                del self._since[i]
                return

    def _lost(self, lost: Lost[T]) -> Split[T] | Failed[T] | None:
        task = lost.task
        pieces = tuple(self.split_lost(task)) if self.split_lost is not None else ()
        if pieces:
            self._losses.pop(task, None)
            self.splits += 1
            self.add(pieces)
            return Split(task, pieces, lost.reason)
        attempts = self._losses.get(task, 0) + 1
        if attempts > self.max_retries:
            self._losses.pop(task, None)
            self.failed += 1
            return Failed(task, lost.reason, attempts)
        self._losses[task] = attempts
        self.retries += 1
        self.add([task])
        return None


class InlineSession:
    """Tasks run one at a time in this process, in the order submitted: one
    job needs no pool (and a test can step through it)."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.setup = setup
        self.context: TaskContext | None = None
        self.queue: deque[Any] = deque()
        #: tasks were submitted since the last collect
        self.submitted = False

    @property
    def workers(self) -> int:
        return 1

    def submit(self, task: Any) -> None:
        self.queue.append(task)
        self.submitted = True

    def collect(self, timeout: float) -> list[Done[Any, Any] | Lost[Any]]:
        if not self.queue:
            return []
        if self.submitted:
            # nothing done yet, once after a submit: a collect runs a whole
            # task (minutes, for a big class), and the caller's display then
            # shows the tasks in flight, not none
            self.submitted = False
            return []
        self.context = self.context or self.setup.factory(*self.setup.args)
        task = self.queue.popleft()
        return [Done(task, self.context.run(task))]

    def close(self) -> None:
        self.queue.clear()


def failed_tasks_error(what: str, failed: Sequence[str]) -> BoggleOptError:
    """The one-line error that ends a run some of whose tasks failed."""
    names = ", ".join(failed[:3]) + (", ..." if len(failed) > 3 else "")
    return BoggleOptError(
        f"{what} incomplete: {len(failed)} task(s) failed, their workers died each time "
        f"({names}); the run file has the rest, --resume tries them again"
    )
