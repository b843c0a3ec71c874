"""French: a-z with Qu; accents, the cedilla and the ligatures are dropped (été is played e-t-e)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("french")

FRENCH = Language(
    "french",
    "French: a-z with Qu; accents and the cedilla dropped (été -> ete, cœur -> coeur)",
    TILES,
    Speller(TILES),
    wordlist="french",
    aliases=("fr", "francais"),
    sources=(
        "French Scrabble ignores accents and the cedilla: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), French",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(FRENCH)
