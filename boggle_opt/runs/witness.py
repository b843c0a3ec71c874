"""Independent witnesses that a proof's run files hid no board.

Each class record is checked on its own (``proofs.class_records``), but a
record that leaves a board out, consistently with every other record, is
still consistent. What catches it is work the files did not do:

- **climbs**: seeded steepest-ascent climbs from random boards (letters
  drawn as the word list uses them); every local optimum at or above the
  min score must be recorded;
- **hops**: a number set by the budget, a seeded basin-hopping search
  (a few cells of the best optimum so far changed at random, then climbed
  again) that spends its time near the top, where a hidden best board would
  be; every optimum it reaches at or above the min score must be recorded;
- **closure**: every board one letter change or one swap of two cells away
  from a recorded board, scoring at least the min score, must be recorded
  too (the boards of a proof cluster: on the 3x3 embedded proof at 500, 123
  of 128 boards have such a neighbour among the others);
- **class hops**: the same hops from the best board of every class record
  that holds any board, so a board left out near the top of any class, not
  only near the best boards of the proof, is looked for;
- **re-solving**: class records drawn at random are solved again, whole,
  with the compiled kernel and must give the same boards and root bound.
  Each record's draw is a number in [0, 1) hashed from verify's own seed and
  the record's class and piece (``Draw``): nothing a record claims (its
  CPU, nodes or bounds) decides which records are re-solved, or how, so a
  forger cannot tell which will be;
- **the kernel**: one small task is solved again by the kernel's source run
  as plain Python (or by brute force), so a miscompiled kernel does not
  check itself.
"""

from __future__ import annotations

import hashlib
import heapq
import itertools
import random
import time
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..boards import board_text, steepest_ascent
from ..core.geometry import Geometry
from ..core.tree import cell_order
from ..core.trie import LATIN
from ..proofs.board_classes import tile_code
from ..proofs.class_tasks import part_key, parse_part, written_part
from ..searching.interface import Problem


class Unrecorded(Exception):
    """A witness found what the records do not hold: one line."""


@dataclass
class Record:
    """A solved class record, as the witnesses need it."""

    name: str
    part: str
    sets: list[str]
    boards: set[str]
    root_bound: int | None
    where: str
    #: whether the file that holds it was written by this install's kernel
    #: (else its root bound is not compared)
    same_kernel: bool = True
    #: a board or tile as people write it (the alphabet's ``write``: ``[ij]``), for messages
    write: Callable[[str], str] = str

    @property
    def label(self) -> str:
        part = written_part(self.part, self.write)
        return f"class {self.name}{' piece ' + part if part else ''} ({self.where})"


@dataclass
class Witnessed:
    """What the witnesses did, for verify's report."""

    climbs: int = 0
    climb_hits: int = 0
    #: basin hops made, and the distinct optima >= the min score they reached
    hops: int = 0
    hop_hits: int = 0
    closure_boards: int = 0
    closure_tried: int = 0
    #: basin hops from the best board of each class record with boards, and those classes
    class_hops: int = 0
    class_starts: int = 0
    resolved: list[str] = field(default_factory=list)
    #: each record re-solved, and the CPU its re-solving took (verify's own cost figure)
    solved: list[tuple[Record, float]] = field(default_factory=list)
    resolve_seconds: float = 0.0
    #: the chance each class record had of being re-solved whole, and the records drawn from
    chance: float = 0.0
    drawn_from: int = 0
    #: the worker processes that re-solved (0: this process did, in its own CPU)
    resolve_workers: int = 0
    kernel_check: str = ""


def climbs(problem: Problem, found: Container[str], min_score: int, restarts: int, seed: int) -> int:
    """Run ``restarts`` seeded climbs; raise ``Unrecorded`` at the first local
    optimum >= ``min_score`` that no record holds. Returns how many reached it."""
    rng = np.random.default_rng(seed)
    freqs = problem.letter_frequencies()
    geometry = problem.geometry
    hits = 0
    for _ in range(restarts):
        start = board_text(rng.choice(problem.n_tiles, size=geometry.n, p=freqs), problem.symbols)
        board, score = steepest_ascent(problem, start, problem.score(start))
        if score >= min_score:
            hits += 1
            if geometry.canonical(board) not in found:
                raise Unrecorded(
                    f"witness: a climb (seed {seed}) reached {geometry.canonical(board)} ({score} points, "
                    f">= the min score {min_score}), which no class record holds"
                )
    return hits


#: a hop changes 1 to this many cells; a search is restarted after this many hops without a better optimum
HOP_CELLS = 3
HOP_PATIENCE = 40


def _hop(problem: Problem, board: str, rng: np.random.Generator, freqs: np.ndarray) -> tuple[str, int]:
    """1 to ``HOP_CELLS`` cells of ``board`` changed at random (letters drawn
    as the word list uses them), then climbed: the optimum reached."""
    cells = list(board)
    for cell in rng.choice(problem.geometry.n, size=int(rng.integers(1, HOP_CELLS + 1)), replace=False):
        cells[int(cell)] = problem.symbols[int(rng.choice(problem.n_tiles, p=freqs))]
    start = "".join(cells)
    return steepest_ascent(problem, start, problem.score(start))


def _unrecorded(what: str, seed: int, canon: str, score: int, min_score: int,
                write: Callable[[str], str] = str) -> Unrecorded:
    return Unrecorded(f"witness: {what} (seed {seed}) reached {write(canon)} ({score} points, >= the min score "
                      f"{min_score}), which no class record holds")


#: wall seconds between the hops' reports of their count (``hops``' ``tick``)
HOP_TICK = 1.0


def hops(problem: Problem, found: Container[str], min_score: int, count: int, seed: int,
         witnessed: Witnessed, tick: Callable[[int, float, float], None] | None = None) -> None:
    """``count`` basin hops (a count, not a time, so that ``seed`` repeats
    them exactly on any machine): change 1-3 cells of the best
    optimum so far (letters drawn as the word list uses them), climb again,
    keep the result if it scores no less; restart from a random board after
    ``HOP_PATIENCE`` hops without gain. Raise ``Unrecorded`` at the first
    optimum >= ``min_score`` that no record holds. Unlike the plain climbs,
    these reach the min score of a real proof (the top is where a record that
    left out its best board would be caught). ``tick(hops, cpu, wall)``
    hears the hops made so far and the CPU and wall seconds they took, about
    every ``HOP_TICK`` seconds and once at the end (CPU beside the wall
    clock, which runs faster on a busy machine)."""
    rng = np.random.default_rng([seed, 1])
    freqs = problem.letter_frequencies()
    geometry = problem.geometry
    cpu0, wall0 = time.process_time(), time.monotonic()
    told = wall0
    seen: set[str] = set()
    board, score, stale = "", -1, HOP_PATIENCE
    made = 0
    while made < count:
        if tick is not None and time.monotonic() - told >= HOP_TICK:
            told = time.monotonic()
            tick(witnessed.hops, time.process_time() - cpu0, told - wall0)
        if stale >= HOP_PATIENCE:
            start = board_text(rng.choice(problem.n_tiles, size=geometry.n, p=freqs), problem.symbols)
            board, score = steepest_ascent(problem, start, problem.score(start))
            new, new_score, stale = board, score, 0
        else:
            new, new_score = _hop(problem, board, rng, freqs)
            witnessed.hops += 1
            made += 1
            if new_score > score:
                stale = 0
            else:
                stale += 1
            if new_score >= score:
                board, score = new, new_score
        if new_score >= min_score:
            canon = geometry.canonical(new)
            if canon not in found:
                raise _unrecorded("a basin hop", seed, canon, new_score, min_score,
                                  problem.dictionary.alphabet.write)
            if canon not in seen:
                seen.add(canon)
                witnessed.hop_hits += 1
    if tick is not None:
        tick(witnessed.hops, time.process_time() - cpu0, time.monotonic() - wall0)


#: hops from the best board of each class record that holds a board
CLASS_HOPS = 4


def class_hops(problem: Problem, found: Container[str], min_score: int, starts: Iterable[str], seed: int,
               witnessed: Witnessed, per_start: int = CLASS_HOPS) -> None:
    """``per_start`` hops from each of ``starts`` (the best board of every class
    record that holds one), each optimum >= the min score recorded: a board
    left out of a class is most likely near that class's best, wherever that
    class stands in the proof. Budgeted by hops, not time."""
    rng = np.random.default_rng([seed, 2])
    freqs = problem.letter_frequencies()
    geometry = problem.geometry
    for board in starts:
        witnessed.class_starts += 1
        for _ in range(per_start):
            new, score = _hop(problem, board, rng, freqs)
            witnessed.class_hops += 1
            if score >= min_score:
                canon = geometry.canonical(new)
                if canon not in found:
                    write = problem.dictionary.alphabet.write
                    raise _unrecorded(f"a hop from the best board {write(board)} of its class", seed, canon, score,
                                      min_score, write)


def near(board: str, score: Callable[[str], int], neighbourhood: Callable[[str], list[int]], n: int,
         min_score: int, symbols: str = LATIN) -> Iterable[str]:
    """Boards one tile change or one swap of two cells from ``board`` that
    score at least ``min_score`` (tiles of ``symbols``, in code order, as
    ``neighbourhood`` lays out its scores)."""
    scores = neighbourhood(board)
    n_tiles = len(symbols)
    for cell in range(n):
        for code in range(n_tiles):
            if scores[cell * n_tiles + code] >= min_score and board[cell] != symbols[code]:
                yield board[:cell] + symbols[code] + board[cell + 1:]
    for i, j in itertools.combinations(range(n), 2):
        if board[i] != board[j]:
            cells = list(board)
            cells[i], cells[j] = cells[j], cells[i]
            swapped = "".join(cells)
            if score(swapped) >= min_score:
                yield swapped


def closure(problem: Problem, found: Container[str], boards: list[tuple[str, int]], min_score: int,
            limit: int) -> int:
    """Every neighbour (``near``) of the best ``limit`` recorded boards that
    reaches the min score is recorded; returns how many boards were tried."""
    geometry = problem.geometry
    scorer = problem.dictionary.scorer(geometry)
    tried = 0
    for board, score in sorted(boards, key=lambda bs: (-bs[1], bs[0]))[:limit]:
        tried += 1
        for other in near(board, scorer.score, scorer.neighbourhood, geometry.n, min_score, problem.symbols):
            canonical = geometry.canonical(other)
            if canonical not in found:
                write = problem.dictionary.alphabet.write  # a board as people write it: [ij]
                raise Unrecorded(
                    f"witness: {write(canonical)} ({scorer.score(other)} points, >= the min score {min_score}) "
                    f"is one change from the recorded {write(board)} ({score}), and no class record holds it"
                )
    return tried


def narrowed(record: Record, factor: float, geometry: Geometry, rng: random.Random,
             symbols: str = LATIN) -> tuple[str, list[str]]:
    """A piece of the record's task about ``factor`` times smaller: cells fixed,
    in the kernel's cell order, to the letters of one of its boards drawn at
    random (else of a random board of the task), so a record cannot tell
    which piece is checked. Returns the piece's part key and letter sets."""
    sets = list(record.sets)
    if record.boards:
        target = rng.choice(sorted(record.boards))
        # the orientation of the board that lies in the task
        variant = next(v for v in geometry.variants(target) if all(b in s for b, s in zip(v, sets)))
    else:
        variant = "".join(rng.choice(s) for s in sets)
    part = list(parse_part(record.part, symbols))
    shrunk = 1.0
    for cell in cell_order(geometry):
        if shrunk >= factor:
            break
        if len(sets[cell]) > 1:
            shrunk *= len(sets[cell])
            sets[cell] = variant[cell]
            part.append((cell, tile_code(variant[cell], symbols)))
    key = part_key(tuple(part), symbols)
    return key, sets


def in_sets(board: str, sets: list[str], geometry: Geometry) -> bool:
    return any(all(b in s for b, s in zip(v, sets)) for v in geometry.variants(board))


def draw_key(seed: int) -> bytes:
    """The key of a verify's draws: its seed, as bytes."""
    return seed.to_bytes(8, "little")


def draw(key: bytes, name: str, part: str) -> float:
    """A class record's draw, uniform in [0, 1): a keyed hash of its class and
    piece, so it is the same whatever order the files are read in and
    nothing else in the record changes it."""
    digest = hashlib.blake2b(f"{name}/{part}".encode(), key=key, digest_size=8).digest()
    return int.from_bytes(digest, "little") / 2**64


class Draw:
    """The class records with the lowest draws, kept as they stream by (memory
    for ``keep`` records; every record when ``keep`` is None), lowest first:
    re-solving takes them in this order, a uniformly random one."""

    def __init__(self, keep: int | None, seed: int) -> None:
        self.keep = keep
        self.key = draw_key(seed)
        self.heap: list[tuple[float, int, Record]] = []  # (-draw, n, record): the highest draw on top
        self.seen = 0

    def offer(self, record: Record) -> None:
        self.seen += 1
        if self.keep is not None and self.keep <= 0:
            return
        item = (-draw(self.key, record.name, record.part), self.seen, record)
        if self.keep is None or len(self.heap) < self.keep:
            heapq.heappush(self.heap, item)
        elif item > self.heap[0]:
            heapq.heapreplace(self.heap, item)

    def chosen(self) -> list[tuple[float, Record]]:
        """The kept records and their draws, lowest draw first."""
        return [(-u, r) for u, _, r in sorted(self.heap, reverse=True)]

    @property
    def complete(self) -> bool:
        """Whether every record offered is kept."""
        return len(self.heap) == self.seen
