"""``dask`` executor: tasks on a Dask cluster (``pip install 'boggle-opt[dask]'``).

``--executor dask`` starts a ``LocalCluster`` of ``--jobs`` worker processes
on this machine; ``--scheduler tcp://HOST:PORT`` uses a cluster started with
Dask's own ``dask scheduler`` and ``dask worker`` commands (every worker
needs boggle-opt installed). Each worker builds its context once, from a
worker plugin the scheduler also hands to workers that join or restart
later. A worker that dies mid-task makes Dask fail the task with
``KilledWorker`` (at once on a ``LocalCluster``; an external scheduler
first retries it ``distributed.scheduler.allowed-failures`` times); the
task comes back ``Lost``, to be split or retried by the runner. This module
imports Dask only when a run uses it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, ClassVar

from boggle_opt import hookimpl
from boggle_opt.proofs.executor import Done, ExecutorError, ExecutorSettings, Lost, WorkerSetup

INSTALL = "pip install 'boggle-opt[dask]'"


class DaskSession:
    """A Dask client (and the ``LocalCluster`` it started, if any)."""

    def __init__(self, client: Any, cluster: Any, setup: WorkerSetup) -> None:
        from distributed import KilledWorker

        from ._dask_worker import ContextPlugin, plugin_name

        self.client = client
        self.cluster = cluster
        self.token = setup.token
        self.killed = KilledWorker
        self.plugin = plugin_name(setup.token)
        client.register_plugin(ContextPlugin(setup), name=self.plugin)
        self.pending: dict[Any, Any] = {}
        self._workers = (0.0, 1)  # (when counted, how many)

    @property
    def workers(self) -> int:
        """Workers in the cluster, asked of the scheduler at most once a second."""
        counted, n = self._workers
        now = time.monotonic()
        if now - counted >= 1.0:
            n = max(1, len(self.client.scheduler_info(n_workers=-1).get("workers", {})))
            self._workers = (now, n)
        return n

    def submit(self, task: Any) -> None:
        from ._dask_worker import run_task

        future = self.client.submit(run_task, self.token, task, pure=False)
        self.pending[future] = task

    def collect(self, timeout: float) -> list[Done[Any, Any] | Lost[Any]]:
        from distributed import wait

        if not self.pending:
            return []
        try:
            finished, _ = wait(list(self.pending), timeout=timeout, return_when="FIRST_COMPLETED")  # type: ignore[no-untyped-call]
        except TimeoutError:
            return []
        except OSError as exc:
            raise ExecutorError(f"lost the Dask scheduler: {exc}") from None
        out: list[Done[Any, Any] | Lost[Any]] = []
        for future in finished:
            if future.status in ("lost", "pending"):
                # its result sat on a worker that died before we fetched it:
                # Dask computes it again, so wait for it as before
                continue
            task = self.pending.pop(future)
            if future.status == "finished":
                out.append(Done(task, future.result()))
                continue
            error = future.exception() if future.status == "error" else None
            if error is None or isinstance(error, self.killed):
                out.append(Lost(task, "a Dask worker died" if error is not None else "cancelled by Dask"))
            else:  # a bug in the task: one line, not a traceback
                raise ExecutorError(
                    f"a task failed on a Dask worker: {type(error).__name__}: {error}"
                ) from error
        return out

    def close(self) -> None:
        for future in self.pending:
            future.cancel()
        self.pending.clear()
        try:
            if self.cluster is None:  # a shared cluster: leave it as it was
                self.client.unregister_worker_plugin(self.plugin)
        except Exception:  # noqa: BLE001 - closing after an error: say nothing more
            pass
        finally:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()


class DaskExecutor:
    """A Dask cluster: a LocalCluster of --jobs workers, or --scheduler tcp://HOST:PORT."""

    name: ClassVar[str] = "dask"

    def __init__(self, settings: ExecutorSettings) -> None:
        self.settings = settings

    def open(self, setup: WorkerSetup) -> DaskSession:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorError(f"--executor dask needs Dask: {INSTALL}") from None
        address = self.settings.scheduler
        if address is not None:
            try:
                # Dask's own setting (DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT), 30 s by default
                client = Client(address, timeout=dask.config.get("distributed.comm.timeouts.connect"))  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError, ValueError) as exc:
                raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
            return DaskSession(client, None, setup)
        # the runner splits or retries a task whose worker died, so Dask need
        # not run it again as it was
        with dask.config.set({"distributed.scheduler.allowed-failures": 0}):
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=self.settings.jobs, threads_per_worker=1, processes=True,
                dashboard_address=None, silence_logs=logging.ERROR,
            )
        return DaskSession(Client(cluster), cluster, setup)  # type: ignore[no-untyped-call]


@hookimpl
def register_executors(register: Callable[[type], None]) -> None:
    register(DaskExecutor)
