"""ENABLE2K and YAWL, the lists used in research, found on the user's disk.

They are not shipped: each is looked up as ``<name>.txt`` in the folders named
by ``BOGGLE_OPT_WORDLISTS`` (colon-separated). Both are public domain; where to
get them is in ``WHERE`` (and docs/usage.md, "Word lists").
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from boggle_opt import hookimpl
from boggle_opt.core.errors import WordListError
from boggle_opt.dictionary.wordlist import WordListSource, read_word_file

ENV = "BOGGLE_OPT_WORDLISTS"

_LISTS = {
    "enable2k": "ENABLE2K, the research standard (about 173,000 words; public domain)",
    "yawl": "YAWL, Yet Another Word List (about 264,000 words; public domain)",
}

#: where each list is published (the unprocessed lists: a copy with "qu"
#: shortened to "q" loses every Qu word); docs/usage.md says more
WHERE = {
    "enable2k": "https://github.com/danvk/hybrid-boggle (wordlists/, the raw list of 173,528 lines)",
    "yawl": "https://github.com/elasticdog/yawl (its word.list, saved as yawl.txt)",
}


def how_to_get(name: str) -> str:
    """One sentence: where the list comes from and how to point boggle-opt at it."""
    return (
        f"get {name}.txt (public domain) from {WHERE[name]}, then set {ENV} to its folder "
        "or pass --wordlist PATH"
    )


def _folders() -> list[str]:
    return [f for f in os.environ.get(ENV, "").split(os.pathsep) if f]


def _found(name: str) -> Path | None:
    for folder in _folders():
        path = Path(folder) / f"{name}.txt"
        if path.is_file():
            return path
    return None


def find_wordlist(name: str) -> Path:
    """The first ``<name>.txt`` in the ``BOGGLE_OPT_WORDLISTS`` folders."""
    path = _found(name)
    if path is not None:
        return path
    folders = _folders()
    where = ", ".join(folders) if folders else f"{ENV} is not set"
    raise WordListError(f"word list {name!r} not found (searched: {where}); {how_to_get(name)}")


def status(name: str) -> str:
    """Whether the list is found here, and where to get it when not."""
    path = _found(name)
    return f"found: {path}" if path is not None else f"not found; {how_to_get(name)}"


def _source(name: str, summary: str) -> WordListSource:
    return WordListSource(name, summary, lambda: read_word_file(find_wordlist(name)),
                          status=lambda: status(name), file=lambda: _file(name))


def _file(name: str) -> str | None:
    path = _found(name)
    return str(path) if path is not None else None


@hookimpl
def register_wordlists(register: Callable[[WordListSource], None]) -> None:
    for name, summary in _LISTS.items():
        register(_source(name, summary))
