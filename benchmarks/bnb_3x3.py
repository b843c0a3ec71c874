"""The full 3x3 proof: every board of ENABLE2K scoring 500+ (standard rule).

    python benchmarks/bnb_3x3.py [--jobs 1,2] [--repeats 3] [--wordlist enable2k]

Each run is a fresh process (so peak memory is its own) that runs the ``bnb``
searcher to the end and checks that ``streaedlp`` (545) is the best board.
Prints, per worker count, the median wall time, CPU time, peak memory of the
main process and of the largest worker, and where the workers' time went
(tree build, merges, orderly bound, re-scoring), plus the load average, since
the machine may be shared. Word lists are found as the CLI finds them
(``BOGGLE_OPT_WORDLISTS``, default ``../shared/wordlists``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BEST = ("streaedlp", 545)


def one_run(jobs: int, wordlist: str, min_score: int, buckets: str) -> dict[str, Any]:
    """Run the proof here and return its figures (called in a child process)."""
    import numpy as np

    from boggle_opt.boards import make_geometry
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.searching.interface import Improved, Problem, Progress

    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    d = load_dictionary(wordlist, "standard")
    geometry = make_geometry(3, 3)
    problem = Problem(d, geometry, jobs=jobs)
    options = BranchAndBound.Options(min_score=min_score, buckets=buckets)
    boards: dict[str, int] = {}
    stats: dict[str, Any] = {}
    start = time.perf_counter()
    for ev in BranchAndBound(options).search(problem, np.random.default_rng(0)):
        if isinstance(ev, Improved):
            boards[geometry.canonical(ev.board)] = ev.score
        elif isinstance(ev, Progress):
            stats = dict(ev.stats)
    wall = time.perf_counter() - start
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    ranked = sorted(boards.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "jobs": jobs,
        "wall_s": wall,
        "setup_s": start - t0,
        "cpu_s": me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime,
        "main_peak_mb": me.ru_maxrss / 1024,
        # with one job the classes are solved in the main process
        "worker_peak_mb": kids.ru_maxrss / 1024 if jobs > 1 else me.ru_maxrss / 1024,
        "load_avg": load,
        "boards": ranked,
        "stats": stats,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", default="1,2", help="worker counts to time, e.g. 1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--min-score", type=int, default=500)
    ap.add_argument("--buckets", default="", help="bnb buckets (default: the 3x3 default)")
    ap.add_argument("--one", type=int, help=argparse.SUPPRESS)  # child: one run with this many jobs
    ns = ap.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(HERE.parent.parent / "shared" / "wordlists"))
    if ns.one is not None:
        print(json.dumps(one_run(ns.one, ns.wordlist, ns.min_score, ns.buckets)))
        return 0
    ok = True
    for jobs in [int(j) for j in ns.jobs.split(",")]:
        runs = []
        for r in range(ns.repeats):
            cmd = [sys.executable, str(Path(__file__).resolve()), "--one", str(jobs),
                   "--wordlist", ns.wordlist, "--min-score", str(ns.min_score), "--buckets", ns.buckets]
            # away from the checkout, so the installed package is the one imported
            out = subprocess.run(cmd, capture_output=True, text=True, cwd="/", check=True)
            run = json.loads(out.stdout.strip().splitlines()[-1])
            runs.append(run)
            best = run["boards"][0]
            print(f"jobs={jobs} run {r + 1}: {run['wall_s']:.1f} s wall, {run['cpu_s']:.1f} s CPU, "
                  f"load {run['load_avg']:.1f}, best {best[0]} {best[1]}, "
                  f"{len(run['boards'])} boards >= {ns.min_score}", flush=True)
        med = {k: statistics.median(run[k] for run in runs)
               for k in ("wall_s", "cpu_s", "main_peak_mb", "worker_peak_mb", "setup_s")}
        keys = ("tree build s", "merge s", "orderly bound s", "re-score s")
        parts = {k: statistics.median(float(run["stats"].get(k, 0.0)) for run in runs) for k in keys}
        s = runs[-1]["stats"]
        print(f"== jobs={jobs}: median of {len(runs)}: {med['wall_s']:.1f} s wall "
              f"(+{med['setup_s']:.1f} s loading the list), {med['cpu_s']:.1f} s CPU; peak RSS "
              f"main {med['main_peak_mb']:.0f} MB, largest worker {med['worker_peak_mb']:.0f} MB")
        print("   worker time: " + ", ".join(f"{k} {v:.1f}" for k, v in parts.items()))
        print(f"   classes {s.get('classes')}, pruned at root {s.get('pruned at root')}, "
              f"candidates {s.get('candidates')}, largest tree {s.get('largest tree')} nodes")
        for run in runs:
            top = run["boards"][0]
            from boggle_opt.core.geometry import Geometry

            if (top[0], top[1]) != (Geometry(3, 3).canonical(BEST[0]), BEST[1]):
                print(f"!! best board {top} is not {BEST}")
                ok = False
        print("   boards: " + " ".join(f"{b}:{sc}" for b, sc in runs[-1]["boards"]), flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
