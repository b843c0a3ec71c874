"""``dask`` executor: tasks on a Dask cluster (``pip install 'boggle-opt[dask]'``).

``--executor dask`` starts a ``LocalCluster`` of ``--jobs`` worker processes
on this machine; ``--scheduler tcp://HOST:PORT`` uses a cluster started with
Dask's own ``dask scheduler`` and ``dask worker`` commands (every worker
needs boggle-opt installed). Each worker builds its context once, from a
worker plugin the scheduler also hands to workers that join or restart
later. A worker that dies makes Dask fail the tasks it held with
``KilledWorker`` (at once on a ``LocalCluster``; an external scheduler
first retries them ``distributed.scheduler.allowed-failures`` times): each
task says where it starts before it runs, so only the one that was running
there comes back ``Lost``, to be split or retried by the runner, and the
others are resubmitted. A lost scheduler stops the run at once
(``ExecutorLost``), not after Dask's reconnect attempts. This module
imports Dask only when a run uses it.
"""

from __future__ import annotations

import logging
import os
import time
import warnings
from collections.abc import Callable
from typing import Any, ClassVar

from boggle_opt import hookimpl
from boggle_opt.proofs.executor import (
    Done, ExecutorError, ExecutorLost, ExecutorSettings, ExecutorWarning, Lost, WorkerSetup,
    check_scheduler_address, for_child_processes, require,
)

INSTALL = "pip install 'boggle-opt[dask]'"

#: seconds a run on an existing cluster waits with no worker connected before
#: it says so (a scheduler restarted without its workers sits at 0 classes/s)
ENV_NO_WORKERS = "BOGGLE_OPT_NO_WORKERS_TIMEOUT"
NO_WORKERS_TIMEOUT = 60.0


def no_workers_timeout() -> float:
    """``$BOGGLE_OPT_NO_WORKERS_TIMEOUT`` (seconds), else ``NO_WORKERS_TIMEOUT``."""
    text = os.environ.get(ENV_NO_WORKERS, "").strip()
    if not text:
        return NO_WORKERS_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise ExecutorError(f"{ENV_NO_WORKERS} must be a number of seconds > 0, got {text[:40]!r}")
    return value


def _quiet_dask_logs() -> None:
    """Keep only Dask's errors in this process. Its client logs at INFO
    what happens to its connections, with tracebacks: a scheduler that goes
    away gives "Batched Comm Closed" and a CommClosedError from a background
    send, whenever that send notices. A run says in one line what went
    wrong. A level set higher by the user's logging config is kept."""
    logger = logging.getLogger("distributed")
    if logger.getEffectiveLevel() < logging.ERROR:
        logger.setLevel(logging.ERROR)


#: Dask's own floor for ``distributed.comm.timeouts.tcp``: its keep-alive
#: sends 10 probes a second or more apart (``distributed.comm.tcp``), and a
#: lower value fails every connection with ``AssertionError: Timeout too low``
MIN_TCP_TIMEOUT = 11


def _check_timeouts() -> None:
    """Refuse, in one line, a ``distributed.comm.timeouts.tcp`` that Dask would
    meet with an AssertionError on the first connection (or could not parse)."""
    import dask
    from dask.utils import parse_timedelta

    value = dask.config.get("distributed.comm.timeouts.tcp", None)
    try:
        seconds = parse_timedelta(value, default="seconds")
    except (KeyError, ValueError, TypeError):
        seconds = None
    if seconds is None or seconds < MIN_TCP_TIMEOUT:
        raise ExecutorError(
            f"distributed.comm.timeouts.tcp (DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP) is {str(value)[:40]!r}: "
            f"Dask needs at least {MIN_TCP_TIMEOUT} s there (e.g. 20s; its default is 30s)"
        )


class DaskSession:
    """A Dask client (and the ``LocalCluster`` it started, if any)."""

    def __init__(self, client: Any, cluster: Any, setup: WorkerSetup,
                 no_workers: float = NO_WORKERS_TIMEOUT) -> None:
        from distributed import KilledWorker

        from ._dask_worker import ContextPlugin, plugin_name, started_topic

        self.client = client
        self.cluster = cluster
        self.address = str(client.scheduler.address)
        self.token = setup.token
        self.killed = KilledWorker
        self.plugin = plugin_name(setup.token)
        #: task key -> the worker it last started on, as the task said (run_task)
        self.started: dict[str, str] = {}
        # before any task is submitted: the subscription and the tasks share
        # one ordered stream, so no task's word is missed
        client.subscribe_topic(started_topic(setup.token), self._on_started)
        client.register_plugin(ContextPlugin(setup), name=self.plugin)
        self.pending: dict[Any, Any] = {}
        self._workers = (0.0, 1)  # (when counted, how many)
        #: the scheduler was found gone (``_lost``)
        self.gone = False
        #: seconds without a worker before ``_idle`` says so; since when none
        #: has been connected, and whether that stretch was reported
        self.no_workers = no_workers
        self._idle_since: float | None = None
        self._idle_said = False

    def _on_started(self, event: tuple[float, list[str]]) -> None:
        key, worker = event[1]
        self.started[key] = worker

    def _lost(self) -> ExecutorLost:
        """The run's stop when the client has lost its scheduler: at once, not
        after Dask's reconnect attempts (``distributed.comm.timeouts.connect``)."""
        self.gone = True
        return ExecutorLost(f"lost the Dask scheduler at {self.address}")

    def _check(self) -> None:
        if self.client.status != "running":
            raise self._lost()

    @property
    def workers(self) -> int:
        """Workers in the cluster, asked of the scheduler at most once a second."""
        # what Dask raises for cancelled futures (imported by a run on Dask, not when the plugin registers)
        from concurrent.futures import CancelledError

        counted, n = self._workers
        now = time.monotonic()
        if now - counted >= 1.0:
            self._check()
            try:
                count = len(self.client.scheduler_info(n_workers=-1).get("workers", {}))
            except (OSError, CancelledError):  # no answer: gone, whether or not the client knows yet
                raise self._lost() from None
            self._idle(count, now)
            n = max(1, count)
            self._workers = (now, n)
        return n

    def _idle(self, count: int, now: float) -> None:
        """Say once, after ``no_workers`` seconds, that the cluster has no
        worker: tasks wait for ever, and the run shows only 0 classes/s."""
        if count:
            self._idle_since, self._idle_said = None, False
        elif self._idle_since is None:
            self._idle_since = now
        elif not self._idle_said and now - self._idle_since >= self.no_workers:
            self._idle_said = True
            how = (f"start one (`dask worker {self.address} --nthreads 1`), or stop the run (Ctrl-C) and "
                   "continue it on this machine: `--resume FILE --executor local`") if self.cluster is None \
                else "its worker processes did not start"
            warnings.warn(ExecutorWarning(
                f"no Dask worker connected to the scheduler at {self.address} for {self.no_workers:g} s: "
                f"the tasks wait; {how}"
            ), stacklevel=2)

    def submit(self, task: Any) -> None:
        from ._dask_worker import run_task

        self._check()
        future = self.client.submit(run_task, self.token, task, pure=False)
        self.pending[future] = task

    def collect(self, timeout: float) -> list[Done[Any, Any] | Lost[Any]]:
        from concurrent.futures import CancelledError  # what Dask raises for cancelled futures

        from distributed import wait

        if not self.pending:
            return []
        try:
            wait(list(self.pending), timeout=timeout, return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]
        except TimeoutError:
            pass
        except (OSError, CancelledError):
            pass  # a lost connection cancels every future: judged below
        self._check()
        out: list[Done[Any, Any] | Lost[Any]] = []
        for future in [f for f in self.pending if f.done()]:
            if future.status in ("lost", "pending"):
                # its result sat on a worker that died before we fetched it:
                # Dask computes it again, so wait for it as before
                continue
            task = self.pending.pop(future)
            ran_on = self.started.pop(future.key, None)
            try:
                if future.status == "finished":
                    out.append(Done(task, future.result()))
                    continue
                error = future.exception() if future.status == "error" else None
            except (OSError, CancelledError):  # the scheduler went while we fetched it
                raise self._lost() from None
            if isinstance(error, self.killed):
                # Dask fails every task its dead worker held, queued or
                # running (distributed#5234): only the one that was running
                # there is lost; the others go back as they were, uncounted
                if ran_on is not None and ran_on == getattr(error.last_worker, "address", error.last_worker):
                    out.append(Lost(task, "a Dask worker died"))
                else:
                    self.submit(task)
            elif error is None:
                out.append(Lost(task, "cancelled by Dask"))
            else:  # a bug in the task: one line, not a traceback
                raise ExecutorError(
                    f"a task failed on a Dask worker: {type(error).__name__}: {error}"
                ) from error
        return out

    def close(self) -> None:
        lost = self.gone or self.client.status != "running"
        pending = list(self.pending)
        self.pending.clear()
        self.started.clear()
        # closing a client whose scheduler is gone stops its reconnect
        # attempts, which Dask logs as a traceback: the run has said why it stopped
        quiet = [logging.getLogger(name) for name in ("distributed.client", "distributed.utils")] if lost else []
        for logger in quiet:
            logger.disabled = True
        try:
            if not lost:
                self.client.cancel(pending)
            if self.cluster is None and not lost:  # a shared cluster: leave it as it was
                self.client.unregister_worker_plugin(self.plugin)
            elif self.cluster is not None and not lost:
                # a nanny still restarting a worker that died makes
                # LocalCluster.close fail ("can only join a started process")
                # and leaves it closing for ever
                self.client.wait_for_workers(len(self.cluster.worker_spec), timeout=10)
        except Exception:  # noqa: BLE001 - closing after an error: say nothing more
            pass
        finally:
            try:
                self.client.close()
                if self.cluster is not None:
                    self.cluster.close()
            finally:
                for logger in quiet:
                    logger.disabled = False


class DaskExecutor:
    """A Dask cluster: a LocalCluster of --jobs workers, or --scheduler tcp://HOST:PORT."""

    name: ClassVar[str] = "dask"

    @staticmethod
    def check_available() -> None:
        """Dask and distributed importable, checked as a run starts (before the
        warm-up climb or a proof's first class), not when the first task goes out."""
        require(("dask", "distributed"), "dask", "--executor dask needs Dask")

    def __init__(self, settings: ExecutorSettings) -> None:
        self.settings = settings
        self.no_workers = no_workers_timeout()
        # an existing cluster is reached now, so an unreachable scheduler is
        # refused before the run starts (and before it writes its run file)
        self._client: Any = None if settings.scheduler is None else self._connect(settings.scheduler)

    @staticmethod
    def _connect(address: str) -> Any:
        check_scheduler_address(address)  # e.g. a run file's, edited: refused before the connect timeout
        try:
            import dask
            from distributed import Client
        except ImportError:
            raise ExecutorError(f"--executor dask needs Dask: {INSTALL}") from None
        _quiet_dask_logs()
        _check_timeouts()
        try:
            # Dask's own setting (DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT), 30 s by default
            return Client(address, timeout=dask.config.get("distributed.comm.timeouts.connect"))  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError, ValueError) as exc:
            raise ExecutorError(
                f"cannot reach the Dask scheduler at {address}: {exc} "
                "(start it, or --executor local runs on this machine)"
            ) from None

    def open(self, setup: WorkerSetup) -> DaskSession:
        if self.settings.scheduler is not None:
            client, self._client = self._client or self._connect(self.settings.scheduler), None
            return DaskSession(client, None, setup, self.no_workers)
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorError(f"--executor dask needs Dask: {INSTALL}") from None
        _quiet_dask_logs()
        _check_timeouts()
        # Dask fails every task of a worker that dies at once (no retries of
        # its own): the session reruns those that were only queued there, and
        # the runner splits or retries the one that was running
        for_child_processes()  # the cluster's worker processes inherit it
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=self.settings.jobs, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
            )
        return DaskSession(Client(cluster), cluster, setup, self.no_workers)  # type: ignore[no-untyped-call]


@hookimpl
def register_executors(register: Callable[[type], None]) -> None:
    register(DaskExecutor)
