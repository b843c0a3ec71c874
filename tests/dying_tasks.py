"""A task context for executor tests (importable by spawned workers): task
``"die"`` ends its worker process as the out-of-memory killer would; any
other task is echoed back."""

from __future__ import annotations

import os


class DyingContext:
    def run(self, task: str) -> str:
        if task == "die":
            os._exit(137)
        return task


def make() -> DyingContext:
    return DyingContext()
