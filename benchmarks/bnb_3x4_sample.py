"""Per-class time of the 3x4 proof (ENABLE2K, standard, 1500+) on a fixed
seeded sample of classes, and the full 3x4 cost it implies.

    python benchmarks/bnb_3x4_sample.py [--sample 40] [--seed 1] [--min-score 1500]
                                        [--corner-buckets "aeiosuy bcdfghjklmnpqrtvwxz"]

Classes use the default 3x4 buckets (3 buckets, one in the corners: 1,863
classes up to symmetry); `--corner-buckets` gives the research line's 2
(docs/reference.md: 27,135 classes), which this script's figures in
docs/benchmarks.md before 2026-11-26 used. Each class is solved in this
process, one after another; CPU time per class is what the estimate uses
(the machine may be shared, so wall time is shown too).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--min-score", type=int, default=1500)
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--corner-buckets", default="", help="the corners' buckets (default: bnb's)")
    ns = ap.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(HERE.parent.parent / "shared" / "wordlists"))

    from boggle_opt.boards import make_geometry
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.proofs.board_classes import (
        cell_buckets,
        class_letters,
        class_name,
        default_buckets,
        enumerate_classes,
        letter_mask,
        parse_buckets,
    )
    from boggle_opt.core.branch import ClassSolver

    d = load_dictionary(ns.wordlist, "standard")
    geometry = make_geometry(3, 4)
    scorer = d.scorer(geometry)
    main_b, corner_b = default_buckets(geometry)
    corner_b = ns.corner_buckets or corner_b
    buckets = cell_buckets(geometry, parse_buckets(main_b), parse_buckets(corner_b))
    classes = enumerate_classes(geometry, [len(b) for b in buckets])
    sample = random.Random(ns.seed).sample(classes, ns.sample)
    solver = ClassSolver(d.trie, geometry)
    print(f"# 3x4, {len(classes):,} classes; sample of {ns.sample} (seed {ns.seed}); "
          f"min score {ns.min_score}; load {os.getloadavg()[0]:.1f}")
    print("# class\tcpu s\twall s\tnodes\troot bound\tbuild s\tmerge s\torderly s\tcandidates\tboards")
    cpus: list[float] = []
    parts = {"build": 0.0, "merge": 0.0, "orderly": 0.0, "rescore": 0.0}
    for cls in sample:
        c0 = time.process_time()
        w0 = time.perf_counter()
        candidates = solver.solve([letter_mask(s) for s in class_letters(cls, buckets)], ns.min_score)
        r0 = time.perf_counter()
        found = [b for b in candidates if scorer.score(b) >= ns.min_score]
        parts["rescore"] += time.perf_counter() - r0
        cpu = time.process_time() - c0
        cpus.append(cpu)
        parts["build"] += solver.build_seconds
        parts["merge"] += solver.force_seconds
        parts["orderly"] += solver.bound_seconds
        print(f"{class_name(cls)}\t{cpu:.2f}\t{time.perf_counter() - w0:.2f}\t{solver.n_nodes}\t"
              f"{solver.root_bound}\t{solver.build_seconds:.2f}\t{solver.force_seconds:.2f}\t"
              f"{solver.bound_seconds:.2f}\t{len(candidates)}\t{len(found)}", flush=True)
    mean = statistics.mean(cpus)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    total = mean * len(classes)
    print(f"per class CPU: mean {mean:.2f} s, median {statistics.median(cpus):.2f} s, "
          f"max {max(cpus):.2f} s; peak RSS {peak:.0f} MB")
    print("time: " + ", ".join(f"{k} {v:.1f} s" for k, v in parts.items()))
    print(f"full 3x4 estimate: {total / 3600:.1f} h on one core, {total / 7200:.1f} h on two")
    return 0


if __name__ == "__main__":
    sys.exit(main())
