"""Draw a seeded sample of a proof's board classes into a class file.

    python benchmarks/bnb_draw.py --size 4x4 --sample 120 --seed 2050 [--rule R]
        [--wordlist W] [--min-score S] > FILE

A plain draw (every canonical class equally likely), as ``boggle-opt plan``
draws where it does not stratify, at bnb's default buckets for the size.
Each line: the class (one letter set per cell, column-major, the format
``benchmarks/bnb_classes.py`` and ``benchmarks/bnb_sample.py`` read), an
empty reference column, and its cost model's percentile among all the proof's classes
(``CostModel``: what a proof sorts its classes by, biggest first), to see
how well the model finds the slow ones. Nothing is solved here.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", required=True, help="CxR, e.g. 4x4")
    ap.add_argument("--sample", type=int, required=True, help="classes to draw")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--wordlist", default="enable2k", help="for the cost model (default enable2k)")
    ap.add_argument("--rule", default="standard")
    ap.add_argument("--min-score", type=int, default=3500, help="recorded in the header only")
    ns = ap.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(HERE.parent.parent / "shared" / "wordlists"))

    import numpy as np

    from boggle_opt.boards import size_geometry
    from boggle_opt.cli.plan import draw
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.proofs.board_classes import ClassSpace, CostModel, class_letters, count_classes
    from boggle_opt.registry.dictionaries import load_dictionary

    geometry = size_geometry(ns.size)
    label, buckets = BranchAndBound(BranchAndBound.Options()).buckets(geometry)
    space = ClassSpace(geometry, [len(b) for b in buckets])
    total = count_classes(geometry, space.counts)
    sample = draw(space, total, ns.sample, np.random.default_rng(ns.seed))
    model = CostModel(load_dictionary(ns.wordlist, ns.rule).keys, geometry, buckets)
    every = np.sort(np.asarray(model.costs(list(space.iterate(shuffled=False)))))
    mine = model.costs(sample)
    print(f"# python benchmarks/bnb_draw.py --size {ns.size} --sample {ns.sample} --seed {ns.seed}: "
          f"a plain draw of {len(sample)} of {total:,} classes, bnb's default buckets {label}; "
          f"for min score {ns.min_score}, {ns.wordlist} {ns.rule}")
    print("# class\treference CPU s (none)\tcost model percentile (of all the proof's classes; 100: the costliest)")
    for cls, cost in zip(sample, mine):
        pct = 100 * np.searchsorted(every, cost, side="right") / total
        print(f"{' '.join(class_letters(cls, buckets))}\t\t{pct:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
