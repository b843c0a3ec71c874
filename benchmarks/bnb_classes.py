"""Solve each board class of a file in one process and print what it cost.

    python benchmarks/bnb_classes.py CLASSFILE --size CxR --min-score S
        [--switch-score N | --switch RATIO] [--wordlist W] [--rule R] [--only I,J]
        [--worker-memory MB] [--memory-way share|split] [--split-mb MB] [--split-again-mb MB] [--split-deep-mb MB] [--unshared-parts]
        [--share-mb MB] [--dedup-score D --dedup-level L]

CLASSFILE has one class a line, one letter set per cell, column-major,
separated by spaces (the format ``boggle-opt bound`` reads); a second
tab-separated column, if present, is a reference CPU time in seconds (the
research C++'s, in ``benchmarks/anchors/``). Lines starting with ``#`` are
comments. Each class is solved (tree, forcing, orderly bound) and its
candidates re-scored, as ``bnb`` does, and the line printed: CPU seconds,
the ratio to the reference, tree nodes, the phases in CPU seconds, memory
(the built tree's bytes per node, the arena's peak, the class's own peak
RSS where Linux lets a process reset its high-water mark, and the peak RSS
so far), boards found, and the bound after each phase: the root's after the
build, then per forced level the highest bound of a tree forced there (and
how many were), then the highest bound handed to the orderly bound (and how
many calls), and per forced level the CPU seconds its forcings took (the
de-duplicated builds' included) and the arena they wrote, and the builder's
arena estimate (of a class built in passes; what the split and sharing
thresholds are compared with). The totals follow:
CPU, peak RSS and the total ratio.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boggle_opt.core.branch import ClassSolver

HERE = Path(__file__).resolve().parent


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def reset_class_peak() -> bool:
    """Reset this process's peak RSS (Linux: VmHWM), so each class's own
    peak can be read; False where that is not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def class_peak_mb() -> float:
    """Peak RSS since the last reset (VmHWM), in MB. (A reset also resets
    ``ru_maxrss``: the run's peak is the largest of these.)"""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return peak_mb()


def bounds_after_phases(solver: ClassSolver) -> str:
    """The bound after each phase: root, each forced level, the orderly bound."""
    parts = [str(solver.root_bound)]
    if solver.subclasses:
        # solved one letter of its first branching cell at a time: the root
        # bound is the highest subclass's, nodes the biggest subclass tree's
        parts.append(f"(max of {solver.subclasses} subclasses)")
    if solver.shared:
        parts.append("(shared families)")
    for level in range(len(solver.level_forces)):
        if solver.level_forces[level]:
            parts.append(f"{solver.level_bound[level]}/{solver.level_forces[level]}")
    if solver.bounds:
        parts.append(f"ob {solver.orderly_bound_max}/{solver.bounds}")
    if solver.dedups:
        parts.append(f"dedup {solver.dedups} in {solver.dedup_cpu:.2f} s")
    return " ".join(parts)


def forcing_by_level(solver: ClassSolver) -> str:
    """Each forced level's CPU seconds and the arena it wrote (MB)."""
    return " ".join(
        f"{solver.level_cpu[level]:.2f}s/{4 * int(solver.level_words[level]) / 1e6:.0f}MB"
        for level in range(len(solver.level_forces))
        if solver.level_forces[level]
    )


def read_classes(path: Path) -> list[tuple[str, float | None]]:
    out: list[tuple[str, float | None]] = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        ref = float(cols[1]) if len(cols) > 1 and cols[1].strip() else None
        out.append((cols[0].strip(), ref))
    return out


def start_as_a_worker(no_huge_pages: bool) -> None:
    """Start this script again with the huge pages a proof's worker gets
    (unless told not to, or it already has them), and default the word lists
    to ../shared/wordlists beside the repository."""
    from boggle_opt.huge_pages import TUNABLES, with_huge_pages

    env = dict(os.environ)
    if not no_huge_pages and with_huge_pages(env) and env.get(TUNABLES) != os.environ.get(TUNABLES):
        # glibc reads its tunables only at start: measure what a worker does
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(HERE.parent.parent / "shared" / "wordlists"))


def main() -> int:
    from boggle_opt.proofs.memory import WAYS  # (no kernel: it loads only where a class is solved)

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("classfile", type=Path)
    ap.add_argument("--size", required=True, help="CxR, e.g. 3x4")
    ap.add_argument("--min-score", type=int, required=True)
    ap.add_argument("--switch-score", type=int, default=0,
                    help="switch to the orderly bound once a bound is at most this")
    ap.add_argument("--switch", type=float, default=None,
                    help="without --switch-score: switch once a bound is at most this x min-score "
                         "(default: bnb's for the size)")
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--rule", default="standard")
    ap.add_argument("--only", default="", help="comma-separated 0-based class indices to run")
    ap.add_argument("--record-build", action="store_true",
                    help="build trees by inserting paths into records, not from sorted path keys")
    ap.add_argument("--dedup-score", type=int, default=-1,
                    help="build a forced tree again de-duplicated once its bound is at least this "
                         "(0: never; default: the solver's choice)")
    ap.add_argument("--dedup-level", type=int, default=2,
                    help="... when forcing this level (0-based) or deeper")
    ap.add_argument("--pass-paths", type=int, default=0,
                    help="paths one tree-build pass may record (default: the kernel's)")
    ap.add_argument("--key-pass-words", type=int, default=0,
                    help="key words (8 bytes) one pass of the sorted build may hold, its sort's "
                         "copy included (default: the kernel's)")
    ap.add_argument("--worker-memory", type=float, default=0,
                    help="the memory thresholds of a proof's worker of this many MB (run's "
                         "--worker-memory; default: the kernel's own, a 1000 MB worker's); the "
                         "options below override single thresholds")
    ap.add_argument("--memory-way", choices=WAYS, default=WAYS[0],
                    help="how a big class stays within it (proofs/memory.py's "
                         "WAYS: share, the kernel's own, or split: never share, split where it would)")
    ap.add_argument("--split-mb", type=float, default=-1,
                    help="solve a class whose tree's arena estimate is above this one letter of its "
                         "first branching cell at a time (0: never; default: the solver's)")
    ap.add_argument("--split-again-mb", type=float, default=-1,
                    help="split a subclass of a split class again whose estimate is above this, "
                         "and its parts too unless --split-deep-mb is given (0: never; default: the "
                         "solver's)")
    ap.add_argument("--split-deep-mb", type=float, default=-1,
                    help="... and a part of such a subclass from this (default: the solver's)")
    ap.add_argument("--unshared-parts", action="store_true",
                    help="a split class's parts share their families only as a class would "
                         "(the default from 16 cells: every part shares)")
    ap.add_argument("--share-mb", type=float, default=None,
                    help="share repeated families in the tree of a class whose arena estimate is at "
                         "least this (0: every class; negative: none; default: the solver's)")
    ap.add_argument("--fixed-order", action="store_true",
                    help="build every class in the fixed cell order, not its own (for A/B; "
                         "core/tree.py's class_cell_order)")
    ap.add_argument("--no-huge-pages", action="store_true",
                    help="run without the huge pages a proof's worker processes get "
                         "(boggle_opt/huge_pages.py); by default this script starts again with them")
    ns = ap.parse_args()
    start_as_a_worker(ns.no_huge_pages)
    from boggle_opt.huge_pages import settle_for

    from boggle_opt.boards import size_geometry
    from boggle_opt.proofs.board_classes import letter_mask, parse_class
    from boggle_opt.core.branch import ClassSolver
    from boggle_opt.core.pages import trim_heap
    from boggle_opt.signals import let_signals_in
    from boggle_opt.proofs.switch import DEFAULT_SWITCH, SWITCH_RATIOS
    from boggle_opt.proofs.rescore import Rescorer
    from boggle_opt.registry.dictionaries import load_dictionary

    try:
        classes = read_classes(ns.classfile)
        geometry = size_geometry(ns.size)
        parsed = [parse_class(text, geometry) for text, _ in classes]
    except (OSError, ValueError) as err:
        print(f"bnb_classes: {err}", file=sys.stderr)
        return 2
    huge = settle_for(geometry.n)  # as a proof's worker does for this size
    picked = [int(i) for i in ns.only.split(",")] if ns.only else list(range(len(classes)))
    if ns.switch is None:
        ns.switch = SWITCH_RATIOS.get(ns.size, DEFAULT_SWITCH)

    t0 = time.process_time()
    d = load_dictionary(ns.wordlist, ns.rule)
    solver = ClassSolver(d.trie, geometry)
    solver.poll = let_signals_in  # as a proof's worker's (proofs/class_tasks.py)
    rescorer = Rescorer(solver, geometry)  # as a proof's worker holds it
    if ns.pass_paths:
        solver.builder.pass_paths = ns.pass_paths
    solver.builder.use_keys = not ns.record_build
    if ns.fixed_order:
        solver.order_by_class = False
    if ns.key_pass_words:
        solver.builder.key_pass_words = ns.key_pass_words
    if ns.worker_memory > 0 or ns.memory_way != "share":
        from boggle_opt.proofs.memory import DEFAULT_WORKER_MB, fit_memory

        fit_memory(solver, ns.worker_memory or DEFAULT_WORKER_MB, ns.memory_way)
    solver.dedup_score = ns.dedup_score
    solver.dedup_level = ns.dedup_level
    if ns.split_mb >= 0:
        solver.split_words = round(ns.split_mb * 1e6 / 4)  # 4-byte words
    if ns.unshared_parts:
        solver.share_parts = False
    if ns.split_again_mb >= 0:
        solver.split_again_words = round(ns.split_again_mb * 1e6 / 4)
        if ns.split_deep_mb < 0:
            solver.split_deep_words = solver.split_again_words  # one threshold, as given
    if ns.split_deep_mb >= 0:
        solver.split_deep_words = round(ns.split_deep_mb * 1e6 / 4)
    if ns.share_mb is not None:
        solver.builder.share_words = round(ns.share_mb * 1e6 / 4) if ns.share_mb >= 0 else -1
    # a proof's worker holds only its solver and rescorer once set up, and
    # gives back what malloc kept of the word list (proofs/local.py)
    del d
    trim_heap()
    setup = time.process_time() - t0
    switch = f"switch score {ns.switch_score}" if ns.switch_score else f"switch {ns.switch}x"
    if ns.fixed_order:
        switch += "; fixed cell order"
    if ns.worker_memory > 0:
        switch += f"; a {ns.worker_memory:g} MB worker's thresholds"
    if ns.memory_way != "share":
        switch += f"; the {ns.memory_way} way"
    if ns.dedup_score >= 0:
        switch += f"; dedup from {ns.dedup_score} at level {ns.dedup_level}+" if ns.dedup_score else "; no dedup"
    print(f"# {ns.classfile.name}: {len(picked)} of {len(classes)} classes, {ns.size}, "
          f"{ns.wordlist} {ns.rule}, min score {ns.min_score}, {switch}; "
          f"setup {setup:.2f} s CPU, load {os.getloadavg()[0]:.1f}, huge pages {'on' if huge else 'off'}")
    print("# i\tcpu s\tref s\tratio\tnodes\troot bound\tbuild s\tforce s\torderly s"
          "\tB/node\tarena MB peak/held\tclass MB\tpeak MB\tcandidates\tboards\tbounds (root, max/forces per level, ob max/calls)"
          "\tforcing per level (CPU s/arena MB written)\tarena estimate MB (unshared; 0: built in one pass)")
    total = 0.0
    run_peak = peak_mb()  # setup's, before any reset
    ref_total = 0.0
    ref_ours = 0.0  # our CPU over the classes that have a reference
    for i in picked:
        masks = [letter_mask(s) for s in parsed[i]]
        resettable = reset_class_peak()
        c0 = time.process_time()
        candidates = solver.solve(masks, ns.min_score, round(ns.switch * 100), ns.switch_score)
        boards = rescorer.at_least(candidates, ns.min_score)
        cpu = time.process_time() - c0
        total += cpu
        ref = classes[i][1]
        ratio = ""
        if ref:
            ref_total += ref
            ref_ours += cpu
            ratio = f"{cpu / ref:.2f}"
        per_node = 4 * int(solver.built_words) / max(int(solver.n_nodes), 1)
        arena = f"{4 * int(solver.peak_words) / 1e6:.0f}/{4 * int(solver.arena_words) / 1e6:.0f}"
        class_mb = f"{class_peak_mb():.0f}" if resettable else ""
        run_peak = max(run_peak, class_peak_mb() if resettable else peak_mb())
        print(f"{i}\t{cpu:.2f}\t{ref if ref is not None else ''}\t{ratio}\t{solver.n_nodes}\t"
              f"{solver.root_bound}\t{solver.build_cpu:.2f}\t{solver.force_cpu:.2f}\t"
              f"{solver.bound_cpu:.2f}\t{per_node:.1f}\t{arena}\t{class_mb}\t"
              f"{run_peak:.0f}\t{len(candidates)}\t{len(boards)}\t{bounds_after_phases(solver)}\t"
              f"{forcing_by_level(solver)}\t{4 * int(solver.builder.need) / 1e6:.0f}",
              flush=True)
    line = f"total CPU {total:.1f} s; peak RSS {run_peak:.0f} MB"
    if ref_total:
        line += f"; reference {ref_total:.1f} s; ratio {ref_ours / ref_total:.2f}"
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
