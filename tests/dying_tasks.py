"""A task context for executor tests (importable by spawned workers): task
``"die"`` ends its worker process as the out-of-memory killer would,
``"die-later"`` does so after half a second (time for other tasks to be
queued on its worker); any other task is echoed back."""

from __future__ import annotations

import os
import time


class DyingContext:
    def run(self, task: str) -> str:
        if task == "die-later":
            time.sleep(0.5)
        if task.startswith("die"):
            os._exit(137)
        return task


def make() -> DyingContext:
    return DyingContext()
