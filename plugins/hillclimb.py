"""``hillclimb``: the pool method of hill climbing.

Keep the ``pool-size`` best distinct boards. Each round, every board one edit
away from a pool board (one letter changed, or two cells swapped) is a
candidate, and the pool becomes the best ``pool-size`` distinct boards among
pool and candidates. A climb ends when a round leaves the pool unchanged; the
search then restarts from a fresh random pool (letters drawn by the
dictionary's letter frequencies) until the budget ends or ``restarts`` climbs
are done.

Only boards new to the pool are expanded: with ties broken in favour of boards
already in the pool, a neighbour rejected once can never enter later (the
pool's weakest score only rises), so re-expanding old boards would change
nothing. Letter changes come from ``problem.neighbourhood`` (all 25 * n at
once); swaps are scored one by one, and only between cells with different
letters (``swaps``: all pairs, only adjacent cells, or none).

What was measured (pool sizes, swap kinds, rules, a swap cache that did not
pay) is in docs/benchmarks.md.

For other searchers (e.g. branch and bound wanting a good lower bound fast):

* ``quick_best(problem, rng, seconds=..., evaluations=...)`` runs climbs until
  a limit and returns ``(board, score)``; it does not yield, so keep it short.
* ``yield from HillClimb(HillClimb.Options(restarts=1)).search(problem, rng)``
  runs one climb inside another searcher's generator (the driver can still
  stop it), and its ``Improved`` events report what it found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import A, allowed_letters, random_boards, to_codes, with_letter
from boggle_opt.searching.options import check
from boggle_opt.searching.interface import (
    CHECKPOINT_SECONDS, Checkpoint, Event, Improved, Problem, Progress, SearcherBase, Stopping,
)

__all__ = ["HillClimb", "PoolClimb", "allowed_letters", "quick_best", "random_boards"]

SWAP_KINDS = ("all", "adjacent", "none")
#: the pool is held as arrays in memory: a larger one is a typo, not a search
MAX_POOL_SIZE = 1_000_000


class HillClimb(SearcherBase["HillClimb.Options"]):
    """Pool hill climbing: keep the N best boards, expand by letter changes and swaps."""

    name = "hillclimb"
    honours_constraints = True

    @dataclass(frozen=True, kw_only=True)
    class Options:
        pool_size: int = field(default=500, metadata={"help": "boards kept in the pool"})
        restarts: int = field(
            default=0, metadata={"help": "climbs from a random pool to run (0: until the budget ends)"}
        )
        exclude: str = field(
            default="", metadata={"help": "letters never placed on a board, e.g. q or jqxz"}
        )
        swaps: str = field(
            # adjacent: 5/5 seeds reached 3625 on ENABLE2K 4x4 (median 2.10M
            # evaluations); all pairs: 4/5 (2.22M); none: 3/5
            default="adjacent",
            metadata={"help": "cell swaps tried besides letter changes: all pairs, adjacent, or none"},
        )
        canonical: bool = field(
            default=True,
            metadata={"help": "treat boards equal under rotation or reflection as one pool entry"},
        )

        def __post_init__(self) -> None:
            check(self.pool_size >= 1, "pool-size", f"must be >= 1, got {self.pool_size}")
            check(self.pool_size <= MAX_POOL_SIZE, "pool-size",
                  f"must be at most {MAX_POOL_SIZE:,}, got {self.pool_size}")
            check(self.restarts >= 0, "restarts", f"must be >= 0, got {self.restarts}")
            check(
                self.swaps in SWAP_KINDS, "swaps",
                f"must be one of {', '.join(SWAP_KINDS)}, got {self.swaps!r}",
            )
            check(
                all("a" <= ch <= "z" for ch in self.exclude),
                "exclude",
                f"must be letters a-z, got {self.exclude!r}",
            )
            check(
                len(set(self.exclude)) < 26, "exclude", "must leave at least one letter"
            )

    def search(
        self, problem: Problem, rng: np.random.Generator
    ) -> Generator[Event, None, None]:
        opts = self.options
        best_board, best = problem.known_best() or ("", -1)
        restart = 0
        climb: PoolClimb | None = None
        from boggle_opt.runs.records import latest_state  # a search's, not the plugin's registration

        saved = latest_state(problem.resumed, self.name, problem.geometry.size)
        if saved is not None:
            # a resumed run: the climb it was in, with its pool, and its best
            climb, restart, (board, score) = _restore(problem, opts, saved)
            if score > best:
                best_board, best = board, score
        checkpointed = time.monotonic()
        try:
            if best_board:
                yield Improved(best_board, best)
            while climb is not None or opts.restarts == 0 or restart < opts.restarts:
                if climb is None:
                    restart += 1
                    climb = PoolClimb(problem, opts)
                    events = climb.run(rng, best)
                else:
                    events = climb.climb(best)
                for ev in events:
                    if isinstance(ev, Improved):
                        best_board, best = ev.board, ev.score
                    elif isinstance(ev, Progress):
                        ev = Progress({"restart": restart, **ev.stats})
                    yield ev
                    if time.monotonic() - checkpointed >= CHECKPOINT_SECONDS:
                        checkpointed = time.monotonic()
                        yield Checkpoint(_record(problem, best_board, best, restart, climb))
                yield Progress(
                    {"restart": restart, "round": climb.rounds, "pool_min": climb.pool_min,
                     "pool_max": climb.pool_max, "best": best, "climb_done": 1}
                )
                climb = None
        except Stopping:
            yield Checkpoint(_record(problem, best_board, best, restart, climb))


def _record(problem: Problem, best_board: str, best: int, restart: int,
            climb: PoolClimb | None) -> dict[str, Any]:
    """The state a resumed run continues from: the best board, the climbs
    begun, and the pool of the climb under way (as it was before the round
    under way, which a resumed run does again)."""
    state: dict[str, Any] = {"best": [best_board, best], "restart": restart, "pool": None}
    if climb is not None:
        if climb.boards:
            state["pool"] = [[b, int(s)] for b, s in zip(climb.boards, climb.scores)]
            state["fresh"] = list(climb.fresh)
            state["round"] = climb.rounds
        else:  # stopped while seeding: that climb starts afresh
            state["restart"] = restart - 1
    return {"kind": HillClimb.name, "size": problem.geometry.size, "state": state}


def _restore(problem: Problem, opts: HillClimb.Options,
             saved: Mapping[str, Any]) -> tuple[PoolClimb | None, int, tuple[str, int]]:
    """The climb, climbs begun and best board of a checkpointed state (a
    damaged one is a one-line ``RunFileError``)."""
    from boggle_opt.runs.records import RunFileError, check_boards, checked_pairs

    where = "run file: hillclimb checkpoint"
    geometry = problem.geometry
    [best] = checked_pairs([saved.get("best")], where)
    if best[1] >= 0:
        check_boards([best], geometry, where)
    restart = saved.get("restart")
    if not isinstance(restart, int) or isinstance(restart, bool) or restart < 0:
        raise RunFileError(f"{where}: 'restart' is not a whole number >= 0")
    if saved.get("pool") is None:
        return None, restart, best
    pool = checked_pairs(saved.get("pool"), where)[: opts.pool_size]
    check_boards(pool, geometry, where)
    fresh = saved.get("fresh")
    if not (isinstance(fresh, list) and len(fresh) >= len(pool) and all(isinstance(f, bool) for f in fresh)):
        raise RunFileError(f"{where}: 'fresh' is not a list of true/false, one per pool board")
    rounds = saved.get("round")
    climb = PoolClimb(problem, opts)
    climb.restore(pool, fresh[: len(pool)], rounds if isinstance(rounds, int) else 0)
    return climb, restart, best


class PoolClimb:
    """One climb: a pool of distinct boards sorted best first, improved round by round.

    ``boards`` and ``scores`` are the pool (scores descending, ties in order
    of arrival); ``fresh`` marks the boards not yet expanded.
    """

    def __init__(self, problem: Problem, options: HillClimb.Options) -> None:
        self.problem = problem
        self.options = options
        n = problem.n_cells
        self.n = n
        self.key: Callable[[str], str] = (
            problem.geometry.canonical if options.canonical else _identity
        )
        allowed = allowed_letters(options.exclude, problem.symbols)
        # a letter change is wanted if the letter is allowed; the board's own
        # letter at a cell (the board itself) is masked per board
        self.allowed_codes = np.tile(allowed, n) & problem.constraints.change_mask(n)
        #: a letter change or swap can break a word or dice constraint: check each
        self.check = problem.constraints.per_board
        self.boards: list[str] = []
        self.scores = np.zeros(0, dtype=np.int64)
        self.fresh: list[bool] = []
        self.keys: set[str] = set()
        self.rounds = 0
        geo = problem.geometry
        fixed = problem.constraints.fixed
        #: cell pairs a swap may exchange (never a fixed cell)
        self.swap_pairs: list[tuple[int, int]] = [
            (i, j)
            for i in range(n)
            for j in range(i + 1, n)
            if (options.swaps == "all" or (options.swaps == "adjacent" and j in geo.neighbours(i)))
            and i not in fixed and j not in fixed
        ]

    @property
    def pool_min(self) -> int:
        return int(self.scores[-1]) if len(self.scores) else -1

    @property
    def pool_max(self) -> int:
        return int(self.scores[0]) if len(self.scores) else -1

    def stats(self) -> dict[str, int | float | str]:
        return {"round": self.rounds, "pool_min": self.pool_min, "pool_max": self.pool_max,
                "pool": len(self.boards)}

    def seed(self, boards: list[str]) -> Iterator[Event]:
        """Score ``boards`` and make them the pool (best distinct first)."""
        scores: list[int] = []
        for i, b in enumerate(boards):
            scores.append(self.problem.score(b))
            if i % 64 == 63:
                yield Progress({"seeding": i + 1})
        self._select([], np.zeros(0, dtype=np.int64), boards, np.array(scores, dtype=np.int64))

    def restore(self, pool: list[tuple[str, int]], fresh: list[bool], rounds: int) -> None:
        """The pool of a checkpoint: boards and scores best first, which are fresh."""
        order = sorted(range(len(pool)), key=lambda i: -pool[i][1])  # stable: ties keep their order
        self.boards = [pool[i][0] for i in order]
        self.scores = np.array([pool[i][1] for i in order], dtype=np.int64)
        self.fresh = [fresh[i] for i in order]
        self.keys = {self.key(b) for b in self.boards}
        self.rounds = rounds

    def run(self, rng: np.random.Generator, best: int = -1) -> Iterator[Event]:
        """Seed a random pool and climb until it is stable; ``best`` is the
        score to beat before reporting ``Improved``."""
        opts = self.options
        yield from self.seed(random_boards(self.problem, rng, opts.pool_size, opts.exclude))
        if self.pool_max > best:
            best = self.pool_max
            yield Improved(self.boards[0], best)
        yield from self.climb(best)

    def climb(self, best: int = -1) -> Iterator[Event]:
        """Round after round until the pool is stable (no fresh board left)."""
        changed = any(self.fresh)
        while changed:
            changed = False
            for ev in self.round(best):
                if isinstance(ev, Improved):
                    best = ev.score
                yield ev
            changed = any(self.fresh)

    def round(self, best: int = -1) -> Iterator[Event]:
        """Expand the pool's fresh boards once and select the new pool.

        Yields ``Improved`` for any neighbour beating ``best`` as soon as it
        is scored, and ``Progress`` after each board expanded.
        """
        self.rounds += 1
        problem, n = self.problem, self.n
        full = len(self.boards) >= self.options.pool_size
        # a candidate must beat the pool's weakest board to get in (ties keep
        # the board already there)
        floor = self.pool_min if full else -1
        cand_scores: list[np.ndarray] = []
        cand_boards: list[list[str]] = []
        # ``fresh`` stays as it is until ``_select``: a run stopped in mid-round
        # checkpoints the pool as the round found it
        to_expand = [i for i, f in enumerate(self.fresh) if f]
        symbols, nt = problem.symbols, problem.n_tiles
        for i in to_expand:
            board = self.boards[i]
            letters = np.frombuffer(to_codes(board, symbols), dtype=np.uint8) - A
            out = np.asarray(problem.neighbourhood(board), dtype=np.int64)
            want = self.allowed_codes.copy()
            want[np.arange(n) * nt + letters] = False  # the board itself
            want &= out > floor
            codes = np.flatnonzero(want)
            made: list[str] = [with_letter(board, int(c) // nt, int(c) % nt, symbols) for c in codes]
            got = out[codes]
            if self.check:
                keep = [k for k, b in enumerate(made) if problem.allowed(b)]
                made, got = [made[k] for k in keep], got[keep]
            if self.swap_pairs:
                s_boards, s_scores = self._swaps(board, floor)
                made += s_boards
                got = np.concatenate([got, np.asarray(s_scores, dtype=np.int64)])
            if len(got):
                top = int(np.argmax(got))
                if got[top] > best:
                    best = int(got[top])
                    yield Improved(made[top], best)
                cand_boards.append(made)
                cand_scores.append(got)
            yield Progress(self.stats())
        boards = [b for bs in cand_boards for b in bs]
        scores = np.concatenate(cand_scores) if cand_scores else np.zeros(0, dtype=np.int64)
        self._select(self.boards, self.scores, boards, scores)

    def _swaps(self, board: str, floor: int) -> tuple[list[str], list[int]]:
        """Boards with two cells of different letters swapped that beat ``floor``."""
        cells = list(board)
        boards: list[str] = []
        scores: list[int] = []
        score_board = self.problem.score
        for i, j in self.swap_pairs:
            a = cells[i]
            b = cells[j]
            if a == b:
                continue
            cells[i], cells[j] = b, a
            s = "".join(cells)
            cells[i], cells[j] = a, b
            score = score_board(s)
            if score > floor and (not self.check or self.problem.allowed(s)):
                boards.append(s)
                scores.append(score)
        return boards, scores

    def _select(
        self, old: list[str], old_scores: np.ndarray, new: list[str], new_scores: np.ndarray
    ) -> None:
        """The best ``pool_size`` distinct boards of old then new, best first;
        ties keep the earlier (so old pool boards win them)."""
        boards = old + new
        scores = np.concatenate([old_scores, new_scores])
        order = np.argsort(-scores, kind="stable")
        size = self.options.pool_size
        keep_boards: list[str] = []
        keep_scores: list[int] = []
        fresh: list[bool] = []
        keys: set[str] = set()
        n_old = len(old)
        for idx in order:
            i = int(idx)
            b = boards[i]
            k = self.key(b)
            if k in keys:
                continue
            keys.add(k)
            keep_boards.append(b)
            keep_scores.append(int(scores[i]))
            fresh.append(i >= n_old)
            if len(keep_boards) == size:
                break
        self.boards = keep_boards
        self.scores = np.array(keep_scores, dtype=np.int64)
        self.fresh = fresh
        self.keys = keys


def _identity(board: str) -> str:
    return board


def quick_best(
    problem: Problem,
    rng: np.random.Generator,
    seconds: float | None = None,
    evaluations: int | None = None,
    options: HillClimb.Options | None = None,
) -> tuple[str, int]:
    """The best board found by pool climbs until ``seconds`` (wall time) or
    ``evaluations`` (counted on ``problem``) run out, or ``options.restarts``
    climbs end; with no limit at all, one climb. Checks the limits after each
    board expanded, so it may overrun by one expansion. Without ``options``
    the pool is 5 boards, which did best in a few seconds (docs/benchmarks.md)."""
    best_board, best = "", -1
    for best_board, best in climb_steps(problem, rng, seconds, evaluations, options):
        pass
    return best_board, best


def climb_steps(
    problem: Problem,
    rng: np.random.Generator,
    seconds: float | None = None,
    evaluations: int | None = None,
    options: HillClimb.Options | None = None,
) -> Iterator[tuple[str, int]]:
    """``quick_best``'s climb, step by step: the best board so far and its score
    (``""``, -1 before any) after each event of the climb, for a caller that
    shows its progress."""
    if options is None:
        options = HillClimb.Options(pool_size=5, restarts=0 if seconds or evaluations else 1)
    start = time.monotonic()
    stop_evals = problem.evaluations + evaluations if evaluations is not None else None
    best_board, best = "", -1
    events = HillClimb(options).search(problem, rng)
    try:
        for ev in events:
            if isinstance(ev, Improved) and ev.score > best:
                best_board, best = ev.board, ev.score
            yield best_board, best
            if seconds is not None and time.monotonic() - start >= seconds:
                break
            if stop_evals is not None and problem.evaluations >= stop_evals:
                break
    finally:
        events.close()


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(HillClimb)
