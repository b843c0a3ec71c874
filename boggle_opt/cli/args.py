"""Argument types and options that several commands of the CLI share."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import Any

from .. import defaults
from ..core.errors import BoggleOptError
from ..proofs.memory import MAX_WORKER_MB
from ..searching.options import INT_MAX

#: seeds are numpy's: whole numbers from 0 (a run file records the one used)
SEED_MAX = 2**64 - 1

#: ``--jobs`` at most: the one cap of every run (``RunSpec.build`` checks it
#: whatever the number comes from); here for the argument's own message
MAX_JOBS = defaults.MAX_JOBS

#: how a command's user gives a board size (``boards.geometry_for``'s hint)
CLI_SIZE = "--size CxR"


def whole_number(text: str, low: int, high: int = INT_MAX) -> int:
    """``text`` as a whole number from ``low`` to ``high``, else a one-line error."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text[:40]!r}") from None
    if value < low:
        raise argparse.ArgumentTypeError(f"must be >= {low}, got {value}")
    if value > high:
        raise argparse.ArgumentTypeError(f"must be at most {high}, got {text[:40]}")
    return value


def positive_int(text: str) -> int:
    return whole_number(text, 1)


def score(text: str) -> int:
    """A score: any whole number the core can compare with."""
    return whole_number(text, -INT_MAX)


def jobs(text: str) -> int:
    """A run's processes, at most ``defaults.MAX_JOBS``."""
    return whole_number(text, 1, MAX_JOBS)


def add_verify_jobs(p: argparse.ArgumentParser, what: str) -> None:
    """``--jobs K`` of a command that verifies a proof: where it re-solves records."""
    p.add_argument("--jobs", type=jobs, default=1, metavar="K",
                   help=f"re-solve {what} in K worker processes (default 1); the budget "
                        "is their CPU summed, so more jobs check as much, sooner")


def scheduler(text: str) -> str:
    """``--scheduler``: the form of a cluster's address, checked before any
    work (an impossible port would wait out Dask's whole connect timeout)."""
    from ..proofs.executor import check_scheduler_address  # only when --scheduler is given

    try:
        return check_scheduler_address(text)
    except BoggleOptError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def seed(text: str) -> int:
    return whole_number(text, 0, SEED_MAX)


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, got {text[:40]} (--no-limit: no time limit)")
    if not math.isfinite(value):  # 1e400 parses as infinity: one way to say it, --no-limit
        raise argparse.ArgumentTypeError(f"must be a finite number of seconds, got {text[:40]} "
                                         "(--no-limit: no time limit)")
    return value


def _finite_positive(text: str, expected: str, unit: str) -> float:
    """``text`` as a finite number > 0; else "expected ``expected``" (not a
    number) or "must be a number of ``unit`` > 0" (zero, negative, infinite)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text[:40]!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a number of {unit} > 0, got {text[:40]}")
    return value


def megabytes(text: str) -> float:
    """A worker's memory in MB: a number > 0 and at most ``MAX_WORKER_MB``."""
    value = _finite_positive(text, "a number of MB", "MB")
    if value > MAX_WORKER_MB:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_WORKER_MB:,.0f} MB (a petabyte), got {text[:40]}")
    return value


def add_worker_memory(parser: argparse.ArgumentParser, help: str) -> None:
    """``--worker-memory MB``: bnb's ``worker-memory`` option, its own flag
    (``run``, ``plan``; the same as ``-o worker-memory MB``)."""
    parser.add_argument("--worker-memory", type=megabytes, metavar="MB", help=help)


def interval(text: str) -> float:
    """Seconds between two progress lines: a finite number > 0."""
    return _finite_positive(text, "seconds", "seconds")


#: ``--wordlist``'s help: with no list named, ``--language``'s own is played
WORDLIST_HELP = "word list name or file (default: the language's own list; embedded for English)"


def add_rule_and_wordlist(parser: argparse.ArgumentParser) -> None:
    """``--rule`` and ``--wordlist``, with their defaults, for a command that
    scores (``run`` has its own: a resumed run takes them from its file)."""
    parser.add_argument("--rule", default=defaults.RULE, metavar="NAME", help=f"scoring rule (default: {defaults.RULE})")
    parser.add_argument("--wordlist", metavar="NAME|PATH", help=WORDLIST_HELP)
    add_language(parser)
    add_min_letters(parser)


def add_min_letters(parser: argparse.ArgumentParser) -> None:
    """``--min-letters N``: the fewest letters a word has, whatever the rule's own minimum."""
    parser.add_argument(
        "--min-letters", type=positive_int, metavar="N",
        help="words of N letters or more count (default: the rule's own, 3; big: 4); "
             "shorter words score as the rule's shortest")


def add_language(parser: argparse.ArgumentParser) -> None:
    """``--language``: the tiles, and how the word list's entries are read."""
    parser.add_argument(
        "--language", metavar="NAME",
        help="the word list's language: its tiles and spelling (default: the list's own, "
             "English for a file; see `boggle-opt languages`)")


def warn(message: str) -> None:
    """A one-line note on stderr, as the CLI writes its warnings."""
    print(f"boggle-opt: warning: {message}", file=sys.stderr)


def note(message: str) -> None:
    """A one-line note on stderr (what a word list given by path lost)."""
    if message:
        print(f"boggle-opt: note: {message}", file=sys.stderr)


class DeprecatedAlias(argparse.Action):
    """An old spelling of an option: acts as ``canonical`` does, after a one-line
    deprecation note on stderr. Hidden from ``--help``; removed after one release."""

    def __init__(self, option_strings: Sequence[str], dest: str, canonical: argparse.Action,
                 **_: Any) -> None:
        kind: Any = canonical.type  # may be a registered type's name, which argparse resolves
        super().__init__(
            option_strings, canonical.dest, nargs=canonical.nargs, const=canonical.const,
            default=argparse.SUPPRESS, type=kind, choices=canonical.choices,
            metavar=canonical.metavar, help=argparse.SUPPRESS,
        )
        self.canonical = canonical

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        new = "/".join(self.canonical.option_strings)
        warn(f"{option_string} is deprecated and will be removed; use {new}")
        self.canonical(parser, namespace, values, option_string)


def deprecated_alias(parser: argparse.ArgumentParser, canonical: argparse.Action, *old: str) -> None:
    """Keep ``old`` spellings of ``canonical`` working for one release, with a note."""
    parser.add_argument(*old, action=DeprecatedAlias, canonical=canonical)


class IgnoredOption(argparse.Action):
    """An option a command once offered where it did nothing: still accepted for
    one release, with a note that it is ignored."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help=argparse.SUPPRESS)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        command = parser.prog.split()[-1]
        warn(f"{option_string} does nothing for `{command}` and will be refused; drop it")



def add_option_pairs(parser: argparse.ArgumentParser, help: str) -> None:
    """``-o/--option NAME VALUE`` (searcher options) and ``--min-score N``, the
    option every proof needs, also spelled ``-o min-score N``."""
    parser.add_argument(
        "-o", "--option", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"), help=help,
    )
    parser.add_argument(
        "--min-score", type=positive_int, metavar="N",
        help="the searcher's min score (the same as -o min-score N)",
    )


def option_pairs(ns: argparse.Namespace) -> list[tuple[str, str]]:
    """The ``-o`` pairs with ``--min-score`` (and ``run``'s ``--shard``, and
    ``--worker-memory``) among them: an option given both ways must agree, or
    it is a clash."""
    pairs = [(str(k), str(v)) for k, v in ns.option]
    for flag, name in (("min_score", "min-score"), ("shard", "shard"), ("worker_memory", "worker-memory")):
        given = getattr(ns, flag, None)
        if given is None:
            continue
        text = number_text(given) if isinstance(given, float) else str(given)
        for key, value in pairs:
            if key.replace("_", "-").lower() == name and not _same_value(value, given):
                raise BoggleOptError(f"--{name} {text} and -o {name} {value} disagree; give one")
        pairs.append((name, text))
    return pairs


def number_text(value: float) -> str:
    """A number as typed: ``1000`` for 1000.0, ``0.5`` (every digit kept)."""
    value = float(value)  # (a default may be an int)
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def _same_value(value: str, given: object) -> bool:
    """Whether ``-o``'s text says the flag's value (a number as a number: 1000 is 1000.0)."""
    if isinstance(given, float):
        try:
            return float(value.replace("_", "")) == given
        except ValueError:
            return False
    return value.replace("_", "") == str(given)


def cache_choice(ns: argparse.Namespace) -> bool | None:
    """``load_dictionary``'s ``cache``: False for ``--no-cache``, else None
    (the cache, unless the user set ``$BOGGLE_OPT_NO_CACHE``)."""
    return False if getattr(ns, "no_cache", False) else None
