"""Board geometry: dimensions, king-move adjacency, symmetries, parsing.

Boards are strings of letters a-z in column-major order (cell 0 is the top of
the first column); the letter ``q`` stands for "Qu". Compiled with mypyc.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

from .errors import BoardError

MAX_SIDE: Final = 8


def parse_size(text: str) -> tuple[int, int]:
    """Parse ``CxR`` (columns x rows), e.g. ``3x4``; raise BoardError if impossible."""
    parts = text.strip().lower().split("x")
    if len(parts) != 2 or not parts[0].isdecimal() or not parts[1].isdecimal():
        raise BoardError(f"bad board size {text!r}: expected CxR, e.g. 4x4 or 3x4")
    if len(parts[0].lstrip("0")) > 6 or len(parts[1].lstrip("0")) > 6:
        # far past MAX_SIDE, and int() refuses over 4,300 digits
        raise BoardError(f"impossible board size {text.strip()[:20]!r}...: "
                         f"each side must be 1 to {MAX_SIDE}")
    cols = int(parts[0])
    rows = int(parts[1])
    check_size(cols, rows)
    return cols, rows


def check_size(cols: int, rows: int) -> None:
    if cols < 1 or rows < 1 or cols > MAX_SIDE or rows > MAX_SIDE:
        raise BoardError(
            f"impossible board size {cols}x{rows}: each side must be 1 to {MAX_SIDE}"
        )


def infer_size(n_letters: int) -> tuple[int, int]:
    """The square size for a board of ``n_letters`` letters, if it is whole."""
    side = 0
    while (side + 1) * (side + 1) <= n_letters:
        side += 1
    if n_letters == 0 or side * side != n_letters or side > MAX_SIDE:
        raise BoardError(
            f"cannot infer the size of a {n_letters}-letter board: give --size CxR"
        )
    return side, side


def check_letters(text: str) -> str:
    """The board lower-cased, if it is non-empty and only letters a-z."""
    board = text.strip().lower()
    if not board:
        raise BoardError("empty board")
    for ch in board:
        if ch < "a" or ch > "z":
            raise BoardError(f"bad board {text.strip()!r}: character {ch!r} is not a letter a-z")
    return board


class Geometry:
    """Cells, neighbours and symmetries of a ``cols`` x ``rows`` board."""

    cols: i64
    rows: i64
    n: i64
    # neighbours of cell c are nbrs[nbr_start[c]:nbr_start[c + 1]]
    nbr_start: list[int]
    nbrs: list[int]
    symmetries: list[list[int]]

    def __init__(self, cols: int, rows: int) -> None:
        check_size(cols, rows)
        self.cols = cols
        self.rows = rows
        self.n = cols * rows
        self.nbr_start = [0]
        self.nbrs = []
        for c in range(self.n):
            x = c // rows
            y = c % rows
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    nx = x + dx
                    ny = y + dy
                    if (dx or dy) and 0 <= nx < cols and 0 <= ny < rows:
                        self.nbrs.append(nx * rows + ny)
            self.nbr_start.append(len(self.nbrs))
        self.symmetries = self._symmetries()

    @property
    def size(self) -> str:
        return f"{self.cols}x{self.rows}"

    def neighbours(self, cell: int) -> list[int]:
        return self.nbrs[self.nbr_start[cell] : self.nbr_start[cell + 1]]

    def cell(self, x: int, y: int) -> int:
        """Index of the cell in column ``x``, row ``y`` (column-major)."""
        return x * self.rows + y

    def _symmetries(self) -> list[list[int]]:
        """Permutations p with board'[i] = board[p[i]], identity first."""
        cols = self.cols
        rows = self.rows
        maps: list[list[int]] = []
        # (x, y) -> source (x', y'); rectangles keep only their 4 symmetries
        transforms: list[tuple[int, int, int, int, int, int]] = [
            # sx = a*x + b*y + c (mod nothing), sy = d*x + e*y + f
            (1, 0, 0, 0, 1, 0),
            (-1, 0, cols - 1, 0, 1, 0),
            (1, 0, 0, 0, -1, rows - 1),
            (-1, 0, cols - 1, 0, -1, rows - 1),
        ]
        if cols == rows:
            m = cols - 1
            transforms += [
                (0, 1, 0, 1, 0, 0),
                (0, -1, m, 1, 0, 0),
                (0, 1, 0, -1, 0, m),
                (0, -1, m, -1, 0, m),
            ]
        for a, b, c, d, e, f in transforms:
            perm: list[int] = []
            for i in range(self.n):
                x = i // rows
                y = i % rows
                perm.append((a * x + b * y + c) * rows + (d * x + e * y + f))
            if perm not in maps:
                maps.append(perm)
        return maps

    def variants(self, board: str) -> list[str]:
        """The board under every symmetry (identity first, possibly repeated)."""
        return ["".join([board[p] for p in perm]) for perm in self.symmetries]

    def canonical(self, board: str) -> str:
        """The lexicographically smallest equivalent of ``board``."""
        return min(self.variants(board))

    def parse(self, text: str) -> str:
        """Validate a board string for these dimensions; return it lower-cased."""
        board = check_letters(text)
        if len(board) != self.n:
            raise BoardError(
                f"bad board {board!r}: {len(board)} letters, "
                f"but a {self.size} board has {self.n}"
            )
        return board

    def grid(self, board: str) -> str:
        """The board drawn as rows of letters, ``q`` shown as ``Qu``."""
        lines: list[str] = []
        for y in range(self.rows):
            cells: list[str] = []
            for x in range(self.cols):
                ch = board[x * self.rows + y]
                cells.append("Qu" if ch == "q" else ch.upper() + " ")
            lines.append(" ".join(cells).rstrip())
        return "\n".join(lines)
