"""Dutch: a-z with Qu, and the IJ tile beside i and j; accents dropped (café -> cafe)."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import Tile, latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("dutch", extra=(Tile("ij", "IJ"),))

DUTCH = Language(
    "dutch",
    "Dutch: a-z with Qu, and an IJ tile; accents dropped (café -> cafe)",
    TILES,
    Speller(TILES),
    wordlist="dutch",
    aliases=("nl", "nederlands"),
    sources=(
        "Dutch Boggle editions have an IJ face (issue 68); older Dutch Scrabble sets had an IJ tile, "
        "dropped in 1998: gtoal.com/wordgames/details/dutch/",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(DUTCH)
