"""Solve classes of a coarser partition whole and as their default sub-classes.

    python benchmarks/bnb_partition.py --size CxR --min-score S --sample N --seed K
        [--centre BUCKETS] [--edges BUCKETS] [--max-subs M] [--only I,J]
        [--wordlist W] [--rule R] [--no-huge-pages]
    python benchmarks/bnb_partition.py --summary OUTPUT   # the totals of a run stopped early

    e.g. python benchmarks/bnb_partition.py --size 3x4 --min-score 1500 --sample 30 \\
             --seed 4504 --centre abcdefghijklmnopqrstuvwxyz

A coarser partition is bnb's default (``default_buckets``: BUCKETS_3 on every
cell, one bucket in the corners from 3x4 up) with fewer buckets on a group of
cells: ``--centre`` (the interior cells) and/or ``--edges`` (the boundary
cells that are not corners), each given as buckets separated by spaces or
``|``, every one a union of the default buckets of those cells (so that the
sub-classes are exactly classes of the default partition). ``N`` canonical
classes of the coarse partition are drawn at random (seed ``K``; every
canonical class equally likely, as ``boggle-opt plan`` draws). Each is solved
whole and as its sub-classes (per cell, the default buckets inside the
coarse one), in one process, the order of the two reversed every other class
so that drift and a neighbour's load fall on both alike; at bnb's default
switch for the size. Recorded: CPU seconds (``time.process_time``), each
solve's own peak RSS (``bnb_classes.py``'s class peak; for the sub-classes
the largest), and the boards at or above the min score, which must be the
same for the whole as for its sub-classes together (asserted). A class with
more than ``M`` sub-classes is skipped (and listed), to keep a run short.

Printed: one line per class (whole and sub-classes' CPU, their ratio, peaks,
boards), then the totals, the ratio sum(whole) / sum(sub-classes) with its
standard error (a ratio estimator over the classes), the range of the
per-class ratios, and the largest peaks.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import sys
import time
from pathlib import Path
from collections.abc import Callable
from typing import TYPE_CHECKING

from bnb_classes import class_peak_mb, reset_class_peak, start_as_a_worker

if TYPE_CHECKING:
    from boggle_opt.core.branch import ClassSolver
    from boggle_opt.core.geometry import Geometry


def cell_groups(geometry: Geometry) -> dict[str, list[int]]:
    """The corners, the edges (boundary cells but corners) and the centre
    (interior cells), by column-major cell number."""
    from boggle_opt.proofs.board_classes import corner_cells

    corners = set(corner_cells(geometry))
    rows, cols = geometry.rows, geometry.cols
    edges, centre = [], []
    for c in range(geometry.n):
        col, row = c // rows, c % rows
        if c in corners:
            continue
        if col in (0, cols - 1) or row in (0, rows - 1):
            edges.append(c)
        else:
            centre.append(c)
    return {"corners": sorted(corners), "edges": edges, "centre": centre}


def refine(coarse: list[str], fine: list[str]) -> list[list[str]]:
    """For each coarse bucket, the fine buckets it is the union of (an error
    if it is not a union of them)."""
    out = []
    for bucket in coarse:
        inside = [f for f in fine if set(f) <= set(bucket)]
        if set("".join(inside)) != set(bucket):
            raise ValueError(f"bucket {bucket!r} is not a union of the default buckets {' '.join(fine)}")
        out.append(inside)
    return out


def sub_classes(letters: list[str], fine: list[list[str]]) -> list[list[str]]:
    """The default-partition classes inside a class: per cell its fine
    buckets inside the cell's letters, every combination."""
    per_cell = [[f for f in fine[c] if set(f) <= set(s)] for c, s in enumerate(letters)]
    return [list(combo) for combo in itertools.product(*per_cell)]


def solve(solver: ClassSolver, letters: list[str], min_score: int, switch_pct: int,
          score: Callable[[str], int]) -> tuple[float, float, set[str]]:
    """One class: CPU seconds, its own peak RSS (MB, 0 if it cannot be
    read), and its boards at or above the min score (candidates re-scored)."""
    from boggle_opt.proofs.board_classes import letter_mask

    masks = [letter_mask(s) for s in letters]
    resettable = reset_class_peak()
    c0 = time.process_time()
    candidates = solver.solve(masks, min_score, switch_pct, 0)
    boards = {b for b in candidates if score(b) >= min_score}
    cpu = time.process_time() - c0
    return cpu, class_peak_mb() if resettable else 0.0, boards


def ratio_estimate(whole: list[float], subs: list[float]) -> tuple[float, float]:
    """sum(whole) / sum(subs) and its standard error (ratio estimator:
    sqrt(sum((w - R s)^2) / (n (n - 1))) / mean(s))."""
    n = len(whole)
    r = sum(whole) / sum(subs)
    if n < 2:
        return r, float("nan")
    resid = sum((w - r * s) ** 2 for w, s in zip(whole, subs))
    return r, math.sqrt(resid / (n * (n - 1))) / (sum(subs) / n)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--size", help="CxR, e.g. 3x4")
    ap.add_argument("--min-score", type=int)
    ap.add_argument("--sample", type=int, help="coarse classes to draw")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--centre", default="", help="the interior cells' buckets (default: the default's)")
    ap.add_argument("--edges", default="", help="the non-corner boundary cells' buckets (default: the default's)")
    ap.add_argument("--board", default="",
                    help="also solve the coarse class holding this board (column-major letters), last, "
                         "as class 'b' (to check the boards found where a class has some)")
    ap.add_argument("--max-subs", type=int, default=0, help="skip classes with more sub-classes (0: none skipped)")
    ap.add_argument("--only", default="", help="comma-separated 0-based indices of the drawn classes to run")
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--rule", default="standard")
    ap.add_argument("--no-huge-pages", action="store_true",
                    help="run without the huge pages a proof's worker processes get")
    ap.add_argument("--summary", type=Path, default=None,
                    help="only print the totals of this output of an earlier run (one stopped early)")
    ns = ap.parse_args()
    if ns.summary is not None:
        return summarise_file(ns.summary)
    if ns.size is None or ns.min_score is None or ns.sample is None or ns.seed is None:
        ap.error("--size, --min-score, --sample and --seed are required")
    start_as_a_worker(ns.no_huge_pages)
    from boggle_opt.huge_pages import settle_for

    import numpy as np

    from boggle_opt.boards import size_geometry
    from boggle_opt.cli.plan import draw
    from boggle_opt.core.branch import ClassSolver
    from boggle_opt.proofs.board_classes import (
        ClassSpace, class_letters, count_classes, default_buckets, parse_buckets,
    )
    from boggle_opt.proofs.switch import DEFAULT_SWITCH, SWITCH_RATIOS
    from boggle_opt.registry.dictionaries import load_dictionary

    geometry = size_geometry(ns.size)
    main_text, corner_text = default_buckets(geometry)
    groups = cell_groups(geometry)
    fine = [parse_buckets(main_text)] * geometry.n
    for c in groups["corners"]:
        fine[c] = parse_buckets(corner_text or main_text)
    coarse = list(fine)
    described = []
    try:
        for name, text in (("centre", ns.centre), ("edges", ns.edges)):
            if not text:
                continue
            buckets = parse_buckets(text)
            for c in groups[name]:
                refine(buckets, fine[c])
                coarse[c] = buckets
            described.append(f"{name} {' | '.join(buckets)}")
    except ValueError as err:
        print(f"bnb_partition: {err}", file=sys.stderr)
        return 2
    if not described:
        print("bnb_partition: give --centre and/or --edges", file=sys.stderr)
        return 2

    huge = settle_for(geometry.n)
    space = ClassSpace(geometry, [len(b) for b in coarse])
    total = count_classes(geometry, space.counts)
    drawn = draw(space, total, ns.sample, np.random.default_rng(ns.seed))
    picked: list[int | str] = [int(i) for i in ns.only.split(",")] if ns.only else list(range(len(drawn)))
    if ns.board:
        if len(ns.board) != geometry.n:
            ap.error(f"--board: a {ns.size} board has {geometry.n} letters")
        picked.append("b")
    switch_pct = round(SWITCH_RATIOS.get(ns.size, DEFAULT_SWITCH) * 100)

    t0 = time.process_time()
    d = load_dictionary(ns.wordlist, ns.rule)
    scorer = d.scorer(geometry)
    solver = ClassSolver(d.trie, geometry)
    setup = time.process_time() - t0
    print(f"# bnb_partition {ns.size}, {ns.wordlist} {ns.rule}, min score {ns.min_score}, switch "
          f"{switch_pct / 100:.2f}x; coarse: {'; '.join(described)} (corners: {' | '.join(fine[groups['corners'][0]])}); "
          f"{len(picked) - bool(ns.board)} of {len(drawn)} drawn (seed {ns.seed}) of {total:,} canonical classes"
          f"{' and the class of ' + ns.board if ns.board else ''}; "
          f"setup {setup:.2f} s CPU, load {os.getloadavg()[0]:.1f}, huge pages {'on' if huge else 'off'}",
          flush=True)
    print("# i\tsubs\tfirst\twhole s\tsubs s\tratio\twhole MB\tsubs MB (largest)\tboards\tbest\tclass", flush=True)
    wholes: list[float] = []
    subs_cpu: list[float] = []
    whole_peaks: list[float] = []
    sub_peaks: list[float] = []
    skipped: list[int | str] = []
    for k, i in enumerate(picked):
        if i == "b":
            letters = [next(b for b in coarse[c] if ch in b) for c, ch in enumerate(ns.board.lower())]
        else:
            letters = class_letters(drawn[int(i)], coarse)
        parts = sub_classes(letters, fine)
        if ns.max_subs and len(parts) > ns.max_subs:
            skipped.append(i)
            print(f"{i}\t{len(parts)}\tskipped (more than {ns.max_subs} sub-classes)\t\t\t\t\t\t\t\t"
                  f"{' '.join(letters)}", flush=True)
            continue

        def run_whole() -> tuple[float, float, set[str]]:
            return solve(solver, letters, ns.min_score, switch_pct, scorer.score)

        def run_subs() -> tuple[float, float, set[str]]:
            cpu, peak, boards = 0.0, 0.0, set()
            for part in parts:
                c, p, b = solve(solver, part, ns.min_score, switch_pct, scorer.score)
                cpu, peak = cpu + c, max(peak, p)
                boards |= b
            return cpu, peak, boards

        if k % 2 == 0:
            first = "whole"
            w_cpu, w_peak, w_boards = run_whole()
            s_cpu, s_peak, s_boards = run_subs()
        else:
            first = "subs"
            s_cpu, s_peak, s_boards = run_subs()
            w_cpu, w_peak, w_boards = run_whole()
        assert w_boards == s_boards, (i, sorted(w_boards ^ s_boards))
        best = max((scorer.score(b) for b in w_boards), default=0)
        wholes.append(w_cpu)
        subs_cpu.append(s_cpu)
        whole_peaks.append(w_peak)
        sub_peaks.append(s_peak)
        print(f"{i}\t{len(parts)}\t{first}\t{w_cpu:.2f}\t{s_cpu:.2f}\t{w_cpu / s_cpu:.3f}\t{w_peak:.0f}\t"
              f"{s_peak:.0f}\t{len(w_boards)}\t{best or ''}\t{' '.join(letters)}", flush=True)
    return summarise(wholes, subs_cpu, whole_peaks, sub_peaks, skipped, ns.max_subs)


def summarise(wholes: list[float], subs_cpu: list[float], whole_peaks: list[float],
              sub_peaks: list[float], skipped: list[int | str], max_subs: int) -> int:
    """The totals, the ratio with its standard error, and the peaks."""
    if not wholes:
        print("no class solved")
        return 1
    r, se = ratio_estimate(wholes, subs_cpu)
    per = [w / s for w, s in zip(wholes, subs_cpu)]
    print(f"total: {len(wholes)} classes; whole {sum(wholes):.1f} s (mean {sum(wholes) / len(wholes):.2f}, "
          f"slowest {max(wholes):.2f}); sub-classes {sum(subs_cpu):.1f} s "
          f"(mean {sum(subs_cpu) / len(subs_cpu):.2f} a class)")
    error = f"{se:.3f}" if math.isfinite(se) else "none: one class"
    print(f"ratio {r:.3f} (standard error {error}); per class {min(per):.2f}-{max(per):.2f}")
    print(f"peak MB: whole median {sorted(whole_peaks)[len(whole_peaks) // 2]:.0f}, largest {max(whole_peaks):.0f}; "
          f"sub-classes largest {max(sub_peaks):.0f}")
    if skipped:
        # (a summary read from a file does not know the run's --max-subs)
        limit = f" (more than {max_subs} sub-classes)" if max_subs else ""
        print(f"skipped{limit}: {', '.join(map(str, skipped))}")
    return 0


def summarise_file(path: Path) -> int:
    """The summary of a run's output whose totals are missing (a run stopped
    early): from its per-class lines."""
    wholes, subs_cpu, whole_peaks, sub_peaks = [], [], [], []
    skipped: list[int | str] = []
    for line in path.read_text().splitlines():
        cols = line.split("\t")
        if line.startswith("#") or len(cols) < 3 or not (cols[0].isdigit() or cols[0] == "b"):
            continue
        if cols[2].startswith("skipped"):
            skipped.append(cols[0])
            continue
        wholes.append(float(cols[3]))
        subs_cpu.append(float(cols[4]))
        whole_peaks.append(float(cols[6]))
        sub_peaks.append(float(cols[7]))
    print(f"# {path}")
    return summarise(wholes, subs_cpu, whole_peaks, sub_peaks, skipped, 0)


if __name__ == "__main__":
    sys.exit(main())
