"""Solve one class with the kernel a shard ran, as that shard's worker did,
and print one JSON line in ``tail_memory.py --one``'s form.

    OLD_VENV/bin/python benchmarks/shard_kernel_one.py CLASS --size 4x4 --min-score 3500
        [--wordlist enable2k] [--rule standard]

Run it with the Python of an install of the shard's commit (the first
hundredth of the 4x4 proof, ``results/4x4-standard-enable2k``, ran at
735a405): ``tail_memory.py --baseline OLD_VENV/bin/python`` solves each of
its classes with this beside the settings it measures, so that the whole
proof is read against the shard's own record through the same day's
ratio, not through this machine's speed that day (re-solves ran 1.10-1.19x
the shard's record at the same thresholds, the eighth sitting found).
It uses only what 735a405 and later have: ``ClassContext`` with the
size's default buckets and switch, no node or time budget (the shard's
run), huge pages as a worker's.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bnb_classes import class_peak_mb, peak_mb, reset_class_peak, start_as_a_worker  # noqa: E402
from tail_memory import boards_field  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", help="the class, as the run file names it (a bucket digit a cell)")
    ap.add_argument("--size", required=True)
    ap.add_argument("--min-score", type=int, required=True)
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--rule", default="standard")
    ns = ap.parse_args()
    start_as_a_worker(False)
    from boggle_opt.boards import size_geometry
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.proofs.class_tasks import ClassContext, ClassTask, parse_class_name
    from boggle_opt.registry.dictionaries import load_dictionary

    geometry = size_geometry(ns.size)
    d = load_dictionary(ns.wordlist, ns.rule)
    bnb = BranchAndBound(BranchAndBound.Options(min_score=ns.min_score))
    try:
        _, buckets = bnb.buckets(geometry)
    except TypeError:  # (after 735a405, by the list's alphabet)
        _, buckets = bnb.buckets(geometry, d.alphabet)
    context = ClassContext(d.keys, d.points, geometry.cols, geometry.rows, buckets, ns.min_score,
                           *bnb.switch_settings(geometry), 0, 0.0)
    del d
    setup_mb = peak_mb()
    own = reset_class_peak()
    result = context.run(ClassTask(parse_class_name(ns.name)))
    print(json.dumps({
        "class": ns.name, "memory": 0.0, "dedup": -1, "way": "baseline", "cpu": round(result.cpu, 3),
        "peak_mb": round(class_peak_mb() if own else peak_mb(), 1), "setup_mb": round(setup_mb, 1),
        "arena_mb": round(result.arena_mb, 1), "nodes": result.nodes, "root_bound": result.root_bound,
        "subclasses": 0, "shared": False, "dedups": 0,
        "build_s": round(result.build_s, 2), "force_s": round(result.force_s, 2),
        "bound_s": round(result.bound_s, 2),
        "boards": boards_field(geometry, result.boards),
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
