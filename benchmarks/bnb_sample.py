"""Time a sample of board classes one class a process, resumably, and
estimate the whole proof from it.

    python benchmarks/bnb_sample.py CLASSFILE --out RESULTS --size 4x4
        --min-score 3500 [--total 67257] [--jobs 1] [bnb_classes.py options]

Each class of CLASSFILE is solved by ``benchmarks/bnb_classes.py --only I``
in a process of its own, as a proof's worker starts afresh: its CPU and
its peak RSS (the process's, word list included) are its own, not left
over from the class before. Each class's line is appended to RESULTS as it
finishes; run the same command again to go on (classes already in RESULTS
are skipped), so a sample can be timed over several sittings. Options this
script does not know are handed to ``bnb_classes.py`` unchanged.

The summary: classes timed, the mean CPU a class with its standard error,
the median, the 95th percentile and the slowest (the tail is shown, not
averaged away: the slowest 5% and their share of the CPU), the peak RSS
(median, largest, how many classes over 1 GB), and, with ``--total N``, the
whole proof's CPU-hours (N x the mean, the standard error likewise).
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bnb_classes import read_classes  # beside this script

HERE = Path(__file__).resolve().parent
#: the 1 GB a class should stay under (the engine issue's goal)
GOAL_MB = 1000.0


def done_lines(out: Path) -> dict[int, str]:
    """Classes already timed in RESULTS: index -> its line from bnb_classes.py."""
    done: dict[int, str] = {}
    if out.exists():
        for line in out.read_text().splitlines():
            if line and not line.startswith("#"):
                done[int(line.split("\t", 1)[0])] = line
    return done


def solve_one(i: int, ns: argparse.Namespace, extra: list[str]) -> tuple[int, str, str]:
    """Solve class ``i`` in a fresh process; its result line, or '' and the error."""
    cmd = [sys.executable, str(HERE / "bnb_classes.py"), str(ns.classfile), "--size", ns.size,
           "--min-score", str(ns.min_score), "--only", str(i), *extra]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    lines = [x for x in proc.stdout.splitlines() if x and not x.startswith("#") and not x.startswith("total")]
    if proc.returncode != 0 or len(lines) != 1:
        return i, "", (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
    return i, lines[0], ""


def summary(lines: list[str], total: int | None) -> list[str]:
    """The sample's figures (see the module docstring)."""
    rows = [x.split("\t") for x in lines]
    cpu = sorted(float(r[1]) for r in rows)
    peaks = sorted(float(r[11]) for r in rows if r[11])
    n = len(cpu)
    mean = sum(cpu) / n
    se = statistics.stdev(cpu) / math.sqrt(n) if n > 1 else float("nan")
    tail = max(1, round(n * 0.05))
    out = [
        f"classes {n}; CPU {sum(cpu):,.1f} s; mean {mean:.2f} s (standard error {se:.2f} s); "
        f"median {statistics.median(cpu):.2f} s; 95th percentile {cpu[min(n - 1, math.ceil(0.95 * n) - 1)]:.2f} s; "
        f"slowest {', '.join(f'{c:.1f}' for c in cpu[-tail:][::-1])} s (the slowest {tail}: "
        f"{100 * sum(cpu[-tail:]) / sum(cpu):.0f}% of the CPU)",
    ]
    if peaks:
        over = sum(1 for p in peaks if p > GOAL_MB)
        out.append(f"peak RSS a class (its own process): median {statistics.median(peaks):,.0f} MB, "
                   f"largest {peaks[-1]:,.0f} MB; {over} of {len(peaks)} over {GOAL_MB:,.0f} MB")
    # against the CPU seconds the class file holds (an earlier run's): the
    # same classes again, so a kernel or the machine is compared class by class
    paired = [(float(r[1]), float(r[2])) for r in rows if r[2] and float(r[2]) > 0]
    if paired:
        ratios = sorted(c / ref for c, ref in paired)
        out.append(f"against the class file's CPU ({len(paired)} classes): "
                   f"{sum(c for c, _ in paired) / sum(ref for _, ref in paired):.3f}x in all; "
                   f"per class median {statistics.median(ratios):.3f}x, {ratios[0]:.2f}-{ratios[-1]:.2f}x")
    if total:
        out.append(f"a proof of {total:,} classes: {total * mean / 3600:,.0f} +- {total * se / 3600:,.0f} CPU-hours")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("classfile", type=Path)
    ap.add_argument("--out", type=Path, required=True, help="results, appended to (and resumed from)")
    ap.add_argument("--size", required=True)
    ap.add_argument("--min-score", type=int, required=True)
    ap.add_argument("--total", type=int, default=None, help="classes in the whole proof, for its estimate")
    ap.add_argument("--jobs", type=int, default=1, help="classes solved at once (default 1)")
    ns, extra = ap.parse_known_args()
    try:
        n = len(read_classes(ns.classfile))
        done = done_lines(ns.out)
    except (OSError, ValueError) as err:
        print(f"bnb_sample: {err}", file=sys.stderr)
        return 2
    todo = [i for i in range(n) if i not in done]
    if todo:
        with ns.out.open("a") as f:
            if not done:
                f.write(f"# {ns.classfile.name} one class a process: --size {ns.size} --min-score "
                        f"{ns.min_score} {' '.join(extra)}\n")
            with ThreadPoolExecutor(max(1, ns.jobs)) as pool:
                for i, line, failure in pool.map(lambda k: solve_one(k, ns, extra), todo):
                    if failure:
                        print(f"class {i}: {failure}", file=sys.stderr)
                        continue
                    done[i] = line
                    f.write(line + "\n")
                    f.flush()
                    print(line, flush=True)
    lines = [done[i] for i in sorted(done)]
    if not lines:
        return 1
    for text in summary(lines, ns.total):
        print(f"# {text}")
    return 0 if len(lines) == n else 1


if __name__ == "__main__":
    sys.exit(main())
