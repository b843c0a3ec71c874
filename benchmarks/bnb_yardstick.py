"""How fast this machine is today against the day the C++ anchors were taken.

    python benchmarks/bnb_yardstick.py [--size 4x4|3x4] [--repeats 1] [--dir DIR]
        [--anchors DIR (default: benchmarks/anchors)]

The research C++'s times in ``benchmarks/anchors/`` were measured on
2026-11-22, beside this project's main at a57572b, whose times are the
files' third column. The C++ cannot be run here, but a57572b can: this
writes it out (``git archive``, into ``DIR``, default a folder in the
system's temporary directory, kept for the next run), compiles it, runs it on
the anchor sample as the anchors did (4x4: min score 3500, switch below
8000 = 229% of it, beside another run on the other core; 3x4: min score 1500,
switch 150%, alone) and prints its CPU against that day's: the factor by
which this machine runs the same code faster or slower today. A ratio to the
C++ measured today should be read against the C++ time times that factor.

It is a yardstick, not the C++: a57572b holds 5.3 GB on the 4x4 sample and
spends about a fifth of its CPU in the kernel zeroing pages, where the C++
held 1.1 GB, so the factor is an estimate (details in docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
COMMIT = "a57572b"
SETTINGS = {"4x4": (4, 4, 3500, 229), "3x4": (3, 4, 1500, 150)}

# Run inside the old checkout (its API, not today's): solve and re-score each
# class of the sample, as the anchors did, and print CPU seconds per class.
DRIVER = r'''
import sys, time, resource
from boggle_opt.api import make_geometry
from boggle_opt.classes import letter_mask, parse_class
from boggle_opt.core.branch import ClassSolver
from boggle_opt.dictionary import Dictionary
from boggle_opt.rules import ScoringRule
from boggle_opt.wordlist import read_word_file
import boggle_opt.core.tree as tree
if tree.__file__.endswith(".py"):
    sys.exit("the a57572b checkout is not compiled")
path, words, cols, rows, cutoff, pct = sys.argv[1:7]
cutoff = int(cutoff)
rule = ScoringRule.by_length("standard", "", [1, 1, 2, 3, 5, 11])
d = Dictionary("enable2k", read_word_file(words), rule)
g = make_geometry(int(cols), int(rows))
scorer = d.scorer(g)
solver = ClassSolver(d.trie, g)
total = cpp = then = 0.0
for i, line in enumerate(x for x in open(path) if x.strip() and not x.startswith("#")):
    f = line.rstrip("\n").split("\t")
    masks = [letter_mask(s) for s in parse_class(f[0], g)]
    c0 = time.process_time()
    found = [b for b in solver.solve(masks, cutoff, int(pct)) if scorer.score(b) >= cutoff]
    cpu = time.process_time() - c0
    total += cpu
    cpp += float(f[1])
    then += float(f[2])
    print(f"{i}\t{cpu:.2f}\t{f[2]}\t{cpu / float(f[2]):.2f}\t{f[1]}", flush=True)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"total\t{total:.1f}\t{then:.1f}\t{total / then:.3f}\t{cpp:.1f}\t{peak:.0f}")
'''


def checkout(where: Path) -> None:
    """a57572b compiled in ``where`` (made once, then reused)."""
    if not (where / ".built").exists():
        where.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", COMMIT], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
        print(f"# compiling {COMMIT} in {where} (a minute or so)", flush=True)
        subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=where,
                       check=True, capture_output=True)
        (where / ".built").write_text(COMMIT + "\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", choices=sorted(SETTINGS), default="4x4")
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / f"boggle-opt-{COMMIT}")
    ap.add_argument("--anchors", type=Path, default=HERE / "anchors")
    ns = ap.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))
    from boggle_opt.core.errors import WordListError
    from boggle_opt.wordlists.research import find_wordlist

    try:
        words = find_wordlist("enable2k")
    except WordListError as err:
        print(f"bnb_yardstick: {err}", file=sys.stderr)
        return 2
    sample = ns.anchors / f"bnb-{ns.size}-sample.tsv"
    if not sample.exists():
        print(f"bnb_yardstick: {sample} not found (the anchors are in benchmarks/anchors)", file=sys.stderr)
        return 2
    try:
        checkout(ns.dir.resolve())
    except (subprocess.CalledProcessError, OSError) as err:
        print(f"bnb_yardstick: could not check out and compile {COMMIT}: {err}", file=sys.stderr)
        return 2
    cols, rows, cutoff, pct = SETTINGS[ns.size]
    env = dict(os.environ, PYTHONPATH=str(ns.dir.resolve()))
    factors: list[float] = []
    print(f"# {COMMIT} on {sample.name}: min score {cutoff}, switch {pct}%")
    print("# i\tcpu s today\tcpu s 2026-11-22\ttoday/then\tC++ s 2026-11-22")
    for _ in range(ns.repeats):
        run = subprocess.run(
            [sys.executable, "-c", DRIVER, str(sample), str(words), str(cols), str(rows), str(cutoff), str(pct)],
            env=env, cwd=ns.dir, capture_output=True, text=True,
        )
        if run.returncode != 0:
            last = (run.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"bnb_yardstick: the {COMMIT} run failed: {last}", file=sys.stderr)
            return 1
        print(run.stdout, end="", flush=True)
        total = run.stdout.strip().splitlines()[-1].split("\t")
        factors.append(float(total[3]))
        print(f"# run {len(factors)}: {total[1]} s against {total[2]} s then: factor {total[3]}; "
              f"peak RSS {total[5]} MB; the C++ then {total[4]} s, so about "
              f"{float(total[4]) * float(total[3]):.1f} s today", flush=True)
    print(f"factor today/2026-11-22 (median of {len(factors)}): {statistics.median(factors):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
