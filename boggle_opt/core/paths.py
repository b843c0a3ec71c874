"""Paths through a board and words placed along them, scored. Compiled with mypyc.

``paths`` lists every path of ``length`` distinct adjacent cells up to the
board's symmetries: of each orbit (a path and its images under rotation and
reflection, each read in its own direction) only the one whose cell sequence
is smallest is kept. ``PlacementScorer`` scores a word written along each
path of a chunk, the rest of the board given, and keeps the boards that reach
a running floor. These are the inner loops of the ``longword`` searcher.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy_extensions import i64

from .geometry import Geometry
from .scorer import Scorer
from .trie import KEY_BASE


def _inverse(perm: list[int]) -> list[int]:
    inv = [0] * len(perm)
    for i in range(len(perm)):
        inv[perm[i]] = i
    return inv


#: steps of the path enumeration between calls of its ``poll``
POLL_STEPS = 1 << 16


def paths(geometry: Geometry, length: i64, limit: i64 = 0, poll: Callable[[], None] | None = None) -> list[int]:
    """Every path of ``length`` cells up to symmetry, flattened: path ``k`` is
    ``out[k * length:(k + 1) * length]``, in depth-first order. With
    ``limit``, it stops at ``limit + 1`` paths (more than the caller can
    hold: 5x5 has billions of full paths); ``poll`` is called every
    ``POLL_STEPS`` steps, so a signal or a time budget can stop a listing
    that takes minutes (compiled code gives neither a chance otherwise)."""
    n: i64 = geometry.n
    steps: i64 = 0
    cap: i64 = (limit + 1) * length if limit > 0 else 0
    out: list[int] = []
    if length < 1 or length > n:
        return out
    # a symmetry moves the letter of cell p[i] to cell i: a path on cells c
    # lands on cells inv[c]
    maps: list[list[int]] = [_inverse(p) for p in geometry.symmetries[1:]]
    nbr_start: list[int] = geometry.nbr_start
    nbrs: list[int] = geometry.nbrs
    path: list[int] = [0] * length
    # per depth, the next neighbour slot to try
    slot: list[int] = [0] * length
    for start in range(n):
        path[0] = start
        used: i64 = 1 << start
        depth: i64 = 0
        slot[0] = nbr_start[start]
        if length == 1:
            if _smallest(path, length, maps):
                out.append(start)
            continue
        while depth >= 0:
            steps += 1
            if steps % POLL_STEPS == 0 and poll is not None:
                poll()
            cell: i64 = path[depth]
            k: i64 = slot[depth]
            if k >= nbr_start[cell + 1]:
                used &= ~(1 << cell)
                depth -= 1
                continue
            slot[depth] = k + 1
            nb: i64 = nbrs[k]
            if (used >> nb) & 1:
                continue
            path[depth + 1] = nb
            if depth + 2 == length:
                if _smallest(path, length, maps):
                    for j in range(length):
                        out.append(path[j])
                    if cap and len(out) >= cap:
                        return out
                continue
            depth += 1
            used |= 1 << nb
            slot[depth] = nbr_start[nb]
        # the start cell was released when depth fell below 0
    return out


def _smallest(path: list[int], length: i64, maps: list[list[int]]) -> bool:
    """True unless some symmetry maps ``path`` to a smaller cell sequence."""
    for m in maps:
        for j in range(length):
            a: i64 = m[path[j]]
            b: i64 = path[j]
            if a < b:
                return False
            if a > b:
                break
    return True


class PlacementScorer:
    """Scores words written along paths of one board size.

    ``base`` is the board's letters before a word is written (for a word that
    fills the board, anything); ``fixed`` the letter code required at each
    cell (-1: none), so placements that would overwrite a fixed letter are
    skipped unscored.
    """

    scorer: Scorer
    n: i64
    fixed: list[int]
    scored: i64

    def __init__(self, scorer: Scorer, fixed: list[int]) -> None:
        self.scorer = scorer
        self.n = scorer.n
        self.fixed = fixed
        self.scored = 0

    def score_chunk(
        self,
        flat: list[int],
        length: i64,
        first: i64,
        count: i64,
        words: list[bytes],
        base: str,
        floor: i64,
    ) -> list[tuple[str, int]]:
        """Every board of a word of ``words`` along each path ``first`` ..
        ``first + count - 1`` of ``flat`` (paths of ``length`` cells) over
        ``base``, in path-major order; returns each board whose score reaches
        the running best (``floor`` to start with), in the order found."""
        out: list[tuple[str, int]] = []
        cells: list[str] = [base[i] for i in range(self.n)]
        fixed = self.fixed
        letters: list[str] = list(self.scorer.symbols)
        best: i64 = floor
        for p in range(first, first + count):
            at: i64 = p * length
            for word in words:
                ok = True
                for j in range(length):
                    c: i64 = flat[at + j]
                    code: i64 = word[j] - KEY_BASE
                    f: i64 = fixed[c]
                    if f >= 0 and f != code:
                        ok = False
                        break
                    cells[c] = letters[code]
                if not ok:
                    for j in range(length):
                        c2: i64 = flat[at + j]
                        cells[c2] = base[c2]
                    continue
                board = "".join(cells)
                score: i64 = self.scorer.score(board)
                self.scored += 1
                if score >= best:
                    best = score
                    out.append((board, score))
            if length < self.n:
                for j in range(length):
                    c3: i64 = flat[at + j]
                    cells[c3] = base[c3]
        return out
