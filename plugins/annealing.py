"""Simulated annealing over letter changes, cell swaps and planted long words."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import math
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import A, from_codes, random_letters, steepest_step, to_codes
from boggle_opt.searching.options import check
from boggle_opt.searching.interface import (
    CHECKPOINT_SECONDS, Checkpoint, Event, Improved, Problem, Progress, SearcherBase, Stopping,
)

from ._plant import Planter
from ._pool import Pool

#: proposals drawn at once: numpy draws are cheap in bulk, costly one by one
BLOCK = 2048

LETTER, ADJACENT, RANDOM, PLANT = 0, 1, 2, 3

#: the improved preset's kicks after each anneal: none, since 12 took the
#: time of fresh anneals, which 5x5 boards need (docs/benchmarks.md)
KICKS = 0

#: the improved preset's quench share: off
QUENCH = 0.0

#: cells the board must have moved since the anneal's last quench before it
#: quenches again: a frozen board would only repeat the same climb
QUENCH_MOVED = 3


@dataclass(frozen=True)
class Plan:
    """The settings an anneal runs with, after the preset fills the gaps."""

    schedule: str
    tmax: float
    tmin: float
    iterations: int
    moves: tuple[float, float, float, float]
    polish: bool
    reheat: float
    reheat_tmax: float
    reheat_tlow: float
    cache: int
    scale: str
    patience: int
    pool: int
    pool_radius: float
    replant: float
    kicks: int
    quench: float


PRESETS: dict[str, Plan] = {
    # the schedule as specified: linear cooling, fresh random restarts
    "baseline": Plan("linear", 70.0, 0.0, 100_000, (0.8, 0.1, 0.1, 0.0), False, 0.0, 0.0, 0.0, 0,
                     "none", 0, 1, 0.0, 0.0, 0, 0.0),
    # geometric cooling spends its time at the low temperatures where the last
    # few hundred points are found; polishing with the neighbourhood scorer
    # ends each anneal at a local optimum; reheating from the best board
    # searches around it instead of starting from nothing; the cache skips
    # rescoring boards already seen (a stuck anneal proposes the same ones);
    # relative temperatures fit every rule (pow2 scores are 10x standard
    # ones); patience ends an anneal that has frozen; replant moves a planted
    # long word to another path (pow2's best 4x4 boards differ from their
    # neighbours only in such a word's path)
    "improved": Plan("geometric", 20.0, 0.3, 200_000, (0.8, 0.1, 0.1, 0.05), True, 0.5, 3.0, 3.0,
                     200_000, "best", 20_000, 1, 0.25, 0.5, KICKS, QUENCH),
}


#: boards of this many cells or more anneal afresh every time (reheat 0): on
#: 5x5 a reheat from the best board stays in its basin, and most 210 s runs
#: settle in one that is not the best (YAWL: 5 of 16 runs reached the best known
#: board with fresh anneals against 1 of 8 with half of them reheats; ENABLE2K
#: 8 of 8 against 6 of 8, docs/benchmarks.md); on 4x4 reheats are what reach
#: the best powers-of-two boards
FRESH_CELLS = 25

SCALES = ("none", "best", "current")


def _pos(x: float) -> bool:
    return x > 0 and math.isfinite(x)


class AnnealingSearch(SearcherBase["AnnealingSearch.Options"]):
    """Simulated annealing: change a letter or swap cells, accept worse boards while hot."""

    name = "annealing"
    honours_constraints = True

    @dataclass(frozen=True, kw_only=True)
    class Options:
        preset: str = field(default="improved", metadata={
            "help": "improved (geometric cooling, polish, reheat from the best) or "
                    "baseline (linear cooling from tmax, random restarts); "
                    "options left at none take the preset's value"})
        tmax: float | None = field(default=None, metadata={
            "help": "starting temperature (baseline: 70; improved: 20 per 1000 points)"})
        tmin: float | None = field(default=None, metadata={
            "help": "final temperature of the geometric schedule (improved: 0.3)"})
        schedule: str | None = field(default=None, metadata={
            "help": "linear: T = tmax * (1 - i/iterations); geometric: tmax down to tmin"})
        iterations: int | None = field(default=None, metadata={
            "help": "proposals per anneal (baseline: 100000, improved: 200000)"})
        restarts: int = field(default=0, metadata={
            "help": "anneals to run, then stop (0: until the budget ends)"})
        letter_moves: float | None = field(default=None, metadata={
            "help": "weight of 'change one letter' moves (default 0.8)"})
        adjacent_swaps: float | None = field(default=None, metadata={
            "help": "weight of 'swap two adjacent cells' moves (default 0.1)"})
        random_swaps: float | None = field(default=None, metadata={
            "help": "weight of 'swap two random cells' moves (default 0.1)"})
        plant_words: float | None = field(default=None, metadata={
            "help": "weight of 'write a long dictionary word along a random path' moves "
                    "(improved: 0.05)"})
        plant_length: int = field(default=8, metadata={
            "help": "shortest word (in cells) that plant-words writes"})
        replant: float | None = field(default=None, metadata={
            "help": "share of plant-words moves that, while the word last planted is "
                    "still on the board, write it again along another path instead of "
                    "a new word (improved: 0.5)"})
        polish: bool | None = field(default=None, metadata={
            "help": "hill-climb to a local optimum after each anneal (improved: true)"})
        reheat: float | None = field(default=None, metadata={
            "help": "share of restarts that start from the best board (improved: 0.5, "
                    "and 0 on boards of %d cells or more)" % FRESH_CELLS})
        reheat_tmax: float | None = field(default=None, metadata={
            "help": "hottest starting temperature of a reheat (improved: 3)"})
        reheat_tlow: float | None = field(default=None, metadata={
            "help": "coolest starting temperature of a reheat: each reheat starts at a "
                    "temperature drawn log-uniformly between the two (improved: 3; "
                    "at or above reheat-tmax: always reheat-tmax)"})
        scale: str | None = field(default=None, metadata={
            "help": "best or current: temperatures are per 1000 points of the best score so "
                    "far or of the current board, so one setting fits every rule; "
                    "none: in points (improved: best)"})
        patience: int | None = field(default=None, metadata={
            "help": "end an anneal after this many proposals without an accepted move "
                    "(improved: 20000; 0: never)"})
        cache: int | None = field(default=None, metadata={
            "help": "boards whose scores are remembered, so they are not rescored "
                    "(improved: 200000; 0: none)"})
        kicks: int | None = field(default=None, metadata={
            "help": "after each anneal's polish, kicks from the board it reached: 1-3 "
                    "random swaps and 0-2 random letters, polished again, the board kept "
                    "when it scores more (improved: %d)" % KICKS})
        quench: float | None = field(default=None, metadata={
            "help": "during an anneal, after each block of proposals, polish a copy of the "
                    "current board when it scores at least this share of the best board "
                    "and has moved %d cells since the last such quench; the anneal goes "
                    "on from where it was (improved: %g, off)" % (QUENCH_MOVED, QUENCH)})
        pool: int | None = field(default=None, metadata={
            "help": "good boards of distinct basins kept; a reheat starts from one of them "
                    "at random (improved: 1, the best board only)"})
        pool_radius: float | None = field(default=None, metadata={
            "help": "share of the cells in which two boards may differ (under the board's "
                    "best symmetry) and count as one basin, of which the pool keeps the "
                    "better (improved: 0.25; 0: only equal boards)"})

        def __post_init__(self) -> None:
            check(self.preset in PRESETS, "preset", f"must be one of {', '.join(PRESETS)}")
            check(self.tmax is None or _pos(self.tmax), "tmax", "must be > 0")
            check(self.tmin is None or _pos(self.tmin), "tmin", "must be > 0")
            check(self.schedule in (None, "linear", "geometric"), "schedule",
                  "must be linear or geometric")
            check(self.iterations is None or self.iterations >= 1, "iterations", "must be >= 1")
            check(self.restarts >= 0, "restarts", "must be >= 0")
            for name in ("letter_moves", "adjacent_swaps", "random_swaps", "plant_words"):
                w = getattr(self, name)
                check(w is None or (w >= 0 and math.isfinite(w)), name.replace("_", "-"),
                      "must be >= 0")
            check(self.reheat is None or 0 <= self.reheat <= 1, "reheat", "must be in 0..1")
            check(self.reheat_tmax is None or _pos(self.reheat_tmax), "reheat-tmax", "must be > 0")
            check(self.reheat_tlow is None or _pos(self.reheat_tlow), "reheat-tlow", "must be > 0")
            check(self.cache is None or self.cache >= 0, "cache", "must be >= 0")
            check(self.scale in (None, *SCALES), "scale", f"must be one of {', '.join(SCALES)}")
            check(self.patience is None or self.patience >= 0, "patience", "must be >= 0")
            check(self.pool is None or self.pool >= 1, "pool", "must be >= 1")
            check(self.kicks is None or self.kicks >= 0, "kicks", "must be >= 0")
            check(self.quench is None or 0 <= self.quench <= 1, "quench", "must be in 0..1")
            check(self.replant is None or 0 <= self.replant <= 1, "replant", "must be in 0..1")
            check(self.pool_radius is None or 0 <= self.pool_radius <= 1, "pool-radius",
                  "must be in 0..1")
            plan = self.plan()
            check(self.plant_length >= 2, "plant-length", "must be >= 2")
            check(sum(plan.moves) > 0, "letter-moves", "and the swap weights must not all be 0")
            check(plan.schedule != "geometric" or plan.tmin < plan.tmax, "tmin",
                  "must be below tmax")

        def plan(self, cells: int = 16) -> Plan:
            """The preset, for boards of ``cells`` cells, with every option that
            was set applied over it."""
            p = PRESETS[self.preset]
            if p.reheat > 0 and cells >= FRESH_CELLS:
                p = replace(p, reheat=0.0)
            def pick(v: float | None, d: float) -> float:
                return d if v is None else v
            moves = (pick(self.letter_moves, p.moves[0]), pick(self.adjacent_swaps, p.moves[1]),
                     pick(self.random_swaps, p.moves[2]), pick(self.plant_words, p.moves[3]))
            return Plan(
                schedule=self.schedule or p.schedule,
                tmax=pick(self.tmax, p.tmax),
                tmin=pick(self.tmin, p.tmin),
                iterations=p.iterations if self.iterations is None else self.iterations,
                moves=moves,
                polish=p.polish if self.polish is None else self.polish,
                reheat=pick(self.reheat, p.reheat),
                reheat_tmax=pick(self.reheat_tmax, p.reheat_tmax),
                reheat_tlow=pick(self.reheat_tlow, p.reheat_tlow),
                cache=p.cache if self.cache is None else self.cache,
                scale=self.scale or p.scale,
                patience=p.patience if self.patience is None else self.patience,
                pool=p.pool if self.pool is None else self.pool,
                pool_radius=pick(self.pool_radius, p.pool_radius),
                replant=pick(self.replant, p.replant),
                kicks=p.kicks if self.kicks is None else self.kicks,
                quench=pick(self.quench, p.quench),
            )

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        opts = self.options
        run = _Run(problem, rng, opts.plan(problem.n_cells), opts.restarts)
        if run.plan.moves[PLANT] > 0:
            fixed = {c: to_codes(ch, problem.symbols).decode("latin-1")
                     for c, ch in problem.constraints.fixed.items()}
            run.planter = Planter(problem.dictionary.keys, problem.geometry, opts.plant_length, rng,
                                  fixed)
        return run.resumed_events()


def temperatures(plan: Plan, start: float, i0: int, count: int) -> np.ndarray:
    """Temperatures of proposals i0 .. i0+count-1 of an anneal that starts at ``start``."""
    frac = np.arange(i0, i0 + count, dtype=np.float64) / plan.iterations
    if plan.schedule == "linear":
        return start * (1.0 - frac)
    end = min(plan.tmin, start * 0.5)  # a reheat may start below tmin
    return start * (end / start) ** frac


class _Run:
    """One search: repeated anneals, tracking the best board found."""

    def __init__(self, problem: Problem, rng: np.random.Generator, plan: Plan, restarts: int) -> None:
        self.problem = problem
        self.rng = rng
        self.plan = plan
        self.restarts = restarts
        self.freqs = problem.letter_frequencies()
        #: the alphabet: boards are edited as tile codes (``boards.to_codes``)
        self.symbols = problem.symbols
        self.n_tiles = problem.n_tiles
        geo = problem.geometry
        self.n = problem.n_cells
        self.nbrs = [geo.neighbours(c) for c in range(self.n)]
        self.planter: Planter | None = None
        self.constraints = problem.constraints
        #: cells no move may change (``--fix``)
        self.fixed = [c in self.constraints.fixed for c in range(self.n)]
        #: the cells a kick may change
        self.movable = [c for c in range(self.n) if not self.fixed[c]]
        self.cache: dict[str, int] = {}
        # a cache that could hold every board (1x1, 1x2, 1x3) would stop the
        # evaluations, so an evaluation budget would never end the run
        self.cache_size = plan.cache if self.n_tiles ** self.n > plan.cache else 0
        self.best = ""
        self.best_score = -1
        self.anneals = 0
        self.cache_hits = 0
        #: where reheats start: the best boards of distinct basins
        self.pool = Pool(plan.pool, round(plan.pool_radius * self.n), geo.symmetries)
        #: the best board of the current anneal
        self.top: tuple[str, int] = ("", -1)
        #: where the search is, for a checkpoint: "anneal" (``board`` at proposal
        #: ``step`` of an anneal from temperature ``start``, last move accepted at
        #: ``last``), "polish" (``board``), or None between anneals
        self.phase: str | None = None
        self.board: bytearray | str = ""
        self.start = 0.0
        self.step = 0
        self.last = 0
        self.checkpointed = time.monotonic()

    def record(self) -> dict[str, Any]:
        """The state a resumed run continues from (not the score cache: it refills)."""
        state: dict[str, Any] = {"best": [self.best, self.best_score], "anneals": self.anneals,
                                 "phase": self.phase, "pool": [b for b, _ in self.pool.boards]}
        if self.phase is not None:
            board = self.board
            state["board"] = from_codes(board, self.symbols) if isinstance(board, bytearray) else board
        if self.phase == "anneal":
            state.update(start=self.start, step=self.step, last=self.last)
        return {"kind": AnnealingSearch.name, "size": self.problem.geometry.size, "state": state}

    def due(self) -> Checkpoint | None:
        """A checkpoint if the last was ``CHECKPOINT_SECONDS`` ago."""
        if time.monotonic() - self.checkpointed < CHECKPOINT_SECONDS:
            return None
        self.checkpointed = time.monotonic()
        return Checkpoint(self.record())

    def resumed_events(self) -> Iterator[Event]:
        """``events``, continuing from the run's checkpoint if it is resumed; on
        ``Stopping`` one last checkpoint."""
        known = self.problem.known_best()
        if known is not None:
            self.best, self.best_score = known
        from boggle_opt.runs.records import latest_state  # a search's, not the plugin's registration

        saved = latest_state(self.problem.resumed, AnnealingSearch.name, self.problem.geometry.size)
        phase = None
        if saved is not None:
            phase, board, start, step, last = self._restore(saved)
        if self.best:
            self.pool.add(self.best, self.best_score)
        try:
            if self.best:
                yield Improved(self.best, self.best_score)
            if phase == "anneal":
                text = yield from self.anneal(bytearray(to_codes(board, self.symbols)), start, step, last)
                yield from self.finish(text)
            elif phase == "polish":
                self.pool.add(board, self.score(board))
                self.pool.add(*(yield from self.polish(board)))
            yield from self.events()
        except Stopping:
            yield Checkpoint(self.record())

    def _restore(self, saved: Mapping[str, Any]) -> tuple[str | None, str, float, int, int]:
        """Best board, anneals and where the search was, from a checkpoint (a
        damaged one is a one-line ``RunFileError``)."""
        from boggle_opt.runs.records import RunFileError, check_boards, checked_pairs

        where = "run file: annealing checkpoint"
        geometry = self.problem.geometry
        [best] = checked_pairs([saved.get("best")], where)
        if best[1] > self.best_score:
            check_boards([best], geometry, where)
            self.best, self.best_score = best
        numbers = {k: saved.get(k, 0) for k in ("anneals", "step", "last")}
        for key, value in numbers.items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise RunFileError(f"{where}: {key!r} is not a whole number >= 0")
        self.anneals = numbers["anneals"]
        pool = saved.get("pool", [])
        if not (isinstance(pool, list) and all(isinstance(b, str) for b in pool)):
            raise RunFileError(f"{where}: 'pool' is not a list of boards")
        check_boards([(b, 0) for b in pool], geometry, where)
        for b in pool:  # rescored: the file's scores are not trusted
            self.pool.add(b, self.score(b))
        phase = saved.get("phase")
        if phase is None:
            return None, "", 0.0, 0, 0
        board = saved.get("board")
        start = saved.get("start", 0.0)
        if phase not in ("anneal", "polish") or not isinstance(board, str):
            raise RunFileError(f"{where}: 'phase' is not anneal or polish, with its board")
        check_boards([(board, 0)], geometry, where)
        if phase == "anneal" and not (isinstance(start, (int, float)) and math.isfinite(start) and start > 0):
            raise RunFileError(f"{where}: 'start' is not a temperature > 0")
        return str(phase), board, float(start), numbers["step"], numbers["last"]

    def score(self, board: str) -> int:
        if not self.cache_size:
            return self.problem.score(board)
        s = self.cache.get(board)
        if s is None:
            if len(self.cache) >= self.cache_size:
                self.cache.clear()  # crude but cheap: recent boards refill it quickly
            s = self.cache[board] = self.problem.score(board)
        else:
            self.cache_hits += 1
        return s

    def improved(self, board: str, score: int) -> Improved | None:
        if score > self.best_score:
            self.best, self.best_score = board, score
            return Improved(board, score)
        return None

    def reheat_board(self) -> str:
        """Where a reheat starts: a board of the pool at random (the best board
        while the pool holds one)."""
        boards = self.pool.boards
        if len(boards) < 2:
            return self.best
        return boards[int(self.rng.integers(len(boards)))][0]

    def reheat_start(self) -> float:
        """A reheat's starting temperature: log-uniform between reheat-tlow and
        reheat-tmax, at most tmax."""
        plan = self.plan
        hi = min(plan.reheat_tmax, plan.tmax)
        lo = plan.reheat_tlow
        if not 0 < lo < hi:
            return hi
        return float(hi * (lo / hi) ** self.rng.random())

    def finish(self, text: str) -> Generator[Event, None, None]:
        """After an anneal that ended on ``text``: polish, then kick; offer the
        pool the anneal's best board and where the polish and kicks ended."""
        self.pool.add(*self.top)
        if not self.plan.polish:
            return
        text, cur = yield from self.polish(text)
        self.pool.add(text, cur)
        # iterated local search: a resumed run restarts it with the next anneal
        for _ in range(self.plan.kicks):
            kicked = self.kick(text)
            if kicked is None:
                continue
            board, score = yield from self.polish(kicked)
            if score > cur:
                text, cur = board, score
                self.pool.add(text, cur)

    def kick(self, text: str) -> str | None:
        """``text`` after 1-3 random swaps and 0-2 random letters, or None if no
        such move is allowed. A 5x5 YAWL anneal may end on 13,472, 5 cells from
        the best board (a cycle of four letters and a changed one) behind a
        drop of ~1,500 points: from there the polish after such a kick reaches
        13,625 in about 2% of tries, where one-cell moves never do."""
        rng, movable = self.rng, self.movable
        if len(movable) < 2:
            return None
        b = bytearray(to_codes(text, self.symbols))
        for _ in range(int(rng.integers(1, 4))):
            c, d = rng.choice(len(movable), 2, replace=False).tolist()
            b[movable[c]], b[movable[d]] = b[movable[d]], b[movable[c]]
        changes = int(rng.integers(0, 3))
        letters = (random_letters(rng, self.freqs, changes) + A).tolist()
        for c, letter in zip(rng.choice(len(movable), changes, replace=False).tolist(), letters):
            b[movable[c]] = letter
        kicked = from_codes(b, self.symbols)
        # fixed cells are kept by not touching them, as the anneal's moves keep them
        if kicked == text or (self.constraints.per_board and not self.problem.allowed(kicked)):
            return None
        return kicked

    def events(self) -> Iterator[Event]:
        plan = self.plan
        while not self.restarts or self.anneals < self.restarts:
            if self.best and self.rng.random() < plan.reheat:
                board = bytearray(to_codes(self.reheat_board(), self.symbols))
                start = self.reheat_start()
            elif self.constraints.active:
                text = self.constraints.random_board(self.n, self.rng, self.freqs)
                board, start = bytearray(to_codes(text, self.symbols)), plan.tmax
            else:
                codes = random_letters(self.rng, self.freqs, self.n) + A
                board, start = bytearray(codes.tobytes()), plan.tmax
            self.anneals += 1
            text = yield from self.anneal(board, start)
            yield from self.finish(text)
            self.phase = None

    def anneal(self, b: bytearray, start: float, step: int = 0, last: int = 0) -> Generator[Event, None, str]:
        """One anneal from board ``b`` (changed in place), from proposal ``step``
        (a resumed one); returns the final board."""
        self.phase, self.board, self.start, self.step, self.last = "anneal", b, start, step, last
        plan, rng, n, nbrs, planter = self.plan, self.rng, self.n, self.nbrs, self.planter
        score = self.score
        fixed, allowed = self.fixed, self.problem.allowed
        # planting may overwrite fixed cells; other moves avoid them
        check_all = self.constraints.per_board
        check_plant = self.constraints.active
        replant = plan.replant
        #: cells of the word last planted on the current board (it may be gone
        #: since); at first the longest word the board holds that could be planted
        planted = self.longest_word(from_codes(b, self.symbols)) if planter and replant else []
        text = from_codes(b, self.symbols)
        cur = score(text)
        top_score = cur
        self.top = (text, cur)
        ev = self.improved(text, cur)
        if ev:
            yield ev
        cum = np.cumsum(plan.moves) / sum(plan.moves)
        by_best = plan.scale == "best"
        by_current = plan.scale == "current"
        scale = max(self.best_score, 1) / 1000 if by_best else 1.0
        i = step
        quench = plan.quench if plan.polish else 0.0
        #: the board the anneal's last quench started from
        quenched = ""
        while i < plan.iterations:
            count = min(BLOCK, plan.iterations - i)
            if by_current:
                scale = max(cur, 1) / 1000
            temps = temperatures(plan, start, i, count) * scale
            # accept when delta >= T * log(u): the same as u < exp(delta / T)
            thr = (temps * np.log1p(-rng.random(count))).tolist()
            kinds = np.searchsorted(cum, rng.random(count), side="right").tolist()
            cells = rng.integers(0, n, count).tolist()
            others = rng.integers(0, 1 << 30, count).tolist()
            letters = (random_letters(rng, self.freqs, count) + A).tolist()
            for k in range(count):
                c = cells[k]
                kind = kinds[k]
                # make the move, keeping the board to restore if it is rejected
                if kind == LETTER:
                    if b[c] == letters[k] or fixed[c]:
                        continue
                    saved = bytes(b)
                    b[c] = letters[k]
                elif kind == PLANT:
                    saved = bytes(b)
                    if planter is None:
                        continue
                    if planted and replant and planter.random.random() < replant:
                        if not planter.replant(b, planted) or b == saved:
                            b[:] = saved
                            continue
                    elif not planter.plant(b) or b == saved:
                        continue
                else:
                    if kind == ADJACENT:
                        nb = nbrs[c]
                        if not nb:  # a 1x1 board's cell has no neighbour
                            continue
                        d = nb[others[k] % len(nb)]
                    else:
                        if n < 2:
                            continue
                        d = others[k] % (n - 1)
                        d += d >= c
                    if b[c] == b[d] or fixed[c] or fixed[d]:
                        continue
                    saved = bytes(b)
                    b[c], b[d] = b[d], b[c]
                text = from_codes(b, self.symbols)
                if (check_all or (check_plant and kind == PLANT)) and not allowed(text):
                    b[:] = saved
                    continue
                s = score(text)
                if s - cur >= thr[k]:
                    cur = s
                    last = i + k
                    if kind == PLANT and planter is not None:
                        planted = planter.last
                    if s > top_score:
                        top_score = s
                        self.top = (text, s)
                        if s > self.best_score:
                            self.best, self.best_score = text, s
                            yield Improved(text, s)
                else:
                    b[:] = saved
            i += count
            self.step, self.last = i, last
            if quench and cur >= quench * self.best_score:
                text = from_codes(b, self.symbols)
                if not quenched or _moved(text, quenched) >= QUENCH_MOVED:
                    quenched = text
                    self.pool.add(*(yield from self.polish(text, quench=True)))
            yield Progress(self.stats(temps[-1], cur))
            checkpoint = self.due()
            if checkpoint:
                yield checkpoint
            if plan.patience and i - last > plan.patience:
                break  # frozen: the rest of the schedule would only re-propose rejects
        return from_codes(b, self.symbols)

    def longest_word(self, board: str) -> list[int]:
        """Cells of the longest word on ``board`` that the planter writes (the
        first found of those as long), or [] if none."""
        if self.planter is None:
            return []
        known = self.planter.known
        best: list[int] = []
        for w in self.problem.words(board):
            if len(w.path) > len(best) and to_codes("".join(board[c] for c in w.path), self.symbols) in known:
                best = list(w.path)
        return best

    def polish(self, text: str, *, quench: bool = False) -> Generator[Event, None, tuple[str, int]]:
        """Steepest ascent over letter changes, then first ascent over swaps;
        returns the local optimum reached and its score. A quench is a polish
        in the middle of an anneal: a checkpoint still records the anneal."""
        if not quench:
            self.phase, self.board = "polish", text
        cur = self.score(text)
        while True:
            step = steepest_step(self.problem, text, cur)
            if step is not None:
                text, cur = step
            else:
                better = self._better_swap(text, cur)
                if better is None:
                    return text, cur
                text, cur = better
            if not quench:
                self.board = text
            ev = self.improved(text, cur)
            if ev:
                yield ev
            yield Progress(self.stats(0.0, cur))
            checkpoint = self.due()
            if checkpoint:
                yield checkpoint

    def _better_swap(self, text: str, cur: int) -> tuple[str, int] | None:
        b = list(text)
        fixed, check = self.fixed, self.constraints.per_board
        for c in range(self.n):
            for d in range(c + 1, self.n):
                if b[c] == b[d] or fixed[c] or fixed[d]:
                    continue
                b[c], b[d] = b[d], b[c]
                s = self.score("".join(b))
                if s > cur and (not check or self.problem.allowed("".join(b))):
                    return "".join(b), s
                b[c], b[d] = b[d], b[c]
        return None

    def stats(self, t: float, cur: int) -> dict[str, int | float | str]:
        return {"temperature": round(float(t), 2), "score": cur, "best": self.best_score,
                "anneal": self.anneals, "cache hits": self.cache_hits}


def _moved(a: str, b: str) -> int:
    """Cells in which boards ``a`` and ``b`` differ."""
    return sum(x != y for x, y in zip(a, b))


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(AnnealingSearch)
