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

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..core.alphabet import ENGLISH as ENGLISH_TILES
from ..core.alphabet import Alphabet, Tile, latin

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

    def keyed(self, lines: Iterable[str], min_letters: int = MIN_LETTERS,
              dropped: dict[str, int] | None = None) -> dict[str, list[bytes]]:
        """The distinct words of a list's lines, each with its trie keys (every
        way the tiles spell it; ``Alphabet.keys``): spelled, of at least
        ``min_letters`` letters, and spelled by the tiles in at least one way.
        ``dropped`` (if given) counts the other entries by why (``census``)."""
        alphabet = self.alphabet
        why = self.spell.why if isinstance(self.spell, Speller) else None
        count: dict[str, int] = {} if dropped is None else dropped
        out: dict[str, list[bytes]] = {}
        for line in lines:
            entry = line.strip()
            if not entry:
                continue
            if why is not None:
                word, reason = why(entry)
            else:
                word = self.spell(entry)
                reason = "" if word else unspelled(entry)
            if not word:
                reason = reason or "not a word in this language"  # a plugin's speller may give none
                count[reason] = count.get(reason, 0) + 1
            elif len(word) < min_letters:
                reason = f"fewer than {min_letters} letters"
                count[reason] = count.get(reason, 0) + 1
            elif word in out:
                count[SAME_WORD] = count.get(SAME_WORD, 0) + 1
            else:
                keys = alphabet.keys(word)
                if keys:
                    out[word] = keys
                else:
                    count[NO_TILING] = count.get(NO_TILING, 0) + 1
        return out

    def words(self, lines: Iterable[str], min_letters: int = MIN_LETTERS) -> list[str]:
        """The distinct words of a list's lines, sorted (``keyed``'s words)."""
        return sorted(self.keyed(lines, min_letters))

    def typed(self, text: str) -> tuple[str, str]:
        """A word as a player types it (any case: ``Été``, ``garçon``), spelled
        as the language spells its list's entries (French: ``ete``,
        ``garcon``), and ""; or "" and why the language makes no word of it
        (``Speller.why``'s reasons)."""
        entry = text.strip().lower()  # a player's capitals mark no name
        if not entry:
            return "", "empty"
        if isinstance(self.spell, Speller):
            return self.spell.why(entry)
        word = self.spell(entry)
        if word:
            return word, ""
        return "", "letters a-z only" if self.spell is english_spell else "not a word in this language"


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

#: the Double Letter cube's faces besides Qu, in its order (An Er He In Qu Th)
DOUBLE_LETTERS = ("an", "er", "he", "in", "th")
#: English's tiles and the Double Letter cube's (31): its language
#: (``languages/english_dl.py``) and its dice (``dice_sets/double_letter.py``)
#: both need them
DOUBLE_LETTER_TILES = latin("english-dl", extra=tuple(Tile(t) for t in DOUBLE_LETTERS))


# -- spelling a list's entries in a language's tiles ---------------------------

#: letters that decompose to no base letter and are written as two by
#: convention (French word games play ``cœur`` as ``coeur``)
LIGATURES = {"œ": "oe", "æ": "ae", "ß": "ss", "ĳ": "ij"}

#: why an entry gives no word, as ``Speller.why`` and ``census`` name it
PUNCTUATION = "apostrophe, hyphen, space or other sign"
DIGIT = "digit"
PROPER_NOUN = "proper noun (capitalised)"
ABBREVIATION = "abbreviation (two or more capitals)"
NO_TILE = "a letter no tile spells"
OTHER_LETTER = "a letter other than a-z (accented, or of another script)"
SAME_WORD = "the same word as an entry before it (once accents are dropped)"
NO_TILING = "no tiling (a q without u where q is the Qu tile)"


def tile_letters(alphabet: Alphabet) -> frozenset[str]:
    """Every letter any tile spells (``q`` and ``u`` for Qu)."""
    return frozenset(ch for t in alphabet.tiles for ch in t.letters)


class Speller:
    """How a language spells a list's entries: an entry is a word when it is
    letters only, not a proper noun, and every letter is a tile's letter once
    accents are dropped, except the letters in ``keep`` (the letters its
    dice print: ``ñ``, ``ä``).

    ``nouns_capitalised`` is German's rule: every noun is capitalised, so a
    capital first letter is kept (lower-cased) and only an entry with a
    second capital (``ABC``, ``McDonald``) is dropped; names (``Berlin``)
    cannot be told from nouns and are kept."""

    def __init__(self, alphabet: Alphabet, keep: str = "", nouns_capitalised: bool = False) -> None:
        self.letters = tile_letters(alphabet)
        self.keep = frozenset(keep)
        self.nouns_capitalised = nouns_capitalised
        self._fold: dict[str, str] = {}

    def fold(self, ch: str) -> str:
        """One lower-case letter in tile letters: itself if kept, else without
        its accents (``é`` -> ``e``), a ligature spelled out (``œ`` -> ``oe``)."""
        got = self._fold.get(ch)
        if got is None:
            if ch in self.keep or ch in self.letters:
                got = ch
            elif ch in LIGATURES:
                got = LIGATURES[ch]
            else:
                # NFD splits a letter from its accents (combining marks)
                got = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
            self._fold[ch] = got
        return got

    def why(self, entry: str) -> tuple[str, str]:
        """The word an entry gives and "", or "" and why it gives none."""
        if not entry.isalpha():
            return "", DIGIT if any(ch.isdigit() for ch in entry) else PUNCTUATION
        capitals = sum(1 for ch in entry if ch.isupper())
        if capitals:
            if not self.nouns_capitalised:
                return "", PROPER_NOUN
            if capitals > 1 or not entry[0].isupper():
                return "", ABBREVIATION
        word = "".join(self.fold(ch) for ch in entry.lower())
        if not all(ch in self.letters for ch in word):
            return "", NO_TILE
        return word, ""

    def __call__(self, entry: str) -> str:
        return self.why(entry)[0]


@dataclass(frozen=True)
class Census:
    """What a list's entries became in a language: entries read, words kept
    (distinct), and how many entries were dropped for each reason."""

    entries: int
    kept: int
    dropped: dict[str, int]


def census(language: Language, lines: Iterable[str], min_letters: int = MIN_LETTERS) -> Census:
    """Count a list's entries by what ``language`` makes of them (for the
    docs' figures, the notes on a list given by path, and the tests)."""
    dropped: dict[str, int] = {}
    kept = len(language.keyed(lines, min_letters, dropped))
    return Census(kept + sum(dropped.values()), kept, dropped)


def unspelled(entry: str) -> str:
    """Why a spell that gives no reasons (English's) made no word of ``entry``."""
    if any(ch.isdigit() for ch in entry):
        return DIGIT
    if not entry.isalpha():
        return PUNCTUATION
    if not entry.isascii():
        return OTHER_LETTER
    return "not a word in this language"
