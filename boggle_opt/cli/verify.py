"""``boggle-opt verify RUNFILE``: check a proof's run file without trusting its summary.

Exit statuses: 0 verified; 3 not verified (the first hole, named in one line
on stdout); 1 the file cannot be checked at all (unreadable, not a bnb
proof, its word list not found); 2 bad arguments.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..registry.registries import Registries

#: the exit status of a run file that is not a complete, consistent proof
NOT_VERIFIED = 3


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def add_parser(sub: Any) -> None:
    """Add the ``verify`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "verify",
        help="check a proof's run file: every class once, fingerprint, scores",
        description=(
            "Check a bnb run file without trusting its summary: every class of the class space "
            "recorded exactly once (split pieces partitioning their class), the word list re-read "
            "and hashed against the fingerprint, every board re-scored, and --recheck classes "
            "solved again by another method. Exit status 0: verified; 3: not (the first hole is "
            "named); 1: the file cannot be checked."
        ),
    )
    p.add_argument("runfile", metavar="RUNFILE", help="the run file of a bnb run (--out)")
    p.add_argument(
        "--recheck", type=_count, default=3, metavar="N",
        help="re-solve N class records drawn at random by another method and compare (default 3; 0: none)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the --recheck draw (default 1)")
    p.add_argument(
        "--wordlist", metavar="PATH",
        help="read the word list from here instead of the name the run file records (it must hash the same)",
    )
    p.set_defaults(run=cmd_verify)


def cmd_verify(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from ..runs.verify import Hole, verify_run

    try:
        result = verify_run(ns.runfile, regs, recheck=ns.recheck, seed=ns.seed, wordlist=ns.wordlist)
    except Hole as hole:
        out.write(f"NOT verified: {hole}\n")
        return NOT_VERIFIED
    out.write(result.summary() + "\n")
    out.write(
        f"# {result.records:,} class records in {result.segments} segment(s) checked in {result.seconds:.1f} s\n"
    )
    if result.kernel_note:
        out.write(f"# note: {result.kernel_note} (classes were re-counted and rechecked here, not re-run)\n")
    return 0
