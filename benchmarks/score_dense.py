"""Dense 4x4 boards, the ones an anneal ends on: CPU seconds to score each
over and over, and to score its one-tile neighbourhood over and over.

    python benchmarks/score_dense.py [--times 20000] [--hoods 300] [--random 0]
        [--repeats 1] [--language polish] [--boards b1,b2,...] [--wide]

A dense board finds the same word by many paths, so this measures what a
repeated find costs (random boards find few words twice: score_throughput.py).
English (ENABLE2K, the default): ``perslatgsineters``, ``agestrntseaidplc``,
``serglanepitssero``, ``segsrntreiaeslps``, each scored ``--times`` times and
its neighbourhood (416 boards) ``--hoods`` times. ``--language polish`` (32
tiles, the system list) uses the best Polish 4x4 board annealing has found.
``--random N`` also scores N uniformly random 4x4 boards (seeded: the same
boards on any install). ``--wide`` forces the scorer's wide layout (32 tiles,
slots) on a narrow trie, to compare the two paths; older installs lack it.
Each line is one repeat: CPU seconds of each scoring loop
(``time.process_time``), and the scores' sum as a check. Run it with two
installs' pythons in turn, A and B, for a side-by-side figure. The word list
folder comes from BOGGLE_OPT_WORDLISTS or ../shared/wordlists beside the
repository.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BOARDS = {
    "english": ["perslatgsineters", "agestrntseaidplc", "serglanepitssero", "segsrntreiaeslps"],
    # annealing's best Polish 4x4 boards (docs/benchmarks.md, 30,000 evaluations)
    "polish": ["aieiwnlmoiaomksp"],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=20_000, help="scores of each board")
    parser.add_argument("--hoods", type=int, default=300, help="neighbourhoods of each board")
    parser.add_argument("--random", type=int, default=0, help="random boards to score as well")
    parser.add_argument("--seed", type=int, default=2026, help="of the random boards")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--language", default="english", choices=sorted(BOARDS))
    parser.add_argument("--boards", default="", help="comma-separated boards (as written)")
    parser.add_argument("--wide", action="store_true", help="the wide scorer on any trie")
    args = parser.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))

    import boggle_opt
    from boggle_opt import Geometry
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.registry.loader import load_plugins

    regs = load_plugins()
    if args.language == "english":
        d = load_dictionary("enable2k", "standard", regs)
    else:
        lang = regs.languages.get(args.language)
        d = load_dictionary(lang.wordlist, "standard", regs, language=args.language)
    geometry = Geometry(4, 4)
    if args.wide:
        from boggle_opt.core.scorer import Scorer

        scorer = Scorer(d.trie, geometry, wide=True)
    else:
        scorer = d.scorer(geometry)
    alphabet = getattr(d, "alphabet", None)
    boards = args.boards.split(",") if args.boards else BOARDS[args.language]
    boards = [alphabet.read(b) if alphabet is not None else b for b in boards]
    layout = ("narrow" if scorer.narrow else "wide") if hasattr(scorer, "narrow") else "-"
    print(f"# boggle-opt at {Path(boggle_opt.__file__).parent}, "
          f"{'compiled' if boggle_opt.COMPILED else 'PURE PYTHON'}, scorer layout {layout}; "
          f"{len(boards)} boards x {args.times:,} scores, x {args.hoods:,} neighbourhoods")
    rng = random.Random(args.seed)
    symbols = scorer.symbols if hasattr(scorer, "symbols") else "abcdefghijklmnopqrstuvwxyz"
    uniform = ["".join(rng.choice(symbols) for _ in range(16)) for _ in range(args.random)]
    score = scorer.score
    hood = scorer.neighbourhood
    for _ in range(args.repeats):
        check = 0
        start = time.process_time()
        for b in uniform:
            check += score(b)
        randomly = time.process_time() - start
        start = time.process_time()
        for b in boards:
            for _ in range(args.times):
                check += score(b)
        scored = time.process_time() - start
        start = time.process_time()
        for b in boards:
            for _ in range(args.hoods):
                check += sum(hood(b))
        hoods = time.process_time() - start
        print(f"random {randomly:.3f} s\tscore {scored:.3f} s\tneighbourhoods {hoods:.3f} s"
              f"\tcheck {check}", flush=True)


if __name__ == "__main__":
    main()
