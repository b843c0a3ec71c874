"""Scoring throughput on ENABLE2K: boards per second, dictionary build, memory.

    python benchmarks/score_throughput.py [--repeats 5] [--boards 100000]

Boards are seeded: uniformly random letters a-z (``q`` is Qu), and for 4x4 also
letters drawn by their frequency in the word list. Figures are medians of the
repeats, single process. The word list folder comes from BOGGLE_OPT_WORDLISTS
or ../shared/wordlists beside the repository.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

import boggle_opt
from boggle_opt.core.errors import WordListError
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.scorer import Scorer
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.loader import load_plugins
from boggle_opt.dictionary.wordlist import clean_words, read_word_file
from boggle_opt.wordlists.research import ENV, find_wordlist

REPO = Path(__file__).resolve().parent.parent


def find_enable2k() -> Path:
    """Where the CLI finds it, or beside the repository in ``../shared``."""
    os.environ.setdefault(ENV, str(REPO.parent / "shared" / "wordlists"))
    try:
        return find_wordlist("enable2k")
    except WordListError as exc:
        raise SystemExit(str(exc)) from None


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_boards(
    rng: np.random.Generator, count: int, cells: int, weights: np.ndarray | None
) -> list[str]:
    letters = rng.choice(26, size=(count, cells), p=weights).astype(np.uint8) + 97
    raw = letters.tobytes().decode("ascii")
    return [raw[i * cells : (i + 1) * cells] for i in range(count)]


def median_rate(run: Callable[[], object], count: int, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        rates.append(count / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--boards", type=int, default=100_000, help="boards per 4x4 run")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    path = find_enable2k()
    rule = load_plugins().rules.get("standard")
    core = "compiled with mypyc" if boggle_opt.COMPILED else "PURE PYTHON"
    print(f"boggle-opt {boggle_opt.__version__}, core {core}; word list {path}")

    rss_before = peak_rss_mb()
    lines = read_word_file(path)
    builds = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        dictionary = Dictionary("enable2k", lines, rule)
        builds.append(time.perf_counter() - start)
    trie = dictionary.trie
    print(
        f"dictionary: {dictionary.n_words:,} words, {trie.n_nodes:,} nodes, "
        f"{trie.nbytes() / 1e6:.1f} MB packed; build (clean+sort+pack) "
        f"median {statistics.median(builds):.3f} s over {args.repeats}"
    )

    counts = Counter("".join(clean_words(lines)).replace("qu", "q"))
    total = sum(counts.values())
    freq = np.array([counts[chr(97 + i)] / total for i in range(26)])

    rng = np.random.default_rng(args.seed)
    print(f"\n{'boards':<28}{'boards/s (median)':>20}{'mean score':>12}")
    for cols, rows, weights, label in [
        (3, 3, None, "3x3 uniform"),
        (4, 4, None, "4x4 uniform"),
        (4, 4, freq, "4x4 letter-frequency"),
        (5, 5, None, "5x5 uniform"),
    ]:
        count = args.boards if cols * rows <= 16 else args.boards // 2
        boards = make_boards(rng, count, cols * rows, weights)
        scorer = Scorer(trie, Geometry(cols, rows))
        score = scorer.score
        rate = median_rate(lambda: [score(b) for b in boards], count, args.repeats)
        mean = sum(score(b) for b in boards[:10_000]) / min(count, 10_000)
        print(f"{label:<28}{rate:>20,.0f}{mean:>12.1f}")

    # One-letter neighbourhood (hill climbing): all 16 x 26 boards at once
    # versus rescoring each (neighbour strings built outside the timing).
    scorer = Scorer(trie, Geometry(4, 4))
    bases = make_boards(rng, 200, 16, freq)
    neighbours = [
        [b[:c] + chr(97 + k) + b[c + 1 :] for c in range(16) for k in range(26)] for b in bases
    ]
    whole = median_rate(lambda: [scorer.neighbourhood(b) for b in bases], len(bases), args.repeats)
    one_by_one = median_rate(
        lambda: [[scorer.score(x) for x in ns] for ns in neighbours], len(bases), args.repeats
    )
    assert all(scorer.neighbourhood(b) == [scorer.score(x) for x in ns]
               for b, ns in zip(bases[:20], neighbours[:20]))
    print(
        f"\n4x4 letter-frequency neighbourhoods (416 boards each): "
        f"{whole:,.0f}/s at once vs {one_by_one:,.0f}/s rescoring: {whole / one_by_one:.2f}x"
    )
    print(f"peak RSS {peak_rss_mb():.0f} MB (before loading the list: {rss_before:.0f} MB)")


if __name__ == "__main__":
    main()
