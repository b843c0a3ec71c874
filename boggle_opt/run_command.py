"""``boggle-opt run`` (run a searcher) and ``boggle-opt searchers`` (list them)."""

from __future__ import annotations

import argparse
import secrets
import sys
from typing import Any, TextIO

from .core.errors import BoggleOptError
from .display import STYLES, make_display
from .driver import Budget, Consumer, Driver, RunState
from .library import default_budget, prepare_run, searcher_class
from .options import describe
from .plugin_loader import Registries
from .runfile import PastRun, RunFileWriter, read_run_file
from .search import summary_of

DEFAULT_SIZE = "4x4"
INTERRUPTED = 130

_RESUMED_SETTINGS = ("searcher", "size", "rule", "wordlist", "seed")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, got {text}")
    return value


def _score(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None


def add_parsers(sub: Any) -> None:
    run = sub.add_parser(
        "run",
        help="search for high-scoring boards",
        description="Run a searcher. Progress goes to stderr, results to stdout.",
    )
    run.add_argument("--searcher", help="searcher name (see `boggle-opt searchers`)")
    run.add_argument("--rule", help="scoring rule (default: standard)")
    run.add_argument("--size", help=f"board size CxR (default: {DEFAULT_SIZE})")
    run.add_argument("--wordlist", help="word list name or file (default: embedded)")
    run.add_argument("--seed", type=int, help="random seed (default: a fresh one, shown)")
    run.add_argument(
        "--jobs", type=_positive_int, default=1, help="processes (independent seeded copies)"
    )
    run.add_argument(
        "-o",
        "--option",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "VALUE"),
        help="a searcher option; repeat for several",
    )
    run.add_argument("--time", type=_seconds, help="stop after this many seconds")
    run.add_argument("--evals", type=_positive_int, help="stop after this many boards scored")
    run.add_argument("--target", type=_score, help="stop once a board scores this much")
    run.add_argument("--out", help="append a JSON-lines record of the run to this file")
    run.add_argument(
        "--resume", metavar="FILE", help="continue the run recorded in FILE (appends to it)"
    )
    run.add_argument("--top", type=_positive_int, default=10, help="boards to list (default 10)")
    run.add_argument(
        "--progress",
        choices=STYLES,
        help="rich (default on a terminal), plain (default otherwise), jsonl or none",
    )
    run.set_defaults(run=cmd_run)

    searchers = sub.add_parser("searchers", help="list searchers and their options")
    searchers.set_defaults(run=cmd_searchers)


def cmd_searchers(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    for entry in regs.searchers.entries():
        cls = entry.item
        out.write(f"{entry.name}: {summary_of(cls)}  [{entry.origin.release}]\n")
        for opt in describe(cls.Options):
            out.write(f"  -o {opt.name} ({opt.type}, default {opt.default!r})  {opt.help}\n")
    return 0


def _settings(ns: argparse.Namespace) -> tuple[dict[str, Any], PastRun | None]:
    """The run's settings (from the command line, or the run file being resumed)."""
    if ns.resume is None:
        if ns.searcher is None:
            raise BoggleOptError("run needs --searcher NAME (see `boggle-opt searchers`)")
        return (
            {
                "searcher": ns.searcher,
                "options": dict(ns.option),
                "size": ns.size or DEFAULT_SIZE,
                "rule": ns.rule or "standard",
                "wordlist": ns.wordlist or "default",
                "seed": ns.seed if ns.seed is not None else secrets.randbits(32),
            },
            None,
        )
    clashes = [k for k in _RESUMED_SETTINGS if getattr(ns, k) is not None]
    if ns.option:
        clashes.append("option")
    if ns.out is not None:
        clashes.append("out")
    if clashes:
        raise BoggleOptError(
            f"--resume takes the run's settings from its file; drop --{clashes[0]}"
        )
    past = read_run_file(ns.resume)
    settings = {k: past.settings.get(k) for k in (*_RESUMED_SETTINGS, "options")}
    if settings["searcher"] is None:
        raise BoggleOptError(f"run file {ns.resume!r} does not name its searcher")
    return settings, past


def cmd_run(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    settings, past = _settings(ns)
    budget = _budget(ns, searcher_class(str(settings["searcher"]), regs), past)
    run = prepare_run(
        str(settings["searcher"]), regs,
        size=str(settings["size"]), rule=str(settings["rule"]),
        wordlist=str(settings["wordlist"]), options=dict(settings["options"] or {}),
        seed=int(settings["seed"]), budget=budget, jobs=ns.jobs,
        resumed=past.checkpoints if past else (),
    )
    record, problem = run.record, run.problem
    consumers: list[Consumer] = []
    style = ns.progress or ("rich" if sys.stderr.isatty() else "plain")
    title = (f"{record['searcher']} · {problem.dictionary.rule.name} · {record['size']} · "
             f"{record['wordlist_label']}")
    display = make_display(style, title, problem.geometry.grid, sys.stderr)
    if display is not None:
        consumers.append(display)
    path = ns.resume or ns.out
    if path is not None:
        consumers.append(RunFileWriter(path, record, run.word_count))
    driver = Driver(
        run.searcher, problem, budget, int(settings["seed"]), consumers,
        jobs=ns.jobs, settings=record, resume_segment=past.segments if past else 0,
    )
    if past is not None:
        for board, score in past.boards:
            driver.add_known(board, score)
    state = driver.run()
    _report(state, record, problem.geometry.grid, run.word_count, ns.top, out)
    return INTERRUPTED if state.stop_reason == "interrupted" else 0


def _budget(ns: argparse.Namespace, cls: Any, past: PastRun | None) -> Budget:
    if ns.time is not None or ns.evals is not None or ns.target is not None:
        return Budget(ns.time, ns.evals, ns.target)
    if past is not None:
        # carry on with what the interrupted run had left
        old = past.settings.get("budget") or {}
        seconds = old.get("seconds")
        evals = old.get("evaluations")
        return Budget(
            None if seconds is None else max(1.0, seconds - past.elapsed),
            None if evals is None else max(1, evals - past.evaluations),
            old.get("target"),
        )
    return default_budget(cls)


def _report(
    state: RunState,
    record: dict[str, Any],
    grid: Any,
    word_count: Any,
    top: int,
    out: TextIO,
) -> None:
    # options left at None take the searcher's own defaults: not worth a line
    opts = " ".join(f"{k}={v}" for k, v in record["options"].items() if v is not None)
    out.write(
        f"# searcher {record['searcher']} ({opts}); rule {record['rule']}; "
        f"word list {record['wordlist_label']}; size {record['size']}; "
        f"seed {record['seed']}; jobs {record['jobs']}\n"
    )
    out.write(
        f"# stopped: {state.stop_reason}; {state.evaluations:,} evaluations "
        f"in {state.elapsed():.1f} s\n"
    )
    ranked = state.ranked()
    if not ranked:
        out.write("# no boards found\n")
        return
    out.write("# rank\tboard\tscore\twords\n")
    for rank, (board, score) in enumerate(ranked[:top], 1):
        out.write(f"{rank}\t{board}\t{score}\t{word_count(board)}\n")
    if len(ranked) > top:
        out.write(f"# ... {len(ranked) - top} more (--top N shows more)\n")
    best, score = ranked[0]
    out.write(f"\nbest board ({score} points):\n{grid(best)}\n")
    out.flush()
