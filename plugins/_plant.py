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
        """A random self-avoiding path of ``length`` cells (random-order DFS);
        with ``word``, one whose fixed cells already show the word's letters."""
        rnd = self.random
        fixed = self.fixed if word else {}
        start = rnd.randrange(self.n)
        if fixed.get(start, word[0] if word else 0) != (word[0] if word else 0):
            return None
        path = [start]
        used = {start}
        options: list[list[int]] = [rnd.sample(self.nbrs[start], len(self.nbrs[start]))]
        steps = 0
        while len(path) < length:
            steps += 1
            if steps > STEPS or not options:
                return None
            if not options[-1]:
                options.pop()
                used.discard(path.pop())
                if not path:
                    return None
                continue
            c = options[-1].pop()
            if c in used or (fixed and fixed.get(c, word[len(path)]) != word[len(path)]):
                continue
            path.append(c)
            used.add(c)
            nb = self.nbrs[c]
            options.append(rnd.sample(nb, len(nb)))
        return path
