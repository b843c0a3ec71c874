"""boggle-opt-tabu: a tabu-search searcher for boggle-opt, packaged as a plugin.

Importing this package registers nothing: boggle-opt loads
``boggle_opt_tabu.plugin`` through the ``boggle_opt`` entry-point group.
"""

from __future__ import annotations

from .tabu import TabuSearch

__all__ = ["TabuSearch"]
