"""The 'plant a word' move: write a long dictionary word along a random path.

Under rules where long words dominate (powers of two) a board's score comes
from a few long paths that single-letter changes almost never build. Nor can
they move a long word once it is there: every change of one of its cells
loses it, so ``replant`` writes a planted word again along another path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import random
from collections.abc import Mapping, Sequence

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt.core.geometry import Geometry

#: give up on a path after this many DFS steps (4x4 paths are found in far fewer)
STEPS = 2000


class Planter:
    def __init__(self, keys: list[bytes], geometry: Geometry, min_len: int,
                 rng: np.random.Generator, fixed: Mapping[int, str] = {}) -> None:
        n = geometry.n
        #: letters (as key bytes) a planted word must leave as they are
        #: (``--fix``, given as ``boards.to_codes`` gives each cell)
        self.fixed = {c: ord(ch) for c, ch in fixed.items()}
        self.words = [k for k in keys if min_len <= len(k) <= n]
        self.known = set(self.words)
        #: the path of the last word written (``plant`` or ``replant``)
        self.last: list[int] = []
        self.nbrs = [geometry.neighbours(c) for c in range(n)]
        self.n = n
        # a private generator seeded from the run's: deterministic, and its
        # per-call cost is far below numpy's for the few draws a path needs
        self.random = random.Random(int(rng.integers(1 << 62)))

    def plant(self, b: bytearray) -> bool:
        """Overwrite cells of ``b`` with a random long word; False if none fits."""
        if not self.words:
            return False
        return self._write(b, self.random.choice(self.words))

    def replant(self, b: bytearray, cells: list[int]) -> bool:
        """If ``cells`` of ``b`` spell a word this planter writes, write it along
        another random path (the cells off that path keep their letters);
        False if they do not or no path fits."""
        word = bytes(b[c] for c in cells)
        return word in self.known and self._write(b, word)

    def _write(self, b: bytearray, word: bytes) -> bool:
        """Write ``word`` into ``b`` along a random path; False if none fits."""
        path = self.path(len(word), word)
        if path is None:
            return False
        for c, ch in zip(path, word):
            b[c] = ch
        self.last = path
        return True

    def path(self, length: int, word: bytes = b"") -> list[int] | None:
        """A random self-avoiding path of ``length`` cells; with ``word``, one
        whose fixed cells already show the word's letters."""
        start = self.random.randrange(self.n)
        return walk(self.random, self.nbrs, start, word or bytes(length),
                    self.fixed if word else {}, STEPS)


def walk(rnd: random.Random, nbrs: Sequence[Sequence[int]], start: int, word: bytes,
         fixed: Mapping[int, int], steps: int) -> list[int] | None:
    """A random path of adjacent distinct cells from ``start`` along which
    ``word`` can be written (each cell in ``fixed`` already shows the word's
    letter there); None if ``steps`` steps of the depth-first search find none.

    As ``boggle_opt.boards.random_path``, but 1.4-4x as fast (2026-11-27): it
    takes the neighbours in a random rotation of their list, forwards or
    backwards, instead of a random sample, and backs off as soon as more
    cells are cut off (no unused neighbour, not next to the path's head) than
    the word may leave out, which long words (4x4: 15-16 cells) often do."""
    n = len(nbrs)
    length = len(word)
    if fixed.get(start, word[0]) != word[0]:
        return None
    used = [False] * n
    free = [len(nb) for nb in nbrs]  # unused neighbours of each cell
    path = [start]
    used[start] = True
    for v in nbrs[start]:
        free[v] -= 1
    cut = [0]  # cells cut off, with the path up to each of its cells
    slack = n - length  # cells the word leaves out

    def order(c: int) -> list[int]:
        nb = list(nbrs[c])
        k = len(nb)
        r = rnd.randrange(2 * k) if k else 0
        turned = nb[r % k:] + nb[: r % k] if k else nb
        if r >= k:
            turned.reverse()
        return turned

    options = [order(start)]
    taken = 0
    while len(path) < length:
        taken += 1
        if taken > steps:
            return None
        if not options[-1]:
            options.pop()
            c = path.pop()
            used[c] = False
            for v in nbrs[c]:
                free[v] += 1
            cut.pop()
            if not path:
                return None
            continue
        c = options[-1].pop()
        if used[c] or fixed.get(c, word[len(path)]) != word[len(path)]:
            continue
        head = path[-1]
        path.append(c)
        used[c] = True
        for v in nbrs[c]:
            free[v] -= 1
        # a cell can be cut off only as the head moves on from next to it
        cells = cut[-1]
        near = nbrs[c]
        for u in nbrs[head]:
            if not used[u] and free[u] == 0 and u not in near:
                cells += 1
        if cells > slack:
            path.pop()
            used[c] = False
            for v in nbrs[c]:
                free[v] += 1
            continue
        cut.append(cells)
        options.append(order(c))
    return path
