"""Draw board classes with the research C++'s own sampler, time its branch
and bound on them one class a process, and set its times beside ours.

    python benchmarks/cpp_anchor.py draw --research DIR --python PY --size 3x4
        --partition 'aeijou bcdfgmpqvwxz hklnrsty, corner:aeiosuy bcdfghjklmnpqrtvwxz'
        --sample 40 --seed 69301 > CLASSFILE
    python benchmarks/cpp_anchor.py time CLASSFILE --research DIR --python PY --size 3x4
        --min-score 1500 [--switch-score N] [--cpu-limit S] --out RESULTS
    python benchmarks/cpp_anchor.py table CLASSFILE --cpp RESULTS --ours RESULTS [--write TSV]

DIR is a checkout of danvk/hybrid-boggle with its pybind11 module built
(its ``build.sh``: ``-O3 -march=native``) and PY the Python its module was
built for (3.12 or later; with its requirements, among them tqdm and
google-cloud-storage, which ``boggle.break_all`` imports). Nothing of it is
in this repository; see ``benchmarks/anchors/README.md``.

``draw`` runs the lines of ``boggle.break_all`` that pick ``--max_boards``
classes (``random.seed(seed)``, ``random.sample`` of 16 x N board ids, the
first N canonical ones), so a sample is the one its own
``break_all PARTITION S --size CR --max_boards N --random_seed SEED``
would solve, in its order. Each line: the class (one letter set per cell,
column-major, the format ``benchmarks/bnb_classes.py`` reads) and an empty
reference column.

``time`` solves each class in a fresh process of PY with the research
code's ``HybridTreeBreaker`` as its ``break_all.get_breaker`` builds it
(switch-over ``--switch-score``, or its default 1.7 x the min score), and
appends a line per class to RESULTS (run again to go on): index, CPU
seconds of ``SetBoard`` + ``Break`` (user + system), the class's peak RSS
(VmHWM after a reset taken once the word list is loaded, so the word list's
pages count, as in ``bnb_classes.py``), boards at or above the min score,
the initial tree's nodes and root bound. A class over ``--cpu-limit``
CPU seconds is stopped (RLIMIT_CPU) and recorded as at least that.

``table`` sets RESULTS of ``time`` beside RESULTS of ``benchmarks/bnb_sample.py``
on the same class file: totals, the ratio ours/C++, the per-class ratios'
median and the slowest classes; ``--write`` writes the classes both timed
with both times (class, C++ CPU s, ours), the format of
``benchmarks/anchors/``; a class the C++ was stopped on gets no C++ time,
and a note of the limit in a fourth column.
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

HERE = Path(__file__).resolve()


def size_code(size: str) -> int:
    """'3x4' -> 34, the research code's --size."""
    cols, rows = size.lower().split("x")
    return 10 * int(cols) + int(rows)


def draw_here(partition: str, size: str, sample: int, seed: int) -> list[str]:
    """break_all's draw of ``--max_boards sample --random_seed seed`` (run in PY)."""
    import itertools
    import math
    import random

    from boggle.board_id import (  # type: ignore[import-not-found]
        from_board_id, is_canonical_board_id, parse_classes,
    )

    code = size_code(size)
    dims = code // 10, code % 10
    classes = parse_classes(partition, dims)
    num_classes = [len(c) for c in classes]
    random.seed(seed)
    oversample = random.sample(range(math.prod(num_classes)), k=16 * sample)
    ids = itertools.islice((i for i in oversample if is_canonical_board_id(num_classes, dims, i)), sample)
    return [str(from_board_id(classes, i)) for i in ids]


def reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def peak_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def one_here(cls: str, size: str, min_score: int, switch_score: int, dictionary: str) -> dict[str, Any]:
    """Solve one class with the research code's hybrid breaker (run in PY)."""
    from boggle.break_all import get_breaker  # type: ignore[import-not-found]

    args = argparse.Namespace(size=size_code(size), best_score=min_score, dictionary=dictionary,
                              python=False, breaker="hybrid", switchover_score=switch_score or None,
                              log_breaker_progress=False)
    bundle = get_breaker(args)
    breaker = bundle.breaker
    reset_peak()
    t0 = time.process_time()
    assert breaker.SetBoard(cls)
    details = breaker.Break()
    cpu = time.process_time() - t0
    return {"cpu": round(cpu, 3), "class_mb": round(peak_mb()), "boards": len(details.failures),
            "init_nodes": details.init_nodes, "root_bound": details.bounds.get(1, "")}


def done_lines(out: Path) -> dict[int, str]:
    if not out.exists():
        return {}
    return {int(x.split("\t", 1)[0]): x for x in out.read_text().splitlines() if x and not x.startswith("#")}


def time_classes(ns: argparse.Namespace) -> int:
    from bnb_classes import read_classes  # beside this script

    classes = [c for c, _ in read_classes(ns.classfile)]
    done = done_lines(ns.out)
    env = dict(os.environ, PYTHONPATH=str(ns.research))

    def limit() -> None:
        if ns.cpu_limit:
            resource.setrlimit(resource.RLIMIT_CPU, (ns.cpu_limit, ns.cpu_limit))

    with ns.out.open("a") as f:
        if not done:
            f.write(f"# {ns.classfile.name}: research C++ at {ns.research}, one class a process, --size "
                    f"{ns.size} --min-score {ns.min_score} --switch-score {ns.switch_score or 'default (1.7x)'}"
                    f"\n# i\tcpu s\tclass MB\tboards\tinit nodes\troot bound\n")
        for i, cls in enumerate(classes):
            if i in done:
                continue
            cmd = [str(ns.python), str(HERE), "one", cls, "--size", ns.size, "--min-score", str(ns.min_score),
                   "--switch-score", str(ns.switch_score), "--dictionary", str(ns.dictionary)]
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, preexec_fn=limit)
            if proc.returncode == 0:
                r = json.loads(proc.stdout.strip().splitlines()[-1])
                line = f"{i}\t{r['cpu']:.2f}\t{r['class_mb']}\t{r['boards']}\t{r['init_nodes']}\t{r['root_bound']}"
            elif ns.cpu_limit and proc.returncode in (-24, -9):  # SIGXCPU, SIGKILL at the hard limit
                line = f"{i}\t>{ns.cpu_limit}\t\t\t\t"
            else:
                print(f"class {i}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}", file=sys.stderr)
                continue
            f.write(line + "\n")
            f.flush()
            print(line, flush=True)
    return 0


def cpu_of(field: str) -> float:
    """A CPU field; '>N' (stopped at the limit) counts as N."""
    return float(field.lstrip(">"))


def table(ns: argparse.Namespace) -> int:
    from bnb_classes import read_classes

    classes = [c for c, _ in read_classes(ns.classfile)]
    cpp = {i: x.split("\t") for i, x in done_lines(ns.cpp).items()}
    ours = {i: x.split("\t") for i, x in done_lines(ns.ours).items()}
    both = sorted(set(cpp) & set(ours))
    c_cpu = {i: cpu_of(cpp[i][1]) for i in both}
    o_cpu = {i: float(ours[i][1]) for i in both}
    stopped = [i for i in both if cpp[i][1].startswith(">")]
    c_mb = [float(cpp[i][2]) for i in both if cpp[i][2]]
    o_mb = [float(ours[i][11]) for i in both if ours[i][11]]
    ratios = sorted(o_cpu[i] / c_cpu[i] for i in both)
    print(f"{ns.classfile.name}: {len(both)} of {len(classes)} classes timed by both"
          + (f"; C++ stopped at its CPU limit on {len(stopped)} (counted at the limit)" if stopped else ""))
    print(f"CPU: C++ {sum(c_cpu.values()):.1f} s, ours {sum(o_cpu.values()):.1f} s, "
          f"ratio {sum(o_cpu.values()) / sum(c_cpu.values()):.2f}; per class median "
          f"{statistics.median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f})")
    if c_mb and o_mb:
        print(f"peak RSS of a class: C++ largest {max(c_mb):,.0f} MB (median {statistics.median(c_mb):,.0f}), "
              f"ours largest {max(o_mb):,.0f} MB (median {statistics.median(o_mb):,.0f}); "
              f"ratio of the largest {max(o_mb) / max(c_mb):.2f}")
    slow = sorted(both, key=lambda i: -c_cpu[i])[:ns.slowest]
    print("slowest for the C++ (i: C++ s / ours s, C++ MB / ours MB): " + "; ".join(
        f"{i}: {cpp[i][1]} / {o_cpu[i]:.1f}, {cpp[i][2] or '?'} / {ours[i][11]}" for i in slow))
    if ns.write:
        # a class the C++ did not finish has no reference, only a note of its limit
        lines = [f"# {ns.classfile.name} timed one class a process: class\tC++ CPU s (empty: stopped, "
                 f"see the last column)\tours CPU s ({ns.label})\tnote"]
        lines += [f"{classes[i]}\t\t{o_cpu[i]:.3f}\tC++ stopped at {c_cpu[i]:g} s CPU" if i in stopped
                  else f"{classes[i]}\t{cpp[i][1]}\t{o_cpu[i]:.3f}" for i in both]
        ns.write.write_text("\n".join(lines) + "\n")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw", help="draw classes with the research code's sampler")
    d.add_argument("--research", type=Path, required=True)
    d.add_argument("--python", type=Path, required=True)
    d.add_argument("--size", required=True)
    d.add_argument("--partition", required=True, help="break_all's classes argument")
    d.add_argument("--sample", type=int, required=True)
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--in-research", action="store_true", help=argparse.SUPPRESS)
    t = sub.add_parser("time", help="time the research code on a class file")
    t.add_argument("classfile", type=Path)
    t.add_argument("--research", type=Path, required=True)
    t.add_argument("--python", type=Path, required=True)
    t.add_argument("--size", required=True)
    t.add_argument("--min-score", type=int, required=True)
    t.add_argument("--switch-score", type=int, default=0, help="0: the research default, 1.7 x min score")
    t.add_argument("--dictionary", type=Path, default=Path(os.environ.get(
        "BOGGLE_OPT_WORDLISTS", HERE.parent.parent.parent / "shared" / "wordlists")) / "enable2k.txt")
    t.add_argument("--cpu-limit", type=int, default=0, help="stop a class after this many CPU seconds")
    t.add_argument("--out", type=Path, required=True)
    o = sub.add_parser("one")  # internal: one class, in PY
    o.add_argument("cls")
    o.add_argument("--size", required=True)
    o.add_argument("--min-score", type=int, required=True)
    o.add_argument("--switch-score", type=int, default=0)
    o.add_argument("--dictionary", required=True)
    b = sub.add_parser("table", help="the C++'s results beside bnb_sample.py's")
    b.add_argument("classfile", type=Path)
    b.add_argument("--cpp", type=Path, required=True)
    b.add_argument("--ours", type=Path, required=True)
    b.add_argument("--slowest", type=int, default=3)
    b.add_argument("--write", type=Path, default=None)
    b.add_argument("--label", default="boggle-opt main")
    ns = ap.parse_args()
    if ns.cmd == "draw":
        if not ns.in_research:  # the draw runs in the research code's Python
            env = dict(os.environ, PYTHONPATH=str(ns.research))
            return subprocess.run([str(ns.python), str(HERE), *sys.argv[1:], "--in-research"], env=env).returncode
        print(f"# python benchmarks/cpp_anchor.py draw --size {ns.size} --partition '{ns.partition}' "
              f"--sample {ns.sample} --seed {ns.seed}: the research code's break_all draw "
              f"(--max_boards {ns.sample} --random_seed {ns.seed})")
        print("# class\treference CPU s (none)")
        for cls in draw_here(ns.partition, ns.size, ns.sample, ns.seed):
            print(f"{cls}\t")
        return 0
    if ns.cmd == "one":
        print(json.dumps(one_here(ns.cls, ns.size, ns.min_score, ns.switch_score, ns.dictionary)))
        return 0
    if ns.cmd == "time":
        return time_classes(ns)
    return table(ns)


if __name__ == "__main__":
    sys.exit(main())
