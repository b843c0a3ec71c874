"""A task context for executor tests (importable by spawned workers): task
``"die"`` ends its worker process as the out-of-memory killer would,
``"die-later"`` does so after half a second (time for other tasks to be
queued on its worker), ``"die-holding-the-lock"`` after taking the local
pool's announcement lock (as a worker killed mid-announcement leaves it); ``"env:NAME"`` gives the worker's environment
variable NAME; ``"huge"`` writes 64 MB of malloc'd memory and gives the
kilobytes of it on huge pages (``"huge:CELLS"``: after settling them for
classes of CELLS cells); ``"sleep:S"`` sleeps S seconds; any other
task is echoed back."""

from __future__ import annotations

import os
import time


class DyingContext:
    def run(self, task: str) -> str:
        if task == "die-later":
            time.sleep(0.5)
        if task == "die-holding-the-lock":
            from boggle_opt.proofs import local

            local._started._wlock.acquire()
        if task.startswith("die"):
            os._exit(137)
        if task.startswith("env:"):
            return os.environ.get(task[4:], "")
        if task.startswith("sleep:"):
            time.sleep(float(task[6:]))
        if task == "huge":
            return str(_huge_kb())
        if task.startswith("huge:"):
            from boggle_opt.huge_pages import settle_for

            settle_for(int(task[5:]))
            return str(_huge_kb())
        return task


def _huge_kb() -> int:
    """Kilobytes on transparent huge pages after writing a 64 MB block."""
    block = bytearray(64 << 20)  # malloc's own mapping, zeroed by the kernel
    for i in range(0, len(block), 4096):
        block[i] = 1
    for line in open("/proc/self/smaps_rollup", encoding="ascii"):
        if line.startswith("AnonHugePages:"):
            return int(line.split()[1])
    return 0


def make() -> DyingContext:
    return DyingContext()


def make_failing() -> DyingContext:
    """A worker's set-up that fails (as a kernel refusing a word list did)."""
    raise ValueError("word points must be >= 0 and below 2**40")


class DyingClassContext:
    """A class context (as ``verify`` sets up) whose worker dies on every
    task, as one killed by the out-of-memory killer on each try would."""

    def __init__(self, *args: object) -> None:
        pass

    def run(self, task: object) -> object:
        os._exit(137)
