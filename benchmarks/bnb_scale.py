"""Scale-out: the 3x3 proof through each executor on 1 and 2 workers, and
``boggle-opt plan`` for 3x4 and 4x4 against the anchor samples' figures.

    python benchmarks/bnb_scale.py [--executors local,dask] [--workers 1,2] [--repeats 3]
                                   [--size 3x3] [--min-score 500] [--buckets "..."]
                                   [--plan-samples 40,10] [--no-proof] [--no-plan]

Proof: each run is a fresh process that runs the ``bnb`` searcher to the end
(ENABLE2K, standard rule, the default 3 buckets) through the executor and
checks that ``streaedlp`` (545) is the best board (``--size`` 2x3 with
``--buckets "aeiou bdfgjqvwxz lnrsy chkmpt" --min-score 100`` is a quick
stand-in: 1,120 tiny tasks, where the overhead per task shows most). Per executor and worker
count it prints the median wall time, the speed-up over 1 worker of the same
executor, the workers' busy time (the sum of the tasks' own seconds) and
the scheduling overhead per task: (wall x workers - busy) / tasks, which
counts the executor's start and stop, idle workers and the round trips.

Plan: ``boggle-opt plan`` for 3x4 at 1500 and 4x4 at 3500 (switch score
8000), whose CPU estimates are printed beside the ones docs/benchmarks.md
gives from the anchor samples (``bnb_classes.py``): 5.1 and 5,700 CPU-hours.
The load average is printed, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
BEST = ("streaedlp", 545)
#: the anchor samples' estimates (docs/benchmarks.md, branch and bound)
SAMPLE_CPU_HOURS = {"3x4": 5.1, "4x4": 5700.0}
PLANS = [("3x4", 1500, []), ("4x4", 3500, ["-o", "switch-score", "8000"])]


def one_run(executor: str, workers: int, min_score: int, size: str, buckets: str) -> dict[str, Any]:
    """The proof in this process; returns its figures."""
    import numpy as np

    from boggle_opt.boards import make_geometry
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.proofs.executor import ExecutorSettings
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.searching.interface import Improved, Problem, Progress

    regs = load_plugins()
    d = load_dictionary("enable2k", "standard", regs)
    cols, rows = (int(x) for x in size.split("x"))
    geometry = make_geometry(cols, rows)
    chosen = regs.executors.get(executor)(ExecutorSettings(workers))
    problem = Problem(d, geometry, jobs=workers, executor=chosen)
    boards: dict[str, int] = {}
    stats: dict[str, Any] = {}
    load = os.getloadavg()[0]
    start = time.perf_counter()
    for ev in BranchAndBound(BranchAndBound.Options(min_score=min_score, buckets=buckets)).search(problem, np.random.default_rng(0)):
        if isinstance(ev, Improved):
            boards[geometry.canonical(ev.board)] = ev.score
        elif isinstance(ev, Progress):
            stats = dict(ev.stats)
    wall = time.perf_counter() - start
    best = max(boards.items(), key=lambda kv: kv[1])
    return {"executor": executor, "workers": workers, "wall_s": wall, "busy_s": stats["worker busy s"],
            "tasks": stats["tasks solved"], "best": list(best), "boards": len(boards), "load": load}


def proof_table(executors: list[str], workers: list[int], repeats: int, min_score: int, size: str,
                buckets: str) -> None:
    print(f"# {size} proof, ENABLE2K standard, min score {min_score}, buckets {buckets or 'default'}; "
          f"median of {repeats}")
    print("executor\tworkers\twall s (runs)\tspeed-up\tbusy s\ttasks\toverhead ms/task\tload")
    for executor in executors:
        base = None
        for n in workers:
            runs = []
            for _ in range(repeats):
                out = subprocess.run([sys.executable, __file__, "--one", executor, str(n), str(min_score),
                                      size, buckets], capture_output=True, text=True, check=True)
                r = json.loads(out.stdout.strip().splitlines()[-1])
                if size == "3x3" and min_score == 500:
                    from boggle_opt.core.geometry import Geometry

                    canon = Geometry(3, 3).canonical
                    assert (canon(r["best"][0]), r["best"][1]) == (canon(BEST[0]), BEST[1]), r
                runs.append(r)
            wall = statistics.median(r["wall_s"] for r in runs)
            busy = statistics.median(r["busy_s"] for r in runs)
            tasks = runs[0]["tasks"]
            base = base or (wall if n == workers[0] else None)
            speedup = f"{base / wall:.2f}" if base else ""
            overhead = (wall * n - busy) / tasks * 1000
            walls = ", ".join(f"{r['wall_s']:.1f}" for r in runs)
            print(f"{executor}\t{n}\t{wall:.1f} ({walls})\t{speedup}\t{busy:.1f}\t{tasks}\t"
                  f"{overhead:.1f}\t{statistics.median(r['load'] for r in runs):.1f}", flush=True)


def plans(samples: list[int]) -> None:
    exe = str(Path(sys.executable).with_name("boggle-opt"))
    for (size, min_score, extra), n in zip(PLANS, samples):
        cmd = [exe, "plan", "--size", size, "--wordlist", "enable2k", "--min-score", str(min_score),
               *extra, "--sample", str(n), "--jobs", "2"]
        load = os.getloadavg()[0]
        start = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        took = time.perf_counter() - start
        print(f"\n$ boggle-opt {' '.join(cmd[1:])}   # {took:.0f} s, load {load:.1f}")
        print(out.rstrip())
        print(f"anchor sample estimate (docs/benchmarks.md): {SAMPLE_CPU_HOURS[size]:,} CPU-hours", flush=True)


def main() -> None:
    if len(sys.argv) == 7 and sys.argv[1] == "--one":
        print(json.dumps(one_run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6])))
        return
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--executors", default="local,dask")
    p.add_argument("--workers", default="1,2")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--min-score", type=int, default=500)
    p.add_argument("--size", default="3x3")
    p.add_argument("--buckets", default="", help="letter buckets (default: the size's)")
    p.add_argument("--plan-samples", default="40,10", help="classes sampled for 3x4 and 4x4")
    p.add_argument("--no-proof", action="store_true")
    p.add_argument("--no-plan", action="store_true")
    a = p.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(HERE.parent.parent / "shared" / "wordlists"))
    print(f"# {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    if not a.no_proof:
        proof_table(a.executors.split(","), [int(w) for w in a.workers.split(",")], a.repeats, a.min_score, a.size, a.buckets)
    if not a.no_plan:
        plans([int(n) for n in a.plan_samples.split(",")])


if __name__ == "__main__":
    main()
