"""Argument types and options that several commands of the CLI share."""

from __future__ import annotations

import argparse

from . import defaults


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, got {text}")
    return value


def add_rule_and_wordlist(parser: argparse.ArgumentParser) -> None:
    """``--rule`` and ``--wordlist``, with their defaults, for a command that
    scores (``run`` has its own: a resumed run takes them from its file)."""
    parser.add_argument("--rule", default=defaults.RULE, help=f"scoring rule (default: {defaults.RULE})")
    parser.add_argument(
        "--wordlist", default=defaults.WORDLIST, help="word list name or file (default: embedded)"
    )
