"""boggle-opt: find high-scoring Boggle boards and prove which board is best.

Importing this package loads no plugins; see ``boggle_opt.plugin_loader``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

import pluggy

from .core import COMPILED

try:
    __version__ = version("boggle-opt")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

#: Decorator for plugin hook implementations (``@boggle_opt.hookimpl``).
hookimpl = pluggy.HookimplMarker("boggle_opt")

__all__ = ["COMPILED", "__version__", "hookimpl"]
