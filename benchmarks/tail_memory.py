"""The tail of a shard at several worker memories: what a proof costs where
each worker has 1, 2 or 4 GB (issue 79, part 1), and at several
de-duplication thresholds and ways of staying within the memory (part 2).

    python benchmarks/tail_memory.py CLASSES_TSV --size 4x4 --min-score 3500
        [--memory 1000,2000,4000] [--dedup auto,20000] [--way share,split]
        [--wordlist enable2k] [--rule standard]
        [--tail 0.01] [--slow 0.10] [--stride 6] [--rest-stride 0] [--parallel 2]
        [--total N] [--no-huge-pages] [--baseline OLD_VENV/bin/python] [--record FILE]

CLASSES_TSV is a shard's per-class table as ``benchmarks/shard_report.py
--tsv`` writes it (``results/4x4-standard-enable2k/classes.tsv``: the first
hundredth of the 4x4 proof): a header line, then one class a line, its name
(a bucket number per cell, the run file's) and its recorded CPU seconds
first; a ``boards`` column, if any, is checked against every setting's.

The shard's classes are ranked by their recorded CPU. The **tail** (the
slowest ``--tail`` share, 1%) is solved whole; the rest of the **slow**
classes (the slowest ``--slow``, 10%) by a stride sample (every
``--stride``-th of them by rank); with ``--rest-stride K`` the other classes
by every K-th too (default: not solved; their recorded times stand as they
are). Each class is solved at every **setting**: each ``--memory`` (MB, bnb's
``--worker-memory``) with each ``--dedup`` (the bound from which a forced
tree is built again de-duplicated: ``auto``, the kernel's own choice, or a
score; 0 never) with each ``--way`` of staying within the memory
(``share``, the kernel's own: a big tree shares its repeated families;
``split``: never share, solve a class past the share threshold one letter of
a cell at a time; ``proofs/memory.py``'s ``WAYS``), one class at one setting a process, as a proof's worker
solves it (``ClassContext``: the kernel's thresholds for that memory, huge
pages as a worker's, candidates re-scored), ``--parallel`` processes side by
side: the settings of one class run in a row, two at a time, in an order
that turns by one setting from class to class (so none always starts
first or runs beside the same other). Each process prints its class's CPU,
its own peak RSS (Linux's VmHWM, reset after the set-up), what the memory
made the kernel do (subclasses, shared, de-duplicated builds), its boards,
which must be the same at every setting, and, per forced level, its
forcings, their CPU, the arena words they wrote and the highest bound
(``levels``, in the record).

Printed: a line per class and setting, then for each setting the whole
proof's CPU estimated from the shard: the shard's classes are a stride
sample of the proof's ``--total`` (by default counted from the class space),
so the proof is ``total / shard classes`` times the shard's estimate, where
the tail counts as measured, a sampled stratum as its recorded CPU scaled by
the ratio its sample measured (a ratio estimator), and a stratum not
sampled at its recorded CPU; with the standard errors of the shard as a
sample of the proof and of each stratum's sample of the shard, and their
sum. Run it on a quiet machine: the lead's, not CI's.

With ``--baseline PYTHON`` each class is solved by the shard's own kernel
too (an install of its commit, whose Python this is:
``shard_kernel_one.py``), as the first setting, so that each class's
settings run beside it; each setting's estimate is then printed a second
time, read against the shard's record: each stratum's recorded CPU times
the ratio its pairs measured (the tail's, over all of it). A re-solve's
own figures carry the machine's speed that day (re-solves have run
1.10-1.19x the shard's record at the same thresholds); the ratio to the
same classes solved beside them by the shard's kernel does not.

With ``--record FILE`` each class's figures at each setting are appended to
FILE as they come (a JSON line each, with the measurement they belong to:
the table, size, list, rule and min score), and a class and setting FILE
already holds is not solved again: a measurement of hours can stop (Ctrl-C,
the end of a sitting) and go on later from FILE, on another machine, and
its estimates are of every class recorded. A FILE of another measurement is
refused.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bnb_classes import class_peak_mb, peak_mb, reset_class_peak, start_as_a_worker  # noqa: E402


#: the way of the ``--baseline`` setting: the shard's own kernel, as its worker ran
BASELINE = "baseline"


@dataclass(frozen=True, order=True)
class Setting:
    """A worker's memory (MB), the de-duplication threshold (-1: the kernel's
    choice) and the way a big class stays within the memory."""

    memory: float
    dedup: int = -1
    way: str = "share"

    def __str__(self) -> str:
        if self.way == BASELINE:
            return "the shard's kernel"
        return (f"{self.memory:g} MB" + (f", dedup {self.dedup}" if self.dedup >= 0 else "")
                + (f", {self.way}" if self.way != "share" else ""))


@dataclass
class Row:
    """A class of the shard: its name, recorded CPU and boards (None: not recorded)."""

    name: str
    recorded: float
    boards: str | None
    stratum: str = "rest"  # "tail", "slow" or "rest"
    sampled: bool = False
    #: per setting: the measured figures (``solve_one``'s JSON)
    runs: dict[Setting, dict[str, Any]] = field(default_factory=dict)


def read_table(path: Path) -> list[Row]:
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not lines:
        sys.exit(f"tail_memory: {path}: empty")
    head = lines[0].split("\t")
    if head[:2] != ["class", "cpu_s"]:
        sys.exit(f"tail_memory: {path}: the first line is not a header starting class, cpu_s "
                 "(benchmarks/shard_report.py --tsv)")
    at = head.index("boards") if "boards" in head else -1
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cols = line.split("\t")
        try:
            rows.append(Row(cols[0], float(cols[1]), cols[at] if 0 <= at < len(cols) else None))
        except (IndexError, ValueError):
            sys.exit(f"tail_memory: {path} line {number}: not a class and its CPU seconds")
    return rows


def strata(rows: list[Row], tail: float, slow: float, stride: int, rest_stride: int) -> None:
    """Mark each row's stratum and whether it is solved (by recorded CPU, slowest first)."""
    ranked = sorted(rows, key=lambda r: (-r.recorded, r.name))
    n_tail = max(1, math.ceil(tail * len(rows)))
    n_slow = max(n_tail, math.ceil(slow * len(rows)))
    for rank, row in enumerate(ranked):
        if rank < n_tail:
            row.stratum, row.sampled = "tail", True
        elif rank < n_slow:
            row.stratum, row.sampled = "slow", (rank - n_tail) % stride == 0
        else:
            row.sampled = rest_stride > 0 and (rank - n_slow) % rest_stride == 0


# -- one class in a process of its own ---------------------------------------------------


def boards_field(geometry: Any, boards: Sequence[tuple[str, int]]) -> str:
    """A class's boards as a ``--one`` line gives them, canonical (as the run
    file records them), so that every setting's, and the shard kernel's
    (``shard_kernel_one.py``), compare as text."""
    return " ".join(f"{b}:{s}" for b, s in sorted({geometry.canonical(b): s for b, s in boards}.items()))


def solve_one(ns: argparse.Namespace) -> int:
    """Solve class ``ns.one`` at ``ns.memory_one`` MB (``ns.dedup_one``, ``ns.way_one``)
    as a proof's worker does and print one JSON line of what it took."""
    start_as_a_worker(ns.no_huge_pages)
    from boggle_opt.boards import size_geometry
    from boggle_opt.core.pages import trim_heap
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.proofs.class_tasks import ClassContext, ClassTask, TrieTiles, parse_class_name
    from boggle_opt.proofs.memory import fit_memory
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.runs.fingerprints import kernel_version

    geometry = size_geometry(ns.size)
    d = load_dictionary(ns.wordlist, ns.rule)
    bnb = BranchAndBound(BranchAndBound.Options(min_score=ns.min_score, worker_memory=ns.memory_one))
    _, buckets = bnb.buckets(geometry, d.alphabet)
    switch_pct, switch_score = bnb.switch_settings(geometry)
    context = ClassContext(d.keys, d.points, geometry.cols, geometry.rows, buckets, ns.min_score,
                           switch_pct, switch_score, 0, 0.0, TrieTiles.of(d.trie), ns.memory_one)
    context.solver.dedup_score = ns.dedup_one
    fit_memory(context.solver, ns.memory_one, ns.way_one)
    cls = parse_class_name(ns.one)
    if len(cls) != geometry.n:
        print(json.dumps({"error": f"class {ns.one!r} is not of size {ns.size}"}))
        return 2
    # a proof's worker holds only its solver and rescorer once set up (proofs/local.py)
    del d
    trim_heap()
    setup_mb = peak_mb()
    own = reset_class_peak()
    result = context.run(ClassTask(cls))
    solver = context.solver
    print(json.dumps({
        "class": ns.one, "memory": ns.memory_one, "dedup": ns.dedup_one, "way": ns.way_one, "cpu": round(result.cpu, 3),
        "peak_mb": round(class_peak_mb() if own else peak_mb(), 1), "setup_mb": round(setup_mb, 1),
        "arena_mb": round(result.arena_mb, 1), "nodes": result.nodes, "root_bound": result.root_bound,
        "subclasses": result.subclasses, "shared": result.shared, "dedups": int(solver.dedups),
        "build_s": round(solver.build_cpu, 2), "force_s": round(solver.force_cpu, 2),
        "bound_s": round(solver.bound_cpu, 2),
        "kernel": kernel_version(),  # the compiled core's source digest, as a run file's fingerprint has it
        # where forcing went, level by level: forcings, CPU seconds, arena words written, highest bound
        "levels": [[level, int(solver.level_forces[level]), round(solver.level_cpu[level], 2),
                    int(solver.level_words[level]), int(solver.level_bound[level])]
                   for level in range(geometry.n) if solver.level_forces[level]],
        "boards": boards_field(geometry, result.boards),
    }), flush=True)
    return 0


# -- the driver --------------------------------------------------------------------------


def jobs_in_order(rows: list[Row], settings: Sequence[Setting]) -> list[tuple[Row, Setting]]:
    """Each solved class's settings in a row, the order turned by one setting a class."""
    out: list[tuple[Row, Setting]] = []
    for k, row in enumerate(r for r in rows if r.sampled):
        turn = k % len(settings)
        out += [(row, m) for m in [*settings[turn:], *settings[:turn]]]
    return out


def command(ns: argparse.Namespace, row: Row, setting: Setting) -> list[str]:
    if setting.way == BASELINE:
        return [ns.baseline, str(HERE / "shard_kernel_one.py"), row.name, "--size", ns.size,
                "--min-score", str(ns.min_score), "--wordlist", ns.wordlist, "--rule", ns.rule]
    return [sys.executable, str(Path(__file__).resolve()), str(ns.table), "--size", ns.size,
            "--min-score", str(ns.min_score), "--wordlist", ns.wordlist, "--rule", ns.rule,
            "--one", row.name, "--memory-one", repr(setting.memory), "--dedup-one", str(setting.dedup),
            "--way-one", setting.way,
            *(["--no-huge-pages"] if ns.no_huge_pages else [])]


def measurement(ns: argparse.Namespace) -> dict[str, Any]:
    """What a ``--record`` file's lines must share: the same classes, solved the same way."""
    return {"table": ns.table.name, "size": ns.size, "wordlist": ns.wordlist, "rule": ns.rule,
            "min_score": ns.min_score}


def read_record(path: Path, ns: argparse.Namespace, rows: list[Row]) -> int:
    """The figures ``path`` holds, into ``rows``' runs; how many. Each line is
    checked: a line of another measurement, or not a line this script
    writes, stops the run in one line."""
    if not path.exists():
        return 0
    want = measurement(ns)
    by_name = {r.name: r for r in rows}
    held = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            got = json.loads(line)
            setting = Setting(float(got["memory"]), int(got["dedup"]), str(got.get("way", "share")))
            float(got["cpu"]), float(got["peak_mb"]), str(got["boards"])
            ok = got["measurement"] == want and got["class"] in by_name
        except (ValueError, KeyError, TypeError):
            sys.exit(f"tail_memory: {path} line {number}: not a line of --record")
        if not ok:
            sys.exit(f"tail_memory: {path} line {number}: of another measurement (its table, size, list, "
                     f"rule or min score differ, or its class is not in {ns.table.name})")
        by_name[got["class"]].runs[setting] = got
        held += 1
    return held


def print_run(row: Row, setting: Setting, got: dict[str, Any], note: str = "") -> None:
    print(f"{row.name}\t{row.recorded:.2f}\t{row.stratum}\t{setting}\t{got['cpu']:.2f}\t"
          f"{got['peak_mb']:.0f}\t{got['arena_mb']:.0f}\t{got['subclasses']}\t{got['shared']}\t"
          f"{got['build_s']}/{got['force_s']}/{got['bound_s']}\t{got['dedups']}\t{len(got['boards'].split())}"
          + note, flush=True)


def run_all(ns: argparse.Namespace, rows: list[Row], settings: Sequence[Setting]) -> None:
    """Every job not yet recorded, ``ns.parallel`` processes at a time, each
    line printed (and recorded) as it ends."""
    print("# class\trecorded s\tstratum\tsetting\tcpu s\tpeak MB\tarena MB\tsubclasses\tshared\t"
          "build/force/orderly s\tde-duplicated builds\tboards", flush=True)
    todo = []
    for row, setting in jobs_in_order(rows, settings):
        if setting in row.runs:
            print_run(row, setting, row.runs[setting], "\t(recorded)")
            check_boards(row)
        else:
            todo.append((row, setting))
    running: list[tuple[subprocess.Popen[str], Row, Setting]] = []
    try:
        while todo or running:
            while todo and len(running) < ns.parallel:
                row, setting = todo.pop(0)
                running.append((subprocess.Popen(command(ns, row, setting), stdout=subprocess.PIPE, text=True),
                                row, setting))
            time.sleep(0.2)
            for item in [r for r in running if r[0].poll() is not None]:
                running.remove(item)
                proc, row, setting = item
                out = proc.stdout.read() if proc.stdout else ""
                proc.wait()
                try:
                    got = json.loads(out.strip().splitlines()[-1])
                except (IndexError, ValueError):
                    sys.exit(f"tail_memory: class {row.name} at {setting}: exit {proc.returncode}, no result")
                if "error" in got:
                    sys.exit(f"tail_memory: {got['error']}")
                row.runs[setting] = got
                print_run(row, setting, got)
                if ns.record:
                    with ns.record.open("a", encoding="utf-8") as out:
                        out.write(json.dumps({**got, "measurement": measurement(ns)}) + "\n")
                check_boards(row)
    finally:
        for proc, _, _ in running:  # Ctrl-C: no process outlives the run
            proc.kill()
            proc.wait()


def check_boards(row: Row) -> None:
    """The boards never depend on the setting, and are the shard's where it recorded them."""
    seen = {m: r["boards"] for m, r in row.runs.items()}
    if len(set(seen.values())) > 1:
        sys.exit(f"tail_memory: class {row.name}: the boards differ between settings "
                 f"{', '.join(map(str, sorted(seen)))}")
    if row.boards is not None and seen:
        want = " ".join(sorted(row.boards.split()))
        if next(iter(seen.values())) != want:
            sys.exit(f"tail_memory: class {row.name}: the boards differ from the shard's recorded ones")


@dataclass
class Estimate:
    shard: float  # the shard's CPU seconds at this setting, estimated
    se_strata: float  # its standard error from the strata's samples
    se_shard: float  # the proof's standard error as a sample of shards' classes (seconds of the proof)
    proof: float  # the whole proof's CPU seconds


def estimate(rows: list[Row], setting: Setting, total: int) -> Estimate:
    """The shard's and the whole proof's CPU at a setting: the tail as measured,
    a sampled stratum by its ratio estimator, an unsampled one as recorded."""
    shard = 0.0
    var = 0.0
    per_class: list[float] = []  # each class's CPU as estimated, for the proof's error
    for name in ("tail", "slow", "rest"):
        group = [r for r in rows if r.stratum == name]
        if not group:
            continue
        sampled = [r for r in group if r.sampled and setting in r.runs]
        measured = {id(r) for r in sampled}
        if len(sampled) == len(group):
            shard += sum(r.runs[setting]["cpu"] for r in group)
            per_class += [r.runs[setting]["cpu"] for r in group]
            continue
        recorded = sum(r.recorded for r in group)
        if not sampled:
            shard += recorded
            per_class += [r.recorded for r in group]
            continue
        ratio, s2 = ratio_estimator([r.recorded for r in sampled], [r.runs[setting]["cpu"] for r in sampled])
        shard += ratio * recorded
        per_class += [r.runs[setting]["cpu"] if id(r) in measured else ratio * r.recorded for r in group]
        n, big = len(sampled), len(group)
        var += big * big * (1 - n / big) * s2 / n  # the ratio estimator's, as a total
    return as_proof(shard, var, per_class, total)


def as_proof(shard: float, var: float, per_class: list[float], total: int) -> Estimate:
    """The shard's estimate (``var``: its strata's variance) as the whole
    proof's, the shard a stride sample of its ``total`` classes, each class's
    CPU as estimated in ``per_class``."""
    n = len(per_class)
    mean = sum(per_class) / n
    s2 = sum((c - mean) ** 2 for c in per_class) / (n - 1) if n > 1 else 0.0
    se_shard = total * math.sqrt(s2 / n * max(0.0, 1 - n / total))
    return Estimate(shard, math.sqrt(var), se_shard, shard * total / n)


def against(rows: list[Row], setting: Setting, base: Setting, total: int) -> Estimate:
    """The shard's and the whole proof's CPU at a setting read against the
    shard's own record: each stratum's recorded CPU times the ratio of the
    setting's CPU to the shard's kernel's, both measured side by side on its
    sampled classes (the tail: all of them), so that the machine's speed
    that day cancels. A stratum with no pair stands as recorded."""
    shard = 0.0
    var = 0.0
    per_class: list[float] = []
    for name in ("tail", "slow", "rest"):
        group = [r for r in rows if r.stratum == name]
        if not group:
            continue
        recorded = sum(r.recorded for r in group)
        pairs = [r for r in group if r.sampled and setting in r.runs and base in r.runs]
        if not pairs:
            shard += recorded
            per_class += [r.recorded for r in group]
            continue
        x = [r.runs[base]["cpu"] for r in pairs]
        ratio, s2 = ratio_estimator(x, [r.runs[setting]["cpu"] for r in pairs])
        shard += ratio * recorded
        per_class += [ratio * r.recorded for r in group]
        n, big = len(pairs), len(group)
        mean_x = sum(x) / n
        var += recorded * recorded * max(0.0, 1 - n / big) * s2 / n / (mean_x * mean_x)
    return as_proof(shard, var, per_class, total)


def ratio_estimator(x: Sequence[float], y: Sequence[float]) -> tuple[float, float]:
    """The ratio of ``y``'s sum to ``x``'s (``x``'s sum > 0) and its residuals'
    variance (0 for one pair): a ratio estimator's, from which its standard
    error follows."""
    ratio = sum(y) / sum(x)
    n = len(x)
    s2 = sum((yi - ratio * xi) ** 2 for xi, yi in zip(x, y)) / (n - 1) if n > 1 else 0.0
    return ratio, s2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("table", type=Path, help="the shard's per-class table (shard_report.py --tsv)")
    ap.add_argument("--size", required=True, help="CxR, e.g. 4x4")
    ap.add_argument("--min-score", type=int, required=True)
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--rule", default="standard")
    ap.add_argument("--memory", default="1000,2000,4000", help="worker memories in MB, comma-separated")
    ap.add_argument("--dedup", default="auto",
                    help="de-duplication thresholds, comma-separated: auto (the kernel's choice), "
                         "a score, 0 for never (default auto); each is solved at each memory")
    ap.add_argument("--way", default="share",
                    help="ways a big class stays within the memory, comma-separated: share (the "
                         "kernel's own) and split (default share); each is solved at each memory")
    ap.add_argument("--tail", type=float, default=0.01, help="the slowest share solved whole (default 0.01)")
    ap.add_argument("--slow", type=float, default=0.10, help="the slowest share sampled (default 0.10)")
    ap.add_argument("--stride", type=int, default=6, help="every K-th of the slow classes past the tail (default 6)")
    ap.add_argument("--rest-stride", type=int, default=0,
                    help="every K-th of the other classes too (default 0: their recorded CPU stands)")
    ap.add_argument("--parallel", type=int, default=2, help="processes side by side (default 2)")
    ap.add_argument("--total", type=int, default=0,
                    help="the proof's classes (default: counted from the class space)")
    ap.add_argument("--record", type=Path, default=None,
                    help="append each class's figures at each setting to this file, and solve "
                         "none it already holds (to go on later, elsewhere)")
    ap.add_argument("--no-huge-pages", action="store_true", help="as bnb_classes.py's")
    ap.add_argument("--baseline", default=None, metavar="PYTHON",
                    help="also solve each class with the shard's own kernel, installed where this "
                         "Python runs (shard_kernel_one.py), beside the settings, and estimate each "
                         "setting against the shard's record through that ratio")
    ap.add_argument("--recorded-only", action="store_true",
                    help="solve nothing: estimate from what --record holds (a stratum partly "
                         "measured by the ratio of what it holds)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # a worker: this class only
    ap.add_argument("--memory-one", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--dedup-one", type=int, default=-1, help=argparse.SUPPRESS)
    ap.add_argument("--way-one", default="share", help=argparse.SUPPRESS)
    ns = ap.parse_args()
    if ns.one is not None:
        try:
            return solve_one(ns)
        except KeyboardInterrupt:  # Ctrl-C reaches the whole group: the driver says it once
            return 130
    try:
        memories = [float(m) for m in ns.memory.split(",")]
    except ValueError:
        sys.exit(f"tail_memory: --memory {ns.memory!r}: not MB, comma-separated")
    if not memories or any(not 0 < m <= 1e9 for m in memories) or ns.stride < 1 or ns.parallel < 1:
        sys.exit("tail_memory: --memory (MB > 0), --stride and --parallel must be positive")
    try:
        dedups = [-1 if d.strip() == "auto" else int(d) for d in ns.dedup.split(",")]
    except ValueError:
        sys.exit(f"tail_memory: --dedup {ns.dedup!r}: not auto or scores, comma-separated")
    if any(d < -1 for d in dedups):
        sys.exit("tail_memory: --dedup: a score is 0 or more")
    from boggle_opt.proofs.memory import WAYS

    ways = [w.strip() for w in ns.way.split(",")]
    if not ways or any(w not in WAYS for w in ways):
        sys.exit(f"tail_memory: --way {ns.way!r}: not {' or '.join(WAYS)}, comma-separated")
    settings = [Setting(m, d, w) for m in memories for d in dedups for w in ways]
    base = Setting(0.0, -1, BASELINE)
    if ns.baseline and not (ns.recorded_only or os.access(ns.baseline, os.X_OK)):
        sys.exit(f"tail_memory: --baseline {ns.baseline!r}: not a Python this user can run")
    if ns.baseline:
        settings = [base, *settings]
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(HERE.parent.parent / "shared" / "wordlists"))
    rows = read_table(ns.table)
    strata(rows, ns.tail, ns.slow, ns.stride, ns.rest_stride)
    total = ns.total or count_classes(ns)
    solved = [r for r in rows if r.sampled]
    print(f"# {ns.table}: {len(rows)} classes of {total:,}, {ns.size} {ns.wordlist} {ns.rule} at "
          f"{ns.min_score}; solving {len(solved)} ({sum(r.stratum == 'tail' for r in rows)} of the tail, "
          f"{sum(r.sampled and r.stratum == 'slow' for r in rows)} of the slow, "
          f"{sum(r.sampled and r.stratum == 'rest' for r in rows)} of the rest) at "
          f"{'; '.join(map(str, settings))}, {ns.parallel} side by side; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    if ns.record:
        held = read_record(ns.record, ns, rows)
        print(f"# {ns.record}: {held} figures recorded before", flush=True)
    if ns.recorded_only:
        if not ns.record:
            sys.exit("tail_memory: --recorded-only needs --record FILE")
        for row in rows:  # what was not recorded is not solved
            row.sampled = row.sampled and bool(row.runs)
    try:
        if not ns.recorded_only:
            run_all(ns, rows, settings)
    except KeyboardInterrupt:
        sys.exit("tail_memory: stopped" + (f"; what was solved is in {ns.record}" if ns.record else ""))
    recorded = sum(r.recorded for r in rows)
    print(f"# the shard as recorded: {cpu(recorded)}, the proof {cpu(recorded * total / len(rows))}")
    reads = [("measured", estimate)]
    if ns.baseline:
        reads.append(("against the shard's record", lambda rows, s, total: against(rows, s, base, total)))
    for how, read in reads:
        for setting in settings:
            if how != "measured" and setting == base:
                continue
            e = read(rows, setting, total)
            scale = total / len(rows)
            both = math.hypot(e.se_strata * scale, e.se_shard)
            peak = max((r.runs[setting]["peak_mb"] for r in solved if setting in r.runs), default=0.0)
            print(f"{setting}, {how}\tshard {cpu(e.shard)} ± {cpu(e.se_strata)} (the strata's samples)\t"
                  f"proof {cpu(e.proof)} ± {cpu(both)} (of which the shard as a sample ± {cpu(e.se_shard)}, "
                  f"the strata's samples ± {cpu(e.se_strata * scale)})\tpeak {peak:,.0f} MB")
    for setting in settings[1:]:
        print(paired(solved, settings[0], setting))
    return 0


def paired(solved: list[Row], base: Setting, other: Setting) -> str:
    """``other`` against ``base`` on the classes solved at both: the ratio of their
    CPU sums with its standard error (a ratio estimator's), and the pairs' range."""
    both = [r for r in solved if base in r.runs and other in r.runs]
    x = [r.runs[base]["cpu"] for r in both]
    y = [r.runs[other]["cpu"] for r in both]
    if not both or sum(x) <= 0:
        return f"{other} against {base}: no class solved at both"
    ratio, s2 = ratio_estimator(x, y)
    n = len(both)
    se = math.sqrt(s2 / n) / (sum(x) / n)
    each = sorted(yi / xi for xi, yi in zip(x, y) if xi > 0)  # not empty: sum(x) > 0
    return (f"{other} against {base}: {ratio:.3f}x the CPU (standard error {se:.3f}) over {n} classes, "
            f"pairs {each[0]:.2f}-{each[-1]:.2f}")


def cpu(seconds: float) -> str:
    """CPU-hours from an hour up, else CPU seconds."""
    return f"{seconds / 3600:,.1f} CPU-hours" if seconds >= 3600 else f"{seconds:,.1f} CPU-s"


def count_classes(ns: argparse.Namespace) -> int:
    """The proof's classes under bnb's default buckets for the size and list."""
    from boggle_opt.boards import size_geometry
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.proofs.board_classes import count_classes as count
    from boggle_opt.registry.dictionaries import load_dictionary

    geometry = size_geometry(ns.size)
    d = load_dictionary(ns.wordlist, ns.rule)
    _, buckets = BranchAndBound(BranchAndBound.Options()).buckets(geometry, d.alphabet)
    return count(geometry, [len(b) for b in buckets])


if __name__ == "__main__":
    sys.exit(main())
