"""The orderly-tree arena's node layout (one ``vec[i32]``), shared by the
builders, forcing and the orderly bound. Compiled with mypyc.

  sum node:    [points << 5 | k, bound, choice child 0 .. k-1]   (children by position)
  choice node: [letter mask << 5 | position, bound, (sum child, its bound) per letter]
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import i64

HEAD: Final[i64] = 0  # sum node: points << LOW_BITS | k; choice node: mask << LOW_BITS | position
BOUND: Final[i64] = 1
KIDS: Final[i64] = 2
SLOT: Final[i64] = 2  # words a choice node gives each sum child: the child, its bound
LOW_BITS: Final[i64] = 5
LOW: Final[i64] = 31  # a sum node's child count, a choice node's position
MAX_POINTS: Final[i64] = (1 << 26) - 1  # of one sum node
I32_MAX: Final[i64] = (1 << 31) - 1
# Childless sum nodes with the same points are the same node (a third of a
# tree's nodes on 4x4): built trees share one per points value below this.
LEAF_LIMIT: Final[i64] = 1 << 12
