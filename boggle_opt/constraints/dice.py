"""Dice sets: which boards real dice can roll, how likely each is, random rolls.

A board is rollable by a set of dice (as many dice as cells) when its cells
can be matched to the dice, each die showing its cell's letter: a bipartite
matching. With dice placed uniformly at random and each showing a uniformly
random face, a board (as a string) comes up with probability
``ways / (n! * 6**n)``, where ``ways`` is the permanent of the cell x die
matrix of "faces of this die showing this cell's letter". Cells with the same
letter are interchangeable, so the permanent is counted by letter, not by
cell: a dynamic programme over the dice whose state is how many cells of each
letter already have a die.

Plugins add sets with the ``register_dice_sets`` hook; the built-in ones are
in ``boggle_opt.dice_sets``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..core.alphabet import ENGLISH, Alphabet
from ..core.errors import BoggleOptError

#: boards whose rollability is remembered per set (by their sorted letters)
CACHE_SIZE = 200_000


class DiceError(BoggleOptError):
    """A dice set that is malformed, or that cannot roll what was asked."""


@dataclass(frozen=True)
class DiceSet:
    """A named set of dice; each die is its six faces as tile symbols of
    ``alphabet`` (letters, ``q`` for Qu; a multi-letter tile's symbol as the
    alphabet reads it: ``alphabet.read("[an][er]...")``). A set whose faces
    need more than English's tiles names their alphabet, whose name is the
    language that plays them (``english-dl`` for the Double Letter cube)."""

    name: str
    summary: str
    dice: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    alphabet: Alphabet = ENGLISH
    _cache: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.dice:
            raise DiceError(f"dice set {self.name!r} has no dice")
        for die in self.dice:
            # a face is a tile's one-character symbol: a-z (q for Qu), a
            # language's letter (ñ, ä) or a multi-letter tile's (Alphabet.read)
            if len(die) != 6 or not all(ch.isprintable() and not ch.isspace() and ch not in "[]"
                                        for ch in die):
                raise DiceError(
                    f"dice set {self.name!r}: die {die!r} must be six faces, one symbol each "
                    "(a-z, q for Qu)"
                )

    @property
    def n(self) -> int:
        return len(self.dice)

    def check_tiles(self, symbols: str, language: str) -> None:
        """A one-line DiceError unless every face is a tile of the language
        whose tiles' symbols are ``symbols`` (a set made for another language;
        ``named``). ``in_alphabet`` also checks that a face means the same tile there."""
        for i, die in enumerate(self.dice, 1):
            bad = next((ch for ch in die if ch not in symbols), None)
            if bad is not None:
                raise DiceError(
                    f"dice set {self.name!r}: die {i} ({self.written(die)}) has the face "
                    f"{self.named(bad)}, which is no tile of {language}"
                )

    def written(self, die: str) -> str:
        """A die's faces as it shows them: ``An Er He In Qu Th``."""
        return " ".join(self.face(ch) for ch in die)

    def named(self, symbol: str) -> str:
        """A face in a message: its written form, as a board writes it
        (``'v'``, ``'[an]'``), with the die's face beside it where the two
        differ in letters (``'q' (Qu)``: in a language without the Qu tile a
        ``q`` reads as a plain q)."""
        written = self.alphabet.write(symbol) if self.alphabet.code(symbol) >= 0 else symbol
        face = self.face(symbol)
        return f"{written!r}" + (f" ({face})" if face.lower() != written.strip("[]") else "")

    def face(self, symbol: str) -> str:
        """One face as the die shows it (``Qu``, ``Th``, ``Ñ``)."""
        if self.alphabet.code(symbol) >= 0:
            return self.alphabet.tile(symbol).face
        return symbol.upper()  # (a plugin's set that names no alphabet: its own letter)

    def in_alphabet(self, alphabet: Alphabet) -> DiceSet:
        """The set with its faces as ``alphabet``'s symbols (a face is the
        tile that spells the same letters there): itself if they are the
        same; a one-line DiceError naming the first face ``alphabet`` has no
        tile for, and the language the set is for."""
        own = self.alphabet
        if alphabet.symbols == own.symbols and all(
                a.letters == b.letters for a, b in zip(alphabet.tiles, own.tiles)):
            return self
        dice: list[str] = []
        for i, die in enumerate(self.dice, 1):
            faces: list[str] = []
            for ch in die:
                letters = own.tile(ch).letters if own.code(ch) >= 0 else ch
                tile = alphabet.by_letters(letters)
                if tile is None:
                    hint = (f"; the set is for {own.name}: give --language {own.name}"
                            if own is not ENGLISH and own.name != alphabet.name else "")
                    raise DiceError(
                        f"dice set {self.name!r}: die {i} ({self.written(die)}) has the face "
                        f"{self.named(ch)}, which is no tile of "
                        f"{alphabet.name}{hint}")
                faces.append(tile.symbol)
            dice.append("".join(faces))
        return DiceSet(self.name, self.summary, tuple(dice), self.aliases, alphabet)

    def check_cells(self, n_cells: int, size: str) -> None:
        """A one-line DiceError unless the set has one die per cell."""
        if n_cells != self.n:
            raise DiceError(
                f"dice set {self.name!r} has {self.n} dice but a {size} board has {n_cells} cells"
            )

    # -- rollable? ------------------------------------------------------------

    def rollable(self, board: str) -> bool:
        """True if the dice can show ``board`` (one die per cell)."""
        if len(board) != self.n:
            return False
        key = "".join(sorted(board))  # only the letters' multiset matters
        hit = self._cache.get(key)
        if hit is None:
            if len(self._cache) >= CACHE_SIZE:
                self._cache.clear()
            hit = self._cache[key] = self.can_show(Counter(board))
        return hit

    def can_show(self, letters: Mapping[str, int]) -> bool:
        """True if distinct dice can show ``letters[ch]`` copies of each letter ``ch``
        (fewer letters than dice is fine: the other dice show anything)."""
        return _match(self.dice, _cells(letters), list(range(self.n))) is not None

    def shortfall(self, board: str) -> str:
        """Why the dice cannot roll ``board``, in a few words."""
        counts = Counter(board)
        # Hall's theorem: some letters need more cells than there are dice
        # showing any of them; small sets of letters name most failures
        for size in (1, 2, 3):
            for group in itertools.combinations(sorted(counts), size):
                need = sum(counts[ch] for ch in group)
                have = sum(1 for die in self.dice if any(ch in die for ch in group))
                if have < need:
                    shown = " or ".join(repr(self._shown(ch)) for ch in group)
                    return f"it has {_cells_of(need)} {shown} but only {_dice_show(have)} {shown}"
        letters = _deficient_letters(self.dice, _cells(counts))
        if letters:
            need = sum(counts[ch] for ch in letters)
            have = sum(1 for die in self.dice if any(ch in die for ch in letters))
            shown = ", ".join(repr(self._shown(ch)) for ch in letters)
            return f"it has {_cells_of(need)} {shown} but only {_dice_show(have)} any of them"
        return "no assignment of the dice to the cells shows every letter"

    def _shown(self, symbol: str) -> str:
        """A cell's tile in a message: its letter, or a tile of more letters
        as its die shows it (``Qu``, ``Er``)."""
        face = self.face(symbol)
        return face if len(face) > 1 else symbol

    # -- how likely -----------------------------------------------------------

    def ways(self, board: str) -> int:
        """Assignments of dice to cells with a face for each, showing ``board``:
        the permanent of the faces matrix (0 if not rollable)."""
        if len(board) != self.n:
            return 0
        counts = Counter(board)
        letters = sorted(counts)
        need = [counts[ch] for ch in letters]
        # state: cells of each letter given a die so far, in mixed radix
        radix = [1]
        for m in need:
            radix.append(radix[-1] * (m + 1))
        ways: dict[int, int] = {0: 1}
        for die in self.dice:
            faces = [(i, die.count(ch)) for i, ch in enumerate(letters) if ch in die]
            nxt: dict[int, int] = {}
            for state, count in ways.items():
                for i, weight in faces:
                    if (state // radix[i]) % (need[i] + 1) < need[i]:
                        key = state + radix[i]
                        nxt[key] = nxt.get(key, 0) + count * weight
            ways = nxt
        full = sum(m * radix[i] for i, m in enumerate(need))
        # the dynamic programme counts letters per die; which cell of a letter
        # a die takes multiplies by m! per letter
        return ways.get(full, 0) * math.prod(math.factorial(m) for m in need)

    def probability(self, board: str, ways: int | None = None) -> Fraction:
        """Chance that shaking the dice gives exactly ``board`` (as a string);
        ``ways`` if already counted."""
        if ways is None:
            ways = self.ways(board)
        return Fraction(ways, math.factorial(self.n) * 6**self.n)

    # -- random rolls ---------------------------------------------------------

    def roll(self, rng: np.random.Generator, fixed: Mapping[int, str] = {}) -> str | None:
        """A random roll showing ``fixed[cell]`` at each fixed cell, or None if
        no roll can. Dice for the fixed cells are matched in a random order;
        the others land on the free cells in random order, random face up."""
        order = [int(i) for i in rng.permutation(self.n)]
        cells = sorted(fixed)
        matched = _match(self.dice, [fixed[c] for c in cells], order)
        if matched is None:
            return None
        board = [""] * self.n
        used = set()
        for cell, die in zip(cells, matched):
            board[cell] = fixed[cell]
            used.add(die)
        spare = [d for d in order if d not in used]
        free = [c for c in range(self.n) if c not in fixed]
        faces = rng.integers(0, 6, len(free))
        for cell, die, face in zip(free, spare, faces.tolist()):
            board[cell] = self.dice[die][face]
        return "".join(board)


def _cells(letters: Mapping[str, int]) -> list[str]:
    return [ch for ch, m in sorted(letters.items()) for _ in range(m)]


def _matching(dice: tuple[str, ...], wanted: list[str], order: Iterable[int]) -> tuple[dict[int, int], list[int]]:
    """A maximum matching of wanted letters to distinct dice showing them, dice
    tried in ``order`` (augmenting paths, Kuhn's algorithm): die -> index into
    ``wanted``, and the indices left unmatched."""
    order = list(order)
    owner: dict[int, int] = {}

    def augment(i: int, seen: set[int]) -> bool:
        ch = wanted[i]
        for d in order:
            if d in seen or ch not in dice[d]:
                continue
            seen.add(d)
            if d not in owner or augment(owner[d], seen):
                owner[d] = i
                return True
        return False

    free = [i for i in range(len(wanted)) if not augment(i, set())]
    return owner, free


def _match(dice: tuple[str, ...], wanted: list[str], order: Iterable[int]) -> list[int] | None:
    """A die for each wanted letter (distinct dice showing it), tried in
    ``order``, or None."""
    owner, free = _matching(dice, wanted, order)
    if free:
        return None
    result = [0] * len(wanted)
    for d, i in owner.items():
        result[i] = d
    return result


def _deficient_letters(dice: tuple[str, ...], wanted: list[str]) -> list[str]:
    """Letters whose cells outnumber the dice showing any of them (a Hall
    violator), found from a maximum matching: the cells reachable by
    alternating paths from an unmatched cell, and their letters."""
    owner, free = _matching(dice, wanted, range(len(dice)))
    if not free:
        return []
    reached, letters = {free[0]}, {wanted[free[0]]}
    todo = [free[0]]
    while todo:
        i = todo.pop()
        for d in range(len(dice)):
            j = owner.get(d)
            if wanted[i] in dice[d] and j is not None and j not in reached:
                reached.add(j)
                letters.add(wanted[j])
                todo.append(j)
    return sorted(letters)


def describe_probability(p: Fraction) -> str:
    """``1.2e-17 (1 in 8.3e+16)``, or ``0`` for an impossible board."""
    if p == 0:
        return "0"
    return f"{float(p):.3g} (1 in {float(1 / p):.3g})"


def _cells_of(n: int) -> str:
    return f"{n} cell{'s' * (n != 1)} of"


def _dice_show(n: int) -> str:
    """``1 die shows``, ``0 dice show``: as a sentence says it."""
    return f"{n} {'die shows' if n == 1 else 'dice show'}"
