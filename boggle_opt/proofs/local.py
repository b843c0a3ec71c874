"""The ``local`` executor: a process pool on this machine (the default), and the
session bnb and longword open for their tasks (``open_session``).

``concurrent.futures.ProcessPoolExecutor`` with spawned workers. When a
worker dies (``kill -9``, the kernel's out-of-memory killer, a crash) the
pool breaks and fails every task in flight. Workers say which task they
start; the session reports as ``Lost`` only the tasks of a worker that died
on its own (not those the broken pool ended itself), resubmits the rest to a
fresh pool, and the run goes on instead of waiting for a result that will
never come.
"""

from __future__ import annotations

import itertools
import os
import signal
import threading
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    import multiprocessing as mp
    from concurrent import futures
    from concurrent.futures import process as pools
    from multiprocessing import connection
else:  # imported when a pool starts: registering this executor (every command) needs none of them
    from ..lazy import LazyModule

    mp = LazyModule("multiprocessing")
    futures = LazyModule("concurrent.futures")
    pools = LazyModule("concurrent.futures.process")
    connection = LazyModule("multiprocessing.connection")

from ..core.pages import trim_heap
from ..huge_pages import for_child_processes
from ..main_guard import Parcel, refuse_in_starting_worker, refuse_unguarded, start_failed
from ..signals import held, worker_start
from .executor import (
    Done, Executor, ExecutorError, ExecutorSession, ExecutorSettings, InlineSession, Lost, TaskContext,
    WorkerSetup,
)

#: pool breaks with no task finished in between before the run gives up
MAX_BREAKS_IN_A_ROW = 10

_context: TaskContext | None = None
_context_error: Exception | None = None  # what the factory raised, for the first task
_started: Any = None  # the queue on which a worker says which task it starts


#: the task number with which a worker says it has started (it is ready)
_READY = -1


def _init_worker(parcel: Parcel[WorkerSetup], started: Any) -> None:
    global _context, _context_error, _started
    worker_start()
    _started = started
    started.put((os.getpid(), _READY))
    setup = parcel.load()
    try:
        _context = setup.factory(*setup.args)
    except Exception as exc:  # kept for the first task: a dead worker would hide it
        _context_error = exc
    # the setup's word list (megabytes of small objects) is garbage once the
    # context is built: what malloc keeps of it goes back (13 MB of a 4x4
    # ENABLE2K worker's 62)
    del setup
    trim_heap()


def _run_task(number: int, task: Any) -> Any:
    _started.put((os.getpid(), number))
    if _context_error is not None:
        raise _context_error
    assert _context is not None, "worker not initialised"
    return _context.run(task)


class LocalSession:
    """``jobs`` worker processes; rebuilt whenever one of them dies."""

    def __init__(self, setup: WorkerSetup, jobs: int) -> None:
        refuse_in_starting_worker()
        refuse_unguarded()
        self.setup = setup
        # the setup (a word list: megabytes) goes by file, not down spawn's pipe
        self.parcel = Parcel(setup)
        self.jobs = jobs
        for_child_processes()
        self.started: Any = None
        self.pool = self._new_pool()
        self.pending: dict[futures.Future[Any], tuple[int, Any]] = {}
        self.numbers = itertools.count()
        #: task number -> the worker process that started it; worker processes by pid
        self.running_on: dict[int, int] = {}
        self.processes: dict[int, Any] = {}
        #: times the pool was rebuilt after a worker died
        self.restarts = 0
        #: pool breaks since a task last finished
        self.breaks_in_a_row = 0
        #: worker processes that got as far as their initializer
        self.ready: set[int] = set()

    @property
    def workers(self) -> int:
        return self.jobs

    def _new_pool(self) -> pools.ProcessPoolExecutor:
        """A pool with an announcement queue of its own: a worker that died
        in the middle of an announcement (the broken pool's SIGTERM, or on
        its own) leaves its queue's lock held for good, and the next pool's
        workers would wait for it forever in their first one."""
        if self.started is not None:
            self.started.close()  # drained by the caller
        # a SimpleQueue writes at once: a worker killed right after starting a task has said so
        with held():  # the first one starts the resource tracker, out of a terminal's reach
            self.started = mp.get_context("spawn").SimpleQueue()
        # spawn: fork would copy whatever the parent holds
        return pools.ProcessPoolExecutor(
            self.jobs, mp_context=mp.get_context("spawn"),
            initializer=_init_worker, initargs=(self.parcel, self.started),
        )

    def submit(self, task: Any) -> None:
        number = next(self.numbers)
        try:
            # the pool starts a worker in a submit until it has all of them
            starting = len(self.pool._processes or {}) < self.jobs
            with held() if starting else nullcontext():
                future = self.pool.submit(_run_task, number, task)
        except pools.BrokenProcessPool as exc:
            # the pool broke since the last collect: this task never started;
            # the next collect sorts it out with the tasks the pool held
            future = futures.Future()
            future.set_exception(exc)
        except OSError:  # spawn's pipe to a worker that died before reading it
            self.processes.update(self.pool._processes or {})
            self.close()
            raise self._start_failed() from None
        self.pending[future] = (number, task)
        self.processes.update(self.pool._processes or {})  # no public way before 3.14

    def _drain(self) -> None:
        while not self.started.empty():
            pid, number = self.started.get()
            if number == _READY:
                self.ready.add(pid)
            else:
                self.running_on[number] = pid

    def _start_failed(self) -> ExecutorError:
        """The one-line error for a pool none of whose workers ever started."""
        for proc in self.processes.values():
            proc.join(timeout=1)  # a worker that is ending has its exit status in a moment
        return ExecutorError(str(start_failed(proc.exitcode for proc in self.processes.values())))

    def _culprits(self, lost: list[tuple[int, Any]]) -> set[int]:
        """The numbers of the lost tasks that were running in a worker that
        died on its own; workers the broken pool ended itself (SIGTERM) only
        held bystanders. Every started task if none can be told apart, and
        every lost task if none had started."""
        self._drain()
        for proc in self.processes.values():
            proc.join(timeout=5)
        dead = {pid for pid, proc in self.processes.items() if proc.exitcode not in (None, -signal.SIGTERM)}
        started = {n for n, _ in lost if n in self.running_on}
        culprits = {n for n in started if self.running_on[n] in dead}
        return culprits or started or {n for n, _ in lost}

    def _look_for_dead_workers(self) -> None:
        """Make the pool notice a worker that died unseen. CPython's pool
        (3.11 up to its main branch of 2026) watches the workers it had when it began to
        wait, and wakes from that wait before a submit starts a new worker:
        a worker started by the last submit can die unnoticed until another
        worker's task ends (minutes on a hard class; for ever if the dead
        one held a lock the others wait for). Woken, it looks again."""
        if self.pool._broken:
            return
        processes = list((self.pool._processes or {}).values())  # no public way before 3.14
        if not connection.wait([proc.sentinel for proc in processes], timeout=0):
            return
        wakeup = getattr(self.pool, "_executor_manager_thread_wakeup", None)
        if wakeup is not None:
            with self.pool._shutdown_lock:  # as submit does: the pool closes it under this lock
                wakeup.wakeup()

    def collect(self, timeout: float) -> list[Done[Any, Any] | Lost[Any]]:
        if not self.pending:
            return []
        self._look_for_dead_workers()
        finished, _ = futures.wait(self.pending, timeout=timeout, return_when=futures.FIRST_COMPLETED)
        # read the start announcements now, not only after a break: unread,
        # they fill the pipe and every worker blocks writing its next one.
        # A worker announces before it works, so a finished task's is here.
        self._drain()
        out: list[Done[Any, Any] | Lost[Any]] = []
        broken = False
        for future in finished:
            number, task = self.pending.pop(future)
            try:
                out.append(Done(task, future.result()))
                self.running_on.pop(number, None)  # kept for a lost task: it names the worker
                self.breaks_in_a_row = 0
            except pools.BrokenProcessPool:
                broken = True
                self.pending[future] = (number, task)  # sorted out with the rest below
            except Exception as exc:  # a bug in the task: one line, not a traceback
                raise ExecutorError(f"a task failed in a worker process: {type(exc).__name__}: {exc}") from exc
        if broken and not self.ready:
            # no worker got as far as starting: a fresh pool would fail the same way
            error = self._start_failed()
            self.close()
            raise error
        if broken:
            self.breaks_in_a_row += 1
            if self.breaks_in_a_row > MAX_BREAKS_IN_A_ROW:
                # workers that die before finishing anything (a failing start,
                # too little memory for even the smallest task): stop, do not
                # split every task down to single boards
                self.close()
                raise ExecutorError(
                    f"worker processes died {self.breaks_in_a_row} times in a row without finishing "
                    "a task; the run file keeps what was done (try fewer --jobs)"
                )
            # the broken pool fails every task it holds: those whose worker
            # died are lost; the rest go to a fresh pool as they were
            held = list(self.pending.values())
            culprits = self._culprits(held)
            self.pending.clear()
            self.running_on.clear()
            stop_pool(self.pool)
            self.processes.clear()
            self.pool = self._new_pool()
            self.restarts += 1
            for number, task in held:
                if number in culprits:
                    out.append(Lost(task, "a worker process died"))
                else:
                    self.submit(task)
        return out

    def close(self) -> None:
        self.pending.clear()
        stop_pool(self.pool)
        self.started.close()
        self.parcel.remove()


def stop_pool(pool: pools.ProcessPoolExecutor) -> None:
    """Drop queued tasks and end the workers at once, even mid-task
    (shutdown alone would wait for a task that may take minutes)."""
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


class RunsTasks(Protocol):
    """What ``open_session`` reads of a searcher's problem (``Problem`` has both)."""

    @property
    def executor(self) -> Executor | None: ...

    @property
    def jobs(self) -> int: ...


def open_session(problem: RunsTasks, setup: WorkerSetup) -> ExecutorSession:
    """The run's executor (``--executor``, ``--jobs``; a run's spec names none
    for one job on this machine, which needs no pool). A Problem made by hand
    names none either: its ``jobs`` processes on this machine."""
    executor = problem.executor
    if executor is not None:  # chosen once, by the run's spec
        return executor.open(setup)
    # a Problem made by hand: its jobs on this machine
    if problem.jobs == 1:
        return InlineSession(setup)
    return LocalExecutor(ExecutorSettings(problem.jobs)).open(setup)


class LocalExecutor:
    """Worker processes on this machine (--jobs of them); a dead worker's tasks are retried."""

    name: ClassVar[str] = "local"

    def __init__(self, settings: ExecutorSettings) -> None:
        if settings.scheduler is not None:
            raise ExecutorError("--scheduler names a cluster: use it with --executor dask")
        self.jobs = settings.jobs

    def open(self, setup: WorkerSetup) -> LocalSession:
        return LocalSession(setup, self.jobs)

