"""A genetic algorithm: uniform crossover of the best boards, letter mutations, cell swaps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import math
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import A, board_text, from_codes, random_letters, to_codes
from boggle_opt.searching.options import check
from boggle_opt.searching.interface import (
    CHECKPOINT_SECONDS, Checkpoint, Event, Improved, Problem, Progress, SearcherBase, Stopping,
)

#: each generation is held as arrays in memory: a larger one is a typo, not a search
MAX_POPULATION = 1_000_000


class GeneticSearch(SearcherBase["GeneticSearch.Options"]):
    """Genetic algorithm: the best boards breed by uniform crossover, with mutations and swaps."""

    name = "genetic"
    honours_constraints = True

    @dataclass(frozen=True, kw_only=True)
    class Options:
        population: int = field(default=100, metadata={"help": "boards in each generation"})
        breeders: int = field(default=30, metadata={
            "help": "the best this many boards are the parents of the next generation"})
        elite: int = field(default=10, metadata={
            "help": "the best this many boards survive unchanged"})
        mutation: float = field(default=0.2, metadata={
            "help": "a child has at least n letter mutations with probability mutation^n"})
        swap: float = field(default=0.2, metadata={
            "help": "a child has at least n swaps of adjacent cells with probability swap^n"})
        # a population of 100 converges within a few hundred generations;
        # starting afresh then beat waiting (docs/benchmarks.md)
        stall: int = field(default=100, metadata={
            "help": "start a new random population after this many generations without "
                    "a better board (0: never)"})
        restarts: int = field(default=0, metadata={
            "help": "populations to run (each ends after stall generations without a better board), "
                    "then stop (0: until the budget ends)"})

        def __post_init__(self) -> None:
            check(self.population >= 2, "population", "must be >= 2")
            check(self.population <= MAX_POPULATION, "population", f"must be at most {MAX_POPULATION:,}")
            check(2 <= self.breeders <= self.population, "breeders",
                  "must be between 2 and the population")
            check(0 <= self.elite < self.population, "elite",
                  "must be >= 0 and below the population")
            for name in ("mutation", "swap"):
                p = getattr(self, name)
                check(math.isfinite(p) and 0 <= p < 1, name, "must be >= 0 and < 1")
            check(self.stall >= 0, "stall", "must be >= 0")
            check(self.restarts >= 0, "restarts", "must be >= 0")

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        opts = self.options
        freqs = problem.letter_frequencies()
        ops = Operators(problem, rng, freqs)
        best_board, best = problem.known_best() or ("", -1)
        populations = 0
        #: the generation under way, as it began: (boards, scores, generation, since)
        now: tuple[np.ndarray, np.ndarray, int, int] | None = None
        from boggle_opt.runs.records import latest_state  # a search's, not the plugin's registration

        saved = latest_state(problem.resumed, self.name, problem.geometry.size)
        if saved is not None:
            populations, now, (board, score) = _restore(problem, opts, saved)
            if score > best:
                best_board, best = board, score
        checkpointed = time.monotonic()
        try:
            if best_board:
                yield Improved(best_board, best)
            while not opts.restarts or populations < opts.restarts or now is not None:
                if now is None:
                    populations += 1
                    pop = ops.random_population(opts.population)
                    now = (pop, ops.scores(pop), 0, 0)
                pop, scores, generation, since = now
                while not opts.stall or since < opts.stall:
                    now = (pop, scores, generation, since)
                    order = np.argsort(-scores, kind="stable")  # stable: ties stay seeded
                    pop, scores = pop[order], scores[order]
                    since += 1
                    if scores[0] > best:
                        best = int(scores[0])
                        best_board = board_text(pop[0], problem.symbols)
                        since = 0
                        yield Improved(best_board, best)
                    yield Progress({"generation": generation, "population": populations,
                                    "best": best, "top": int(scores[0]),
                                    "median": float(np.median(scores))})
                    if time.monotonic() - checkpointed >= CHECKPOINT_SECONDS:
                        checkpointed = time.monotonic()
                        yield Checkpoint(_record(problem, best_board, best, populations, now))
                    children = ops.children(pop[: opts.breeders], opts.population - opts.elite,
                                            opts.mutation, opts.swap)
                    pop = np.concatenate([pop[: opts.elite], children])
                    scores = np.concatenate([scores[: opts.elite], ops.scores(children)])
                    generation += 1
                now = None
        except Stopping:
            yield Checkpoint(_record(problem, best_board, best, populations, now))


def _record(problem: Problem, best_board: str, best: int, populations: int,
            now: tuple[np.ndarray, np.ndarray, int, int] | None) -> dict[str, Any]:
    """The state a resumed run continues from: the best board, the
    populations begun, and the generation under way as it began (which a
    resumed run breeds again)."""
    state: dict[str, Any] = {"best": [best_board, best], "populations": populations,
                             "generation": None}
    if now is not None:
        pop, scores, generation, since = now
        state.update(generation=generation, since=since,
                     boards=[[board_text(b, problem.symbols), int(s)] for b, s in zip(pop, scores)])
    return {"kind": GeneticSearch.name, "size": problem.geometry.size, "state": state}


def _restore(problem: Problem, opts: GeneticSearch.Options, saved: Mapping[str, Any]
             ) -> tuple[int, tuple[np.ndarray, np.ndarray, int, int] | None, tuple[str, int]]:
    """Populations begun, the generation under way and the best board of a
    checkpoint (a damaged one is a one-line ``RunFileError``)."""
    from boggle_opt.runs.records import RunFileError, check_boards, checked_pairs

    where = "run file: genetic checkpoint"
    geometry = problem.geometry
    [best] = checked_pairs([saved.get("best")], where)
    if best[1] >= 0:
        check_boards([best], geometry, where)
    numbers = {k: saved.get(k) for k in ("populations", "generation", "since")}
    if saved.get("generation") is None:
        numbers = {"populations": numbers["populations"]}
    for key, value in numbers.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise RunFileError(f"{where}: {key!r} is not a whole number >= 0")
    populations = int(saved["populations"])
    if saved.get("generation") is None:
        return populations, None, best
    boards = checked_pairs(saved.get("boards"), where)
    if len(boards) != opts.population:
        raise RunFileError(f"{where}: {len(boards)} boards, not a population of {opts.population}")
    check_boards(boards, geometry, where)
    symbols = problem.symbols
    pop = np.frombuffer(to_codes("".join(b for b, _ in boards), symbols), dtype=np.uint8)
    pop = pop.reshape(len(boards), geometry.n) - A
    scores = np.array([s for _, s in boards], dtype=np.int64)
    return populations, (pop, scores, int(saved["generation"]), int(saved["since"])), best


def at_least(rng: np.random.Generator, p: float, count: int) -> np.ndarray:
    """``count`` draws of K with P(K >= n) = p ** n (a geometric count from 0)."""
    if p <= 0:
        return np.zeros(count, dtype=np.int64)
    return rng.geometric(1.0 - p, count) - 1


class Operators:
    """Scoring, crossover and mutation on populations held as uint8 arrays (pop, cells)."""

    def __init__(self, problem: Problem, rng: np.random.Generator, freqs: np.ndarray) -> None:
        self.problem = problem
        self.rng = rng
        self.freqs = freqs
        geo = problem.geometry
        n = problem.n_cells
        self.degree = np.array([len(geo.neighbours(c)) for c in range(n)], dtype=np.int64)
        self.table = np.zeros((n, max(1, int(self.degree.max(initial=1)))), dtype=np.int64)
        # a cell with no neighbour (a 1x1 board's) swaps with itself: nothing
        self.table[:, 0] = np.arange(n)
        self.degree = np.maximum(self.degree, 1)
        for c in range(n):
            nb = geo.neighbours(c)
            self.table[c, : len(nb)] = nb
        self.constraints = problem.constraints
        fixed = self.constraints.fixed
        self.fixed_cells = np.array(sorted(fixed), dtype=np.int64)
        self.fixed_codes = np.array([problem.symbols.index(fixed[c]) for c in sorted(fixed)], dtype=np.uint8)

    def random_population(self, size: int) -> np.ndarray:
        """``size`` random boards (meeting the constraints) as letter codes."""
        n = self.problem.n_cells
        if not self.constraints.active:
            return random_letters(self.rng, self.freqs, (size, n))
        boards = [self.constraints.random_board(n, self.rng, self.freqs) for _ in range(size)]
        return np.frombuffer(to_codes("".join(boards), self.problem.symbols),
                             dtype=np.uint8).reshape(size, n) - A

    def scores(self, pop: np.ndarray) -> np.ndarray:
        """Each board's score; -1, unscored, for a board breaking a word or
        dice constraint (it is never reported, and breeds last)."""
        n = pop.shape[1]
        text = from_codes((pop + A).astype(np.uint8).tobytes(), self.problem.symbols)
        score, allowed = self.problem.score, self.problem.allowed
        check = self.constraints.per_board
        return np.array(
            [score(b) if not check or allowed(b) else -1
             for b in (text[i: i + n] for i in range(0, len(text), n))],
            dtype=np.int64,
        )

    def children(self, parents: np.ndarray, count: int, mutation: float, swap: float) -> np.ndarray:
        """``count`` children, each of two distinct random parents, mutated and swapped."""
        rng = self.rng
        k, n = parents.shape
        a = rng.integers(0, k, count)
        b = (a + rng.integers(1, k, count)) % k  # a different parent than a
        take_a = rng.random((count, n)) < 0.5
        kids = np.where(take_a, parents[a], parents[b])
        self.mutate(kids, at_least(rng, mutation, count))
        self.swap(kids, at_least(rng, swap, count))
        if len(self.fixed_cells):  # crossover keeps them; mutations and swaps may not
            kids[:, self.fixed_cells] = self.fixed_codes
        return kids

    def mutate(self, kids: np.ndarray, counts: np.ndarray) -> None:
        """Give child i ``counts[i]`` letters drawn from the letter frequencies."""
        rows = np.repeat(np.arange(len(kids)), counts)
        cells = self.rng.integers(0, kids.shape[1], len(rows))
        letters = random_letters(self.rng, self.freqs, len(rows))
        for r, c, x in zip(rows.tolist(), cells.tolist(), letters.tolist()):
            kids[r, c] = x  # in order, so a cell mutated twice keeps the last letter

    def swap(self, kids: np.ndarray, counts: np.ndarray) -> None:
        """Swap ``counts[i]`` random pairs of adjacent cells of child i, one after another."""
        rows = np.repeat(np.arange(len(kids)), counts)
        cells = self.rng.integers(0, kids.shape[1], len(rows))
        picks = self.rng.integers(0, 1 << 30, len(rows)) % self.degree[cells]
        others = self.table[cells, picks]
        for r, c, d in zip(rows.tolist(), cells.tolist(), others.tolist()):
            kids[r, c], kids[r, d] = kids[r, d], kids[r, c]


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(GeneticSearch)
