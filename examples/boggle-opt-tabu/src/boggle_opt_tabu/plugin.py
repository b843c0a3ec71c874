"""The module named in the ``boggle_opt`` entry-point group: it only registers."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl

from .tabu import TabuSearch


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(TabuSearch)
