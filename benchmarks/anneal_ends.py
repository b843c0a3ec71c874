"""Where fresh anneals end, and how early an anneal's end can be told.

    python benchmarks/anneal_ends.py [--size 5x5] [--wordlist yawl] [--seed 0]
        [--time 1500] [--radius 6] [--window 210] [--log FILE]

Runs the annealing searcher's default plan (fresh anneals, as on 5x5) one
anneal after another for ``--time`` seconds, logging each anneal's current
board and score once a block of proposals, and where its polish ends. Then
prints:

- the basins the ends fall into (ends within ``--radius`` cells of each
  other under the board's symmetries are one basin): how many anneals each
  took and how many of those ended on its best board, best first, and at
  what temperature the board came within the radius of its end for good;
- the best end's score: in how many windows of ``--window`` seconds (a
  search's budget) some anneal ended on it;
- for temperatures from hot to cold, the rank correlation (Spearman) between
  the best score an anneal had reached by then and its polished end, the
  share of its time still to come, and where the best tenth of the ends
  ranked at that point: what stopping poor anneals early (racing) could save.

``--log`` keeps the raw records (JSON lines); ``--from-log`` analyses logs
again without running. Word lists come from BOGGLE_OPT_WORDLISTS or
../shared/wordlists beside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

REPO = Path(__file__).resolve().parent.parent


def run(size: str, wordlist: str, seed: int, seconds: float) -> list[dict[str, Any]]:
    """Anneals for ``seconds``: one record per block of proposals ("blk") and
    one per polished end ("end")."""
    import numpy as np

    from boggle_opt.boards import A, make_geometry, random_letters
    from boggle_opt.plugins.annealing import AnnealingSearch, _Run
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.searching.interface import Problem, Progress

    cols, rows = (int(x) for x in size.split("x"))
    problem = Problem(load_dictionary(wordlist, "standard", load_plugins()), make_geometry(cols, rows))
    plan = AnnealingSearch.Options(reheat=0.0).plan(problem.n_cells)
    state = _Run(problem, np.random.default_rng(seed), plan, 0)
    records: list[dict[str, Any]] = []
    t0 = time.monotonic()
    anneal = 0
    while time.monotonic() - t0 < seconds:
        anneal += 1
        codes = random_letters(state.rng, state.freqs, state.n) + A

        def block(ev: object) -> None:
            if isinstance(ev, Progress):
                board = state.board
                records.append({"k": "blk", "a": anneal, "t": ev.stats["temperature"],
                                "cur": ev.stats["score"], "s": time.monotonic() - t0,
                                "b": board.decode() if isinstance(board, bytearray) else board})

        text = _result(state.anneal(bytearray(codes.tobytes()), plan.tmax), block)
        end, score = _result(state.polish(text), lambda ev: None)
        records.append({"k": "end", "a": anneal, "b": end, "sc": score, "s": time.monotonic() - t0})
    return records


def _result(gen: Generator[Any, None, T], each: Callable[[Any], None]) -> T:
    """What a generator returns, each event it yields handed to ``each``."""
    while True:
        try:
            each(next(gen))
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


def analyse(logs: Sequence[list[dict[str, Any]]], size: str, radius: int, window: float) -> None:
    from boggle_opt.boards import make_geometry

    cols, rows = (int(x) for x in size.split("x"))
    syms = make_geometry(cols, rows).symmetries

    def dist(a: str, b: str) -> int:
        return min(sum(a[i] != b[p] for i, p in enumerate(perm)) for perm in syms)

    anneals = []  # (blocks, end board, end score, end time)
    for records in logs:
        blocks: dict[int, list[dict[str, Any]]] = {}
        for r in records:
            if r["k"] == "blk":
                blocks.setdefault(r["a"], []).append(r)
            elif r["a"] in blocks:
                anneals.append((blocks[r["a"]], r["b"], r["sc"], r["s"]))
    if not anneals:
        raise SystemExit("no anneal finished")
    # basins: each end joins the first basin within the radius of its first end
    basins: list[list[int]] = []
    near_at: list[float] = []  # temperature from which the board stays near its end
    left: list[float] = []  # share of the anneal's time still to come then
    for i, (blocks, end, _, t_end) in enumerate(anneals):
        j = len(blocks)
        while j > 0 and dist(blocks[j - 1]["b"], end) <= radius:
            j -= 1
        k = min(j, len(blocks) - 1)
        near_at.append(blocks[k]["t"])
        left.append((t_end - blocks[k]["s"]) / max(t_end - blocks[0]["s"], 1e-9))
        for basin in basins:
            if dist(anneals[basin[0]][1], end) <= radius:
                basin.append(i)
                break
        else:
            basins.append([i])
    basins.sort(key=lambda b: -max(anneals[i][2] for i in b))
    seconds = [a[3] - a[0][0]["s"] for a in anneals]
    print(f"{len(anneals)} anneals (median {statistics.median(seconds):.1f} s), "
          f"{len(basins)} basins at a radius of {radius} cells; the 15 best:")
    print("best end  anneals  on it  board  temperatures (points) from which the board stayed near its end")
    for basin in basins[:15]:
        top = max(basin, key=lambda i: anneals[i][2])
        on_it = sum(anneals[i][2] == anneals[top][2] for i in basin)
        temps = ", ".join(f"{near_at[i]:.0f}" for i in sorted(basin, key=lambda i: -near_at[i]))
        print(f"{anneals[top][2]:>8,}  {len(basin):>7}  {on_it:>5}  {anneals[top][1]}  {temps}")
    print(f"share of an anneal's time left once its board stays near its end: "
          f"median {statistics.median(left):.2f}")
    best = max(a[2] for a in anneals)
    windows, hit = 0, 0
    for records in logs:
        ends = [(r["s"], r["sc"]) for r in records if r["k"] == "end"]
        if not ends:
            continue
        count = int(ends[-1][0] // window)  # whole windows only
        windows += count
        hit += len({int(s // window) for s, sc in ends if sc == best and s < count * window})
    print(f"windows of {window:g} s in which an anneal ended on {best:,}: {hit} of {windows}")

    ends = [a[2] for a in anneals]

    def ranks(xs: list[float]) -> list[float]:
        order = sorted(range(len(xs)), key=lambda i: xs[i])
        out = [0.0] * len(xs)
        for r, i in enumerate(order):
            out[i] = r / max(len(xs) - 1, 1)
        return out

    def spearman(a: list[float], b: list[float]) -> float:
        return statistics.correlation(ranks(a), ranks(b)) if len(a) > 1 else 0.0

    best_tenth = sorted(range(len(ends)), key=lambda i: -ends[i])[: max(1, len(ends) // 10)]
    print("\ntemperature  spearman  time left  the best tenth of ends: percentile ranks then")
    for temp in (250, 200, 170, 150, 130, 110, 90, 70):
        reached, share = [], []
        for blocks, _, _, t_end in anneals:
            k = next((j for j, b in enumerate(blocks) if b["t"] <= temp), len(blocks) - 1)
            reached.append(float(max(b["cur"] for b in blocks[: k + 1])))
            share.append((t_end - blocks[k]["s"]) / max(t_end - blocks[0]["s"], 1e-9))
        r = ranks(reached)
        tenth = " ".join(f"{round(100 * r[i])}" for i in sorted(best_tenth, key=lambda i: r[i]))
        print(f"{temp:>11}  {spearman(reached, [float(e) for e in ends]):>8.2f}  "
              f"{statistics.median(share):>9.2f}  {tenth}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="5x5")
    ap.add_argument("--wordlist", default="yawl")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time", type=float, default=1500.0, help="seconds of anneals")
    ap.add_argument("--radius", type=int, default=6, help="cells within which ends share a basin")
    ap.add_argument("--window", type=float, default=210.0, help="seconds of a search, for the hit rate")
    ap.add_argument("--log", help="write the records here (JSON lines)")
    ap.add_argument("--from-log", nargs="+", metavar="LOG", help="analyse these logs instead of running")
    args = ap.parse_args()
    os.environ.setdefault("BOGGLE_OPT_WORDLISTS", str(REPO.parent / "shared" / "wordlists"))
    if args.from_log:
        logs = [[json.loads(line) for line in open(p, encoding="utf-8")] for p in args.from_log]
    else:
        records = run(args.size, args.wordlist, args.seed, args.time)
        if args.log:
            with open(args.log, "x", encoding="utf-8") as f:
                f.writelines(json.dumps(r) + "\n" for r in records)
        logs = [records]
    analyse(logs, args.size, args.radius, args.window)


if __name__ == "__main__":
    main()
