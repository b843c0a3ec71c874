"""Tiles and alphabets: what a board's cells can hold, and how boards are written.

A cell holds a *tile*: one or more letters of any script (``e``, ``ñ``, ``ß``,
``qu``, ``th``, ``ij``). A language's tiles form its *alphabet*, at most
``MAX_TILES`` of them; the trie and the scorer know a tile by its code, its
place in the alphabet (as crossword-game engines map a language's tiles onto
small machine indexes).

Inside the program a board is a string of one *symbol* a cell. A one-letter
tile is its own symbol (``e``, ``ñ``); English's Qu tile keeps its historic
symbol ``q``. Other multi-letter tiles get a private symbol (an ASCII digit or
sign no word list uses) and are *written* in brackets: the board ``[th]ere...``
is read into one symbol a cell and written back the same way. Where an
alphabet has no bracketed tile (English and every shipped language's plain
alphabet), a board's written form is its internal string, so today's boards
(``perslatgsineters``, ``q`` for Qu) read and write exactly as before.

Pure Python: used when a dictionary is built and when boards are read or
printed, never in a hot loop.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Final

from .errors import BoardError

#: the most tiles an alphabet holds: the trie keeps a node's children in a
#: 32-bit mask (Polish needs 32 letters; Spanish, German, Swedish 27-30)
MAX_TILES: Final = 32
#: the most tiles one cell of a branch-and-bound class holds: a choice node
#: packs a cell's letter set beside its position into one 32-bit arena word
#: (relative to the class's own set for the cell where the alphabet is wider)
MAX_BNB_TILES: Final = 26
#: trie keys are bytes, a tile's code plus this (``a`` for English's first tile)
KEY_BASE: Final = 97
#: private symbols for multi-letter tiles written in brackets (never in a word list)
_PRIVATE = "0123456789!#$%&*+=?@^~<>"


def capitals(text: str) -> str:
    """``text`` in capitals, letter by letter, a letter whose capital is two
    (``ß``: ``SS``) kept as it is: a word's written form is its own letters
    (``STRAßE``, never ``STRASSE``), as a die's face is."""
    out = text.upper()
    if len(out) == len(text):
        return out
    return "".join(up if len(up := ch.upper()) == 1 else ch for ch in text)


class Tile:
    """One tile: the ``letters`` it spells in words (lower case), the ``face``
    printed on the die (``Qu``, ``Th``, ``Ñ``) and the one-character ``symbol``
    of a cell holding it in a board string."""

    __slots__ = ("letters", "face", "symbol")

    def __init__(self, letters: str, face: str = "", symbol: str = "") -> None:
        if not letters or letters != letters.lower() or not all(ch.isalpha() for ch in letters):
            raise ValueError(f"a tile spells lower-case letters, got {letters!r}")
        self.letters = letters
        # a die shows a capital and the rest small (Qu, Th); ß has no
        # one-letter capital in most fonts' eyes ("SS"), so it stays ß
        self.face = face or (capitals(letters[0]) + letters[1:])
        self.symbol = symbol

    def __repr__(self) -> str:
        return f"Tile({self.letters!r})"


class Alphabet:
    """A language's tiles, in code order (code = index)."""

    def __init__(self, name: str, tiles: Iterable[Tile | str]) -> None:
        self.name = name
        made = [t if isinstance(t, Tile) else Tile(t) for t in tiles]
        if not made:
            raise ValueError("an alphabet needs at least one tile")
        if len(made) > MAX_TILES:
            raise ValueError(f"alphabet {name!r} has {len(made)} tiles; at most {MAX_TILES} fit")
        private = iter(_PRIVATE)
        symbols: list[str] = []
        for t in made:
            if not t.symbol:
                t.symbol = t.letters if len(t.letters) == 1 else next(private)
            if len(t.symbol) != 1 or t.symbol.isspace() or t.symbol in "[]":
                raise ValueError(f"tile {t.letters!r}: a symbol is one character, not a bracket or space")
            symbols.append(t.symbol)
        if len(set(symbols)) != len(symbols):
            raise ValueError(f"alphabet {name!r}: two tiles share a symbol")
        if len({t.letters for t in made}) != len(made):
            raise ValueError(f"alphabet {name!r}: two tiles spell the same letters")
        self.tiles: tuple[Tile, ...] = tuple(made)
        #: the tiles' symbols in code order: what the trie and the scorer keep
        self.symbols = "".join(symbols)
        self._code = {s: i for i, s in enumerate(symbols)}
        self._by_letters = {t.letters: t for t in made}
        #: tiles written in brackets (a multi-letter tile with a private symbol)
        self._bracketed = {t.symbol for t in made if t.symbol in _PRIVATE}
        self._longest = max(len(t.letters) for t in made)
        # the tiles that can start at each letter, longest first (for tilings)
        self._starting: dict[str, list[Tile]] = {}
        for t in sorted(made, key=lambda t: -len(t.letters)):
            self._starting.setdefault(t.letters[0], []).append(t)
        #: English's spelling shortcut: every tile one letter but Qu, spelled ``q``
        self._qu_only = all((len(t.letters) == 1 and t.symbol == t.letters) or (t.letters, t.symbol) == ("qu", "q") for t in made) \
            and "q" not in self._by_letters

    def __repr__(self) -> str:
        return f"Alphabet({self.name!r}, {len(self.tiles)} tiles)"

    def __len__(self) -> int:
        return len(self.tiles)

    @property
    def plain(self) -> bool:
        """Whether a board's written form is its internal string (no bracketed tile)."""
        return not self._bracketed

    def code(self, symbol: str) -> int:
        """A symbol's tile code, or -1 if no tile has it."""
        return self._code.get(symbol, -1)

    def tile(self, symbol: str) -> Tile:
        return self.tiles[self._code[symbol]]

    def private(self, symbol: str) -> bool:
        """Whether ``symbol`` is a bracketed tile's private symbol (``0`` for
        IJ): a program's, which people never see or type."""
        return symbol in self._bracketed

    def by_letters(self, letters: str) -> Tile | None:
        """The tile that spells ``letters`` (``qu``, ``ij``, ``e``), if any."""
        return self._by_letters.get(letters)

    # -- boards ---------------------------------------------------------------

    def read(self, text: str, stored: bool = False) -> str:
        """A written board (any case; ``[th]`` for a bracketed tile, and the
        face or letters of any multi-letter tile in brackets, ``[qu]``) as one
        symbol a cell. A character no tile has is a BoardError naming it, and
        so is a bracketed tile's private symbol (``0`` for IJ): people never
        type those. ``stored``: text this program wrote before boards were
        written in brackets (older run files), whose private symbols read as
        themselves; reading is then idempotent."""
        low = text.strip().lower()
        if "[" not in low and all(ch in self._code for ch in low) \
                and (stored or not any(ch in self._bracketed for ch in low)):
            return low
        board, why = self._scan(low, stored)
        if why:
            raise BoardError(f"bad board {text.strip()!r}: {why}")
        return board

    def problem(self, text: str, stored: bool = False) -> str:
        """Why ``text`` (lower case) is not tiles of this alphabet, naming the
        first bracket or character no tile has, with the tiles: "" if every
        one is a tile. An accented letter with no tile of its own gets the
        letter to write (``e`` for ``é``), as the language spells its words;
        a private symbol is no tile unless ``stored`` (as ``read`` says)."""
        return self._scan(text, stored)[1]

    def _scan(self, low: str, stored: bool) -> tuple[str, str]:
        """``low`` (lower case) read cell by cell, a bracketed tile as its
        symbol: the symbols read, and why reading stopped where it did ("" if
        every cell is a tile). The one parser of written boards: ``read`` and
        ``problem`` say the same of the same text."""
        out: list[str] = []
        i = 0
        while i < len(low):
            ch = low[i]
            if ch == "[":
                end = low.find("]", i)
                if end < 0:
                    return "".join(out), "'[' without ']'"
                inner = low[i + 1 : end]
                tile = self._by_letters.get(inner)
                if tile is None:
                    return "".join(out), f"[{inner}] is not a tile of {self.name} ({self.describe()})"
                out.append(tile.symbol)
                i = end + 1
                continue
            # one character for a tile of more letters (Unicode's ĳ for IJ)
            ligature = self._by_letters.get(unicodedata.normalize("NFKC", ch)) if ch not in self._code else None
            if ligature is not None and len(ligature.letters) > 1:
                out.append(ligature.symbol)
                i += 1
                continue
            # a tile's private symbol is no tile to a person: [ij] is
            if ch not in self._code or (ch in self._bracketed and not stored):
                what = ("is not a letter a-z" if self.symbols == "abcdefghijklmnopqrstuvwxyz"
                        else f"is not a tile of {self.name} ({self.describe()})")
                base = self.unaccented(ch)
                hint = f"; {self.name} has no {ch!r} tile: write {base!r} for it" if base else ""
                return "".join(out), f"character {ch!r} {what}{hint}{self.bracket_hint()}"
            out.append(ch)
            i += 1
        return "".join(out), ""

    def unaccented(self, ch: str) -> str:
        """The tile letters an accented letter is played as once its accents
        are dropped (``é`` -> ``e``), as every shipped language spells its
        words; "" if ``ch`` is no such letter."""
        if not ch.isalpha() or ch in self._code:
            return ""
        # NFD splits a letter from its accents (combining marks)
        base = "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
        return base if base != ch and base and all(c in self._code for c in base) else ""

    def bracket_hint(self) -> str:
        """How a tile of more letters is written, for an error (or "")."""
        many = [t for t in self.tiles if t.symbol in self._bracketed]
        if not many:
            return ""
        return f"; a tile of more letters is written in brackets, as [{many[0].letters}]"

    def read_groups(self, text: str, what: str = "buckets", stored: bool = False) -> str:
        """Groups of tiles apart (buckets ``"[ij]aeiou bcd..."``, ``|`` or
        spaces between them) in symbols, a bracketed tile as its symbol (and
        ``ĳ``, as ``read`` reads it); what is no tile is a BoardError naming
        it, as ``read`` words it (a private symbol unless ``stored``)."""
        if all(ch in self._code or ch.isspace() or ch == "|" for ch in text) \
                and (stored or not any(ch in self._bracketed for ch in text)):
            return text
        out: list[str] = []
        for group in text.replace("|", " ").split():
            try:
                out.append(self.read(group, stored))
            except BoardError as exc:
                raise BoardError(str(exc).replace("bad board", f"bad {what}", 1)) from None
        return " ".join(out)

    def write(self, board: str) -> str:
        """A board as people write it: bracketed tiles as ``[th]`` (and the
        same of any text of symbols: buckets, a class's tile sets)."""
        if not self._bracketed:
            return board
        return "".join(f"[{self.tiles[self._code[s]].letters}]" if s in self._bracketed else s
                       for s in board)

    def faces(self, board: str) -> list[str]:
        """Each cell's tile as its die shows it (``Qu``, ``Th``, ``Ñ``)."""
        return [self.tiles[self._code[s]].face for s in board]

    def cells(self, board: str) -> list[str]:
        """Each cell's tile as the letters it spells (``qu``, ``th``)."""
        return [self.tiles[self._code[s]].letters for s in board]

    def spell(self, symbols: Iterable[str]) -> str:
        """The letters a path of cells spells."""
        return "".join(self.tiles[self._code[s]].letters for s in symbols)

    def describe(self) -> str:
        """The tiles, as a message lists them (every one: at most 32): ``a-z``
        for a run of letters."""
        text = " ".join(f"[{t.letters}]" if t.symbol in self._bracketed else t.symbol
                        for t in self.tiles)
        latin = " ".join("abcdefghijklmnopqrstuvwxyz")
        return text.replace(latin, "a-z")

    # -- words ----------------------------------------------------------------

    def keys(self, word: str) -> list[bytes]:
        """Every way to spell ``word`` with tiles, as trie keys (one byte a
        tile: its code plus ``KEY_BASE``); [] if no way. A word usually has one
        way; with tiles such as ``th`` beside ``t`` and ``h`` it has more, and
        the scorer counts the word once whichever way a board spells it."""
        if self._qu_only:
            # English and every plain alphabet: at most one way
            spelled = word
            if "qu" in self._by_letters:
                if "q" in word.replace("qu", ""):
                    return []  # a q not followed by u: no tile spells it
                spelled = word.replace("qu", "q")
            out = bytearray()
            for ch in spelled:
                c = self._code.get(ch, -1)
                if c < 0:
                    return []
                out.append(KEY_BASE + c)
            return [bytes(out)]
        found: list[bytes] = []
        self._tile_from(word, 0, bytearray(), found)
        return found

    def _tile_from(self, word: str, i: int, prefix: bytearray, found: list[bytes]) -> None:
        if i == len(word):
            found.append(bytes(prefix))
            return
        for t in self._starting.get(word[i], ()):
            if word.startswith(t.letters, i):
                prefix.append(KEY_BASE + self._code[t.symbol])
                self._tile_from(word, i + len(t.letters), prefix, found)
                prefix.pop()

    def key_letters(self, key: bytes) -> str:
        """The letters a trie key spells."""
        return "".join(self.tiles[b - KEY_BASE].letters for b in key)


def latin(name: str = "english", extra: Sequence[Tile | str] = (), qu: bool = True,
          drop: str = "") -> Alphabet:
    """a-z (``q`` as the Qu tile when ``qu``), without the letters of ``drop``,
    then ``extra`` tiles: the alphabets of most languages."""
    base: list[Tile | str] = []
    for ch in "abcdefghijklmnopqrstuvwxyz":
        if ch in drop:
            continue
        base.append(Tile("qu", "Qu", "q") if ch == "q" and qu else ch)
    return Alphabet(name, [*base, *extra])


#: English's tiles, as every board before alphabets: a-z with ``q`` for Qu
ENGLISH: Final = latin()
