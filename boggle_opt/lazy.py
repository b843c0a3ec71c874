"""numpy, imported on first use.

Commands that never touch an array (``score``, ``show``, ``dice``,
``--help``) then skip numpy's import, about a fifth of a warm start. Modules
write ``from boggle_opt.lazy import numpy as np`` (under ``if not
TYPE_CHECKING``, so type checkers see the real module).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule(ModuleType):
    """Stands for a module until an attribute is asked for, then imports it
    and copies its namespace in, so later lookups are plain module lookups."""

    def __getattr__(self, attr: str) -> Any:
        module = importlib.import_module(self.__name__)
        self.__dict__.update(module.__dict__)
        return getattr(module, attr)


numpy = LazyModule("numpy")
