"""verify's check that shares no code with the branch-and-bound kernel but
the scorer: drawn class records solved again by the research paper's first,
simplest method, in plain Python.

The method (danvk's "max/no-mark" bound): for a class whose cells each hold
a set of tiles, the bound is, summed over every path of cells the word list
continues along, the points of the word it spells, each cell of a path
taking its best tile on its own and no word marked as found (a word counts
once per path). Every board of the class scores at most that: a board counts
each word once, on one of its paths, with one tile a cell. While the bound
reaches the min score the class is split, one cell fixed to each of its
tiles, and every single board left is scored by the ``Scorer``. What it
finds at or above the min score must be what the record holds. It reads the
packed trie's node words and points itself (tile codes, so every alphabet
and every way a word is spelled, ``[ij]`` beside ``i``-``j``, come as the
trie has them), and imports nothing of the kernel (``core.builder``,
``core.branch``, ``core.tree``): an error there cannot hide here.

Plain Python is slow, so a class record is solved whole only if it is small;
else a piece of it: some of its cells, in an order drawn at random, fixed to
the tiles of a board drawn at random from it. How many is decided by probes
(smaller pieces of the same kind, each around a board drawn afresh, solved
and checked too) before the piece's own board is drawn, so each board of the
record had the same chance, the piece's share of them, of lying in it. Work
is counted in steps of the bound's search, not seconds: the same seed checks
the same pieces on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from ..core.geometry import Geometry
from ..core.trie import CHILD_MASK, CHILD_SHIFT, LETTER_MASK, WORD_BIT, PackedTrie

#: the bound's search takes about this many steps a CPU second in plain
#: Python (a fixed figure, so a budget buys the same steps on every machine)
STEPS_PER_SECOND = 500_000
#: the trie's node word layout, as plain ints
_LETTERS, _SHIFT, _CHILD, _WORD = int(LETTER_MASK), int(CHILD_SHIFT), int(CHILD_MASK), int(WORD_BIT)
#: this share of verify's --budget goes to the check
SHARE = 0.2
#: at least this many records (the lowest draws) are checked, whatever they
#: cost, the probes of each within this part of the steps; more while they last
RECORDS = 4


class ReferenceMismatch(Exception):
    """The kernel-independent solve and a record disagree: one line."""


class Scores(Protocol):
    def score(self, board: str) -> int: ...


@dataclass(frozen=True)
class Drawn:
    """A class record as this check needs it: its label, its cells' tiles (in
    symbols) and its canonical boards."""

    label: str
    sets: Sequence[str]
    boards: frozenset[str]


@dataclass
class ReferenceChecked:
    """What the kernel-independent solve did, for verify's report."""

    seed: int = 0
    #: records checked (the lowest draws), and the records drawn from
    records: int = 0
    drawn_from: int = 0
    #: each record's chance of being among those checked
    chance: float = 0.0
    #: records solved whole, and the smallest share of a record's boards in its drawn piece
    whole: int = 0
    least_share: Fraction = Fraction(1)
    #: pieces solved (the drawn ones and the probes), the boards they hold,
    #: boards scored by the scorer (each time a piece holds one), distinct boards found >= the min score
    pieces: int = 0
    boards: int = 0
    scored: int = 0
    found: int = 0
    #: the boards found, canonical (``found`` counts them)
    boards_found: set[str] = field(default_factory=set)
    steps: int = 0
    budget_steps: int = 0

    @property
    def everything(self) -> bool:
        """Every class record solved whole."""
        return self.chance >= 1 and self.whole == self.records

    def details(self) -> str:
        if not self.records:
            return "no class record solved without the kernel (--recheck 0)"
        if self.whole == self.records:
            how = "all whole"
        else:
            whole = f"{self.whole:,} whole, the others" if self.whole else "each"
            how = (f"{whole} in a piece of at least {_share(self.least_share)} of its boards (its cells fixed to "
                   f"the tiles of a board drawn at random)")
        return (f"solved without the kernel (the paper's max/no-mark bound, split cell by cell, every board left "
                f"scored by the scorer; nothing of the kernel but the scorer): {self.records:,} of the "
                f"{self.drawn_from:,} class records, drawn at random (seed {self.seed}), {how}; "
                f"{self.pieces:,} pieces in all (with the probes that sized them) of {self.boards:,} boards, "
                f"{self.scored:,} scored, {self.found:,} distinct >= the min score, each as its record holds; "
                f"{self.steps:,} steps of the bound's search ({self.budget_steps:,} budgeted)")

    def worth(self) -> str:
        if not self.records:
            return ("nothing: no class record was solved without the kernel (--recheck 0); an error of the kernel, "
                    "which the re-solving shares, is seen only if the re-scoring or a witness meets it")
        if self.everything:
            return (f"every one of the {self.drawn_from:,} class records was solved whole without the kernel: "
                    f"no board of any class can have been left out by an error of the kernel")
        boards = ("solved whole" if self.least_share == 1
                  else f"each of its boards a chance of at least {_share(self.least_share)} of lying in the piece "
                       f"solved")
        drawn = (f"every one of the {self.drawn_from:,} class records was solved without the kernel (seed "
                 f"{self.seed}), whole or in a piece drawn at random" if self.chance >= 1 else
                 f"each class record had at least a {percent(self.chance)} chance of being solved without the "
                 f"kernel (seed {self.seed})")
        return (f"{drawn}, and one that was, {boards}; a kernel error that leaves boards out of "
                f"many classes (a word lost from its trees, a bound too low) is caught unless it spares every "
                f"piece solved; a bigger --budget buys bigger pieces")


def _share(share: Fraction) -> str:
    return f"1/{share.denominator:,}" if share.numerator == 1 else f"{float(share):.3g}"


def percent(chance: float) -> str:
    """A chance as verify quotes one (9.3%, 0.021%): two figures, rounded down (never overstated)."""
    pct = chance * 100
    if pct >= 100 or pct <= 0:
        return f"{pct:.0f}%"
    digits = max(0, 1 - math.floor(math.log10(pct)))
    return f"{math.floor(pct * 10**digits) / 10**digits:.{digits}f}%"


class _Overrun(Exception):
    """A probe took more steps than it was given."""


class MaxNoMark:
    """The max/no-mark bound and the branch-and-bound on it, over ``trie``'s
    node words (``core.trie``'s layout), read here without its code."""

    def __init__(self, trie: PackedTrie, geometry: Geometry, scorer: Scores, min_score: int) -> None:
        self.nodes = trie.nodes
        self.points = trie.points
        self.symbols = trie.symbols
        self.code = {s: i for i, s in enumerate(trie.symbols)}
        self.geometry = geometry
        self.n = geometry.n
        self.neighbours = [list(geometry.neighbours(c)) for c in range(self.n)]
        self.scorer = scorer
        self.min_score = min_score
        #: the cells in the order they are split: most neighbours first, as they tighten the bound most
        self.split_order = sorted(range(self.n), key=lambda c: (-len(self.neighbours[c]), c))
        self.steps = 0
        self.limit = 0

    def bound(self, sets: Sequence[Sequence[int]]) -> int:
        """The max/no-mark bound of the boards whose cell ``c`` holds a tile of ``sets[c]``."""
        return sum(self._best(c, 0, 1 << c, sets) for c in range(self.n))

    def _best(self, cell: int, node: int, used: int, sets: Sequence[Sequence[int]]) -> int:
        """The most a path at ``cell`` (after ``node``; cells ``used``) and its extensions can score."""
        self.steps += 1
        if self.limit and self.steps > self.limit:
            raise _Overrun
        # the node's children lie in tile order from its first child's index
        # (``core.trie``'s layout, read here): tile k's is first + the tiles below k it has
        word = int(self.nodes[node])
        mask = word & _LETTERS
        first = (word >> _SHIFT) & _CHILD
        best = 0
        for code in sets[cell]:
            bit = 1 << code
            if not mask & bit:
                continue
            child = first + (mask & (bit - 1)).bit_count()
            value = int(self.points[child]) if self.nodes[child] & _WORD else 0
            for nb in self.neighbours[cell]:
                if not (used >> nb) & 1:
                    value += self._best(nb, child, used | (1 << nb), sets)
            best = max(best, value)
        return best

    def solve(self, sets: Sequence[Sequence[int]], counts: list[int]) -> set[str]:
        """The canonical boards >= the min score among those of ``sets``;
        ``counts`` gains the boards scored."""
        found: set[str] = set()
        stack = [list(sets)]
        while stack:
            piece = stack.pop()
            if self.bound(piece) < self.min_score:
                continue
            cell = next((c for c in self.split_order if len(piece[c]) > 1), None)
            if cell is None:
                board = "".join(self.symbols[s[0]] for s in piece)
                counts[0] += 1
                if self.scorer.score(board) >= self.min_score:
                    found.add(self.geometry.canonical(board))
                continue
            for code in piece[cell]:
                stack.append(piece[:cell] + [(code,)] + piece[cell + 1:])
        return found


def _in(board: str, sets: Sequence[str], geometry: Geometry) -> bool:
    """Whether some orientation of the canonical ``board`` lies in ``sets``."""
    return any(all(b in s for b, s in zip(v, sets)) for v in geometry.variants(board))


def _boards(sets: Sequence[str]) -> int:
    n = 1
    for s in sets:
        n *= len(s)
    return n


class _Checker:
    def __init__(self, solver: MaxNoMark, written: Callable[[str], str], seed: int,
                 checked: ReferenceChecked) -> None:
        self.solver = solver
        self.written = written
        self.seed = seed
        self.checked = checked

    def piece(self, record: Drawn, sets: list[str], fixed: Sequence[int], limit: int) -> int:
        """Solve the piece ``sets`` of ``record`` (``fixed``: its cells fixed
        here) in at most ``limit`` steps (0: any), compare it with the record;
        the steps it took. ``_Overrun`` past the limit."""
        solver, geometry = self.solver, self.solver.geometry
        solver.steps, solver.limit = 0, limit
        counts = [0]
        try:
            found = solver.solve([tuple(solver.code[s] for s in cell) for cell in sets], counts)
        finally:
            self.checked.steps += solver.steps
            solver.limit = 0
        want = {b for b in record.boards if _in(b, sets, geometry)}
        self.checked.pieces += 1
        self.checked.boards += _boards(sets)
        self.checked.scored += counts[0]
        self.checked.boards_found |= found
        self.checked.found = len(self.checked.boards_found)
        if found != want:
            w = self.written
            where = record.label + (f", its piece {'.'.join(f'{c}{w(sets[c])}' for c in sorted(fixed))}"
                                    if fixed else "")
            missing = sorted(found - want)
            if missing:
                board = missing[0]
                detail = (f"board {w(board)} ({solver.scorer.score(board)} points, >= the min score "
                          f"{solver.min_score}), which the record does not hold")
            else:
                detail = f"the recorded board {w(sorted(want - found)[0])} is not found"
            raise ReferenceMismatch(
                f"recheck: {where} solved without the kernel (max/no-mark bound, seed {self.seed}; --seed "
                f"{self.seed} repeats it) gives {len(found)} board{'s' * (len(found) != 1)} >= the min score, "
                f"the record {len(want)}: {detail}")
        return solver.steps

    def record(self, record: Drawn, limit: int, rng: random.Random) -> None:
        """Check ``record``: whole if it fits ``limit`` steps, else a drawn
        piece, sized by probes of at most ``limit`` steps each."""
        sets = list(record.sets)
        multi = [c for c in range(len(sets)) if len(sets[c]) > 1]
        rng.shuffle(multi)

        def around(k: int) -> tuple[list[str], list[int]]:
            """The first ``k`` cells of the drawn order fixed to a board drawn now."""
            piece = list(sets)
            for c in multi[:k]:
                piece[c] = rng.choice(sets[c])
            return piece, multi[:k]

        # probes, from a single board up: a cell is freed while the last
        # probe's steps times its tiles fit the limit
        k = len(multi)
        while True:
            try:
                steps = self.piece(record, *around(k), limit)
            except _Overrun:
                k += 1  # the last probe's size, which fitted (past a single board: a single board)
                break
            if k == 0:  # the probe was the whole record
                self.checked.whole += 1
                return
            if steps * len(sets[multi[k - 1]]) > limit:
                break
            k -= 1
        # the piece drawn only now, its size fixed by the probes: each of the
        # record's boards had its share of lying in it
        piece, fixed = around(k)
        self.piece(record, piece, fixed, 0)
        self.checked.least_share = min(self.checked.least_share, Fraction(_boards(piece), _boards(sets)))


def reference_check(trie: PackedTrie, geometry: Geometry, scorer: Scores, min_score: int,
                    drawn: Sequence[Drawn], drawn_from: int, budget: float, seed: int,
                    written: Callable[[str], str] = str) -> ReferenceChecked:
    """Solve the records ``drawn`` (the lowest draws of ``drawn_from``, lowest
    first) without the kernel: the first ``RECORDS`` always, more while
    ``SHARE`` of ``budget`` seconds' steps last. ``ReferenceMismatch`` at the
    first piece whose boards >= ``min_score`` are not its record's."""
    checked = ReferenceChecked(seed=seed, drawn_from=drawn_from)
    if not drawn:
        return checked
    total = max(1, int(SHARE * budget * STEPS_PER_SECOND))
    checked.budget_steps = total
    limit = max(1, total // RECORDS)
    checker = _Checker(MaxNoMark(trie, geometry, scorer, min_score), written, seed, checked)
    rng = random.Random(f"reference {seed}")
    for record in drawn:
        if checked.records >= RECORDS and checked.steps >= total:
            break
        checker.record(record, limit, rng)
        checked.records += 1
    # the lowest draws are checked, the first RECORDS whatever they cost; all
    # of them: every record was
    everything = checked.records == len(drawn) == drawn_from
    checked.chance = 1.0 if everything or not drawn_from else min(RECORDS, checked.records) / drawn_from
    return checked
