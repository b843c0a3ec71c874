"""Portuguese: a-z with Qu, and ç; accents dropped (coração -> coraçao)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("portuguese", extra=("ç",))

PORTUGUESE = Language(
    "portuguese",
    "Portuguese: a-z with Qu, and ç; accents dropped (coração -> coraçao)",
    TILES,
    Speller(TILES, keep="ç"),
    wordlist="portuguese",
    aliases=("pt", "pt-pt", "portugues"),
    sources=(
        "Portuguese Scrabble has a Ç tile and none with an accent: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), Portuguese",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(PORTUGUESE)
