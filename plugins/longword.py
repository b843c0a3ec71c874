"""``longword``: every long word along every path, exhaustively.

The best boards known under powers of two (and the best boards holding a
16- or 17-letter word) came from writing every word that fills the board
along every path through all its cells. This searcher does that: the paths
up to symmetry (4x4: 68,112) come from ``boggle_opt.core.paths``, the words
from the run's word list (trie keys of exactly ``length`` cells, so a word
with a Qu has one letter more), and every (path, word) board is scored in the
compiled ``PlacementScorer``. With ``-o length L`` below the board's size,
each word of L cells goes along every path of L cells and the other cells are
filled by a steepest-ascent climb that keeps the word's cells fixed.

Paths are cut into chunks of ``CHUNK`` paths and words into slices of about
``TASK_BOARDS / CHUNK``; a chunk of paths with a slice of words is one task
for the ``problem.jobs`` worker processes and one Checkpoint, so ``--resume``
skips finished tasks and a budget stops a run within a task of it. Every board scoring at
least the running best is reported, as found.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from collections import Counter
from functools import cache
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import random_letters
from boggle_opt.constraints import Constraints
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.paths import PlacementScorer, paths
from boggle_opt.core.scorer import Scorer
from boggle_opt.core.trie import PackedTrie
from boggle_opt.options import check
from boggle_opt.search import Checkpoint, Event, Improved, Problem, Progress, SearcherBase

from .local_executor import stop_pool

#: marks this searcher's checkpoint records in a run file
RECORD_KIND = "longword"
#: paths per task, and boards per task (about: a fraction of a second of
#: work): 4x4 full paths on ENABLE2K make 671 chunks of paths x 7 slices of words
CHUNK = 64
TASK_BOARDS = 20_000
#: the same for shorter words, whose every placement is a climb (about 1,000
#: boards scored): one word along a few paths
CHUNK_CLIMBS = 8
#: tasks in flight per worker process
WINDOW_PER_WORKER = 2
#: seconds between Progress events while waiting on workers
HEARTBEAT_SECONDS = 0.5
#: the path enumeration keeps used cells in a 64-bit mask
MAX_CELLS = 62


class LongWord(SearcherBase["LongWord.Options"]):
    """Exhaustive: every word that fills the board (or -o length L) along every path."""

    name = "longword"
    parallel = True
    exhaustive = True
    honours_constraints = True

    @dataclass(frozen=True, kw_only=True)
    class Options:
        length: int = field(default=0, metadata={
            "help": "cells of the words to place (0: every cell of the board); below the "
                    "board's size the other cells are filled by a climb"})
        letters: int = field(default=0, metadata={
            "help": "only words of this many letters, Qu counting 2 (0: any); e.g. 17 on 4x4 "
                    "for the words through a Qu cell"})

        def __post_init__(self) -> None:
            check(self.length >= 0, "length", f"must be >= 0, got {self.length}")
            check(self.letters >= 0, "letters", f"must be >= 0, got {self.letters}")

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        geometry, opts = problem.geometry, self.options
        n = geometry.n
        length = opts.length or n
        if length > n or length < 1:
            raise BoggleOptError(f"longword: -o length {length} does not fit a {geometry.size} board")
        if n > MAX_CELLS:
            raise BoggleOptError(f"longword: boards of more than {MAX_CELLS} cells are not supported")
        cons = problem.constraints
        words = _words(problem.dictionary.keys, length, opts.letters, cons, n)
        flat = _paths(geometry.cols, geometry.rows, length)
        n_paths = len(flat) // length
        chunk = CHUNK if length == n else CHUNK_CLIMBS
        per_task = max(1, TASK_BOARDS // CHUNK) if length == n else 1
        slices = max(1, (len(words) + per_task - 1) // per_task)
        label = (f"{geometry.size} length {length} letters {opts.letters} words {len(words)} "
                 f"paths {n_paths} chunk {chunk}x{per_task} {cons.describe()}")
        yield Checkpoint({"kind": RECORD_KIND, "setup": True, "label": label})
        done, found = _resumed(problem.resumed, label)
        best = -1
        for board, score in sorted(found, key=lambda bs: bs[1]):
            if score >= best:
                best = score
                yield Improved(board, score)
        n_chunks = (n_paths + chunk - 1) // chunk * slices
        todo = (i for i in range(n_chunks) if i not in done)
        seed = int(rng.integers(1 << 62))
        setup = _Setup(
            problem.dictionary.keys, problem.dictionary.points, geometry.cols, geometry.rows,
            length, words, chunk, per_task, cons, problem.letter_frequencies().tolist(), seed,
        )
        stats = _Stats(n_chunks, len(done), len(words), n_paths)
        yield Progress(stats.snapshot(best))
        if not words or len(done) == n_chunks:
            return
        floor = [best]
        results = _results(todo, setup, problem.jobs, floor,
                           lambda: problem.dictionary.scorer(geometry))
        try:
            for item in results:
                if item is None:
                    yield Progress(stats.snapshot(best))
                    continue
                task, boards, scored = item
                stats.add(scored)
                for board, score in boards:
                    if score >= best:
                        best = floor[0] = score
                        yield Improved(board, score)
                # counted after the boards are out: a budget stops the run here
                problem.evaluations += scored
                yield Checkpoint({"kind": RECORD_KIND, "label": label, "chunk": task,
                                  "boards": [[b, s] for b, s in boards]})
                if stats.due() or stats.done == stats.total:
                    yield Progress(stats.snapshot(best))
        finally:
            results.close()


@cache
def _paths(cols: int, rows: int, length: int) -> list[int]:
    """``core.paths.paths``, listed once per process (4x4: about 2 s)."""
    return paths(Geometry(cols, rows), length)


def _words(keys: Sequence[bytes], length: int, letters: int, cons: Constraints, n: int) -> list[bytes]:
    """Trie keys to place: ``length`` cells, ``letters`` letters if given, and
    only what the constraints allow."""
    words = [k for k in keys if len(k) == length and (not letters or len(k) + k.count(b"q") == letters)]
    key = cons.key.encode("ascii")
    if cons.word and len(key) == length:
        # the word must be on the board: placing it is the only way it fits
        words = [key] if not letters or len(key) + key.count(b"q") == letters else []
    if cons.dice is not None and length == n:
        # a full board shows exactly the word's letters
        words = [w for w in words if cons.dice.can_show(Counter(w.decode("ascii")))]
    return words


@dataclass(frozen=True)
class _Setup:
    """What a worker needs, as plain data (compiled objects are built there)."""

    keys: list[bytes]
    points: list[int]
    cols: int
    rows: int
    length: int
    words: list[bytes]
    #: paths and words per task
    chunk: int
    per_task: int
    constraints: Constraints
    freqs: list[float]
    seed: int


class _Context:
    """Per-process state: scorer, paths and words of one run."""

    def __init__(self, setup: _Setup, scorer: Scorer | None = None) -> None:
        geometry = Geometry(setup.cols, setup.rows)
        self.setup = setup
        self.n = geometry.n
        # in the searcher's own process, its problem's scorer saves building a trie
        self.scorer = scorer or Scorer(PackedTrie(setup.keys, setup.points), geometry)
        self.flat = _paths(setup.cols, setup.rows, setup.length)
        self.n_paths = len(self.flat) // setup.length
        cons = setup.constraints
        fixed = [-1] * self.n
        for c, ch in cons.fixed.items():
            fixed[c] = ord(ch) - 97
        self.placer = PlacementScorer(self.scorer, fixed)
        full = setup.length == self.n
        # a word shorter than the placed ones must be checked board by board
        self.check_each = bool(cons.word) and len(cons.key) != setup.length or (
            cons.dice is not None and not full)

    def solve(self, task: int, floor: int) -> tuple[int, list[tuple[str, int]], int]:
        """Task ``task``: a chunk of paths and a slice of words."""
        setup = self.setup
        slices = max(1, (len(setup.words) + setup.per_task - 1) // setup.per_task)
        chunk, part = divmod(task, slices)
        words = setup.words[part * setup.per_task:(part + 1) * setup.per_task]
        first = chunk * setup.chunk
        count = min(setup.chunk, self.n_paths - first)
        before = self.placer.scored
        if setup.length == self.n and not self.check_each:
            boards = self.placer.score_chunk(
                self.flat, setup.length, first, count, words, "a" * self.n, floor)
            return task, boards, self.placer.scored - before
        return self._solve_each(task, words, first, count, floor)

    def _solve_each(self, chunk: int, words: list[bytes], first: int, count: int, floor: int
                    ) -> tuple[int, list[tuple[str, int]], int]:
        """Placements one by one: checked against the constraints, and for
        words shorter than the board the other cells filled by a climb."""
        setup, cons, n, length = self.setup, self.setup.constraints, self.n, self.setup.length
        rng = np.random.default_rng((setup.seed, chunk))
        freqs = np.asarray(setup.freqs)
        out: list[tuple[str, int]] = []
        scored = 0
        best = floor
        for p in range(first, first + count):
            cells = self.flat[p * length:(p + 1) * length]
            for word in words:
                need = dict(cons.fixed)
                if any(need.get(c, chr(w)) != chr(w) for c, w in zip(cells, word)):
                    continue
                need.update((c, chr(w)) for c, w in zip(cells, word))
                board = _fill(n, need, rng, freqs, cons)
                if board is None:
                    continue
                board, score, used = _climb(self.scorer, board, need, cons)
                scored += used
                if score >= best and cons.satisfied(board):
                    best = score
                    out.append((board, score))
        return chunk, out, scored


def _fill(n: int, need: Mapping[int, str], rng: np.random.Generator, freqs: np.ndarray,
          cons: Constraints) -> str | None:
    """A board with ``need`` in place and the other cells random (a roll of the dice if set)."""
    if len(need) == n:
        return "".join(need[c] for c in range(n))
    if cons.dice is not None:
        return cons.dice.roll(rng, need)
    codes = random_letters(rng, freqs, n)
    return "".join(need.get(c) or chr(97 + int(codes[c])) for c in range(n))


def _climb(scorer: Scorer, board: str, need: Mapping[int, str], cons: Constraints
           ) -> tuple[str, int, int]:
    """Steepest ascent over one-letter changes of the cells not in ``need``,
    keeping the constraints; returns the board, its score and boards scored."""
    n = len(board)
    score = scorer.score(board)
    used = 1
    if len(need) == n:
        return board, score, used
    mask = np.ones(n * 26, dtype=bool)
    for c in need:
        mask[c * 26:(c + 1) * 26] = False
    while True:
        out = np.asarray(scorer.neighbourhood(board), dtype=np.int64)
        used += 25 * n
        out[~mask] = -1
        step = None
        for i in np.argsort(-out, kind="stable").tolist():
            if out[i] <= score:
                break
            cell, letter = divmod(i, 26)
            changed = board[:cell] + chr(97 + letter) + board[cell + 1:]
            if not cons.per_board or cons.satisfied(changed):
                step = changed, int(out[i])
                break
        if step is None:
            return board, score, used
        board, score = step


_worker_context: _Context | None = None


def _init_worker(setup: _Setup) -> None:
    global _worker_context
    _worker_context = _Context(setup)


def _solve_in_worker(chunk: int, floor: int) -> tuple[int, list[tuple[str, int]], int]:
    assert _worker_context is not None, "worker not initialised"
    return _worker_context.solve(chunk, floor)


Result = tuple[int, list[tuple[str, int]], int]


def _results(todo: Iterator[int], setup: _Setup, jobs: int, floor: list[int],
             local_scorer: Callable[[], Scorer]) -> Generator[Result | None, None, None]:
    """Each task's result as it finishes, here or in ``jobs`` workers (None
    every ``HEARTBEAT_SECONDS`` while none does). ``floor[0]``, the running
    best, is read as each task is handed out."""
    if jobs <= 1:
        context = _Context(setup, local_scorer())
        for index in todo:
            yield context.solve(index, floor[0])
        return
    retry: list[int] = []
    exhausted = False
    while True:
        pool = ProcessPoolExecutor(jobs, mp_context=mp.get_context("spawn"),
                                   initializer=_init_worker, initargs=(setup,))
        pending: dict[Future[Result], int] = {}
        try:
            while True:
                while len(pending) < WINDOW_PER_WORKER * jobs and (retry or not exhausted):
                    task: int | None = retry.pop() if retry else next(todo, None)
                    if task is None:
                        exhausted = True
                        break
                    try:
                        pending[pool.submit(_solve_in_worker, task, floor[0])] = task
                    except BrokenProcessPool:
                        retry.append(task)  # the pool broke since the last wait: not lost
                        raise
                if not pending:
                    return
                finished, _ = wait(pending, timeout=HEARTBEAT_SECONDS, return_when=FIRST_COMPLETED)
                if not finished:
                    yield None
                for future in finished:
                    result = future.result()  # BrokenProcessPool if a worker died
                    del pending[future]
                    yield result
        except BrokenProcessPool:
            # a worker was killed: rebuild the pool and hand its chunks out again
            retry.extend(pending.values())
        finally:
            stop_pool(pool)  # now, even mid-chunk


def _resumed(records: tuple[Mapping[str, Any], ...], label: str) -> tuple[set[int], list[tuple[str, int]]]:
    """Chunks finished by an earlier segment of the same run, and their boards."""
    done: set[int] = set()
    found: list[tuple[str, int]] = []
    for rec in records:
        if rec.get("kind") == RECORD_KIND and rec.get("label") == label and "chunk" in rec:
            if int(rec["chunk"]) not in done:
                done.add(int(rec["chunk"]))
                found.extend((str(b), int(s)) for b, s in rec.get("boards", []))
    return done, found


class _Stats:
    def __init__(self, total: int, resumed: int, words: int, n_paths: int) -> None:
        self.total = total
        self.done = resumed
        self.resumed = resumed
        self.words = words
        self.n_paths = n_paths
        self.boards = 0
        self.started = time.monotonic()
        self.last = 0.0

    def add(self, scored: int) -> None:
        self.done += 1
        self.boards += scored

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last >= 0.25:
            self.last = now
            return True
        return False

    def snapshot(self, best: int) -> Mapping[str, int | float | str]:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        ran = self.done - self.resumed
        left = ""
        if ran:
            left = f"{elapsed * (self.total - self.done) / ran / 60:.1f} min"
        return {
            "chunks": f"{self.done:,}/{self.total:,}",
            "paths": self.n_paths,
            "words": self.words,
            "boards scored": self.boards,
            "boards/s": round(self.boards / elapsed),
            "best": best,
            "time left": left,
        }


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(LongWord)
