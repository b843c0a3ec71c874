"""What runs inside a Dask worker for the ``dask`` executor (imports Dask)."""

from __future__ import annotations

from typing import Any

from distributed import WorkerPlugin, get_client, get_worker

from boggle_opt.proofs.executor import TaskContext, WorkerSetup

#: setups handed to this worker, by token
_setups: dict[str, WorkerSetup] = {}
#: the context of the setup last used: one at a time, so a long-lived
#: worker serving run after run does not keep every run's word list
_context: tuple[str, TaskContext] | None = None


def plugin_name(token: str) -> str:
    return f"boggle-opt-{token}"


def started_topic(token: str) -> str:
    """The Dask event topic on which a run's tasks say where they start."""
    return f"boggle-opt-{token}-started"


class ContextPlugin(WorkerPlugin):
    """Gives each worker, including one that joins or restarts later, the setup."""

    def __init__(self, setup: WorkerSetup) -> None:
        self.worker_setup = setup

    def setup(self, worker: Any) -> None:
        _setups[self.worker_setup.token] = self.worker_setup

    def teardown(self, worker: Any) -> None:
        global _context
        _setups.pop(self.worker_setup.token, None)
        if _context is not None and _context[0] == self.worker_setup.token:
            _context = None


def run_task(token: str, task: Any) -> Any:
    global _context
    worker = get_worker()
    # said before the task runs, and waited for: the scheduler has it even if
    # the task then kills this worker at once, so the client can tell the task
    # that was running from those merely queued here (Dask fails them all)
    get_client().log_event(started_topic(token), [worker.get_current_task(), worker.address])
    if _context is None or _context[0] != token:
        setup = _setups[token]
        _context = (token, setup.factory(*setup.args))
    return _context[1].run(task)
