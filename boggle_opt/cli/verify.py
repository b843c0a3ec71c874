"""``boggle-opt verify RUNFILE``: check a proof's run file without trusting its summary.

Exit statuses: 0 verified; 4 some of a proof's shards verified (not a
proof: the others are missing); 3 not verified (the first hole, named in one
line on stdout); 1 the file cannot be checked at all (unreadable, not a bnb
proof, its word list not found); 2 bad arguments.
"""

from __future__ import annotations

import argparse
import textwrap
from typing import Any, TextIO

from ..registry.registries import Registries
from ..defaults import VERIFY_BUDGET as RECHECK_FLOOR, VERIFY_CHANCE as DEFAULT_CHANCE
from .args import add_verify_jobs, megabytes, seed
from .status import StatusLine

#: the exit status of a run file that is not a complete, consistent proof
NOT_VERIFIED = 3
#: the exit status of some of a proof's shards, all they hold verified: not a proof
PARTIAL = 4


def _recheck(text: str) -> int | None:
    if text == "all":
        return None
    if text == "auto":
        return -1
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, 'auto' or 'all', got {text[:40]!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _chance(text: str) -> float:
    try:
        value = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a chance from 0 to 1 (or a percentage), got {text[:40]!r}") from None
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be a chance > 0 and at most 1 (100%), got {text[:40]!r}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text[:40]!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds > 0, got {text[:40]!r}")
    return value


def add_parser(sub: Any) -> None:
    """Add the ``verify`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "verify",
        help="check a proof's run files: every class once, fingerprint, scores, witnesses",
        description=(
            "Check the run files of one bnb proof (a whole run, or all or some of its shards) without trusting "
            "their summaries: every class of the class space recorded exactly once over the files, the "
            "word list re-read and hashed against the fingerprint, every class record consistent on its "
            "own and every board re-scored; then independent witnesses that no board was left out: seeded "
            "climbs, the one-change neighbours of the recorded boards, class records re-solved within "
            "a time budget, and some of them (or pieces) solved again by a method that shares no code with the "
            "kernel but the scorer. Exit status 0: verified; 4: some of a proof's shards verified, which is not a "
            "proof (what was verified is stated); 3: not (the first hole is named); 1: the files "
            "cannot be checked."
        ),
    )
    p.add_argument("runfiles", nargs="+", metavar="RUNFILE",
                   help="the run file(s) of one bnb proof, or some of its shards (--out; .jsonl.gz is read too)")
    p.add_argument(
        "--recheck", type=_recheck, default=-1, metavar="N|auto|all",
        help="class records drawn at random and re-solved whole by the compiled kernel: auto (default) "
             "every record whose draw falls below --chance, and more while --budget lasts; N: that many; "
             "all: every one (as costly as the proof: the complete check); 0: none",
    )
    p.add_argument(
        "--chance", type=_chance, metavar="P",
        help="--recheck auto: each class record's chance of being re-solved, 0 to 1 or a percentage "
             f"(default {DEFAULT_CHANCE * 100:.0f}%%; it costs about that share of the proof's CPU)",  # %% for argparse
    )
    p.add_argument(
        "--budget", type=_seconds, metavar="SECONDS",
        help=f"--recheck auto: CPU seconds of re-solving the lowest draws first (default {RECHECK_FLOOR:g}), "
             "which raises the chance if it buys more; with any --recheck, a fifth of it (in steps) goes to solving "
             "drawn records without the kernel (bigger pieces)",
    )
    add_verify_jobs(p, "the proof's class records")
    p.add_argument("--worker-memory", type=megabytes, metavar="MB",
                   help="re-solve records for workers of this many MB (default: the run's own "
                        "--worker-memory); the boards do not depend on it, and root bounds are "
                        "compared only at the run's own")
    p.add_argument("--seed", type=seed, metavar="N",
                   help="seed of the witnesses and of the draw (default: a fresh one, printed, to repeat a check)")
    p.add_argument(
        "--wordlist", metavar="PATH",
        help="read the word list from here instead of the name the run file records (it must hash the same)",
    )
    p.set_defaults(run=cmd_verify)

    m = sub.add_parser(
        "merge",
        help="verify a proof's shards together and write them as one run file",
        description=(
            "Verify the run files of one bnb proof together (as verify does), then write one run file of "
            "the whole proof: verify and report read it as a single run's. The file is created new. "
            "All the proof's shards are needed (verify checks some of them)."
        ),
    )
    m.add_argument("runfiles", nargs="+", metavar="RUNFILE", help="the run files of one proof's shards")
    m.add_argument("--out", required=True, metavar="FILE", help="the merged run file to create")
    m.add_argument("--recheck", type=_recheck, default=-1, metavar="N|auto|all",
                   help="as for verify (default auto)")
    m.add_argument("--chance", type=_chance, metavar="P", help="as for verify")
    m.add_argument("--seed", type=seed, metavar="N",
                   help="seed of the witnesses and of the draw (default: a fresh one, printed)")
    add_verify_jobs(m, "the proof's class records")
    m.set_defaults(run=cmd_merge)


def cmd_verify(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from ..runs.proof_facts import Hole
    from ..runs.verify import counted, verify_runs

    try:
        with StatusLine("verify") as status:
            result = verify_runs(ns.runfiles, regs, recheck=ns.recheck, seed=ns.seed, wordlist=ns.wordlist,
                                 budget=ns.budget, progress=status.show, jobs=ns.jobs, chance=ns.chance,
                                 worker_memory=ns.worker_memory)
    except Hole as hole:
        out.write(f"NOT verified: {hole}\n")
        return NOT_VERIFIED
    # a person reads these: 80 columns, never a path or a board broken
    wrap = textwrap.TextWrapper(79, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False)
    out.write(wrap.fill(result.summary()) + "\n")
    wrap.initial_indent, wrap.subsequent_indent = "# ", "#   "
    lines = [*result.details(), f"{counted(result.records, 'class record')} in {counted(result.segments, 'segment')} checked in "
             f"{result.seconds:.1f} s of CPU (the {'shards' if result.partial else 'proof'} recorded {result.cpu_recorded:,.1f} s of class "
             f"{'time' if result.wall_recorded else 'CPU'})"]
    if result.kernel_note:
        lines.append(f"note: {result.kernel_note}: every check above holds as ever, but the records re-solved "
                     "here were solved by this install's kernel, so their root bounds were not compared")
    if result.memory_note:
        lines.append(f"note: {result.memory_note}: the boards do not depend on it, but a split class's root bound "
                     "may, so those records' root bounds were not compared")
    for line in lines:
        out.write(wrap.fill(line) + "\n")
    return PARTIAL if result.partial else 0


def cmd_merge(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from ..runs.merge import merge_runs
    from ..runs.proof_facts import Hole
    from .output import wrote

    try:
        with StatusLine("merge") as status:
            result = merge_runs(ns.runfiles, ns.out, regs, recheck=ns.recheck, seed=ns.seed,
                                progress=status.show, jobs=ns.jobs, chance=ns.chance)
    except Hole as hole:
        out.write(f"NOT verified, nothing written: {hole}\n")
        return NOT_VERIFIED
    wrap = textwrap.TextWrapper(79, subsequent_indent="  ", break_on_hyphens=False, break_long_words=False)
    out.write(wrap.fill(result.summary()) + "\n")
    wrap.initial_indent, wrap.subsequent_indent = "# ", "#   "
    out.write(wrap.fill(f"what the re-solving was worth: {result.worth()}") + "\n")
    out.flush()  # the summary before the line on stderr
    wrote(ns.out, detail=f"{result.records:,} class records of {result.files:,} run files")
    return 0
