"""Every registered searcher passes the conformance suite in boggle_opt.testing."""

from __future__ import annotations

from typing import Any

from boggle_opt.registry.loader import PluginLoader
from boggle_opt.testing import SearcherConformance

# per-searcher settings: a problem small enough to be quick, values to reject.
# annealing and genetic report every board of their first 20,000 evaluations
# (the suite's default) in their first 5,000 on 3x3 (21 and 14 at seed 7), at
# a quarter of the CPU
SETTINGS: dict[str, dict[str, Any]] = {
    "hillclimb": {"options": [("pool-size", "50")], "bad_options": [("pool-size", "0")]},
    "annealing": {"evals": 5_000, "bad_options": [("tmax", "0"), ("iterations", "0")]},
    "genetic": {"evals": 5_000, "bad_options": [("population", "1")]},
    # words of 5 cells with the other 4 climbed: every constraint case has boards
    # (full 9-cell words are checked in test_longword.py)
    "longword": {"options": [("length", "5")], "bad_options": [("length", "-1")]},
    "bnb": {
        "size": "2x2",
        "options": [("min-score", "20")],
        "bad_options": [("buckets", "abc bde")],
    },
}

# boggle-opt's own searchers, whatever other packages are installed
_registry = PluginLoader(autoload=False).load().searchers
for _name in _registry.names():
    _cls = _registry.get(_name)
    # a time budget of 0.3 s (the suite's default is 1 s): the same stop, by the
    # clock, at a third of the CPU
    _attrs = {"searcher_cls": _cls, "seconds": 0.3, **SETTINGS.get(_name, {})}
    globals()[f"TestConformance_{_name}"] = type(
        f"TestConformance_{_name}", (SearcherConformance,), _attrs
    )
