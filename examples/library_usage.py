"""boggle-opt as a library: score boards, run a searcher, read the results.

    python examples/library_usage.py                      # embedded list, 3 s of annealing
    python examples/library_usage.py --wordlist enable2k --rule pow2 --evals 50000

Needs only an installed boggle-opt (the embedded ``default`` list ships with it).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from boggle_opt import (
    Checkpoint, Event, Improved, Progress, RunState, analyse, load_dictionary, load_plugins,
    read_run_file, search,
)

BOARDS = ["perslatgsineters", "gnessoriltaeseti", "abcdefghijklmnop"]


class PrintImprovements:
    """A consumer (the driver's ``Consumer`` protocol: start, event, finish).

    The driver calls ``event`` for every event the searcher yields, with its
    own ``RunState`` (best board so far, evaluations, time, stop reason).
    """

    def __init__(self) -> None:
        self.counts = {"Improved": 0, "Progress": 0, "Checkpoint": 0}
        self.shown = 0

    def start(self, state: RunState) -> None:
        print(f"searching with {state.searcher}; budget {state.budget}")

    def event(self, event: Event, state: RunState) -> None:
        self.counts[type(event).__name__] += 1
        # a searcher reports its own new bests; print the run's best when it
        # has grown by a tenth since the last line
        if isinstance(event, Improved) and event.score >= max(1.1 * self.shown, 1):
            self.shown = event.score
            print(f"  {state.elapsed():5.2f} s {state.evaluations:>9,} evals  "
                  f"{event.board} {event.score}")
        elif isinstance(event, (Progress, Checkpoint)):
            pass  # Progress.stats: the searcher's own figures; Checkpoint.record: resumable state

    def finish(self, state: RunState) -> None:
        print(f"stopped: {state.stop_reason}; events seen: {self.counts}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wordlist", default="default", help="word list name or file")
    parser.add_argument("--rule", default="standard", help="scoring rule name")
    parser.add_argument("--searcher", default="annealing")
    parser.add_argument("--seconds", type=float, help="time budget (default 3 s without --evals)")
    parser.add_argument("--evals", type=int, help="evaluation budget (boards scored)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    # 1. A dictionary: a word list packed into a trie with a rule's points.
    #    Loading the plugins once and passing them on saves a second load.
    plugins = load_plugins()
    dictionary = load_dictionary(args.wordlist, args.rule, plugins)
    print(f"word list {dictionary.label}, rule {dictionary.rule.name}")

    # 2. Score a few boards (letters in column-major order, q is "Qu").
    for board in BOARDS:
        report = analyse(dictionary, board)
        longest = max(report.words, key=lambda w: (len(w.word), w.word), default=None)
        print(f"{report.board} {report.size}: {report.score} points, {len(report.words)} words"
              + (f", longest {longest.word!r} along cells {longest.path}" if longest else ""))

    # 3. Run a searcher. `search` does what `boggle-opt run` does: a RunSpec
    #    (every setting of the run, checked), its Problem (dictionary + board
    #    size), and a Driver that owns the budget and the seeded random
    #    generator and hands every event to the consumers.
    run_file = Path(tempfile.mkdtemp()) / "run.jsonl"
    seconds = args.seconds if args.seconds or args.evals else 3.0
    result = search(
        args.searcher,
        rule=args.rule,
        wordlist=args.wordlist,
        seconds=seconds,
        evals=args.evals,
        seed=args.seed,
        consumers=[PrintImprovements()],
        out=str(run_file),  # the JSON-lines file of `boggle-opt run --out`
        dictionary=dictionary,
        registries=plugins,
    )

    # 4. The result: the best boards (symmetric copies counted once), best first.
    print(f"{result.searcher} seed {result.seed}: {result.evaluations:,} evaluations "
          f"in {result.seconds:.1f} s")
    for board, score in result.boards[:3]:
        print(f"  {board} {score}")
    best = analyse(dictionary, result.best_board)  # reported scores re-score exactly
    print(f"best {best.board}: {best.score} points, {len(best.words)} words")

    # 5. The run file read back (what `boggle-opt run --resume` reads).
    past = read_run_file(str(run_file))
    print(f"run file: {len(past.boards)} improvements, best {max(s for _, s in past.boards)}, "
          f"{past.evaluations:,} evaluations, settings {sorted(past.settings)}")


if __name__ == "__main__":
    main()
