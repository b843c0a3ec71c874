"""``local`` executor: a process pool on this machine (the default).

``concurrent.futures.ProcessPoolExecutor`` with spawned workers. When a
worker dies (``kill -9``, the kernel's out-of-memory killer, a crash) the
pool breaks and fails every task in flight; the session reports each of
them as ``Lost`` (the pool cannot tell which worker held which) and starts a
fresh pool, so the run goes on instead of waiting for a result that will
never come.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, ClassVar

from boggle_opt import hookimpl
from boggle_opt.signals import quiet_worker
from boggle_opt.executor import (
    Done, ExecutorError, ExecutorSettings, Lost, TaskContext, WorkerSetup,
)

#: pool breaks with no task finished in between before the run gives up
MAX_BREAKS_IN_A_ROW = 10

_context: TaskContext | None = None


def _init_worker(setup: WorkerSetup) -> None:
    global _context
    quiet_worker()
    _context = setup.factory(*setup.args)


def _run_task(task: Any) -> Any:
    assert _context is not None, "worker not initialised"
    return _context.run(task)


class LocalSession:
    """``jobs`` worker processes; rebuilt whenever one of them dies."""

    def __init__(self, setup: WorkerSetup, jobs: int) -> None:
        self.setup = setup
        self.jobs = jobs
        self.pool = self._new_pool()
        self.pending: dict[Future[Any], Any] = {}
        #: times the pool was rebuilt after a worker died
        self.restarts = 0
        #: pool breaks since a task last finished
        self.breaks_in_a_row = 0

    @property
    def workers(self) -> int:
        return self.jobs

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn: fork would copy whatever the parent holds
        return ProcessPoolExecutor(
            self.jobs, mp_context=mp.get_context("spawn"),
            initializer=_init_worker, initargs=(self.setup,),
        )

    def submit(self, task: Any) -> None:
        self.pending[self.pool.submit(_run_task, task)] = task

    def collect(self, timeout: float) -> list[Done[Any, Any] | Lost[Any]]:
        if not self.pending:
            return []
        finished, _ = wait(self.pending, timeout=timeout, return_when=FIRST_COMPLETED)
        out: list[Done[Any, Any] | Lost[Any]] = []
        broken = False
        for future in finished:
            task = self.pending.pop(future)
            try:
                out.append(Done(task, future.result()))
                self.breaks_in_a_row = 0
            except BrokenProcessPool:
                broken = True
                out.append(Lost(task, "a worker process died"))
            except Exception as exc:  # a bug in the task: one line, not a traceback
                raise ExecutorError(f"a task failed in a worker process: {type(exc).__name__}: {exc}") from exc
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
            # the broken pool fails every other task it holds too
            out.extend(Lost(task, "a worker process died") for task in self.pending.values())
            self.pending.clear()
            _stop_pool(self.pool)
            self.pool = self._new_pool()
            self.restarts += 1
        return out

    def close(self) -> None:
        self.pending.clear()
        _stop_pool(self.pool)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
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


class LocalExecutor:
    """Worker processes on this machine (--jobs of them); a dead worker's tasks are retried."""

    name: ClassVar[str] = "local"

    def __init__(self, settings: ExecutorSettings) -> None:
        if settings.scheduler is not None:
            raise ExecutorError("--scheduler names a cluster: use it with --executor dask")
        self.jobs = settings.jobs

    def open(self, setup: WorkerSetup) -> LocalSession:
        return LocalSession(setup, self.jobs)


@hookimpl
def register_executors(register: Callable[[type], None]) -> None:
    register(LocalExecutor)
