"""What one shard of a bnb proof cost, class by class, and what it implies
for the whole proof (issue 69: the first hundredth of the 4x4 proof).

    python benchmarks/shard_report.py RUNFILE [--tsv OUT] [--slowest K]
        [--against LABEL=HOURS±SE ...] [--plan-shard HOURS] [--known FILE]

RUNFILE is a bnb run of one shard (``--shard K/N``), finished or not,
``.jsonl`` or ``.jsonl.gz``. Printed:

- the classes recorded against the shard's total, and the CPU they took
  (each class record's own ``cpu``: the worker's, the class alone);
- the spread of class CPU (quantiles, the slowest K, and the share of the
  CPU in the slowest 1% and 10%: the tail, shown, not averaged away);
- the workers' peak memory as the run's progress records give it (a
  worker's high-water mark bounds every class it solved), and the classes
  finished when it last rose;
- every board at or above the min score;
- the whole proof's CPU estimated from the shard: the shard's classes are
  every N-th class (a stride sample, chosen by nothing but position), so
  total = the proof's classes x mean class CPU, with the standard error of a sample of
  that size (finite population corrected), and the same without the
  slowest class, to show how much one class moves it;
- ``--against``: earlier estimates of the whole proof, each as its ratio to
  this one and its distance in standard errors (both errors combined);
- ``--plan-shard``: plan's per-shard figure, against the shard's CPU;
- ``--known FILE``: published boards (``board: score`` or ``board score`` a
  line, as the research line's ``results/best-boards-*.txt``): those at or
  above the min score, each with its class and the shard that holds it;
  every one in this shard must be among its boards, and every board the
  shard lists is named as published or not.

An unfinished shard's classes are the biggest first (bnb's cost order),
so its mean overstates the rest: the estimate is printed only when the
shard is complete. ``--tsv`` writes one line per class: class, cpu s,
wall s, nodes, root bound, candidates, tree arena MB and the worker's
high-water mark after it (where the records hold them), boards.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np


def records(path: Path) -> Iterator[dict[str, Any]]:
    """The run file's records, read and checked as every command reads them
    (gzip by content; a torn last line of a killed run is left out, as
    resume cuts it). A file that is not one exits with its one-line error."""
    from boggle_opt.runs.records import RunFileError, read_numbered

    try:
        numbered = read_numbered(str(path))
    except RunFileError as exc:
        sys.exit(f"shard_report: {exc}")
    for _, record in numbered:
        yield record


def estimate(cpu: np.ndarray, population: int) -> tuple[float, float]:
    """The population's total CPU and its standard error, from a sample: plan's
    estimator with one stratum (finite population corrected)."""
    from boggle_opt.proofs.estimate import scale_up

    scaled = scale_up([float(c) for c in cpu], [0] * len(cpu), [population])
    return scaled.total, scaled.error


def class_space(setup: dict[str, Any]) -> tuple[Any, list[list[str]], Any]:
    """The proof's geometry, its cells' buckets and its class space, from its setup record."""
    from boggle_opt.boards import size_geometry
    from boggle_opt.proofs.board_classes import ClassSpace
    from boggle_opt.proofs.class_tasks import label_buckets

    geometry = size_geometry(setup["size"])
    buckets = label_buckets(setup["buckets"], geometry)
    return geometry, buckets, ClassSpace(geometry, [len(b) for b in buckets])


def known_boards(path: Path) -> list[tuple[str, int]]:
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.replace(":", " ").split()
        if len(parts) == 2 and parts[1].isdigit():
            pairs.append((parts[0], int(parts[1])))
    return pairs


def check_known(known: list[tuple[str, int]], setup: dict[str, Any], shard: str,
                listed: list[tuple[str, int]]) -> bool:
    """Print where each published board at or above the min score lies, and
    whether this shard lists the ones in it; False if one is missing."""
    from boggle_opt.proofs.board_classes import class_name
    from boggle_opt.proofs.class_records import canonical_class

    geometry, buckets, space = class_space(setup)
    place = {cls: i for i, cls in enumerate(space.iterate(shuffled=False))}
    k, _, n = shard.partition("/")
    ours = {geometry.canonical(b): s for b, s in listed}
    ok = True
    wanted = [(b, s) for b, s in known if s >= int(setup["min_score"])]
    print(f"published boards >= {setup['min_score']}: {len(wanted)}")
    for board, score in wanted:
        cls = canonical_class(tuple(next(i for i, bucket in enumerate(cell) if board[c] in bucket)
                                    for c, cell in enumerate(buckets)), geometry)
        home = place[cls] % int(n) + 1 if n else 0
        here = home == int(k) if n else True
        mark = ""
        if here:
            found = ours.get(geometry.canonical(board))
            ok = ok and found == score
            mark = "  <- this shard: " + ("listed" if found == score else f"NOT LISTED (the shard has {found})")
        print(f"  {board} {score}  class {class_name(cls)}, shard {home}/{n}{mark}")
    published = {geometry.canonical(b) for b, _ in wanted}
    for board, score in listed:
        if geometry.canonical(board) not in published:
            print(f"  listed by this shard and not published: {board} {score}")
    return ok


def parse_against(text: str) -> tuple[str, float, float]:
    label, _, figure = text.rpartition("=")
    hours, _, se = figure.replace("+-", "±").partition("±")
    return label, float(hours), float(se or 0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runfile", type=Path)
    ap.add_argument("--tsv", type=Path, help="write one line per class here (refused if it exists)")
    ap.add_argument("--slowest", type=int, default=10)
    ap.add_argument("--against", action="append", default=[], metavar="LABEL=HOURS±SE")
    ap.add_argument("--plan-shard", type=float, metavar="HOURS")
    ap.add_argument("--known", type=Path, metavar="FILE")
    ns = ap.parse_args(argv)

    start: dict[str, Any] = {}
    setup: dict[str, Any] = {}
    classes: dict[str, dict[str, Any]] = {}
    peak, peak_at, total = 0.0, "", 0
    # segments: (wall seconds at its last record, how it ended) for each start
    segments: list[tuple[float, str]] = []
    for r in records(ns.runfile):
        kind = r.get("type")
        if segments and kind != "start":
            ended = str(r.get("stop_reason") or "finished") if kind == "finish" else segments[-1][1]
            segments[-1] = (float(r.get("elapsed", segments[-1][0])), ended)
        if kind == "start":
            start = start or r["settings"]
            segments.append((0.0, "with no finish record (killed, or running)"))
        elif kind == "checkpoint":
            rec = r["record"]
            if rec.get("setup"):
                setup = rec
            elif "class" in rec:
                # older files' records have the worker's wall seconds only
                classes[rec["class"]] = {**rec, "cpu": rec.get("cpu", rec.get("seconds", 0.0))}
        elif kind == "finish" and isinstance(r.get("proof"), dict):
            total = int(r["proof"].get("classes_total", total))
        elif kind == "progress":
            stats = r.get("stats", {})
            total = int(stats.get("classes total", total))
            if float(stats.get("worker peak MB", 0)) > peak:
                peak, peak_at = float(stats["worker peak MB"]), str(stats.get("classes", ""))
    if not start or not setup:
        print(f"{ns.runfile}: not a bnb run file", file=sys.stderr)
        return 1

    shard = setup.get("shard", "")
    k, _, n_shards = shard.partition("/")
    cpu = np.array([c["cpu"] for c in classes.values()], dtype=float)
    done = len(classes)
    print(f"run file: {ns.runfile}")
    print(f"proof: bnb {setup['size']}, min score {setup['min_score']}, buckets {setup['buckets']}; "
          f"word list {start.get('wordlist_label', start.get('wordlist'))}, rule {start.get('rule')}; "
          f"kernel {(start.get('fingerprint') or {}).get('kernel', '?')}")
    print(f"shard: {shard or 'none (a whole proof)'}; classes recorded {done:,} of {total:,}"
          f"{'' if done == total else ' (not finished)'}")
    ends = ", ".join(f"{w / 3600:.1f} h {how}" for w, how in segments)
    print(f"segments: {len(segments)} ({sum(w for w, _ in segments) / 3600:.1f} h wall in all): {ends}")
    if not done:
        return 0
    order = sorted(classes.values(), key=lambda c: -c["cpu"])
    q = np.quantile(cpu, [0.5, 0.9, 0.99])
    print(f"class CPU: {cpu.sum() / 3600:.2f} h in all; mean {cpu.mean():.1f} s "
          f"(standard error {cpu.std(ddof=1) / math.sqrt(done) if done > 1 else 0:.1f}); "
          f"median {q[0]:.1f} s, 90th percentile {q[1]:.1f} s, 99th {q[2]:.1f} s, max {cpu.max():.1f} s")
    tail = np.sort(cpu)[::-1]
    for share in (0.01, 0.1):
        top = max(1, round(share * done))
        print(f"  the slowest {share:.0%} ({top} class{'es' if top > 1 else ''}) took "
              f"{tail[:top].sum() / cpu.sum():.1%} of it")
    print(f"the {min(ns.slowest, done)} slowest classes (CPU s, wall s, nodes, root bound):")
    for c in order[:ns.slowest]:
        print(f"  {c['class']}  {c['cpu']:8.1f}  {c['seconds']:8.1f}  {c['nodes']:>13,}  {c['root_bound']:>7,}")
    arenas = [c for c in classes.values() if "arena_mb" in c]
    if arenas:  # recorded per class since issue 69 (the pinned 735a405 shard has none)
        high = max(arenas, key=lambda c: c["worker_peak_mb"])
        big = max(arenas, key=lambda c: c["arena_mb"])
        print(f"per class ({len(arenas):,} recorded): largest tree arena {big['arena_mb']:,.0f} MB "
              f"({big['class']}); workers' high-water mark {high['worker_peak_mb']:,.0f} MB, first after "
              f"{high['class']}")
        peak = max(peak, high["worker_peak_mb"])
    if peak:
        print(f"workers' peak memory: {peak:,.0f} MB (first reached with {peak_at or '?'} classes done); "
              f"every class {'stayed under' if peak < 1000 else 'did NOT all stay under'} 1 GB")
    else:
        print("workers' peak memory: not in this run file's progress records")
    boards = sorted({(b, s) for c in classes.values() for b, s in c.get("boards", [])}, key=lambda x: -x[1])
    more = f"\n  and {len(boards) - 40:,} more" if len(boards) > 40 else ""
    listed = "".join(f"\n  {b} {s}" for b, s in boards[:40])
    print(f"boards >= {setup['min_score']}: {len(boards):,}{listed}{more}")
    known_ok = check_known(known_boards(ns.known), setup, shard, boards) if ns.known else True

    if ns.plan_shard is not None:
        so_far = "" if done == total else " (so far)"
        print(f"against plan's per-shard figure {ns.plan_shard:.2f} CPU-h: "
              f"{cpu.sum() / 3600 / ns.plan_shard:.2f}x{so_far}")
    if not total:
        print("whole proof: not estimated (the file gives no class total: no progress or finish record)")
    elif done < total:
        print("whole proof: not estimated until the shard is finished (its classes run biggest first)")
    elif n_shards:
        from boggle_opt.proofs.board_classes import count_classes

        geometry, buckets, _ = class_space(setup)
        population = count_classes(geometry, [len(b) for b in buckets])  # the proof's classes, all shards
        est, se = estimate(cpu, population)
        rest, rest_se = estimate(np.sort(cpu)[:-1], population)
        print(f"whole proof ({n_shards} shards, {population:,} classes), from this stride sample: "
              f"{est / 3600:,.0f} ± {se / 3600:,.0f} CPU-hours ({se / est:.1%}); "
              f"without its slowest class {rest / 3600:,.0f} ± {rest_se / 3600:,.0f}")
        for label, hours, other_se in map(parse_against, ns.against):
            both = math.hypot(se / 3600, other_se)
            print(f"  against {label} {hours:,.0f} ± {other_se:,.0f}: {hours / (est / 3600):.2f}x of this, "
                  f"{(hours - est / 3600) / both:+.1f} standard errors" if both else "")
    if ns.tsv is not None:
        with ns.tsv.open("x", encoding="utf-8") as out:
            out.write("class\tcpu_s\twall_s\tnodes\troot_bound\tcandidates\tarena_mb\tworker_peak_mb\tboards\n")
            for c in sorted(classes.values(), key=lambda c: c["class"]):
                found = " ".join(f"{b}:{s}" for b, s in c.get("boards", []))
                out.write(f"{c['class']}\t{c['cpu']:.2f}\t{c['seconds']:.2f}\t{c['nodes']}\t"
                          f"{c['root_bound']}\t{c.get('candidates', 0)}\t{c.get('arena_mb', '')}\t"
                          f"{c.get('worker_peak_mb', '')}\t{found}\n")
        print(f"wrote {ns.tsv}")
    return 0 if known_ok else 2


if __name__ == "__main__":
    sys.exit(main())
