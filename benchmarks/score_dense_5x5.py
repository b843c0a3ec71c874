"""Scoring the dense 5x5 boards an anneal spends its time on: boards per second.

    python benchmarks/score_dense_5x5.py [--boards 20000] [--repeats 3] [--seed 1]

For the best known 5x5 board of each list (ENABLE2K 10,406; YAWL 13,625):
the board itself scored over and over, and boards one to three random letters
from it (as an anneal's proposals near its end are), each set scored in one
process; each figure is the median of the repeats. The research C++'s own
figures for good 5x5 boards are in docs/benchmarks.md. Word lists come from
BOGGLE_OPT_WORDLISTS or ../shared/wordlists beside the repository.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path

from boggle_opt import COMPILED, Geometry, load_dictionary
from score_throughput import median_rate  # beside this script

REPO = Path(__file__).resolve().parent.parent
BEST = {"enable2k": "ligdrmanesietildsracsepes", "yawl": "degosrsniceitalstrepuopsd"}


def rate(score: Callable[[str], object], boards: Sequence[str], repeats: int) -> float:
    """Median boards a second of ``score`` over ``boards``."""
    return median_rate(lambda: [score(board) for board in boards], len(boards), repeats)


def nearby(board: str, count: int, rng: random.Random) -> list[str]:
    """``count`` boards one to three random letters from ``board``."""
    out = []
    for _ in range(count):
        cells = list(board)
        for _ in range(rng.choice([1, 1, 2, 3])):
            cells[rng.randrange(len(cells))] = chr(97 + rng.randrange(26))
        out.append("".join(cells))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))
    print(f"core {'compiled with mypyc' if COMPILED else 'PURE PYTHON'}; "
          f"{args.boards:,} boards a set, median of {args.repeats}")
    geometry = Geometry(5, 5)
    for name, best in BEST.items():
        scorer = load_dictionary(name).scorer(geometry)
        near = nearby(best, args.boards, random.Random(args.seed))
        mean = statistics.fmean(scorer.score(b) for b in near)
        print(f"{name}: {best} ({scorer.score(best):,} points)")
        print(f"  the board itself, over and over: {rate(scorer.score, [best] * args.boards, args.repeats):,.0f} boards/s")
        print(f"  1-3 random letters from it (mean {mean:,.0f} points): "
              f"{rate(scorer.score, near, args.repeats):,.0f} boards/s")


if __name__ == "__main__":
    main()
