"""The embedded default list: the Apache-2.0 word-game list of the kjxqz package.

It is an ordinary dependency, so a fresh install can score boards with no
other files.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files

from boggle_opt import WordListError, WordListSource, hookimpl


def _load() -> list[str]:
    try:
        text = files("kjxqz").joinpath("words.txt").read_text(encoding="ascii")
    except (ModuleNotFoundError, OSError) as exc:
        raise WordListError(f"cannot read the embedded word list (package kjxqz): {exc}") from None
    return text.splitlines()


#: named for what it is to a user; ``kjxqz`` (the package it comes from, and
#: its name before) still works
DEFAULT = WordListSource(
    "embedded",
    "the word-game list installed with boggle-opt (package kjxqz; Apache-2.0, "
    "about 188,000 words)",
    _load,
    aliases=("default", "kjxqz"),
)


@hookimpl
def register_wordlists(register: Callable[[WordListSource], None]) -> None:
    register(DEFAULT)
