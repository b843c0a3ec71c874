"""boggle-opt: find high-scoring Boggle boards and prove which board is best.

What a plugin author needs is here, under one name::

    import boggle_opt

    class MySearcher(boggle_opt.SearcherBase["MySearcher.Options"]): ...

    @boggle_opt.hookimpl
    def register_searchers(register): register(MySearcher)

``SearcherBase``, ``Searcher``, ``Problem``, the events (``Improved``,
``Progress``, ``Checkpoint``, ``Event``), ``check`` for validating options,
``ScoringRule``, ``WordListSource``, the board helpers module ``boards`` and
the test class ``SearcherConformance`` (imported on first use: it needs
pytest). Importing this package loads no plugins; ``load_plugins()`` does.
"""

from __future__ import annotations

from . import signals as _signals

# first: the boggle-opt program notes a stopping signal from here on, not
# only once its modules are imported (a run stopped then still gets its
# finish record)
_signals.catch_early()

from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

import pluggy

from .core import COMPILED

try:
    __version__ = version("boggle-opt")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"

#: Decorator for plugin hook implementations (``@boggle_opt.hookimpl``).
hookimpl = pluggy.HookimplMarker("boggle_opt")

# after hookimpl: nothing below imports it, but a plugin imported later may
from . import boards  # noqa: E402
from .analysis import BoardReport, analyse  # noqa: E402
from .dictionary import Dictionary, load_dictionary  # noqa: E402
from .options import OptionError, check  # noqa: E402
from .plugin_loader import PluginLoader, load_plugins  # noqa: E402
from .rules import ScoringRule  # noqa: E402
from .search import (  # noqa: E402
    Checkpoint, Event, Improved, Problem, Progress, Searcher, SearcherBase,
)
from .wordlist import WordListSource  # noqa: E402

if TYPE_CHECKING:
    from .testing import SearcherConformance

__all__ = [
    "COMPILED", "BoardReport", "Checkpoint", "Dictionary", "Event", "Improved", "OptionError",
    "PluginLoader", "Problem", "Progress", "ScoringRule", "Searcher", "SearcherBase",
    "SearcherConformance", "WordListSource", "__version__", "analyse", "boards", "check",
    "hookimpl", "load_dictionary", "load_plugins",
]


def __getattr__(name: str) -> Any:
    # the conformance suite imports pytest, which only tests need
    if name == "SearcherConformance":
        from .testing import SearcherConformance

        return SearcherConformance
    raise AttributeError(f"module 'boggle_opt' has no attribute {name!r}")
