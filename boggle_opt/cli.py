"""The ``boggle-opt`` command line. Errors are one line on stderr, never a traceback."""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterator, Sequence
from typing import NoReturn, TextIO

from . import __version__
from .api import analyse, load_dictionary
from .core import COMPILED
from .core.errors import BoardError, BoggleOptError
from .plugin_loader import (
    ENV_PLUGINS, FAILED, LOADED, Registries, load_plugins, request_plugins,
)
from .run_command import add_parsers as add_run_parsers
from .bound_command import add_parser as add_bound_parser

PROG = "boggle-opt"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints usage too; keep bad input to one line
        self.exit(2, f"{PROG}: error: {message}\n")


def version_text() -> str:
    core = "compiled with mypyc" if COMPILED else "pure Python"
    return f"{PROG} {__version__} (core: {core})"


def _boards(args: Sequence[str], stdin: TextIO | None) -> Iterator[str]:
    for arg in args:
        if arg == "-":
            if stdin is None:
                raise BoardError("cannot read boards from standard input: it is closed")
            if isinstance(stdin, io.TextIOWrapper):
                # bytes that are not UTF-8 become bad letters, as they do in argv
                stdin.reconfigure(errors="surrogateescape")
            for line in stdin:
                if line.strip():
                    yield line.strip()
        else:
            yield arg


def cmd_score(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    dictionary = load_dictionary(ns.wordlist, ns.rule, regs)
    rule = dictionary.rule.name
    if not ns.json:
        out.write(f"# word list: {dictionary.label}; rule: {rule}\n")
        columns = "board\tscore\twords" + ("\tdemulti\tmulti" if ns.multi else "")
        out.write(f"# {columns}\n")
    for text in _boards(ns.boards, sys.stdin):
        report = analyse(dictionary, text, ns.size)
        if ns.json:
            record: dict[str, object] = {
                "board": report.board,
                "size": report.size,
                "score": report.score,
                "words": len(report.words),
                "multi": report.multi,
                "demulti": report.demulti,
                "rule": rule,
                "wordlist": {"name": dictionary.name, "words": dictionary.n_words},
            }
            if ns.words:
                record["found"] = [
                    {"word": w.word, "points": w.points, "path": w.path} for w in report.words
                ]
            out.write(json.dumps(record) + "\n")
            continue
        line = f"{report.board}\t{report.score}\t{len(report.words)}"
        if ns.multi:
            line += f"\t{report.demulti}\t{report.multi}"
        out.write(line + "\n")
        if ns.words:
            for w in sorted(report.words, key=lambda w: (-w.points, w.word)):
                path = "-".join(str(c) for c in w.path)
                out.write(f"  {w.word}\t{w.points}\t{path}\n")
        out.flush()
    return 0


def cmd_plugins(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    provides: dict[str, list[str]] = {}
    sections = [
        ("searchers", regs.searchers.entries()),
        ("scoring rules", regs.rules.entries()),
        ("word lists", regs.wordlists.entries()),
    ]
    for title, entries in sections:
        for e in entries:
            provides.setdefault(e.origin.plugin, []).append(f"{title[:-1]} {e.name}")
    out.write("plugins:\n")
    for info in regs.plugins:
        o = info.origin
        if info.status == LOADED:
            what = ", ".join(provides.get(o.plugin, [])) or "registers nothing"
        elif info.status == FAILED:
            what = f"FAILED to import: {info.detail}"
        else:
            what = f"{info.status} ({info.detail})"
        out.write(f"  {o.plugin:<16} {o.release:<24} {info.module}\n      {what}\n")
    for title, entries in sections:
        out.write(f"{title}:\n")
        if not entries:
            out.write("  (none)\n")
        for e in entries:
            name = e.name + (f" ({', '.join(e.aliases)})" if e.aliases else "")
            out.write(f"  {name:<24} {e.summary}  [{e.origin.release}]\n")
        if title == "word lists":
            out.write(f"  {'PATH':<24} any file, one word a line  [built in]\n")
    return 0


def _add_plugin_options(parser: argparse.ArgumentParser, default: object) -> None:
    group = parser.add_argument_group("plugin loading")
    group.add_argument(
        "--plugin", action="append", dest="plugins", default=default, metavar="MODULE_OR_FILE",
        help=f"also load this plugin module or .py file (repeatable; adds to ${ENV_PLUGINS})",
    )
    group.add_argument(
        "--strict-plugins", action="store_true", default=default,
        help="a plugin that fails to import is an error, not a warning",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Find and prove high-scoring Boggle boards.")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    score = sub.add_parser("score", help="score boards", description="Score boards.")
    score.add_argument(
        "boards", nargs="+", metavar="BOARD", help="letters in column-major order; - reads stdin"
    )
    score.add_argument("--size", help="CxR (default: square root of the board length)")
    score.add_argument("--rule", default="standard", help="scoring rule (default: standard)")
    score.add_argument(
        "--wordlist", default="default", help="word list name or file (default: embedded)"
    )
    score.add_argument("--words", action="store_true", help="list the words and their paths")
    score.add_argument(
        "--multi", action="store_true", help="add Multi-Boggle and de-duplicated Multi columns"
    )
    score.add_argument("--json", action="store_true", help="one JSON object per board")
    score.set_defaults(run=cmd_score)

    plugins = sub.add_parser("plugins", help="list searchers, rules and word lists")
    plugins.set_defaults(run=cmd_plugins)
    add_run_parsers(sub)
    add_bound_parser(sub)
    _add_plugin_options(parser, [])
    for subparser in sub.choices.values():
        # SUPPRESS: given before the subcommand, the value is not reset after it
        _add_plugin_options(subparser, argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    ns = build_parser().parse_args(argv)
    saved = os.environ.get(ENV_PLUGINS)
    try:
        # through the environment, so worker processes load the same plugins
        request_plugins(ns.plugins or [])
        regs = load_plugins(strict=bool(ns.strict_plugins))
        for warning in regs.warnings:
            print(f"{PROG}: warning: {warning}", file=sys.stderr)
        code: int = ns.run(ns, regs, sys.stdout)
        return code
    except BoggleOptError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (e.g. `| head`); nothing more to say
        sys.stderr.close()
        return 0
    finally:
        if saved is None:
            os.environ.pop(ENV_PLUGINS, None)
        else:
            os.environ[ENV_PLUGINS] = saved


if __name__ == "__main__":
    sys.exit(main())
