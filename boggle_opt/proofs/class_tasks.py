"""Board classes as tasks for branch and bound: solving one, splitting one, and
which of them a run file says are finished.

A task is a class (a bucket number per cell) narrowed by a ``part``: some
cells fixed to one letter each. Splitting a task fixes the first cell, in
the kernel's cell order, that still has several letters: one sub-task per
letter, together exactly the task's boards. A class that is too big for a
worker (its tree passes a node budget, it runs past a time budget, or its
worker was killed) is split and its pieces are solved and recorded on their
own; past a time budget the letters already solved are kept as finished
pieces.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from librt.vecs import vec
from mypy_extensions import i64

from .board_classes import (
    BucketError, cell_buckets, class_letters, class_name, letter_mask, parse_buckets, split_label, tile_code,
)
from ..core.branch import ClassSolver
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..core.trie import LATIN, PackedTrie
from ..huge_pages import settle_for
from ..signals import poll
from .memory import DEFAULT_WORKER_MB, fit_memory
from .rescore import Rescorer

Part = tuple[tuple[int, int], ...]  # (cell, tile code) pairs, in the order they were fixed


@dataclass(frozen=True)
class ClassTask:
    """A class, or the part of it with some cells fixed to one letter."""

    cls: tuple[int, ...]
    part: Part = ()

    @property
    def name(self) -> str:
        return class_name(self.cls)

    def key(self, symbols: str = LATIN) -> str:
        """``""`` for a whole class; else e.g. ``"4a.1e"`` (cell 4 is a, then
        cell 1 is e), in the alphabet's ``symbols``."""
        return part_key(self.part, symbols)

    def label(self, symbols: str = LATIN) -> str:
        """The class's name, and a part's key after a slash (``"012100212/4a.1e"``)."""
        return f"{self.name}/{self.key(symbols)}" if self.part else self.name

    def letters(self, buckets: list[list[str]], symbols: str = LATIN) -> list[str]:
        """Each cell's tiles (symbols): its bucket's, or the one its part fixes."""
        sets = class_letters(self.cls, buckets)
        for cell, code in self.part:
            sets[cell] = symbols[code]
        return sets

    def split(self, buckets: list[list[str]], order: list[int], symbols: str = LATIN) -> list[ClassTask]:
        """One task per letter of the first cell in ``order`` with several
        letters; none if every cell has one letter (a single board)."""
        sets = self.letters(buckets, symbols)
        for cell in order:
            if len(sets[cell]) > 1:
                return self.split_on(buckets, cell, symbols)
        return []

    def split_on(self, buckets: list[list[str]], cell: int, symbols: str = LATIN) -> list[ClassTask]:
        """One task per letter of ``cell``."""
        return [ClassTask(self.cls, (*self.part, (cell, tile_code(ch, symbols))))
                for ch in self.letters(buckets, symbols)[cell]]


def part_key(part: Part, symbols: str = LATIN) -> str:
    """A part as run files write it: ``"4a.1e"`` (cell, then its tile's symbol)."""
    return ".".join(f"{cell}{symbols[code]}" for cell, code in part)


def written_part(key: str, write: Callable[[str], str]) -> str:
    """A part key as people write it, each tile by ``write`` (the alphabet's:
    ``4[ij].1e`` for ``40.1e``, never a private symbol)."""
    if write is str or not key:
        return key
    return ".".join(piece[:-1] + write(piece[-1]) if piece else piece for piece in key.split("."))


def parse_part(key: str, symbols: str = LATIN) -> Part:
    """The inverse of ``part_key``; a symbol no tile has is a one-line BucketError."""
    out: list[tuple[int, int]] = []
    for piece in key.split("."):
        if not piece:
            continue
        code = tile_code(piece[-1], symbols)
        if code < 0 or not (piece[:-1].isascii() and piece[:-1].isdigit()):
            raise BucketError(f"part {key[:40]!r}: {piece[:20]!r} is not a cell and a tile of the alphabet")
        out.append((int(piece[:-1]), code))
    return tuple(out)


def parse_class_name(name: str) -> tuple[int, ...]:
    """The inverse of ``class_name``."""
    return tuple(int(ch, 36) for ch in name)


@dataclass(frozen=True)
class ClassResult:
    """What solving one task gave: boards >= min score and where time went.
    ``too_big``: its tree passed the node budget; it was not solved (split it).
    ``unfinished``: it ran past the time budget; the pieces of
    ``task.split_on(buckets, split_cell)`` with these letters are unsolved,
    the others are solved and ``boards`` are theirs."""

    task: ClassTask
    boards: list[tuple[str, int]]
    pruned: bool  # the root bound was below the min score
    root_bound: int
    nodes: int
    candidates: int
    build_s: float
    force_s: float
    bound_s: float
    rescore_s: float
    peak_mb: float
    too_big: bool = False
    seconds: float = 0.0
    #: the task's CPU (its process's; ``seconds`` is wall time, which a busy machine stretches)
    cpu: float = 0.0
    #: the tree arena's peak (4-byte words), the task's own memory beyond the worker's base
    arena_mb: float = 0.0
    unfinished: str = ""
    #: the cell whose letters ``unfinished`` lists (the solver's split cell:
    #: each class has its own cell order), -1 if none
    split_cell: int = -1
    #: what the worker's memory made the kernel do: its tree shared its
    #: repeated families, and the subclasses it was solved as (0: whole)
    shared: bool = False
    subclasses: int = 0


@dataclass(frozen=True)
class TrieTiles:
    """What a worker's trie takes of the word list's alphabet beside its keys
    and points, as the dictionary built it (``dictionary.dictionary.build``):
    the tiles' symbols and spellings, and the aliases of words that tiles
    spell in more than one way (Dutch ``ij``), so a board's re-score counts
    such a word once. English's: a-z, no aliases (the trie's defaults)."""

    symbols: str = LATIN
    spellings: tuple[str, ...] = ()
    aliases: tuple[int, ...] = ()

    @classmethod
    def of(cls, trie: PackedTrie) -> TrieTiles:
        return cls(trie.symbols, tuple(trie.spellings), tuple(int(a) for a in trie.aliases))

    def trie(self, keys: list[bytes], points: list[int]) -> PackedTrie:
        return PackedTrie(keys, points, symbols=self.symbols, spellings=list(self.spellings) or None,
                          aliases=vec[i64](list(self.aliases)) if self.aliases else None)


class ClassContext:
    """Per-worker state: the solver and rescorer of one size and word list.
    With a ``node_budget``, each tree is built first and a task whose tree
    has more nodes is handed back unsolved (``too_big``) to be split. With a
    ``time_budget`` (seconds), a solve that runs past it stops between two
    letters of the task's split cell and hands back the letters left. The
    solver's memory thresholds are those of a worker of ``worker_mb`` MB
    (``memory.fit_memory``)."""

    def __init__(
        self,
        keys: list[bytes],
        points: list[int],
        cols: int,
        rows: int,
        buckets: list[list[str]],
        min_score: int,
        switch_pct: int,
        switch_score: int,
        node_budget: int = 0,
        time_budget: float = 0.0,
        tiles: TrieTiles | None = None,
        worker_mb: float = DEFAULT_WORKER_MB,
    ) -> None:
        geometry = Geometry(cols, rows)
        settle_for(cols * rows)  # this worker's huge pages, by its classes' size
        tiles = tiles or TrieTiles()
        self.symbols = tiles.symbols
        trie = tiles.trie(keys, points)
        self.solver = ClassSolver(trie, geometry)
        fit_memory(self.solver, worker_mb)
        self.solver.poll = poll
        self.rescorer = Rescorer(self.solver, geometry, trie)  # the trie's own points go with it
        self.buckets = buckets
        self.min_score = min_score
        self.switch_pct = switch_pct
        self.switch_score = switch_score
        self.node_budget = node_budget
        self.time_budget = time_budget

    def run(self, task: ClassTask) -> ClassResult:
        start = time.perf_counter()
        cpu = time.process_time()
        symbols = self.symbols
        sets = task.letters(self.buckets, symbols)
        masks = [letter_mask(s, symbols) for s in sets]
        solver = self.solver
        if self.node_budget and any(len(s) > 1 for s in sets):
            t0 = time.perf_counter()
            nodes = solver.build(masks).n_nodes
            if nodes > self.node_budget:
                return ClassResult(task, [], False, 0, nodes, 0, time.perf_counter() - t0, 0.0, 0.0, 0.0,
                                   _peak_mb(), too_big=True, seconds=time.perf_counter() - start,
                                   cpu=time.process_time() - cpu)
        deadline = start + self.time_budget if self.time_budget > 0 else 0.0
        candidates = solver.solve(masks, self.min_score, self.switch_pct, self.switch_score, deadline)
        left = solver.unfinished
        unfinished = "".join(symbols[i] for i in range(len(symbols)) if left >> i & 1)
        t0 = time.perf_counter()
        boards = self.rescorer.at_least(candidates, self.min_score)
        rescore = time.perf_counter() - t0
        return ClassResult(
            task, boards, solver.root_bound < self.min_score, solver.root_bound,
            solver.n_nodes, len(candidates),
            solver.build_seconds, solver.force_seconds, solver.bound_seconds, rescore, _peak_mb(),
            seconds=time.perf_counter() - start, cpu=time.process_time() - cpu, arena_mb=4 * int(solver.peak_words) / 1e6,
            unfinished=unfinished, split_cell=solver.order[solver.split_level] if unfinished else -1,
            shared=bool(solver.shared), subclasses=int(solver.subclasses),
        )


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


_LABELS: dict[tuple[str, str, str | None], list[list[str]]] = {}


def label_buckets(label: str, geometry: Geometry, symbols: str | None = LATIN) -> list[list[str]]:
    """Each cell's buckets from their label in a run file (``"aeijou ... /
    corners ..."``), covering the alphabet's ``symbols``; None: whatever
    alphabet the label's own buckets make (each symbol once)."""
    key = (label, geometry.size, symbols)
    if key not in _LABELS:  # a 4x4 proof's file holds a million records of one label
        main, corners = split_label(label)
        _LABELS[key] = cell_buckets(geometry, parse_buckets(main, symbols),
                                    parse_buckets(corners, symbols) if corners else None)
    return _LABELS[key]


class TaskRecordError(BoggleOptError):
    """A finished or split task's record that a ``Ledger`` cannot trust (the run
    file's reader reports it as a run-file error)."""


def check_task_record(rec: Mapping[str, Any], geometry: Geometry, where: str,
                      symbols: str | None = LATIN) -> None:
    """A finished or split task as a run file records it, checked so that a
    ``Ledger`` can trust it (a hand-edited or damaged record is a one-line
    ``TaskRecordError``, not a hang or a wrong proof): a class of the record's
    buckets, a part fixing distinct cells to letters of the class, and a
    split's pieces its part with one more cell fixed, the same for all, to
    each letter of that cell once. The buckets must cover the alphabet's
    ``symbols``; None: the alphabet is not known here (a run file's lines
    read before its language is), and the label is checked as a partition
    of its own symbols (verify and ``--resume`` compare it with the run's)."""
    name = rec.get("class", rec.get("split"))
    if name is None:
        return
    where = f"{where}: bnb class {str(name)[:40]}"

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise TaskRecordError(f"{where}: {what}")

    label = rec.get("buckets")
    need(isinstance(label, str), "its buckets are not a string")
    try:
        buckets = label_buckets(str(label), geometry, symbols)
    except BucketError as exc:
        raise TaskRecordError(f"{where}: {exc}") from None
    need(isinstance(name, str) and len(name) == geometry.n
         and all(ch in "0123456789abcdefghijklmnopqrstuvwxyz" for ch in str(name)),
         f"the class name is not {geometry.n} bucket numbers")
    cls = parse_class_name(str(name))
    need(all(b < len(buckets[c]) for c, b in enumerate(cls)), "a bucket number is past the cell's buckets")
    sets = class_letters(cls, buckets)

    def checked_part(key: Any, what: str) -> tuple[tuple[int, str], ...]:
        need(isinstance(key, str), f"{what} is not a string")
        part: list[tuple[int, str]] = []  # (cell, symbol): the label's symbols are the alphabet here
        for piece in str(key).split(".") if key else []:
            ok = len(piece) >= 2 and piece[:-1].isascii() and piece[:-1].isdigit()
            cell = int(piece[:-1]) if ok else -1
            # as keys are written ("0l", not "00l"): the piece's finished record names it so
            ok = ok and str(cell) == piece[:-1]
            ok = ok and cell < geometry.n and piece[-1] in sets[cell] and cell not in dict(part)
            need(ok, f"{what} {str(key)[:40]!r} does not fix distinct cells to letters of the class")
            part.append((cell, piece[-1]))
        return tuple(part)

    part = checked_part(rec.get("part", ""), "its part")
    if "class" in rec:
        return
    into = rec.get("into")
    need(isinstance(into, list) and len(into) > 0, "a split's pieces are not a non-empty list")
    pieces = [checked_part(key, "piece") for key in into]  # type: ignore[union-attr]
    need(all(len(p) == len(part) + 1 and p[:-1] == part for p in pieces),
         "a split's piece is not its part with one more cell fixed")
    cells = {p[-1][0] for p in pieces}
    letters = sorted(p[-1][1] for p in pieces)
    need(len(cells) == 1 and "".join(letters) == sets[cells.pop()],
         "a split's pieces do not fix one cell to each of its letters once")


class Ledger:
    """Which classes a run file says are finished, whole or in parts.

    Records: a finished task ``{"class": name, "part": key, "boards": ...}``
    (no ``part``: the whole class) and a split ``{"split": name, "part": key,
    "into": [keys]}``. A class is finished when its whole task is, or every
    piece its splits lead to; a piece recorded twice counts once."""

    def __init__(self) -> None:
        self.done: dict[str, set[str]] = {}
        self.splits: dict[tuple[str, str], list[str]] = {}
        self.boards: list[tuple[str, int]] = []

    def add(self, rec: Mapping[str, Any]) -> None:
        if "class" in rec:
            name, key = str(rec["class"]), str(rec.get("part", ""))
            parts = self.done.setdefault(name, set())
            if key not in parts:
                parts.add(key)
                self.boards.extend((str(b), int(s)) for b, s in rec.get("boards", []))
        elif "split" in rec:
            self.splits[str(rec["split"]), str(rec.get("part", ""))] = [str(k) for k in rec["into"]]

    def left(self, name: str) -> list[str]:
        """The part keys of ``name`` still to solve (``[""]``: all of it)."""
        done = self.done.get(name, set())
        out: list[str] = []
        stack = [""]
        while stack:
            key = stack.pop()
            if key in done:
                continue
            children = self.splits.get((name, key))
            if children is None:
                out.append(key)
            else:
                stack.extend(reversed(children))
        return out

    def state(self) -> tuple[set[str], dict[str, list[str]]]:
        """Finished classes, and the parts left of those begun but not finished."""
        begun = set(self.done) | {name for name, _ in self.splits}
        finished: set[str] = set()
        partial: dict[str, list[str]] = {}
        for name in begun:
            left = self.left(name)
            if left:
                partial[name] = left
            else:
                finished.add(name)
        return finished, partial


def tasks_left(partial: Mapping[str, list[str]], symbols: str = LATIN) -> Iterable[ClassTask]:
    for name in sorted(partial):
        cls = parse_class_name(name)
        for key in partial[name]:
            yield ClassTask(cls, parse_part(key, symbols))
