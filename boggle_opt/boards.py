"""Board helpers shared by searchers: geometries, random boards, one-tile edits, ascent.

A board is a string of one symbol a cell in column-major order: for English
lower-case letters, ``q`` for Qu, with letter codes 0-25. Another language's
boards hold its alphabet's symbols (``problem.symbols``; ``core.alphabet``),
with codes 0 to ``problem.n_tiles - 1``. Every built-in searcher draws its
random boards and makes its one-tile changes here, and a plugin's searcher
can do the same.
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
from .core.alphabet import ENGLISH, Alphabet
from .core.trie import LATIN

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


def orientation(geometry: Geometry, board: str, alphabet: Alphabet = ENGLISH) -> str:
    """Which of a board's rotations and reflections it is, for people who know
    a board by another one: ``"in canonical form"`` or ``"canonical form:
    deslatper"``. Results and run files list a board in its canonical form
    (the smallest string among them); the published 3x3 ``streaedlp`` is
    listed as ``deslatper``."""
    canon = geometry.canonical(board)
    return "in canonical form" if canon == board else f"canonical form: {alphabet.write(canon)}"


def geometry_for(board: str, size: str | None, hint: str = "size='CxR'",
                 alphabet: Alphabet = ENGLISH, stored: bool = False) -> Geometry:
    """The geometry named by ``size`` (``CxR``), else the square one the board fits.

    ``hint`` is how the caller's user gives a size (the CLI: ``--size CxR``);
    ``board`` is written in ``alphabet`` (``read_board`` reads it; ``stored``:
    a board already read, whose private symbols are its own, ``Alphabet.read``)."""
    # the core's messages echo the board whole: a long one is echoed cut short
    text = board.strip()
    try:
        # ([qu] is read by the alphabet: a-z boards take the core's fast check)
        latin = alphabet.symbols == LATIN and "[" not in text
        letters = check_letters(board) if latin else alphabet.read(board, stored)
    except BoardError as exc:
        raise _named(exc, text, alphabet, stored) from None
    if not letters:  # (as English's check_letters says it)
        raise BoardError("empty board")
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
            # a tile of more letters ([ij]) is one cell: count tiles where there are such
            f"cannot infer the size of a {len(letters)}-{'letter' if alphabet.plain else 'tile'} board: "
            f"give {hint}"
        ) from None
    return make_geometry(cols, rows)


def _named(exc: BoardError, text: str, alphabet: Alphabet, stored: bool = False) -> BoardError:
    """A bad board's error as the alphabet words it: the first bracket or
    character that is no tile, with the language's tiles (``[th] is not a
    tile of french (a-z)``) and the letter to write for an accented one;
    ``exc`` itself where every character is a tile (a board of the wrong
    length)."""
    why = alphabet.problem(text.lower(), stored)
    return BoardError(f"bad board {_shown(text)}: {why}") if why else exc


def read_board(text: str, geometry: Geometry, alphabet: Alphabet = ENGLISH, stored: bool = False) -> str:
    """A board as written (English: letters, ``q`` for Qu; ``[th]`` for a
    multi-letter tile) checked for ``geometry``: one symbol a cell (``stored``:
    as ``Alphabet.read`` says)."""
    if alphabet.symbols == LATIN and "[" not in text:
        try:
            return geometry.parse(text)
        except BoardError as exc:
            raise _named(exc, text.strip(), alphabet, stored) from None
    board = alphabet.read(text, stored)
    if len(board) != geometry.n:
        raise BoardError(f"bad board {_shown(text.strip())}: {len(board)} tiles, "
                         f"but a {geometry.size} board has {geometry.n}")
    return board


def grid(geometry: Geometry, board: str, alphabet: Alphabet = ENGLISH, width: int = 1) -> str:
    """The board drawn as rows of its dice's faces (``Qu``, ``Th``, ``IJ``,
    ``ß``), each column as wide as its widest face, and at least ``width``
    (the live panel's 2 keeps a row as wide whichever tiles it shows)."""
    if alphabet.symbols == LATIN:
        return geometry.grid(board)
    faces = alphabet.faces(board)
    width = max(width, *(len(f) for f in faces))
    rows: list[str] = []
    for y in range(geometry.rows):
        cells = [faces[x * geometry.rows + y] for x in range(geometry.cols)]
        rows.append(" ".join(c.ljust(width) for c in cells).rstrip())
    return "\n".join(rows)


def latin_only(problem: Problem, searcher: str) -> None:
    """Refuse, in one line, an alphabet whose tiles are not a-z (English's
    symbols): for searchers whose classes, buckets or records are of a-z
    (bnb, longword); French, Italian, Portuguese and Dutch play on a-z."""
    alphabet = problem.dictionary.alphabet
    if alphabet.symbols != LATIN:
        raise BoardError(
            f"searcher {searcher!r} plays the 26 tiles a-z; {alphabet.name} has "
            f"{len(alphabet)} ({alphabet.describe()}): annealing, hillclimb and genetic play it")


def allowed_letters(exclude: str = "", symbols: str = LATIN) -> np.ndarray:
    """A bool mask of the tiles (by code; English's 26 letters) that may appear on a board."""
    mask = np.ones(len(symbols), dtype=bool)
    for ch in exclude:
        if ch in symbols:  # (a letter the alphabet lacks is never on its boards)
            mask[symbols.index(ch)] = False
    return mask


def random_letters(
    rng: np.random.Generator, freqs: np.ndarray, shape: int | tuple[int, ...]
) -> np.ndarray:
    """Tile codes (uint8; 0-25 for English) drawn from the frequencies ``freqs``, one a tile."""
    # inverse-CDF on one batch of uniforms: much cheaper than rng.choice per cell
    cdf = np.cumsum(freqs)
    cdf /= cdf[-1]
    codes = np.searchsorted(cdf, rng.random(shape), side="right")
    return np.minimum(codes, len(freqs) - 1).astype(np.uint8)


def board_text(codes: np.ndarray, symbols: str = LATIN) -> str:
    """Tile codes as a board string (English: letter codes 0-25)."""
    if symbols == LATIN:
        return (codes.astype(np.uint8) + A).tobytes().decode("ascii")
    return "".join([symbols[c] for c in codes.tolist()])


def random_boards(
    problem: Problem, rng: np.random.Generator, count: int, exclude: str = ""
) -> list[str]:
    """``count`` boards with letters drawn by the dictionary's letter frequencies,
    never a letter of ``exclude``."""
    allowed = allowed_letters(exclude, problem.symbols)
    freqs = problem.letter_frequencies() * allowed
    if freqs.sum() <= 0:  # the dictionary uses none of the allowed letters
        freqs = allowed.astype(np.float64)
    constraints = problem.constraints
    if constraints.active:
        return [constraints.random_board(problem.n_cells, rng, freqs) for _ in range(count)]
    codes = random_letters(rng, freqs, (count, problem.n_cells))
    return [board_text(row, problem.symbols) for row in codes]


def random_board(problem: Problem, rng: np.random.Generator, exclude: str = "") -> str:
    """One board drawn as ``random_boards`` draws them."""
    return random_boards(problem, rng, 1, exclude)[0]


def with_letter(board: str, cell: int, letter: int | str, symbols: str = LATIN) -> str:
    """``board`` with ``letter`` at ``cell``: a tile code (as ``divmod`` of a
    ``neighbourhood`` index by ``problem.n_tiles`` gives it) or a symbol of
    ``symbols`` (English: a letter code 0-25, or "a"-"z" with "q" for Qu)."""
    if isinstance(letter, str):
        low = letter.lower()
        if len(low) != 1 or low not in symbols:
            what = "one letter a-z" if symbols == LATIN else f"one of {symbols!r}"
            raise BoardError(f"with_letter: expected {what}, got {letter!r}")
        return board[:cell] + low + board[cell + 1 :]
    # numpy integers are not int, but index fine; anything else is a caller's slip
    if not 0 <= letter < len(symbols):
        raise BoardError(f"with_letter: expected a tile code 0-{len(symbols) - 1}, got {letter!r}")
    return board[:cell] + symbols[letter] + board[cell + 1 :]


def steepest_step(
    problem: Problem, board: str, score: int, allowed: np.ndarray | None = None
) -> tuple[str, int] | None:
    """The best one-tile change of ``board`` if it scores more than ``score``
    (the first such cell and tile on a tie), else None. Scores every change
    at once with ``problem.neighbourhood`` ((n_tiles - 1) * n_cells evaluations);
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
        cell, letter = divmod(best, problem.n_tiles)
        return with_letter(board, cell, letter, problem.symbols), int(scores[best])
    for best in np.argsort(-scores, kind="stable").tolist():
        if scores[best] <= score:
            return None
        cell, letter = divmod(best, problem.n_tiles)
        changed = with_letter(board, cell, letter, problem.symbols)
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


@cache
def _code_tables(symbols: str) -> tuple[dict[int, int], dict[int, int]]:
    to = {ord(s): A + i for i, s in enumerate(symbols)}
    return to, {v: k for k, v in to.items()}


def to_codes(board: str, symbols: str = LATIN) -> bytes:
    """A board as bytes, a tile's code plus ``A`` a cell (English: the board's
    ASCII), for searchers that edit boards in a bytearray or a numpy array."""
    if symbols == LATIN:
        return board.encode("ascii")
    return board.translate(_code_tables(symbols)[0]).encode("latin-1")


def from_codes(codes: bytes | bytearray, symbols: str = LATIN) -> str:
    """The board ``to_codes`` made."""
    if symbols == LATIN:
        return codes.decode("ascii")
    return codes.decode("latin-1").translate(_code_tables(symbols)[1])
