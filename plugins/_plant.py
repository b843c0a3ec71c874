"""The 'plant a word' move: write a long dictionary word along a random path.

Under rules where long words dominate (powers of two) a board's score comes
from a few long paths that single-letter changes almost never build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import random
from collections.abc import Mapping

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt.boards import random_path
from boggle_opt.core.geometry import Geometry

#: give up on a path after this many DFS steps (4x4 paths are found in far fewer)
STEPS = 2000


class Planter:
    def __init__(self, keys: list[bytes], geometry: Geometry, min_len: int,
                 rng: np.random.Generator, fixed: Mapping[int, str] = {}) -> None:
        n = geometry.n
        #: letters (as codes) a planted word must leave as they are (``--fix``)
        self.fixed = {c: ord(ch) for c, ch in fixed.items()}
        self.words = [k for k in keys if min_len <= len(k) <= n]
        self.nbrs = [geometry.neighbours(c) for c in range(n)]
        self.n = n
        # a private generator seeded from the run's: deterministic, and its
        # per-call cost is far below numpy's for the few draws a path needs
        self.random = random.Random(int(rng.integers(1 << 62)))

    def plant(self, b: bytearray) -> bool:
        """Overwrite cells of ``b`` with a random long word; False if none fits."""
        if not self.words:
            return False
        word = self.random.choice(self.words)
        path = self.path(len(word), word)
        if path is None:
            return False
        for c, ch in zip(path, word):
            b[c] = ch
        return True

    def path(self, length: int, word: bytes = b"") -> list[int] | None:
        """A random self-avoiding path of ``length`` cells; with ``word``, one
        whose fixed cells already show the word's letters."""
        start = self.random.randrange(self.n)
        if word and self.fixed.get(start, word[0]) != word[0]:
            return None
        return random_path(self.random, self.nbrs, start, word or bytes(length),
                           self.fixed if word else {}, STEPS)
