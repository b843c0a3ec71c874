"""Languages: a language's tiles, and how a word list's entries become its words.

A language is a plugin's registration (``register_languages``), as scoring
rules and word lists are. It says which tiles its dice carry (its
``Alphabet``), and ``spell``, for one entry of a word list, the word it
gives in the letters of those tiles, or ``""`` if the entry is no word
(a proper noun, an abbreviation, a letter no tile spells). French drops its
accents (``été`` is played on ``e t e``), Spanish keeps ``ñ``, German keeps
``ä ö ü ß`` and its capitalised nouns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..core.alphabet import ENGLISH as ENGLISH_TILES
from ..core.alphabet import Alphabet

#: the fewest letters a word has, unless a rule says more
MIN_LETTERS = 3


def english_spell(entry: str) -> str:
    """English (and the research lists): a-z, any case, nothing else."""
    word = entry.lower()
    return word if word.isascii() and word.isalpha() else ""


@dataclass(frozen=True)
class Language:
    """A language as boggle-opt plays it.

    ``spell(entry)`` gets one stripped line of a word list and returns the
    word in the letters of the alphabet's tiles (lower case), or ``""``.
    ``wordlist`` is its default list's name, ``dice`` its dice sets' names,
    ``sources`` where its conventions come from (shown by ``boggle-opt
    plugins``, cited in docs/usage.md)."""

    name: str
    summary: str
    alphabet: Alphabet
    spell: Callable[[str], str]
    wordlist: str = ""
    dice: tuple[str, ...] = field(default=())
    aliases: tuple[str, ...] = field(default=())
    sources: tuple[str, ...] = field(default=())

    def words(self, lines: Iterable[str], min_letters: int = MIN_LETTERS) -> list[str]:
        """The distinct words of a list's lines, sorted: spelled, of at least
        ``min_letters`` letters, and spelled by the tiles in at least one way."""
        alphabet = self.alphabet
        out: set[str] = set()
        for line in lines:
            entry = line.strip()
            if not entry:
                continue
            word = self.spell(entry)
            if len(word) >= min_letters and word not in out and alphabet.keys(word):
                out.add(word)
        return sorted(out)


#: English, as every list was read before languages: a-z, ``q`` is Qu
ENGLISH = Language(
    "english",
    "English: a-z, with the Qu tile (every list before languages)",
    ENGLISH_TILES,
    english_spell,
    wordlist="embedded",
    dice=("classic", "new"),
    aliases=("en",),
)
