"""English with Big Boggle's Double Letter cube: a-z with Qu, and the tiles
Th, In, Er, He and An (31 tiles), written ``[th]`` in boards.

A word is spelled by any mix of single letters and two-letter tiles
(``there`` is t-h-e-r-e, [th]-[er]-e, [th]-e-r-e, ...); the scorer counts it
once however a board spells it.
"""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt.dictionary.language import DOUBLE_LETTER_TILES as TILES
from boggle_opt.dictionary.language import Language, english_spell

ENGLISH_DL = Language(
    "english-dl",
    "English with the Double Letter cube: a-z with Qu, and [an] [er] [he] [in] [th]",
    TILES,
    english_spell,
    wordlist="embedded",
    dice=("big-dl",),
    aliases=("dl",),
    sources=(
        "Big Boggle's bonus Double Letter cube: ultraboardgames.com/boggle/big-boggle-game-rules.php; "
        "its faces An Er He In Qu Th: github.com/rtvu/boggle_engine (resource/big_boggle.txt)",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(ENGLISH_DL)
