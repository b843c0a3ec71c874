"""Board helpers shared by searchers: geometries, random boards, one-letter edits, ascent.

A board is a string of lower-case letters in column-major order; letter
codes are 0-25. Every built-in searcher draws its random boards and makes its
one-letter changes here, and a plugin's searcher can do the same.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from .lazy import numpy as np

from .constraints.fixed import random_path as random_path
from .core.errors import BoardError
from .core.geometry import Geometry, check_letters, infer_size, parse_size

if TYPE_CHECKING:
    from .searching.interface import Problem

A: int = ord("a")
#: the characters of a board an error message echoes at most
_ECHOED = 40


def _shown(text: str, limit: int = _ECHOED) -> str:
    """``text`` as an error message echoes it: quoted, and cut to ``limit``
    characters (a 2 MB line of NULs must not come back as 8 MB of ``\\x00``)."""
    quoted = repr(text[:limit])
    if len(quoted) <= limit and len(text) <= limit:
        return quoted
    return f"{quoted[:limit]}... ({len(text):,} characters)"


@cache
def make_geometry(cols: int, rows: int) -> Geometry:
    """The geometry of a ``cols`` x ``rows`` board, made once per size.

    A geometry is immutable and building one computes every symmetry.
    """
    return Geometry(cols, rows)


def size_geometry(size: str) -> Geometry:
    """The geometry named by ``size`` (``CxR``)."""
    return make_geometry(*parse_size(size))


def orientation(geometry: Geometry, board: str) -> str:
    """Which of a board's rotations and reflections it is, for people who know
    a board by another one: ``"in canonical form"`` or ``"canonical form:
    deslatper"``. Results and run files list a board in its canonical form
    (the smallest string among them); the published 3x3 ``streaedlp`` is
    listed as ``deslatper``."""
    canon = geometry.canonical(board)
    return "in canonical form" if canon == board else f"canonical form: {canon}"


def geometry_for(board: str, size: str | None, hint: str = "size='CxR'") -> Geometry:
    """The geometry named by ``size`` (``CxR``), else the square one the board fits.

    ``hint`` is how the caller's user gives a size (the CLI: ``--size CxR``)."""
    # the core's messages echo the board whole: a long one is echoed cut short
    text = board.strip()
    try:
        letters = check_letters(board)
    except BoardError:
        if len(text) <= _ECHOED:
            raise
        bad = next(ch for ch in text.lower() if not "a" <= ch <= "z")
        raise BoardError(f"bad board {_shown(text)}: character {bad!r} is not a letter a-z") from None
    if size is not None:
        geometry = make_geometry(*parse_size(size))
        if len(letters) != geometry.n and len(letters) > _ECHOED:
            raise BoardError(f"bad board {_shown(letters)}: {len(letters):,} letters, "
                             f"but a {geometry.size} board has {geometry.n}")
        return geometry
    try:
        cols, rows = infer_size(len(letters))
    except BoardError:
        raise BoardError(
            f"cannot infer the size of a {len(letters)}-letter board: give {hint}"
        ) from None
    return make_geometry(cols, rows)


def allowed_letters(exclude: str = "") -> np.ndarray:
    """A bool mask of the 26 letters that may appear on a board."""
    mask = np.ones(26, dtype=bool)
    for ch in exclude:
        mask[ord(ch) - A] = False
    return mask


def random_letters(
    rng: np.random.Generator, freqs: np.ndarray, shape: int | tuple[int, ...]
) -> np.ndarray:
    """Letter codes 0-25 (uint8) drawn from the letter frequencies ``freqs``."""
    # inverse-CDF on one batch of uniforms: much cheaper than rng.choice per cell
    cdf = np.cumsum(freqs)
    cdf /= cdf[-1]
    codes = np.searchsorted(cdf, rng.random(shape), side="right")
    return np.minimum(codes, 25).astype(np.uint8)


def board_text(codes: np.ndarray) -> str:
    """Letter codes 0-25 as a board string."""
    return (codes.astype(np.uint8) + A).tobytes().decode("ascii")


def random_boards(
    problem: Problem, rng: np.random.Generator, count: int, exclude: str = ""
) -> list[str]:
    """``count`` boards with letters drawn by the dictionary's letter frequencies,
    never a letter of ``exclude``."""
    allowed = allowed_letters(exclude)
    freqs = problem.letter_frequencies() * allowed
    if freqs.sum() <= 0:  # the dictionary uses none of the allowed letters
        freqs = allowed.astype(np.float64)
    constraints = problem.constraints
    if constraints.active:
        return [constraints.random_board(problem.n_cells, rng, freqs) for _ in range(count)]
    codes = random_letters(rng, freqs, (count, problem.n_cells))
    return [board_text(row) for row in codes]


def random_board(problem: Problem, rng: np.random.Generator, exclude: str = "") -> str:
    """One board drawn as ``random_boards`` draws them."""
    return random_boards(problem, rng, 1, exclude)[0]


def with_letter(board: str, cell: int, letter: int | str) -> str:
    """``board`` with ``letter`` at ``cell``: a letter code 0-25 (as ``divmod`` of a
    ``neighbourhood`` index gives it) or a letter "a"-"z" ("q" for Qu)."""
    if isinstance(letter, str):
        if len(letter) != 1 or not "a" <= letter.lower() <= "z":
            raise BoardError(f"with_letter: expected one letter a-z, got {letter!r}")
        return board[:cell] + letter.lower() + board[cell + 1 :]
    # numpy integers are not int, but index fine; anything else is a caller's slip
    if not 0 <= letter <= 25:
        raise BoardError(f"with_letter: expected a letter code 0-25, got {letter!r}")
    return board[:cell] + chr(A + letter) + board[cell + 1 :]


def steepest_step(
    problem: Problem, board: str, score: int, allowed: np.ndarray | None = None
) -> tuple[str, int] | None:
    """The best one-letter change of ``board`` if it scores more than ``score``
    (the first such cell and letter on a tie), else None. Scores every change
    at once with ``problem.neighbourhood`` (25 * n_cells evaluations);
    ``allowed`` (see ``allowed_letters``) keeps other letters off the board.
    Only changes that keep ``problem.constraints`` count."""
    scores = np.asarray(problem.neighbourhood(board), dtype=np.int64)
    if allowed is not None:
        scores[~np.tile(allowed, problem.n_cells)] = -1
    constraints = problem.constraints
    if constraints.active:
        scores[~constraints.change_mask(problem.n_cells)] = -1
    if not constraints.per_board:
        best = int(np.argmax(scores))
        if scores[best] <= score:
            return None
        cell, letter = divmod(best, 26)
        return with_letter(board, cell, letter), int(scores[best])
    for best in np.argsort(-scores, kind="stable").tolist():
        if scores[best] <= score:
            return None
        cell, letter = divmod(best, 26)
        changed = with_letter(board, cell, letter)
        if problem.allowed(changed):
            return changed, int(scores[best])
    return None


def steepest_ascent(
    problem: Problem, board: str, score: int, allowed: np.ndarray | None = None
) -> tuple[str, int]:
    """Take the best one-letter change until none scores more: a local optimum."""
    while (step := steepest_step(problem, board, score, allowed)) is not None:
        board, score = step
    return board, score
