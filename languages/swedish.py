"""Swedish: a-z and å ä ö (q a plain letter: Swedish has almost no qu); other accents dropped (idé -> ide)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("swedish", extra=("å", "ä", "ö"), qu=False)

SWEDISH = Language(
    "swedish",
    "Swedish: a-z and å ä ö, q a plain letter; other accents dropped (idé -> ide)",
    TILES,
    Speller(TILES, keep="åäö"),
    wordlist="swedish",
    aliases=("sv", "svenska"),
    sources=(
        "Swedish Scrabble has Å, Ä and Ö tiles: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), Swedish",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(SWEDISH)
