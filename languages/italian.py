"""Italian: a-z with Qu; accents dropped (città -> citta).

It names its dice, Il Paroliere's 16; ``dice_sets/italian.py`` registers them."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("italian")

ITALIAN = Language(
    "italian",
    "Italian: a-z with Qu; accents dropped (città -> citta)",
    TILES,
    Speller(TILES),
    wordlist="italian",
    dice=("italian-4x4",),
    aliases=("it", "italiano"),
    sources=(
        "Italian Scrabble has no accented tiles: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), Italian",
        "Il Paroliere's (the Italian Boggle's) 16 dice: twrh.noblogs.org/post/2013/01/04/il-paroliere-ovvero-boggle",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(ITALIAN)
