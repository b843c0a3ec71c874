"""Spanish: a-z with Qu, and ñ; the accents and the diaeresis are dropped (á -> a, ü -> u)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("spanish", extra=("ñ",))

SPANISH = Language(
    "spanish",
    "Spanish: a-z with Qu, and ñ; accents dropped (canción -> cancion)",
    TILES,
    Speller(TILES, keep="ñ"),
    wordlist="spanish",
    aliases=("es", "espanol"),
    sources=(
        "Spanish Scrabble has an Ñ tile and none with an accent: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), Spanish",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(SPANISH)
