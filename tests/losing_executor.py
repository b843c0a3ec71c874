"""An executor for searcher tests that runs tasks in this process but
reports chosen ones lost, as if their worker died every time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class LosingSession:
    workers = 1

    def __init__(self, setup: Any, doomed: Callable[[Any], bool]) -> None:
        self.context = setup.factory(*setup.args)
        self.doomed = doomed
        self.queue: list[Any] = []
        self.lost = 0

    def submit(self, task: Any) -> None:
        self.queue.append(task)

    def collect(self, timeout: float) -> list[Any]:
        from boggle_opt.proofs.executor import Done, Lost

        out: list[Any] = []
        for task in self.queue:
            if self.doomed(task):
                self.lost += 1
                out.append(Lost(task, "a worker process died"))
            else:
                out.append(Done(task, self.context.run(task)))
        self.queue = []
        return out

    def close(self) -> None:
        pass


class LosingExecutor:
    """``Problem(..., executor=LosingExecutor(doomed))``; ``sessions`` holds
    what it opened."""

    name = "losing"

    def __init__(self, doomed: Callable[[Any], bool]) -> None:
        self.doomed = doomed
        self.sessions: list[LosingSession] = []

    def open(self, setup: Any) -> LosingSession:
        self.sessions.append(LosingSession(setup, self.doomed))
        return self.sessions[-1]
