"""The ``everyday`` word list: about 1,400 common English words, shipped as
package data (``everyday.txt``, CC0) so the package needs no other files."""

from __future__ import annotations

from collections.abc import Callable
from importlib.resources import files

from boggle_opt import WordListError, WordListSource, hookimpl

WORD_FILE = "everyday.txt"


def load_everyday() -> list[str]:
    """The raw lines of ``everyday.txt``; boggle-opt cleans them itself."""
    try:
        # importlib.resources works for any install (wheel, zip, editable)
        text = files(__package__).joinpath(WORD_FILE).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError) as exc:
        # boggle-opt shows a WordListError as one line, not a traceback
        raise WordListError(f"cannot read the everyday word list ({WORD_FILE}): {exc}") from None
    return text.splitlines()


EVERYDAY = WordListSource(
    "everyday",
    "about 1,400 common English words (CC0; boggle-opt-letter-values example)",
    load_everyday,
)


@hookimpl
def register_wordlists(register: Callable[[WordListSource], None]) -> None:
    register(EVERYDAY)
