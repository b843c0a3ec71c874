"""``longword``: every long word along every path, exhaustively.

The best boards known under powers of two (and the best boards holding a
16- or 17-letter word) came from writing every word that fills the board
along every path through all its cells. This searcher does that: the paths
up to symmetry (4x4: 42,898) come from ``boggle_opt.core.paths``, the words
from the run's word list (trie keys of exactly ``length`` cells, so a word
with a Qu has one letter more), and every (path, word) board is scored in the
compiled ``PlacementScorer``. With ``-o length L`` below the board's size,
each word of L cells goes along every path of L cells and the other cells are
filled by a steepest-ascent climb that keeps the word's cells fixed.

Paths are cut into chunks of ``CHUNK`` paths and words into slices of about
``TASK_BOARDS / CHUNK``; a slice of words with a chunk of paths is one task
for the run's executor (``--jobs`` processes, or a Dask cluster: a task
whose worker dies is retried, then reported) and one Checkpoint, so ``--resume``
skips finished tasks and a budget stops a run within a task of it. Every board scoring at
least the running best is reported, as found.

A word that fills the board fixes the board's letters, whatever the path: no
board of it can score more than the words spelt by those letters, in any
arrangement (its *letter bound*). Words are placed in order of that bound,
highest first, so a high score comes early, and a word whose bound is below
the running best is not placed at all (on ENABLE2K 4x4, 12% of the words).
"""

from __future__ import annotations

import time
from collections import Counter
from functools import cache
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import latin_only, random_letters
from boggle_opt.constraints.fixed import Constraints
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.paths import PlacementScorer, paths
from boggle_opt.core.scorer import Scorer
from boggle_opt.core.trie import PackedTrie
from boggle_opt.proofs.executor import Done, Failed, TaskRunner, WorkerSetup, failed_tasks_error, poll
from boggle_opt.proofs.outcome import duration
from boggle_opt.searching.options import check
from boggle_opt.searching.interface import Checkpoint, Event, Improved, Problem, Progress, SearcherBase

from boggle_opt.proofs.local import open_session


#: marks this searcher's checkpoint records in a run file
RECORD_KIND = "longword"
#: paths per task, and boards per task (about: a fraction of a second of
#: work): 4x4 full paths on ENABLE2K make 671 chunks of paths x 7 slices of words
CHUNK = 64
TASK_BOARDS = 20_000
#: the same for shorter words, whose every placement is a climb (about 1,000
#: boards scored): one word along a few paths
CHUNK_CLIMBS = 8
#: the path enumeration keeps used cells in a 64-bit mask
MAX_CELLS = 62
#: paths a run lists at most (each process holds them: 160 MB of 20-cell
#: paths); 4x4 has 288,783 at most, of 12 cells, and 4x5 more than a million
#: of 20: more than a run could place words along
MAX_PATHS = 1_000_000


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
        latin_only(problem, self.name)
        geometry, opts = problem.geometry, self.options
        n = geometry.n
        length = opts.length or n
        if length > n or length < 1:
            raise BoggleOptError(f"longword: -o length {length} does not fit a {geometry.size} board")
        if n > MAX_CELLS:
            raise BoggleOptError(f"longword: boards of more than {MAX_CELLS} cells are not supported")
        cons = problem.constraints
        # said first: the set-up lists every path before a word is placed (4x4:
        # a second or two; 15 cells on a busy machine, 12 s), and a budget
        # can end within it
        yield Progress({"setup": f"listing the words and paths of {length} cells"})
        words = _words(problem.dictionary.keys, length, opts.letters, cons, n)
        if not words:  # a run that cannot find anything says why, and what to do
            raise BoggleOptError(_nothing_to_place(problem.dictionary.keys, problem.dictionary.label,
                                                   geometry.size, n, length, opts.letters, cons))
        bounds: list[int] | None = None
        if length == n:
            bounds = letter_bounds(problem.dictionary.keys, problem.dictionary.points, words)
            ranked = sorted(zip(bounds, words), key=lambda bw: (-bw[0], bw[1]))
            bounds, words = [b for b, _ in ranked], [w for _, w in ranked]
        flat = _paths(geometry.cols, geometry.rows, length)
        n_paths = len(flat) // length
        if n_paths > MAX_PATHS:
            raise BoggleOptError(f"longword: more than {MAX_PATHS:,} paths of {length} cells on a {geometry.size} "
                                 f"board, too many to place words along; give -o length L (fewer cells)")
        chunk = CHUNK if length == n else CHUNK_CLIMBS
        per_task = max(1, TASK_BOARDS // CHUNK) if length == n else 1
        label = (f"{geometry.size} length {length} letters {opts.letters} words {len(words)} "
                 f"paths {n_paths} chunk {chunk}x{per_task} words by bound {cons.describe()}")
        yield Checkpoint({"kind": RECORD_KIND, "setup": True, "label": label})
        done, found = _resumed(problem.resumed, label)
        best = -1
        for board, score in sorted(found, key=lambda bs: bs[1]):
            if score >= best:
                best = score
                yield Improved(board, score)
        seed = int(rng.integers(1 << 62))
        setup = _Setup(
            problem.dictionary.keys, problem.dictionary.points, geometry.cols, geometry.rows,
            length, words, bounds, chunk, per_task, cons, problem.letter_frequencies().tolist(), seed,
        )
        stats = _Stats(setup, n_paths, done)
        n_chunks = stats.total
        todo = (i for i in range(n_chunks) if i not in done)
        yield Progress(stats.snapshot(best))
        if not words or len(done) == n_chunks:
            return
        floor = [best]
        import uuid  # a run's, not the plugin's registration (every command)

        session = open_session(problem, WorkerSetup(_Context, (setup,), uuid.uuid4().hex))
        # a task carries the running best as it is handed out: its floor
        runner: TaskRunner[tuple[int, int], Result] = TaskRunner(session, ((i, floor[0]) for i in todo))
        failed: list[int] = []
        try:
            for item in runner.events():
                if item is None:
                    yield Progress(stats.snapshot(best))
                    continue
                if isinstance(item, Failed):
                    failed.append(item.task[0])
                    continue
                assert isinstance(item, Done)  # no split_lost: a lost task is retried or fails
                task = item.task[0]
                boards, scored, skipped = item.result
                stats.add(task, scored, skipped)
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
            session.close()  # on a budget stop or Ctrl-C: stop the workers now
        if failed:
            raise failed_tasks_error("longword pass", [f"task {t}" for t in failed])


#: a task's result: the boards reaching the floor, boards scored, and
#: placements skipped by the letter bound
Result = tuple[list[tuple[str, int]], int, int]


def _task_span(task: int, chunk: int, n_paths: int) -> tuple[int, int, int]:
    """Task ``task``'s slice of words, first path and number of paths: the
    first slice (the highest bounds) along every path, then the next."""
    per_slice = (n_paths + chunk - 1) // chunk
    part, index = divmod(task, per_slice)
    first = index * chunk
    return part, first, min(chunk, n_paths - first)


def letter_bounds(keys: Sequence[bytes], points: Sequence[int], words: Sequence[bytes]) -> list[int]:
    """For each word, the points of every key that its letters can spell
    (each letter used at most as often as the word has it): a bound on any
    board showing exactly those letters."""
    if not words:
        return []
    # per key, its letter counts and the set of its letters as a bit mask
    sizes = np.fromiter((len(k) for k in keys), np.int64, len(keys))
    ids = np.repeat(np.arange(len(keys)), sizes)
    codes = np.frombuffer(b"".join(keys), np.uint8).astype(np.int64) - 97
    poll()
    counts = np.bincount(ids * 26 + codes, minlength=len(keys) * 26).reshape(len(keys), 26)
    bits = np.int64(1) << np.arange(26, dtype=np.int64)
    sets = (counts > 0).astype(np.int64) @ bits
    pts = np.asarray(points, dtype=np.int64)
    out: list[int] = []
    for word in words:
        poll()  # a second or more on a big list: a budget or Ctrl-C stops it here
        have = np.bincount(np.frombuffer(word, np.uint8).astype(np.int64) - 97, minlength=26)
        # keys using no other letter, then those using none too often
        near = np.flatnonzero((sets & ~int((have > 0).astype(np.int64) @ bits)) == 0)
        fits = near[(counts[near] <= have).all(axis=1)]
        out.append(int(pts[fits].sum()))
    return out


def _paths(cols: int, rows: int, length: int) -> list[int]:
    """``core.paths.paths``, listed once per process (4x4: about 1 s; 5x5's
    full paths: for ever), at most ``MAX_PATHS`` + 1 of them; polled, so a
    time budget or Ctrl-C stops a listing the compiled code would not."""
    return _listed(cols, rows, length, MAX_PATHS)


@cache
def _listed(cols: int, rows: int, length: int, limit: int) -> list[int]:
    # the limit in the key: a listing cut short is never handed out as whole
    return paths(Geometry(cols, rows), length, limit, poll)


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


def _nothing_to_place(keys: Sequence[bytes], label: str, size: str, n: int, length: int, letters: int,
                      cons: Constraints) -> str:
    """Why no word can be placed, and what to do: the embedded list's longest
    words fill 15 cells, one short of a 4x4 board."""
    longest = max((len(k) for k in keys), default=0)
    fits = [k for k in keys if len(k) == length]
    if not fits:
        what = f"fills a {size} board" if length == n else f"fills {length} cells"
        return (f"longword: no word of {label} {what} (its longest fill {longest} cells); "
                f"give -o length {min(longest, length - 1)} to place shorter words (a climb fills the "
                "other cells), or a longer word list (--wordlist enable2k: docs/usage.md#word-lists)")
    if letters and not any(len(k) + k.count(b"q") == letters for k in fits):
        return (f"longword: no word of {length} cells in {label} has {letters} letters (Qu counting 2); "
                "change or drop -o letters")
    if cons.word:
        return (f"longword: --word {cons.word} cannot be placed with -o length {length}"
                + (f" and -o letters {letters}" if letters else ""))
    dice = cons.dice.name if cons.dice is not None else "set"
    return f"longword: none of the {len(fits):,} words of {length} cells can be rolled with the {dice} dice"


@dataclass(frozen=True)
class _Setup:
    """What a worker needs, as plain data (compiled objects are built there)."""

    keys: list[bytes]
    points: list[int]
    cols: int
    rows: int
    length: int
    words: list[bytes]
    #: each word's letter bound (words that fill the board), highest first
    bounds: list[int] | None
    #: paths and words per task
    chunk: int
    per_task: int
    constraints: Constraints
    freqs: list[float]
    seed: int

    @property
    def slices(self) -> int:
        return max(1, (len(self.words) + self.per_task - 1) // self.per_task)

    def slice_words(self, part: int, floor: int) -> tuple[list[bytes], int]:
        """Slice ``part`` of the words, and how many of them (a prefix: the
        highest bounds come first) can reach ``floor``."""
        start = part * self.per_task
        words = self.words[start:start + self.per_task]
        if self.bounds is None:
            return words, len(words)
        return words, sum(1 for b in self.bounds[start:start + len(words)] if b >= floor)


class _Context:
    """Per-process state: scorer, paths and words of one run."""

    def __init__(self, setup: _Setup) -> None:
        geometry = Geometry(setup.cols, setup.rows)
        self.setup = setup
        self.n = geometry.n
        self.scorer = Scorer(PackedTrie(setup.keys, setup.points), geometry)  # 4x4 ENABLE2K: 0.07 s
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

    def run(self, task: tuple[int, int]) -> Result:
        return self.solve(*task)

    def solve(self, task: int, floor: int) -> Result:
        """Task ``task``: a slice of words along a chunk of paths; words
        whose letter bound is below ``floor`` are skipped."""
        setup = self.setup
        part, first, count = _task_span(task, setup.chunk, self.n_paths)
        words, live = setup.slice_words(part, floor)
        skipped = (len(words) - live) * count
        words = words[:live]
        before = self.placer.scored
        if setup.length == self.n and not self.check_each:
            boards = self.placer.score_chunk(
                self.flat, setup.length, first, count, words, "a" * self.n, floor)
            return boards, self.placer.scored - before, skipped
        boards, scored = self._solve_each(task, words, first, count, floor)
        return boards, scored, skipped

    def _solve_each(self, chunk: int, words: list[bytes], first: int, count: int, floor: int
                    ) -> tuple[list[tuple[str, int]], int]:
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
        return out, scored


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
    """Progress: tasks done, boards scored and skipped, and the time left
    from the placements still to score at the running best, at the rate
    placements were done (not boards scored: below the board's size each
    placement is a climb that scores a thousand boards or more)."""

    def __init__(self, setup: _Setup, n_paths: int, done: set[int]) -> None:
        self.setup = setup
        self.n_paths = n_paths
        per_slice = (n_paths + setup.chunk - 1) // setup.chunk
        self.total = per_slice * setup.slices
        self.done = self.resumed = len(done)
        #: per slice of words, the paths of its tasks not done
        self.paths_left = [n_paths] * setup.slices
        for task in done:
            self._tick(task)
        self.boards = 0
        self.skipped = 0
        #: (path, word) placements this segment tried (their time: the estimate's unit)
        self.placements = 0
        self.started = time.monotonic()
        self.last = 0.0

    def _tick(self, task: int) -> None:
        part, _, count = _task_span(task, self.setup.chunk, self.n_paths)
        self.paths_left[part] -= count

    def add(self, task: int, scored: int, skipped: int) -> None:
        self.done += 1
        self.boards += scored
        self.skipped += skipped
        part, _, count = _task_span(task, self.setup.chunk, self.n_paths)
        self.placements += count * len(self.setup.slice_words(part, 0)[0]) - skipped
        self._tick(task)

    def boards_left(self, best: int) -> int:
        """Placements of the tasks not done whose word can still reach ``best``."""
        return sum(paths * self.setup.slice_words(part, best)[1]
                   for part, paths in enumerate(self.paths_left))

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last >= 0.25:
            self.last = now
            return True
        return False

    def snapshot(self, best: int) -> Mapping[str, int | float | str]:
        elapsed = max(time.monotonic() - self.started, 1e-9)
        left = ""
        if self.placements:
            left = duration(elapsed * self.boards_left(best) / self.placements)
        return {
            "chunks": f"{self.done:,}/{self.total:,}",
            "paths": self.n_paths,
            "words": len(self.setup.words),
            "boards scored": self.boards,
            "skipped by bound": self.skipped,
            "boards/s": round(self.boards / elapsed),
            "best": best,
            "time left": left,
        }


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(LongWord)
