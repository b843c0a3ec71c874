"""English: a-z with the Qu tile, as every word list was read before languages."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt.dictionary.language import ENGLISH, Language


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(ENGLISH)
