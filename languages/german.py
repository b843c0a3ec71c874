"""German: a-z with Qu, and ä ö ü ß; every noun is capitalised, so capitals alone do not mark a name."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import Tile, latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("german", extra=("ä", "ö", "ü", Tile("ß", "ß")))

GERMAN = Language(
    "german",
    "German: a-z with Qu, ä ö ü ß; nouns lower-cased, entries with two capitals dropped",
    TILES,
    # nouns are capitalised: only a second capital (ABC, McDonald) marks a
    # non-word; names (Berlin) cannot be told from nouns and are kept
    Speller(TILES, keep="äöüß", nouns_capitalised=True),
    wordlist="ngerman",
    aliases=("de", "deutsch"),
    sources=(
        "German Scrabble has Ä, Ö and Ü tiles: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), German",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(GERMAN)
