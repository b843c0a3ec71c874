"""``boggle-opt plan``: what a proof will cost, from a seeded sample of its classes.

Solves ``--sample N`` classes drawn at random (seeded) from the proof's
classes, one after another in this process, and prints the estimated
CPU-hours (the mean CPU time per class times the number of classes, with its
standard error), the wall time on ``--jobs K``, the memory the biggest
sampled task needed, and the split that keeps every task within
``--worker-memory``: the ``-o node-budget`` a run would use.
"""

from __future__ import annotations

import argparse
import math
import os
import resource
import time
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from .. import defaults
from ..proofs.board_classes import ClassSpace, count_classes
from ..boards import size_geometry
from ..proofs.class_tasks import ClassContext, ClassResult, ClassTask
from .args import cache_choice, add_option_pairs, deprecated_alias, add_rule_and_wordlist, option_pairs, positive_int, seed
from ..core.errors import BoggleOptError
from ..registry.dictionaries import load_dictionary
from ..searching.options import make_options
from ..registry.registries import Registries

#: the searcher whose proofs are planned
SEARCHER = "bnb"


def add_parser(sub: Any) -> None:
    """Add the ``plan`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "plan",
        help="estimate a bnb proof's cost from a sample of its classes",
        description="Solve a seeded random sample of a proof's classes and estimate the whole "
                    "proof: CPU-hours, wall time on K workers, the largest task's memory, the split.",
    )
    p.add_argument("--size", default=defaults.SIZE, help=f"board size CxR (default: {defaults.SIZE})")
    add_rule_and_wordlist(p)
    add_option_pairs(p, "a bnb option (min-score, buckets, corner-buckets, switch, switch-score); repeatable")
    p.add_argument("--sample", type=positive_int, default=20, help="classes to solve (default 20)")
    jobs = p.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, metavar="K",
                          help="the run's --jobs, for the wall-time estimate (default: this machine's cores)")
    deprecated_alias(p, jobs, "--workers")
    p.add_argument("--worker-memory", type=positive_int, default=2000, metavar="MB",
                   help="memory of one worker, for the split (default 2000 MB)")
    p.add_argument("--seed", type=seed, default=1, help="seed of the sample (default 1)")
    p.add_argument("--sample-out", metavar="FILE",
                   help="also write the sampled classes and their CPU seconds to FILE, one a line "
                        "(the format of benchmarks/bnb_classes.py, which can time them again)")
    p.set_defaults(run=cmd_plan)


def draw(space: ClassSpace, total: int, n: int, rng: np.random.Generator) -> list[tuple[int, ...]]:
    """``n`` classes (all if fewer) at seeded random places of the class sequence."""
    wanted = set(rng.choice(total, size=min(n, total), replace=False).tolist())
    picked = [cls for i, cls in enumerate(space.iterate(shuffled=True)) if i in wanted]
    return picked


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:,.1f} h" if seconds >= 360 else f"{seconds:,.0f} s"


def cmd_plan(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    cls = regs.searchers.get(SEARCHER)
    options = make_options(SEARCHER, cls.Options, option_pairs(ns))
    searcher: Any = cls(options)
    min_score = options.min_score
    if min_score is None or min_score < 1:
        raise BoggleOptError("plan needs the proof's min score: --min-score N (N >= 1)")
    geometry = size_geometry(ns.size)
    dictionary = load_dictionary(ns.wordlist, ns.rule, regs, cache=cache_choice(ns))
    label, buckets = searcher.buckets(geometry)
    space = ClassSpace(geometry, [len(b) for b in buckets])
    total = count_classes(geometry, space.counts)
    # known at once, while the sample takes seconds to minutes: shown first
    out.write(f"# plan: bnb {geometry.size}; word list {dictionary.label}; rule {dictionary.rule.name}; "
              f"min score {min_score}; buckets {label}\n")
    out.write(f"classes\t{total:,}\n")
    out.flush()
    sample = draw(space, total, ns.sample, np.random.default_rng(ns.seed))
    switch_pct, switch_score = searcher.switch_settings(geometry)
    context = ClassContext(dictionary.keys, dictionary.points, geometry.cols, geometry.rows, buckets,
                           min_score, switch_pct, switch_score)
    base_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    results: list[tuple[float, ClassResult]] = []
    written = _sample_file(ns, label, min_score)
    for c in sample:
        start = time.process_time()
        result = context.run(ClassTask(c))
        results.append((time.process_time() - start, result))
        if written is not None:  # line by line: a long sample keeps what it has timed
            written.write(" ".join(buckets[cell][b] for cell, b in enumerate(c)) + f"\t{results[-1][0]:.3f}\n")
            written.flush()
    if written is not None:
        written.close()
    cpu = [s for s, _ in results]
    mean = sum(cpu) / len(cpu)
    spread = math.sqrt(sum((s - mean) ** 2 for s in cpu) / (len(cpu) - 1)) / math.sqrt(len(cpu)) if len(cpu) > 1 else 0.0
    whole, whole_err = mean * total, spread * total
    biggest = max(results, key=lambda sr: sr[1].arena_mb)[1]
    slowest = max(cpu)
    out.write(f"sample\t{len(sample)} classes (seed {ns.seed}), {sum(cpu):,.1f} s CPU; "
              f"{sum(len(r.boards) for _, r in results)} boards >= min score\n")
    out.write(f"per class\t{mean:.3f} s CPU mean (standard error {spread:.3f} s), slowest {slowest:.2f} s\n")
    out.write(f"CPU\t{_hours(whole)} (standard error {_hours(whole_err)})\n")
    out.write(f"wall time\t{_hours(whole / ns.jobs)} on {ns.jobs} worker(s)\n")
    out.write(f"largest task\t{biggest.arena_mb:,.0f} MB tree arena ({biggest.nodes:,} nodes) "
              f"on a worker's base of {base_mb:,.0f} MB\n")
    out.write(_split_line(results, base_mb, ns.worker_memory) + "\n")
    return 0


def _sample_file(ns: argparse.Namespace, label: str, min_score: int) -> TextIO | None:
    """The ``--sample-out`` file, opened with a header that says how it was drawn."""
    if ns.sample_out is None:
        return None
    try:
        f = open(ns.sample_out, "x", encoding="utf-8")
    except OSError as exc:
        raise BoggleOptError(f"cannot write --sample-out {ns.sample_out!r}: {exc.strerror}") from None
    f.write(f"# boggle-opt plan --size {ns.size} --sample {ns.sample} --seed {ns.seed}: min score "
            f"{min_score}, buckets {label}\n# class\tboggle_opt_cpu_s\n")
    return f


def _split_line(results: list[tuple[float, ClassResult]], base_mb: float, worker_mb: int) -> str:
    """The node budget that keeps the sample's worst arena-per-node ratio within a worker."""
    room = worker_mb - base_mb
    if room <= 0:
        return f"split\ta {worker_mb:,} MB worker is smaller than its base of {base_mb:,.0f} MB"
    per_node = max((r.arena_mb / r.nodes for _, r in results if r.nodes), default=0.0)
    if per_node == 0:
        return "split\tnone needed (no sampled class built a tree)"
    budget = int(room / per_node)
    over = sum(1 for _, r in results if r.nodes > budget)
    if over == 0:
        return (f"split\tnone in the sample: every tree fits a {worker_mb:,} MB worker; "
                f"-o node-budget {budget:,} splits any class that would not")
    return (f"split\t-o node-budget {budget:,}: {over} of {len(results)} sampled classes would be split "
            f"to fit a {worker_mb:,} MB worker")
