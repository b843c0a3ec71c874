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
pytest). ``search("annealing", ...)`` runs a search from Python (with ``RunSpec``
and ``SearchResult``; imported on first use, as they bring the driver and numpy).
Importing this package loads no plugins; ``load_plugins()`` does.
"""

from __future__ import annotations

from . import signals as _signals

# first: the boggle-opt program notes a stopping signal from here on, not
# only once its modules are imported (a run stopped then still gets its
# finish record)
_signals.catch_early()

from typing import TYPE_CHECKING, Any

import pluggy

from .core import COMPILED

from ._version import __version__

#: Decorator for plugin hook implementations (``@boggle_opt.hookimpl``).
hookimpl = pluggy.HookimplMarker("boggle_opt")

# after hookimpl: nothing below imports it, but a plugin imported later may
from . import boards  # noqa: E402
from .analysis import BoardReport, analyse  # noqa: E402
from .dictionary.dictionary import Dictionary  # noqa: E402
from .searching.options import OptionError, check  # noqa: E402
from .registry.dictionaries import load_dictionary  # noqa: E402
from .registry.loader import PluginLoader, load_plugins  # noqa: E402
from .dictionary.rules import ScoringRule  # noqa: E402
from .searching.interface import (  # noqa: E402
    Checkpoint, Event, Improved, Problem, Progress, Searcher, SearcherBase,
)
from .dictionary.wordlist import WordListSource  # noqa: E402

if TYPE_CHECKING:
    from .runs.run import RunSpec, SearchResult, search
    from .testing import SearcherConformance

__all__ = [
    "COMPILED", "BoardReport", "Checkpoint", "Dictionary", "Event", "Improved", "OptionError",
    "PluginLoader", "Problem", "Progress", "RunSpec", "ScoringRule", "SearchResult", "Searcher",
    "SearcherBase",
    "SearcherConformance", "WordListSource", "__version__", "analyse", "boards", "check",
    "hookimpl", "load_dictionary", "load_plugins", "search",
]


def __getattr__(name: str) -> Any:
    # the conformance suite imports pytest, which only tests need
    if name == "SearcherConformance":
        from .testing import SearcherConformance

        return SearcherConformance
    if name in ("search", "RunSpec", "SearchResult"):
        # a run brings the driver and numpy: `boggle-opt score` starts without them
        from .runs import run

        return getattr(run, name)
    raise AttributeError(f"module 'boggle_opt' has no attribute {name!r}")
