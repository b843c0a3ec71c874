"""Board geometry: adjacency, column-major cells, symmetries, parsing, sizes.

Most tests run on both builds of the core (the installed, compiled one and the
same source as plain Python) through the ``core`` fixture.
"""

from __future__ import annotations

import itertools

import pytest

from boggle_opt.core.errors import BoardError
from boggle_opt.core.geometry import Geometry

SIZES = [(1, 1), (1, 4), (4, 1), (2, 2), (3, 3), (3, 4), (4, 3), (4, 4), (2, 5), (5, 5), (8, 8)]


def king_neighbours(cols: int, rows: int, cell: int) -> set[int]:
    """Independent adjacency: king moves on a column-major grid."""
    x, y = divmod(cell, rows)
    return {
        nx * rows + ny
        for nx in range(cols)
        for ny in range(rows)
        if max(abs(nx - x), abs(ny - y)) == 1
    }


def adjacent(cols: int, rows: int, a: int, b: int) -> bool:
    return b in king_neighbours(cols, rows, a)


def grid_of(board: str, cols: int, rows: int) -> list[list[str]]:
    """The board as grid[y][x] (row y, column x), read column-major."""
    return [[board[x * rows + y] for x in range(cols)] for y in range(rows)]


def board_of(grid: list[list[str]]) -> str:
    rows, cols = len(grid), len(grid[0])
    return "".join(grid[y][x] for x in range(cols) for y in range(rows))


def dihedral_variants(board: str, cols: int, rows: int) -> set[str]:
    """Independent symmetries: flips and rotations done on a 2-D grid."""
    g = grid_of(board, cols, rows)
    flips = [
        g,
        [row[::-1] for row in g],
        g[::-1],
        [row[::-1] for row in g[::-1]],
    ]
    out = {board_of(f) for f in flips}
    if cols == rows:
        transposed = [list(r) for r in zip(*g)]
        out |= {
            board_of(transposed),
            board_of([row[::-1] for row in transposed]),
            board_of(transposed[::-1]),
            board_of([row[::-1] for row in transposed[::-1]]),
        }
    return out


LETTERS = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmn"


# -- adjacency and cells -------------------------------------------------------------


def test_4x4_neighbour_counts(core):
    g = core.geometry.Geometry(4, 4)
    counts = [len(g.neighbours(c)) for c in range(16)]
    corners = {0, 3, 12, 15}
    interior = {5, 6, 9, 10}
    for c, n in enumerate(counts):
        assert n == (3 if c in corners else 8 if c in interior else 5), c


@pytest.mark.parametrize("cols, rows", SIZES)
def test_neighbours_are_king_moves(core, cols, rows):
    g = core.geometry.Geometry(cols, rows)
    assert g.n == cols * rows
    for c in range(g.n):
        nbrs = g.neighbours(c)
        assert len(nbrs) == len(set(nbrs))
        assert set(nbrs) == king_neighbours(cols, rows, c), c


def test_1x1_has_no_neighbours(core):
    g = core.geometry.Geometry(1, 1)
    assert g.n == 1
    assert g.neighbours(0) == []


@pytest.mark.parametrize("cols, rows", [(1, 4), (4, 1)])
def test_line(core, cols, rows):
    g = core.geometry.Geometry(cols, rows)
    assert [sorted(g.neighbours(c)) for c in range(4)] == [[1], [0, 2], [1, 3], [2]]


def test_column_major_cells(core):
    g = core.geometry.Geometry(3, 4)
    assert g.size == "3x4"
    assert (g.cols, g.rows) == (3, 4)
    assert g.cell(0, 0) == 0
    assert g.cell(0, 1) == 1  # down the first column
    assert g.cell(0, 3) == 3  # bottom of the first column: R - 1
    assert g.cell(1, 0) == 4  # top of the second column: R
    assert g.cell(2, 3) == 11
    # cell 3 (bottom of column 0) and cell 4 (top of column 1) are not adjacent
    assert 4 not in g.neighbours(3)
    assert set(g.neighbours(0)) == {1, 4, 5}


def test_grid_reads_column_major(core):
    g = core.geometry.Geometry(3, 4)
    rows = [line.split() for line in g.grid("perslatesinq").splitlines()]
    assert rows == [["P", "L", "S"], ["E", "A", "I"], ["R", "T", "N"], ["S", "E", "Qu"]]


# -- symmetries ----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 9))
def test_square_has_8_symmetries(core, n):
    g = core.geometry.Geometry(n, n)
    syms = g.symmetries
    assert len(syms) == 8
    assert len({tuple(p) for p in syms}) == 8
    assert syms[0] == list(range(n * n))


@pytest.mark.parametrize("cols, rows", [(3, 4), (4, 3), (2, 5), (2, 3), (7, 8)])
def test_rectangle_has_4_symmetries(core, cols, rows):
    g = core.geometry.Geometry(cols, rows)
    assert len(g.symmetries) == 4
    assert len({tuple(p) for p in g.symmetries}) == 4
    assert g.symmetries[0] == list(range(cols * rows))


@pytest.mark.parametrize("cols, rows, count", [(1, 1, 1), (1, 4, 2), (4, 1, 2)])
def test_degenerate_boards_symmetries_distinct(core, cols, rows, count):
    g = core.geometry.Geometry(cols, rows)
    assert len({tuple(p) for p in g.symmetries}) == len(g.symmetries) == count
    assert g.symmetries[0] == list(range(cols * rows))


@pytest.mark.parametrize("cols, rows", SIZES)
def test_symmetries_preserve_adjacency(core, cols, rows):
    g = core.geometry.Geometry(cols, rows)
    n = cols * rows
    king = [king_neighbours(cols, rows, c) for c in range(n)]  # adjacent(), listed once a cell
    for perm in g.symmetries:
        assert sorted(perm) == list(range(n)), "a permutation of the cells"
        for a in range(n):
            for b in range(n):
                assert (b in king[a]) == (perm[b] in king[perm[a]])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_square_symmetries_form_a_group(core, n):
    syms = {tuple(p) for p in core.geometry.Geometry(n, n).symmetries}
    for p, q in itertools.product(syms, repeat=2):
        assert tuple(p[i] for i in q) in syms


@pytest.mark.parametrize("cols, rows", [(3, 3), (4, 4), (5, 5), (3, 4), (4, 3), (2, 5), (8, 8)])
def test_variants_are_the_rotations_and_reflections(core, cols, rows):
    g = core.geometry.Geometry(cols, rows)
    board = LETTERS[: cols * rows]
    variants = g.variants(board)
    assert variants[0] == board
    assert set(variants) == dihedral_variants(board, cols, rows)
    for perm, v in zip(g.symmetries, variants):
        assert v == "".join(board[p] for p in perm)


def test_rectangle_variants_keep_their_shape(core):
    g = core.geometry.Geometry(3, 4)
    board = "abcdefghijkl"
    # the transpose, read as 3 columns of 4, is a different board: not a variant
    transposed = board_of([list(r) for r in zip(*grid_of(board, 3, 4))])  # a 4x3 layout
    assert transposed not in g.variants(board)
    assert g.canonical(board) == board
    # the last column first and the rows upside down: 180 degrees
    assert g.canonical("lkjihgfedcba") == board


@pytest.mark.parametrize(
    "cols, rows, board",
    [
        (4, 4, "perslatgsineters"),
        (4, 4, "zyxwvutsrqponmlk"),
        (3, 3, "streaedlp"),
        (3, 4, "perslatesind"),
        (4, 3, "zabcdefghijk"),
        (5, 5, "ligdrmanesietildsracsepes"),
        (2, 2, "aaaa"),
    ],
)
def test_canonical_form(core, cols, rows, board):
    g = core.geometry.Geometry(cols, rows)
    variants = g.variants(board)
    canon = g.canonical(board)
    assert canon == min(variants)
    assert canon in dihedral_variants(board, cols, rows)
    for v in variants:
        assert g.canonical(v) == canon


def test_canonical_of_a_known_square(core):
    g = core.geometry.Geometry(3, 3)
    # "ihgfedcba" is the 180-degree rotation of "abcdefghi"
    assert g.canonical("ihgfedcba") == "abcdefghi"
    # the transpose of a 3x3 is an equivalent board
    assert g.canonical("adgbehcfi") == "abcdefghi"


# -- parsing ---------------------------------------------------------------------------


def test_parse_normalises(core):
    g = core.geometry.Geometry(2, 2)
    assert g.parse("  ABcd \n") == "abcd"
    assert g.parse("qqqq") == "qqqq"


@pytest.mark.parametrize(
    "text, needles",
    [
        ("", ["empty board"]),
        ("  \t ", ["empty board"]),
        ("abc", ["'abc'", "3 letters", "2x2", "4"]),
        ("abcde", ["5 letters", "2x2"]),
        ("ab1d", ["'1'", "not a letter"]),
        ("ab d", ["' '"]),
        ("ab\u00e9d", ["'\u00e9'"]),
        ("ab-", ["'-'"]),
    ],
)
def test_parse_errors(core, text, needles):
    g = core.geometry.Geometry(2, 2)
    with pytest.raises(core.geometry.BoardError) as info:
        g.parse(text)
    for needle in needles:
        assert needle in str(info.value)


@pytest.mark.parametrize(
    "text, size",
    [("3x4", (3, 4)), ("4X4", (4, 4)), (" 5x5 ", (5, 5)), ("1x1", (1, 1)), ("8x8", (8, 8)),
     ("08x1", (8, 1))],
)
def test_parse_size(core, text, size):
    assert core.geometry.parse_size(text) == size


@pytest.mark.parametrize(
    "text, needle",
    [
        ("3", "bad board size '3'"),
        ("axb", "bad board size 'axb'"),
        ("3x4x5", "bad board size"),
        ("x4", "bad board size"),
        ("", "bad board size"),
        ("-1x3", "bad board size"),
        ("3.0x4", "bad board size"),
        ("\u00b2x2", "bad board size"),  # superscript two: a digit to isdigit(), not to int()
        ("0x3", "impossible board size 0x3"),
        ("3x0", "impossible board size 3x0"),
        ("9x9", "impossible board size 9x9"),
        ("1x9", "impossible board size 1x9"),
    ],
)
def test_parse_size_errors(core, text, needle):
    with pytest.raises(core.geometry.BoardError, match="board size") as info:
        core.geometry.parse_size(text)
    assert needle in str(info.value)


@pytest.mark.parametrize("n, size", [(1, (1, 1)), (4, (2, 2)), (9, (3, 3)), (16, (4, 4)),
                                     (25, (5, 5)), (64, (8, 8))])
def test_infer_size(core, n, size):
    assert core.geometry.infer_size(n) == size


@pytest.mark.parametrize("n", [0, 2, 5, 12, 15, 17, 63, 81, 100])
def test_infer_size_errors(core, n):
    with pytest.raises(core.geometry.BoardError, match=f"size of a {n}-letter board"):
        core.geometry.infer_size(n)


@pytest.mark.parametrize("cols, rows", [(0, 3), (3, 0), (9, 1), (1, 9), (-1, 2)])
def test_geometry_rejects_impossible_sizes(core, cols, rows):
    with pytest.raises(core.geometry.BoardError, match="impossible board size"):
        core.geometry.Geometry(cols, rows)


def test_board_error_is_the_shared_class():
    with pytest.raises(BoardError):
        Geometry(0, 0)


# -- scores are invariant under the symmetries ---------------------------------------------


@pytest.mark.parametrize(
    "cols, rows, board, rule, score",
    [
        (4, 4, "perslatgsineters", "standard", 3625),
        (4, 4, "rpqaselinifcoita", "pow2", 44726),
        (3, 4, "perslatesind", "standard", 1651),
        (5, 5, "ligdrmanesietildsracsepes", "standard", 10406),
        (4, 4, "eeesrvrreeesrsrs", "words", None),
    ],
)
def test_score_invariant_under_symmetries(dictionary, cols, rows, board, rule, score):
    d = dictionary("enable2k", rule)
    g = Geometry(cols, rows)
    scorer = d.scorer(g)
    base_words = sorted(w.word for w in scorer.words(board))
    base = (scorer.score(board), scorer.multi(board), scorer.demulti(board))
    if score is not None:
        assert base[0] == score
    variants = g.variants(board)
    assert len(set(variants)) == len(g.symmetries)
    for v in variants:
        assert (scorer.score(v), scorer.multi(v), scorer.demulti(v)) == base, v
        assert sorted(w.word for w in scorer.words(v)) == base_words, v
    # an asymmetric rearrangement of the same letters does change the score
    shuffled = board[1:] + board[0]
    assert scorer.score(shuffled) != base[0]
