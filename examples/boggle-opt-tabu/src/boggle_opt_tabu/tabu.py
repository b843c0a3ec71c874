"""``tabu``: tabu search over letter changes and cell swaps.

Each step moves to the best neighbour of the current board that is not tabu,
even when it scores less than the current board: that is how tabu search walks
out of a local optimum where a hill climber stops. A move that takes letter x
away from cell c makes "x at c" tabu for ``tenure`` steps, so the walk cannot
simply step back up the hill it just left. With ``aspiration`` a tabu move is
allowed anyway if it beats the best board found so far (the tabu list exists to
prevent cycling, and a new best cannot be part of a cycle).

After ``patience`` steps that did not beat the best score of the current
episode, the search perturbs the best board found (``perturb`` random cells get
random letters), clears the tabu list and walks on from there.

Letter changes are scored all at once by ``problem.neighbourhood`` (much
cheaper than scoring 25 * cells boards one by one); ``swaps`` randomly chosen
cell pairs are scored one by one on top.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from boggle_opt import Event, Improved, Problem, Progress, SearcherBase, check
from boggle_opt.boards import with_letter

_A = ord("a")
Ints = npt.NDArray[np.int64]


class TabuSearch(SearcherBase["TabuSearch.Options"]):
    """Tabu search: step to the best non-tabu neighbour, even a worse one; perturb when stuck."""

    name = "tabu"

    @dataclass(frozen=True, kw_only=True)
    class Options:
        # ENABLE2K 4x4, median evaluations to reach 3625 (seeds 1-4, "miss":
        # a seed that had not within 1.5M): swaps 16, tenure 5: 0.81M (1 miss),
        # 10: 0.84M, 20: 0.23M; swaps 60, tenure 20: 0.37M, 30: 0.86M (1 miss)
        tenure: int = field(default=20, metadata={
            "help": "steps during which a cell may not get back a letter it just lost "
                    "(0: no tabu list)"})
        # (as above) tenure 10 without swaps: 3 misses; swaps 16: 0.84M, 60: 0.48M;
        # tenure 20, all 120 pairs of 4x4: 0.19M, but each step costs 25% more
        swaps: int = field(default=16, metadata={
            "help": "random cell pairs whose swap is also tried each step "
                    "(0: letter changes only)"})
        aspiration: bool = field(default=True, metadata={
            "help": "allow a tabu move if it beats the best board found"})
        patience: int = field(default=200, metadata={
            "help": "steps without beating the episode's best before perturbing the best board"})
        perturb: int = field(default=4, metadata={
            "help": "cells of the best board given random letters to start a new episode "
                    "(0: start from a fresh random board)"})

        def __post_init__(self) -> None:
            check(self.tenure >= 0, "tenure", f"must be >= 0, got {self.tenure}")
            check(self.swaps >= 0, "swaps", f"must be >= 0, got {self.swaps}")
            check(self.patience >= 1, "patience", f"must be >= 1, got {self.patience}")
            check(self.perturb >= 0, "perturb", f"must be >= 0, got {self.perturb}")

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        return _Walk(problem, rng, self.options).events()


class _Walk:
    """The state of one search: the tabu list, the best board, the counters."""

    def __init__(self, problem: Problem, rng: np.random.Generator, options: TabuSearch.Options) -> None:
        self.problem = problem
        self.rng = rng
        self.opts = options
        n = problem.n_cells
        self.n = n
        freqs = np.asarray(problem.letter_frequencies(), dtype=np.float64)
        # a dictionary without words has no frequencies: any letter will do
        self.freqs = freqs if np.isfinite(freqs).all() and freqs.sum() > 0 else np.full(26, 1 / 26)
        #: the last step at which writing ``letter`` into ``cell`` is tabu,
        #: indexed ``cell * 26 + letter`` like ``problem.neighbourhood``
        self.tabu_until: Ints = np.zeros(n * 26, dtype=np.int64)
        self.pairs: Ints = np.array(
            [(i, j) for i in range(n) for j in range(i + 1, n)], dtype=np.int64
        ).reshape(-1, 2)
        self.step = 0
        self.best_board = ""
        self.best = -1
        self.episodes = 1

    def events(self) -> Iterator[Event]:
        opts = self.opts
        board = self.random_board()
        score = self.problem.score(board)
        episode_best, stalled = score, 0
        while True:
            if score > self.best:
                self.best_board, self.best = board, score
                yield Improved(board, score)
            if score > episode_best:
                episode_best, stalled = score, 0
            elif stalled >= opts.patience:
                board = self.perturbed()
                score = self.problem.score(board)
                self.tabu_until[:] = 0  # the old list is about a board we left
                self.episodes += 1
                episode_best, stalled = score, 0
                continue  # report the perturbed board if it happens to be a new best
            self.step += 1
            board, score = self.move(board)
            stalled += 1
            # the driver checks its budget on every event, so one per step
            # (a few milliseconds at 4x4) keeps it responsive
            yield Progress(self.stats(score))

    def move(self, board: str) -> tuple[str, int]:
        """Make the best allowed move from ``board`` and return the new board and score."""
        n, step, tabu_until = self.n, self.step, self.tabu_until
        codes = _codes(board)
        scores: Ints = np.asarray(self.problem.neighbourhood(board), dtype=np.int64)
        own = np.arange(n) * 26 + codes  # "change" a cell to its own letter: no move
        allowed = tabu_until < step
        if self.opts.aspiration:
            allowed |= scores > self.best
        allowed[own] = False
        letter_scores = np.where(allowed, scores, -1)
        pairs, swap_scores = self.swaps(board, codes)
        every = np.concatenate([letter_scores, swap_scores])
        top = int(every.max())
        if top < 0:  # a tenure longer than the neighbourhood made every move tabu
            every[: n * 26] = scores
            every[own] = -1
            top = int(every.max())
        # break ties at random, or a plateau would always be crossed the same way
        ties = np.flatnonzero(every == top)
        pick = int(ties[self.rng.integers(len(ties))]) if len(ties) > 1 else int(ties[0])
        until = step + self.opts.tenure
        if pick < n * 26:
            cell, letter = divmod(pick, 26)
            tabu_until[cell * 26 + codes[cell]] = until
            return with_letter(board, cell, letter), top
        i, j = (int(c) for c in pairs[pick - n * 26])
        tabu_until[i * 26 + codes[i]] = until
        tabu_until[j * 26 + codes[j]] = until
        return _swapped(board, i, j), top

    def swaps(self, board: str, codes: Ints) -> tuple[Ints, Ints]:
        """``swaps`` random pairs of cells with different letters, and the scores
        of swapping them (-1 where the swap is tabu)."""
        k = min(self.opts.swaps, len(self.pairs))
        if k == 0:
            return self.pairs[:0], np.zeros(0, dtype=np.int64)
        pairs = self.pairs[self.rng.choice(len(self.pairs), size=k, replace=False)]
        pairs = pairs[codes[pairs[:, 0]] != codes[pairs[:, 1]]]
        step, tabu_until, best = self.step, self.tabu_until, self.best
        aspiration = self.opts.aspiration
        scores: list[int] = []
        for i, j in pairs.tolist():
            s = self.problem.score(_swapped(board, i, j))
            # a swap writes each cell's letter into the other cell
            tabu = tabu_until[i * 26 + codes[j]] >= step or tabu_until[j * 26 + codes[i]] >= step
            scores.append(-1 if tabu and not (aspiration and s > best) else s)
        return pairs, np.array(scores, dtype=np.int64)

    def random_board(self) -> str:
        """Letters drawn by the dictionary's letter frequencies."""
        return _text(self.rng.choice(26, size=self.n, p=self.freqs))

    def perturbed(self) -> str:
        """The best board with ``perturb`` random cells given random letters."""
        k = min(self.opts.perturb, self.n)
        if k == 0:
            return self.random_board()
        codes = _codes(self.best_board).copy()
        cells = self.rng.choice(self.n, size=k, replace=False)
        codes[cells] = self.rng.choice(26, size=k, p=self.freqs)
        return _text(codes)

    def stats(self, score: int) -> dict[str, int | float | str]:
        return {
            "step": self.step,
            "score": score,
            "best": self.best,
            "tabu": int(np.count_nonzero(self.tabu_until > self.step)),
            "episode": self.episodes,
        }


def _codes(board: str) -> Ints:
    """A board's letters as codes 0-25."""
    return np.frombuffer(board.encode("ascii"), dtype=np.uint8).astype(np.int64) - _A


def _text(codes: npt.NDArray[np.integer]) -> str:
    """Letter codes 0-25 as a board string."""
    return (np.asarray(codes, dtype=np.uint8) + _A).tobytes().decode("ascii")


def _swapped(board: str, i: int, j: int) -> str:
    cells = list(board)
    cells[i], cells[j] = cells[j], cells[i]
    return "".join(cells)
