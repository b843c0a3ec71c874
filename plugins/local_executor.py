"""The ``local`` executor plugin: registers the process pool of ``boggle_opt.proofs.local``."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt.proofs.local import LocalExecutor


@hookimpl
def register_executors(register: Callable[[type], None]) -> None:
    register(LocalExecutor)
