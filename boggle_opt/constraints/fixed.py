"""Constraints on the boards a run may report: fixed cells, a word, real dice.

``--fix PATTERN`` fixes letters in place (a board string with ``.`` for free
cells); ``--word WORD`` asks that the board hold the word somewhere (the
searcher may move it); ``--dice NAME`` that a dice set can roll the board.
The driver's ``Problem`` carries one ``Constraints``; a searcher that honours
them says so with ``honours_constraints = True``, and any other refuses to run
with them (``require_support``). Searchers use ``random_board`` for starting
points, ``change_mask`` to keep letter changes off fixed cells, and
``satisfied`` for anything else.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..core.alphabet import ENGLISH, Alphabet
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..core.trie import KEY_BASE, LATIN
from .dice import DiceSet

#: steps a random path search takes before it starts again elsewhere
PATH_STEPS = 5_000
#: fresh attempts at a random board before giving up
ATTEMPTS = 500
#: paths the feasibility check looks at before assuming the rest is fine
CHECK_PATHS = 200_000


class ConstraintError(BoggleOptError):
    """A constraint that is malformed, impossible, or not supported by a searcher."""


@dataclass(frozen=True)
class Constraints:
    """What every reported board must satisfy; the default constrains nothing."""

    #: letters by cell, ``.`` for a free cell ("" for none)
    fix: str = ""
    #: a word (``qu`` spelled out) the board must hold
    word: str = ""
    dice: DiceSet | None = None
    _nbrs: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    #: the alphabet's symbols in code order (English: a-z), and the word as cells
    symbols: str = LATIN
    _key: str = field(default="", compare=False, repr=False)
    #: the tiles, which write ``fix`` as people write it (``[ij]``, never a private symbol)
    alphabet: Alphabet = field(default=ENGLISH, compare=False, repr=False)

    @classmethod
    def build(
        cls,
        geometry: Geometry,
        fix: str | None = None,
        word: str | None = None,
        dice: DiceSet | None = None,
        alphabet: Alphabet = ENGLISH,
        stored: bool = False,
    ) -> Constraints:
        """Checked constraints for boards of ``geometry`` in ``alphabet``: a
        one-line ConstraintError if one is malformed or they cannot all hold.
        ``stored``: read back from a run file, whose ``--fix`` may hold the
        private symbols older files wrote (``Alphabet.read``)."""
        fix = (fix or "").strip().lower()
        word = (word or "").strip().lower()
        n, size = geometry.n, geometry.size
        latin = alphabet.symbols == LATIN
        what = "a letter a-z" if latin else f"a tile of {alphabet.name} ({alphabet.describe()})"
        if fix:
            pattern = _pattern_cells(fix, alphabet, stored)
            if pattern is None:
                # (a tile's private symbol is no tile to a person: [ij] is)
                bad = next((ch for ch in fix if ch != "." and (alphabet.code(ch) < 0 or (
                    alphabet.private(ch) and not stored))), "[")
                # a bracketed tile named whole, an accented letter with the one to write
                why = alphabet.problem(fix.replace(".", ""), stored) if bad == "[" or alphabet.unaccented(bad) else ""
                raise ConstraintError(f"--fix pattern {alphabet.write(fix) if stored else fix!r}: " + (
                    f"{why} (or '.' for a free cell)" if why
                    else f"{bad!r} is neither {what} nor '.'{alphabet.bracket_hint()}"))
            if len(pattern) != n:
                raise ConstraintError(
                    f"--fix pattern {fix!r} has {len(pattern)} cells but a {size} board has {n}"
                )
            fix = pattern
        key = ""
        if word:
            if latin and not all("a" <= ch <= "z" for ch in word):
                raise ConstraintError(f"--word {word!r} must be letters a-z")
            if latin and "q" in word.replace("qu", ""):
                raise ConstraintError(f"--word {word!r} has a q without a u: no board can hold it")
            keys = alphabet.keys(word)
            if not keys:
                raise ConstraintError(f"--word {word!r}: the tiles of {alphabet.name} cannot spell it")
            # the fewest cells: a word several tilings spell is placed by its shortest
            key = "".join(alphabet.symbols[b - KEY_BASE] for b in min(keys, key=len))
            cells = len(key)
            if cells > n:
                raise ConstraintError(
                    f"--word {word!r} needs {cells} cells but a {size} board has {n}"
                )
        if dice is not None:
            dice.check_cells(n, size)
            dice = dice.in_alphabet(alphabet)  # its faces as this alphabet's symbols
        nbrs = tuple(tuple(geometry.neighbours(c)) for c in range(n))
        made = cls(fix if fix.strip(".") else "", word, dice, nbrs, alphabet.symbols, key, alphabet)
        made._check_feasible()
        return made

    # -- facts ----------------------------------------------------------------

    @property
    def active(self) -> bool:
        return bool(self.fix or self.word or self.dice is not None)

    @property
    def per_board(self) -> bool:
        """True if a move can break them anywhere (a word or dice), so each new
        board must be checked; fixed cells alone are kept by not touching them."""
        return bool(self.word or self.dice is not None)

    @cached_property
    def key(self) -> str:
        """The word as cells: ``qu`` is the one cell ``q`` (its alphabet's symbols)."""
        return self._key or self.word.replace("qu", "q")

    @property
    def written_fix(self) -> str:
        """The ``--fix`` pattern as people write it: ``[ij]........``."""
        return "".join("." if ch == "." else self.alphabet.write(ch) for ch in self.fix)

    @cached_property
    def fixed(self) -> dict[int, str]:
        return {c: ch for c, ch in enumerate(self.fix) if ch != "."}

    def free_cells(self, n: int) -> list[int]:
        return [c for c in range(n) if c not in self.fixed]

    def change_mask(self, n: int) -> np.ndarray:
        """Bool mask over ``cell * n_tiles + tile`` (English: ``cell * 26 +
        letter``): False where a change would touch a fixed cell."""
        t = len(self.symbols)
        mask = np.ones(n * t, dtype=bool)
        for c in self.fixed:
            mask[c * t: c * t + t] = False
        return mask

    def record(self) -> dict[str, str]:
        """As a run file records them (and ``--resume`` reads them back): as
        people write them (``--fix [ij]........``)."""
        out = {"fix": self.written_fix, "word": self.word, "dice": self.dice.name if self.dice else ""}
        return {k: v for k, v in out.items() if v}

    def describe(self) -> str:
        parts = [f"--{k} {v}" for k, v in self.record().items()]
        return " ".join(parts) if parts else "none"

    # -- checks ---------------------------------------------------------------

    def satisfied(self, board: str) -> bool:
        """True if ``board`` meets every constraint."""
        for c, ch in self.fixed.items():
            if board[c] != ch:
                return False
        if self.dice is not None and not self.dice.rollable(board):
            return False
        return not self.word or self.holds_word(board)

    def holds_word(self, board: str) -> bool:
        """True if some path of adjacent distinct cells spells the word."""
        key = self.key
        nbrs = self._nbrs

        def extend(cell: int, depth: int, used: int) -> bool:
            if depth == len(key):
                return True
            ch = key[depth]
            for nb in nbrs[cell]:
                if board[nb] == ch and not used >> nb & 1 and extend(nb, depth + 1, used | 1 << nb):
                    return True
            return False

        return any(board[c] == key[0] and extend(c, 1, 1 << c) for c in range(len(board)))

    def _paths(self, limit: int) -> Iterator[list[int]]:
        """Paths spelling the word whose cells agree with the fixed letters
        (at most ``limit``), depth first."""
        key, fixed, nbrs = self.key, self.fixed, self._nbrs
        count = 0

        def fits(cell: int, depth: int) -> bool:
            return fixed.get(cell, key[depth]) == key[depth]

        stack: list[tuple[list[int], int]] = [
            ([c], 1 << c) for c in reversed(range(len(nbrs))) if fits(c, 0)
        ]
        while stack and count < limit:
            path, used = stack.pop()
            if len(path) == len(key):
                count += 1
                yield path
                continue
            for nb in nbrs[path[-1]]:
                if not used >> nb & 1 and fits(nb, len(path)):
                    stack.append((path + [nb], used | 1 << nb))

    def _check_feasible(self) -> None:
        dice = self.dice
        if dice is not None and not dice.can_show(Counter(self.fixed.values())):
            raise ConstraintError(
                f"dice set {dice.name!r} cannot roll the letters of --fix {self.written_fix!r}"
            )
        if not self.word:
            return
        found = False
        for path in self._paths(CHECK_PATHS):
            if dice is None:
                found = True
                break
            letters = Counter(self.fixed[c] for c in self.fixed if c not in path)
            letters.update(self.key)
            if dice.can_show(letters):
                found = True
                break
        if not found:
            with_fix = f" with --fix {self.written_fix!r}" if self.fix else ""
            by_dice = f" that dice set {dice.name!r} can roll" if dice is not None else ""
            raise ConstraintError(f"no board{by_dice} holds --word {self.word!r}{with_fix}")

    # -- random boards --------------------------------------------------------

    def random_board(self, n: int, rng: np.random.Generator, freqs: np.ndarray) -> str:
        """A random board meeting the constraints: the word along a random
        path, the fixed letters, the rest a roll of the dice or letters drawn
        by ``freqs`` (one probability a tile)."""
        rnd = random.Random(int(rng.integers(1 << 62)))
        cdf = np.cumsum(freqs) / max(float(np.sum(freqs)), 1e-300)
        for _ in range(ATTEMPTS):
            need = dict(self.fixed)
            if self.word:
                path = self.random_path(rnd)
                if path is None:
                    continue
                need.update(zip(path, self.key))
            if self.dice is not None:
                board = self.dice.roll(rng, need)
                if board is None:
                    continue
                return board
            codes = np.minimum(np.searchsorted(cdf, rng.random(n), side="right"), len(freqs) - 1)
            cells = [need.get(c) or self.symbols[int(codes[c])] for c in range(n)]
            return "".join(cells)
        raise ConstraintError(
            f"could not draw a random board meeting the constraints ({self.describe()})"
        )

    def random_path(self, rnd: random.Random) -> list[int] | None:
        """A random path spelling the word that agrees with the fixed letters."""
        key, fixed, nbrs = self.key, self.fixed, self._nbrs
        starts = [c for c in range(len(nbrs)) if fixed.get(c, key[0]) == key[0]]
        if not starts:
            return None
        return random_path(rnd, nbrs, rnd.choice(starts), key, fixed, PATH_STEPS)


T = TypeVar("T")


def random_path(
    rnd: random.Random, nbrs: Sequence[Sequence[int]], start: int, word: Sequence[T],
    fixed: Mapping[int, T], steps: int,
) -> list[int] | None:
    """A random path of adjacent distinct cells from ``start`` along which
    ``word`` can be written: each cell fixed in ``fixed`` already shows the
    word's letter there (depth first, neighbours in random order). None if
    ``steps`` steps find none. The one path search of ``--word`` boards and
    annealing's planted words (``boggle_opt.boards.random_path``)."""
    path = [start]
    used = {start}
    options = [rnd.sample(nbrs[start], len(nbrs[start]))]
    taken = 0
    while len(path) < len(word):
        taken += 1
        if taken > steps:
            return None
        if not options[-1]:
            options.pop()
            used.discard(path.pop())
            if not path:
                return None
            continue
        c = options[-1].pop()
        if c in used or fixed.get(c, word[len(path)]) != word[len(path)]:
            continue
        path.append(c)
        used.add(c)
        options.append(rnd.sample(nbrs[c], len(nbrs[c])))
    return path


NONE = Constraints()


def _pattern_cells(fix: str, alphabet: Alphabet, stored: bool = False) -> str | None:
    """A --fix pattern as one symbol (or ``.``) a cell, or None if it holds
    something that is no tile: ``alphabet.read`` for each run between dots."""
    out: list[str] = []
    for i, run in enumerate(fix.split(".")):
        if i:
            out.append(".")
        if run:
            try:
                out.append(alphabet.read(run, stored))
            except BoggleOptError:
                return None
    return "".join(out)


def supports(searcher: Any) -> bool:
    """True if a searcher class says it honours constraints."""
    return bool(getattr(searcher, "honours_constraints", False))


def require_support(searcher: Any, constraints: Constraints) -> None:
    """A one-line ConstraintError if ``constraints`` are set and the searcher
    cannot honour them (it would report boards that break them)."""
    if constraints.active and not supports(searcher):
        name = getattr(searcher, "name", "") or getattr(searcher, "__name__", "this searcher")
        raise ConstraintError(
            f"searcher {name!r} cannot honour --fix, --word or --dice ({constraints.describe()})"
        )
