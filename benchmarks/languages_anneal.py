"""The best boards annealing finds in each language, and under Big Boggle's rule.

    python benchmarks/languages_anneal.py [--languages french,german,...] [--sizes 4x4,5x5]
        [--seeds 5] [--evals 300000] [--time 120] [--jobs 2] [--big] [--markdown]

For each language (its own system word list, ``/usr/share/dict``; English: the
embedded list) and size, annealing runs once per seed (0..N-1) with an
evaluation budget; the table gives the best board found, its score, how many
of the seeds reach that score, and the median seconds and seconds to the
run's best. ``--big`` runs Big Boggle's rule (``big``: 4+ letters) on 5x5 with
ENABLE2K and YAWL (``BOGGLE_OPT_WORDLISTS`` or ../shared/wordlists) instead.
No edition's dice for the other languages are published (docs/usage.md,
Languages and editions), so no run is held to dice.
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

REPO = Path(__file__).resolve().parent.parent
LANGUAGES = ("english", "french", "german", "spanish", "italian", "portuguese", "dutch",
             "swedish", "polish")


@dataclass(frozen=True)
class Task:
    language: str
    wordlist: str
    rule: str
    size: str
    seed: int
    evals: int
    seconds: float


@dataclass(frozen=True)
class Result:
    task: Task
    board: str  # as written
    score: int
    seconds: float
    to_best: float


_DICTS: dict[tuple[str, str, str], object] = {}


def run(task: Task) -> Result:
    from boggle_opt.boards import size_geometry
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.searching.driver import Budget, Driver
    from boggle_opt.searching.interface import Problem
    from boggle_opt.searching.options import make_options

    regs = load_plugins()
    key = (task.wordlist, task.rule, task.language)
    if key not in _DICTS:
        _DICTS[key] = load_dictionary(task.wordlist, task.rule, regs, language=task.language)
    d = _DICTS[key]
    problem = Problem(d, size_geometry(task.size))  # type: ignore[arg-type]
    cls = regs.searchers.get("annealing")
    state = Driver(cls(make_options("annealing", cls.Options, ())), problem,
                   Budget(seconds=task.seconds, evaluations=task.evals), task.seed).run()
    to_best = next((t for t, s in state.history if s == state.best_score), state.elapsed())
    written = d.alphabet.write(problem.geometry.canonical(state.best_board))  # type: ignore[attr-defined]
    return Result(task, written, state.best_score, state.elapsed(), to_best)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--languages", default=",".join(LANGUAGES))
    ap.add_argument("--sizes", default="4x4,5x5")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--evals", type=int, default=300_000, help="evaluations a run (its budget)")
    ap.add_argument("--time", type=float, default=600.0, help="a ceiling in seconds a run")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--big", action="store_true", help="Big Boggle's rule on 5x5, ENABLE2K and YAWL")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))
    if args.big:
        combos = [("english", w, "big", "5x5") for w in ("enable2k", "yawl")]
    else:
        combos = [(lang, "embedded" if lang == "english" else "", "standard", size)
                  for lang in args.languages.split(",") for size in args.sizes.split(",")]
    from boggle_opt.registry.loader import load_plugins

    regs = load_plugins()
    tasks: list[Task] = []
    for lang, wordlist, rule, size in combos:
        listname = wordlist or regs.languages.get(lang).wordlist
        tasks += [Task(lang, listname, rule, size, seed, args.evals, args.time)
                  for seed in range(args.seeds)]
    print(f"{len(tasks)} runs of {args.evals:,} evaluations, {args.jobs} at a time",
          file=sys.stderr, flush=True)
    started = time.monotonic()
    results: list[Result] = []
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for r in pool.imap(run, tasks):
            t = r.task
            print(f"{t.language:<11} {t.wordlist:<11} {t.rule:<8} {t.size} seed {t.seed}: {r.score:>6} "
                  f"{r.board} {r.seconds:6.1f} s (best at {r.to_best:.1f} s)", file=sys.stderr, flush=True)
            results.append(r)
    print(f"# {time.monotonic() - started:.0f} s in all", file=sys.stderr)
    head = ["language", "word list", "rule", "size", "best board", "score", "seeds reaching it",
            "median s", "median s to best"]
    rows: list[list[str]] = []
    groups: dict[tuple[str, str, str, str], list[Result]] = {}
    for r in results:
        groups.setdefault((r.task.language, r.task.wordlist, r.task.rule, r.task.size), []).append(r)
    for (lang, wordlist, rule, size), rs in groups.items():
        best = max(rs, key=lambda r: r.score)
        rows.append([lang, wordlist, rule, size, best.board, f"{best.score:,}",
                     f"{sum(r.score == best.score for r in rs)}/{len(rs)} (seeds 0-{len(rs) - 1})",
                     f"{statistics.median(r.seconds for r in rs):.1f}",
                     f"{statistics.median(r.to_best for r in rs):.1f}"])
    if args.markdown:
        print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
        print("\n".join("| " + " | ".join(r) + " |" for r in rows))
    else:
        widths = [max(len(x) for x in col) for col in zip(head, *rows)]
        print("\n".join("  ".join(x.ljust(w) for x, w in zip(r, widths)) for r in [head, *rows]))


if __name__ == "__main__":
    main()
