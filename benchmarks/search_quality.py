"""Search quality: each searcher on fixed scenarios, seeds and budgets.

    python benchmarks/search_quality.py [--searchers hillclimb,annealing,...]
        [--scenarios enable2k-standard,...] [--seeds 5] [--time 60] [--evals N]
        [--jobs 2] [--no-stop] [--markdown]

A searcher may carry options: ``annealing:preset=baseline:tmax=50``. Each run
stops at its time or evaluation budget, or (unless ``--no-stop``) when it
reaches the best known score, so the time column doubles as time to the best.
The table gives, per searcher and scenario: the best score over seeds, the
median and worst, how many seeds reached the best known score, and median
evaluations, seconds, and seconds until the run's final best was first found.
Word lists come from BOGGLE_OPT_WORDLISTS or ../shared/wordlists beside the
repository. Runs are one process each; ``--jobs 2`` runs two at a time.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

#: name -> (word list, rule, columns, rows, best known score)
SCENARIOS: dict[str, tuple[str, str, int, int, int]] = {
    "enable2k-standard": ("enable2k", "standard", 4, 4, 3625),
    "yawl-standard": ("yawl", "standard", 4, 4, 4540),
    "enable2k-pow2": ("enable2k", "pow2", 4, 4, 44726),
    "enable2k-words": ("enable2k", "words", 4, 4, 1158),
    "enable2k-5x5": ("enable2k", "standard", 5, 5, 10406),
    "yawl-5x5": ("yawl", "standard", 5, 5, 13625),
    # the most words known on 5x5 (hill climbing, ../shared/REFERENCE.md)
    "enable2k-5x5-words": ("enable2k", "words", 5, 5, 2552),
    # the proven best 4x4 board, perslatgsineters, is rollable by the classic dice
    "enable2k-dice": ("enable2k", "standard", 4, 4, 3625),
}
#: scenarios whose boards must be rollable by a dice set (``--dice``)
DICE: dict[str, str] = {"enable2k-dice": "classic"}


@dataclass(frozen=True)
class Task:
    label: str  # searcher with its options, as given
    searcher: str
    options: tuple[tuple[str, str], ...]
    scenario: str
    seed: int
    seconds: float
    evals: int | None
    stop_at_best: bool


@dataclass(frozen=True)
class Result:
    task: Task
    best: int
    board: str
    evaluations: int
    seconds: float
    to_best: float  # seconds until the final best score was first reported


def parse_searcher(text: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    name, *pairs = text.split(":")
    options: list[tuple[str, str]] = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"bad searcher option {pair!r} in {text!r}: expected key=value")
        options.append((key, value))
    return name, tuple(options)


_DICTIONARIES: dict[tuple[str, str], Any] = {}


def run_task(task: Task) -> Result:
    from boggle_opt.boards import make_geometry
    from boggle_opt.constraints.fixed import Constraints
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.searching.driver import Budget, Driver
    from boggle_opt.searching.options import make_options
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.searching.interface import Problem

    wordlist, rule, cols, rows, known = SCENARIOS[task.scenario]
    registries = load_plugins()
    if (wordlist, rule) not in _DICTIONARIES:  # built once per worker process
        _DICTIONARIES[wordlist, rule] = load_dictionary(wordlist, rule, registries)
    geometry = make_geometry(cols, rows)
    constraints = None
    if task.scenario in DICE:
        constraints = Constraints.build(geometry, dice=registries.dice.get(DICE[task.scenario]))
    problem = Problem(_DICTIONARIES[wordlist, rule], geometry, constraints=constraints)
    cls = registries.searchers.get(task.searcher)
    options = make_options(task.searcher, cls.Options, task.options)
    budget = Budget(seconds=task.seconds, evaluations=task.evals,
                    target=known if task.stop_at_best else None)
    state = Driver(cls(options), problem, budget, task.seed).run()
    to_best = next((t for t, s in state.history if s == state.best_score), state.elapsed())
    return Result(task, state.best_score, state.best_board, state.evaluations,
                  state.elapsed(), to_best)


def table(results: list[Result], markdown: bool) -> str:
    groups: dict[tuple[str, str], list[Result]] = {}
    for r in results:
        groups.setdefault((r.task.label, r.task.scenario), []).append(r)
    head = ["searcher", "word list", "size", "rule", "best", "median", "worst", "hit best known",
            "median evals", "median s", "median s to best"]
    rows: list[list[str]] = []
    for (label, scenario), rs in groups.items():
        wordlist, rule, cols, rows_, known = SCENARIOS[scenario]
        scores = [r.best for r in rs]
        rows.append([
            label, wordlist, f"{cols}x{rows_}",
            rule + (f", {DICE[scenario]} dice" if scenario in DICE else ""), f"{max(scores):,}",
            f"{statistics.median(scores):,g}", f"{min(scores):,}",
            f"{sum(s >= known for s in scores)}/{len(rs)} ({known:,})",
            f"{statistics.median(r.evaluations for r in rs):,.0f}",
            f"{statistics.median(r.seconds for r in rs):.1f}",
            f"{statistics.median(r.to_best for r in rs):.1f}",
        ])
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    return "\n".join("  ".join(x.ljust(w) for x, w in zip(r, widths)) for r in [head, *rows])


def default_searchers() -> list[str]:
    from boggle_opt.registry.loader import load_plugins

    registry = load_plugins().searchers
    # exhaustive searchers prove optima: they do not fit a fixed time budget
    return [n for n in registry.names() if not getattr(registry.get(n), "exhaustive", False)]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--searchers", help="comma-separated, each name[:key=value...] "
                    "(default: every registered searcher that is not exhaustive)")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS),
                    help=f"comma-separated from {', '.join(SCENARIOS)}")
    ap.add_argument("--seeds", type=int, default=5, help="seeds 0..N-1 per searcher and scenario")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--time", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--evals", type=int, default=None, help="evaluations per run (default: no limit)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time, one process each")
    ap.add_argument("--no-stop", action="store_true", help="run the whole budget even after "
                    "reaching the best known score")
    ap.add_argument("--markdown", action="store_true", help="print the table as markdown")
    args = ap.parse_args(argv)

    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))
    scenarios = [s for s in args.scenarios.split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            raise SystemExit(f"unknown scenario {s!r}: choose from {', '.join(SCENARIOS)}")
    specs = args.searchers.split(",") if args.searchers else default_searchers()
    tasks = [
        Task(spec, *parse_searcher(spec), scenario, seed, args.time, args.evals,
             not args.no_stop)
        for scenario in scenarios
        for spec in specs
        for seed in range(args.first_seed, args.first_seed + args.seeds)
    ]
    print(f"{len(tasks)} runs of at most {args.time:g} s"
          + (f" / {args.evals:,} evaluations" if args.evals else "")
          + f", {args.jobs} at a time", file=sys.stderr, flush=True)
    started = time.monotonic()
    results: list[Result] = []
    if args.jobs > 1:
        with mp.get_context("spawn").Pool(args.jobs, maxtasksperchild=None) as pool:
            for r in pool.imap(run_task, tasks):
                results.append(report(r))
    else:
        results = [report(run_task(t)) for t in tasks]
    print(f"# {time.monotonic() - started:.0f} s in all", file=sys.stderr)
    print(table(results, args.markdown))


def report(r: Result) -> Result:
    t = r.task
    print(f"{t.label:<28} {t.scenario:<18} seed {t.seed}: {r.best:>6} {r.board} "
          f"{r.evaluations:>9,} evals {r.seconds:6.1f} s (best at {r.to_best:.1f} s)",
          file=sys.stderr, flush=True)
    return r


if __name__ == "__main__":
    main()
