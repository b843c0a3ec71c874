"""ENABLE2K and YAWL, the lists used in research, found on the user's disk.

They are not shipped: each is looked up as ``<name>.txt`` in the folders named
by ``BOGGLE_OPT_WORDLISTS`` (colon-separated).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from boggle_opt import hookimpl
from boggle_opt.core.errors import WordListError
from boggle_opt.wordlist import WordListSource, read_word_file

ENV = "BOGGLE_OPT_WORDLISTS"

_LISTS = {
    "enable2k": "ENABLE2K, the research standard (about 173,000 words; public domain)",
    "yawl": "YAWL, Yet Another Word List (about 264,000 words; public domain)",
}


def find_wordlist(name: str) -> Path:
    """The first ``<name>.txt`` in the ``BOGGLE_OPT_WORDLISTS`` folders."""
    folders = [f for f in os.environ.get(ENV, "").split(os.pathsep) if f]
    for folder in folders:
        path = Path(folder) / f"{name}.txt"
        if path.is_file():
            return path
    where = ", ".join(folders) if folders else f"{ENV} is not set"
    raise WordListError(
        f"word list {name!r} not found (searched: {where}); download {name}.txt "
        f"(public domain) and put its folder in {ENV}, or pass --wordlist PATH"
    )


def _source(name: str, summary: str) -> WordListSource:
    return WordListSource(name, summary, lambda: read_word_file(find_wordlist(name)))


@hookimpl
def register_wordlists(register: Callable[[WordListSource], None]) -> None:
    for name, summary in _LISTS.items():
        register(_source(name, summary))
