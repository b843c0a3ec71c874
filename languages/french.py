"""French: a-z with Qu; accents, the cedilla and the ligatures are dropped (été is played e-t-e).

It names its dice, 4x4 and 5x5, as B@ggle lists them; ``dice_sets/french.py``
registers them."""

from __future__ import annotations

from collections.abc import Callable

from boggle_opt import hookimpl
from boggle_opt import latin
from boggle_opt.dictionary.language import Language, Speller

TILES = latin("french")

#: why an elided ``qu'`` is no word (census); wfrench writes 14 of them with
#: the apostrophe as an accent on the u (``jusqú``, ``quelqúun``): French has
#: no ú, so an entry holding one is such an elision
ELISION = "elision (qu' written as qú)"


class FrenchSpeller(Speller):
    """French's spelling, with ``qú`` read as the elided ``qu'`` it stands for:
    ``jusqú`` is ``jusqu'``, no word (an apostrophe drops an entry)."""

    def why(self, entry: str) -> tuple[str, str]:
        if "qú" in entry.lower():
            return "", ELISION
        return super().why(entry)


FRENCH = Language(
    "french",
    "French: a-z with Qu; accents and the cedilla dropped (été -> ete, cœur -> coeur)",
    TILES,
    FrenchSpeller(TILES),
    wordlist="french",
    dice=("french-4x4", "french-5x5"),
    aliases=("fr", "francais"),
    sources=(
        "French Scrabble ignores accents and the cedilla: Wikipedia, 'Scrabble letter distributions' (en.wikipedia.org/wiki/Scrabble_letter_distributions), French",
        "the French Boggle's dice, 4x4 and 5x5: B@ggle's rules, baggle.org/regles.php "
        "(github.com/inouire/baggle, doc/regles.md); the 4x4 set also github.com/abodelot/boggle",
    ),
)


@hookimpl
def register_languages(register: Callable[[Language], None]) -> None:
    register(FRENCH)
