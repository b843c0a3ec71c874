"""The best boards annealing finds in each language, and under Big Boggle's rule.

    python benchmarks/languages_anneal.py [--languages french,german,...] [--sizes 4x4,5x5]
        [--seeds 5] [--evals 300000] [--evals-5x5 N] [--jobs 2] [--dice] [--big] [--markdown]

For each language (its own system word list, ``/usr/share/dict``; English: the
embedded list) and size, annealing runs once per seed (0..N-1) with an
evaluation budget; the table gives the best board found, its score, how many
of the seeds reach that score, the median CPU seconds of a run and the median
evaluations to a run's own best. ``--dice`` adds, for each language whose
plugin names dice sets (``Language.dice``), runs held to the set with a die
per cell (French: ``french-4x4``, ``french-5x5``; English: ``new`` and
``big``). ``--skip french:4x4:none`` leaves a group out. ``--big`` runs Big Boggle's
rule (``big``: 4+ letters) on 5x5 with ENABLE2K and YAWL
(``BOGGLE_OPT_WORDLISTS`` or ../shared/wordlists) instead. These are
annealing's best found: lower bounds, not proofs.
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
LANGUAGES = ("english", "french", "german", "spanish", "italian", "portuguese", "dutch",
             "swedish", "polish")
ENGLISH_DICE = ("new", "big")


@dataclass(frozen=True)
class Task:
    language: str
    wordlist: str
    rule: str
    size: str
    dice: str  # a dice set's name, or "" for none
    seed: int
    evals: int
    seconds: float


@dataclass(frozen=True)
class Result:
    task: Task
    board: str  # as written
    score: int
    seconds: float  # wall, the search only
    cpu: float  # CPU seconds of the search (one process)
    evals_to_best: int


_DICTS: dict[tuple[str, str, str], object] = {}


class _BestAt:
    """A consumer noting the evaluations spent when the run's best first appeared."""

    def __init__(self) -> None:
        self.best, self.at = -1, 0

    def start(self, state: Any) -> None:
        pass

    def event(self, event: Any, state: Any) -> None:
        if state.best_score > self.best:
            self.best, self.at = state.best_score, state.evaluations

    def finish(self, state: Any) -> None:
        pass


def run(task: Task) -> Result:
    from boggle_opt.boards import size_geometry
    from boggle_opt.constraints.fixed import Constraints
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.searching.driver import Budget, Driver
    from boggle_opt.searching.interface import Problem
    from boggle_opt.searching.options import make_options

    regs = load_plugins()
    key = (task.wordlist, task.rule, task.language)
    if key not in _DICTS:
        _DICTS.clear()  # one at a time: tasks come in groups of seeds
        _DICTS[key] = load_dictionary(task.wordlist, task.rule, regs, language=task.language)
    d: Any = _DICTS[key]
    geometry = size_geometry(task.size)
    dice = regs.dice.get(task.dice) if task.dice else None
    problem = Problem(d, geometry, constraints=Constraints.build(geometry, dice=dice, alphabet=d.alphabet))
    cls = regs.searchers.get("annealing")
    best_at = _BestAt()
    cpu = time.process_time()
    state = Driver(cls(make_options("annealing", cls.Options, ())), problem,
                   Budget(seconds=task.seconds, evaluations=task.evals), task.seed, [best_at]).run()
    cpu = time.process_time() - cpu
    written = d.alphabet.write(geometry.canonical(state.best_board))
    return Result(task, written, state.best_score, state.elapsed(), cpu, best_at.at)


def combos(args: argparse.Namespace, regs: Any) -> list[tuple[str, str, str, str, str]]:
    """(language, word list, rule, size, dice set) for each group of seeds."""
    if args.big:
        return [("english", w, "big", "5x5", "") for w in ("enable2k", "yawl")]
    out = []
    for lang in args.languages.split(","):
        language = regs.languages.get(lang)
        wordlist = "embedded" if lang == "english" else language.wordlist
        for size in args.sizes.split(","):
            out.append((lang, wordlist, "standard", size, ""))
            if args.dice:
                cells = int(size.split("x")[0]) * int(size.split("x")[1])
                # English: the dice sold today, 4x4 (new) and Big Boggle's (big)
                names = ENGLISH_DICE if lang == "english" else language.dice
                out += [(lang, wordlist, "standard", size, name) for name in names
                        if regs.dice.get(name).n == cells]
    if args.skip:
        skip = {tuple(x.split(":")) for x in args.skip.split(",")}
        out = [c for c in out if (c[0], c[3], c[4] or "none") not in skip]
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--languages", default=",".join(LANGUAGES))
    ap.add_argument("--sizes", default="4x4,5x5")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--evals", type=int, default=300_000, help="evaluations a run (its budget)")
    ap.add_argument("--evals-5x5", type=int, default=0, help="evaluations a 5x5 run (default: --evals)")
    ap.add_argument("--time", type=float, default=1800.0, help="a ceiling in seconds a run")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--dice", action="store_true", help="also runs held to each language's own dice")
    ap.add_argument("--big", action="store_true", help="Big Boggle's rule on 5x5, ENABLE2K and YAWL")
    ap.add_argument("--skip", default="", help="groups to leave out: language:size:dice,... (dice: none)")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))
    from boggle_opt.registry.loader import load_plugins

    regs = load_plugins()
    tasks: list[Task] = []
    for lang, wordlist, rule, size, dice in combos(args, regs):
        evals = args.evals_5x5 if size == "5x5" and args.evals_5x5 else args.evals
        tasks += [Task(lang, wordlist, rule, size, dice, seed, evals, args.time)
                  for seed in range(args.first_seed, args.first_seed + args.seeds)]
    print(f"{len(tasks)} runs, {args.jobs} at a time", file=sys.stderr, flush=True)
    started = time.monotonic()
    results: list[Result] = []
    with mp.get_context("spawn").Pool(args.jobs) as pool:
        for r in pool.imap(run, tasks):
            t = r.task
            print(f"{t.language:<11} {t.wordlist:<11} {t.rule:<8} {t.size} {t.dice or '-':<11} seed {t.seed}: "
                  f"{r.score:>6} {r.board} {r.cpu:6.1f} CPU s {r.seconds:6.1f} s "
                  f"(best at {r.evals_to_best:,} of {t.evals:,} evaluations)", file=sys.stderr, flush=True)
            results.append(r)
    cpu = sum(r.cpu for r in results)
    print(f"# {time.monotonic() - started:.0f} s wall, {cpu:.0f} CPU s in the searches", file=sys.stderr)
    head = ["language", "word list", "rule", "size", "dice", "evaluations", "best board", "score",
            "seeds reaching it", "median CPU s", "median evaluations to a run's best"]
    rows: list[list[str]] = []
    groups: dict[tuple[str, str, str, str, str], list[Result]] = {}
    for r in results:
        t = r.task
        groups.setdefault((t.language, t.wordlist, t.rule, t.size, t.dice), []).append(r)
    for (lang, wordlist, rule, size, dice), rs in groups.items():
        best = max(rs, key=lambda r: r.score)
        seeds = [r.task.seed for r in rs]
        rows.append([lang, wordlist, rule, size, dice or "none", f"{rs[0].task.evals:,}", best.board,
                     f"{best.score:,}",
                     f"{sum(r.score == best.score for r in rs)}/{len(rs)} (seeds {min(seeds)}-{max(seeds)})",
                     f"{statistics.median(r.cpu for r in rs):.1f}",
                     f"{statistics.median(r.evals_to_best for r in rs):,.0f}"])
    if args.markdown:
        print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
        print("\n".join("| " + " | ".join(r) + " |" for r in rows))
    else:
        widths = [max(len(x) for x in col) for col in zip(head, *rows)]
        print("\n".join("  ".join(x.ljust(w) for x, w in zip(r, widths)) for r in [head, *rows]))


if __name__ == "__main__":
    main()
