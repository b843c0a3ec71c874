"""The old name of ``boggle_opt.runs.run`` (``search()``, ``RunSpec``), kept so imports of it work."""

from __future__ import annotations

from .defaults import SECONDS as DEFAULT_SECONDS
from .runs.run import PreparedRun, RunSpec, SearchResult, default_budget, search

__all__ = ["DEFAULT_SECONDS", "PreparedRun", "RunSpec", "SearchResult", "default_budget", "search"]
