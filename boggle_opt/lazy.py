"""numpy, imported on first use; optional dependencies, checked before any work.

Commands that never touch an array (``score``, ``show``, ``dice``,
``--help``) then skip numpy's import, about a fifth of a warm start. Modules
write ``from boggle_opt.lazy import numpy as np`` (under ``if not
TYPE_CHECKING``, so type checkers see the real module).

An optional extra (Dask for ``--executor dask``, matplotlib for reports) is
checked with ``require`` as a command starts, not where it is first used:
a proof must not run for an hour and then fail for want of a package.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from .core.errors import BoggleOptError


class MissingExtra(BoggleOptError):
    """An optional dependency that is not installed; the message names the
    extra that brings it (the command line exits with 2, before any work)."""


def require(modules: Sequence[str], extra: str, what: str) -> None:
    """Import ``modules`` (imported, not just found: a broken install counts
    as missing), else ``MissingExtra``: "``what``: pip install 'boggle-opt[extra]'"."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError:
            raise MissingExtra(f"{what}: pip install 'boggle-opt[{extra}]'") from None
        except Exception as exc:  # noqa: BLE001 - a broken install: one line, not its traceback
            raise MissingExtra(f"{what}, but {name} failed to import ({type(exc).__name__}: "
                               f"{str(exc)[:80]}): pip install --force-reinstall 'boggle-opt[{extra}]'") from None


class LazyModule(ModuleType):
    """Stands for a module until an attribute is asked for, then imports it
    and copies its namespace in, so later lookups are plain module lookups."""

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        return getattr(module, attr)


numpy = LazyModule("numpy")
