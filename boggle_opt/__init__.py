"""boggle-opt: find high-scoring Boggle boards and prove which board is best.

What a plugin author needs is here, under one name::

    import boggle_opt

    class MySearcher(boggle_opt.SearcherBase["MySearcher.Options"]): ...

    @boggle_opt.hookimpl
    def register_searchers(register): register(MySearcher)

Everything the docs and the examples use is here, in ``boggle_opt.testing`` or in
``boggle_opt.boards``, and docs/usage.md ("Public API") lists each name with one
line. ``search`` and the run's names (``RunSpec``, ``Driver``, ``read_run_file``,
...) are imported on first use, as they bring the driver and numpy; so is
``SearcherConformance``, which needs pytest.
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
from .constraints.dice import DiceSet  # noqa: E402
from .core.errors import BoardError, BoggleOptError, PluginError, WordListError  # noqa: E402
from .core.alphabet import Alphabet, Tile, latin  # noqa: E402
from .core.geometry import Geometry  # noqa: E402
from .dictionary.dictionary import Dictionary  # noqa: E402
from .searching.options import OptionError, check, make_options  # noqa: E402
from .registry.dictionaries import load_dictionary  # noqa: E402
from .registry.loader import PluginLoader, load_plugins  # noqa: E402
from .registry.registries import Registries  # noqa: E402
from .dictionary.rules import ScoringRule  # noqa: E402
from .searching.interface import (  # noqa: E402
    Checkpoint, Event, Improved, Problem, Progress, Searcher, SearcherBase, Stopping,
)
from .dictionary.wordlist import WordListSource  # noqa: E402
from .dictionary.language import Language, Speller  # noqa: E402

if TYPE_CHECKING:
    from .runs.run import RunSpec, SearchResult, search
    from .runs.runfile import PastRun, read_run_file
    from .searching.driver import Budget, Driver, RunState
    from .testing import LanguageConformance, SearcherConformance

# The whole public API (docs/usage.md, "Public API", lists each name with one line);
# the docs and examples import nothing else (tests/api/test_public_api.py).
__all__ = [
    "Alphabet", "COMPILED", "BoardError", "BoardReport", "BoggleOptError", "Budget", "Checkpoint", "DiceSet",
    "Dictionary", "Driver", "Event", "Geometry", "Improved", "Language", "OptionError", "PastRun",
    "PluginError", "PluginLoader", "Problem", "Progress", "Registries", "RunSpec", "RunState",
    "ScoringRule", "SearchResult", "Searcher", "SearcherBase", "SearcherConformance", "LanguageConformance", "Speller", "Stopping", "Tile",
    "WordListError", "WordListSource", "__version__", "analyse", "boards", "check", "hookimpl",
    "latin", "load_dictionary", "load_plugins", "make_options", "read_run_file", "search",
]

#: names imported on first use, and their modules: a run brings the driver and numpy,
#: which `boggle-opt score` starts without
_LAZY = {
    "search": "runs.run", "RunSpec": "runs.run", "SearchResult": "runs.run",
    "read_run_file": "runs.runfile", "PastRun": "runs.runfile",
    "Budget": "searching.driver", "Driver": "searching.driver", "RunState": "searching.driver",
}


def __getattr__(name: str) -> Any:
    # the conformance suite imports pytest, which only tests need
    if name in ("SearcherConformance", "LanguageConformance"):
        from . import testing

        return getattr(testing, name)
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'boggle_opt' has no attribute {name!r}")


def __dir__() -> list[str]:
    # the public API, lazy names included, not what this module imports for
    # itself (typing's names, pluggy) nor its private subpackages
    return sorted(__all__)
