"""How much of a class's built orderly tree is one-word chains.

    python benchmarks/tree_shape.py CLASS --size 4x4 [--min-score 3500]
        [--memory 4000] [--wordlist enable2k] [--rule standard]

CLASS is a class as a run file names it (a bucket digit a cell, the size's
default buckets). The tree is built as a proof's worker of ``--memory`` MB
builds it, then walked once. A *chain* is a sum node with no choice child
(a leaf), or one whose only choice child has one letter and leads to a
chain: a single word's remaining cells, each step a sum node (3 words) and
a one-letter choice node (4 words). The script prints the nodes and arena
words by kind, the share of the tree's words in chains, and how long the
longest chains hanging off the rest of the tree are (their steps). The
builder writes a chain's nodes next to each other already; a layout that
wrote a chain as one node would hold it in about 2 + m words for 7m.
The walk is plain Python over a copy of the arena: minutes for a 4x4 class.
"""

from __future__ import annotations

import argparse
import array
import sys
import time
from collections import Counter

import numpy as np

LOW = 31  # arena.LOW: a sum node's child count, a choice node's position
SUM_STEP = 3  # words of a one-child sum node
CHOICE_STEP = 4  # words of a one-letter choice node


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("name", help="the class, as the run file names it (a bucket digit a cell)")
    ap.add_argument("--size", required=True, help="CxR, e.g. 4x4")
    ap.add_argument("--min-score", type=int, default=3500, help="the class context's (the built tree does not depend on it)")
    ap.add_argument("--memory", type=float, default=4000.0, help="the worker's memory in MB (its build thresholds)")
    ap.add_argument("--wordlist", default="enable2k")
    ap.add_argument("--rule", default="standard")
    ns = ap.parse_args()

    from boggle_opt.boards import size_geometry
    from boggle_opt.core.errors import BoggleOptError
    from boggle_opt.plugins.bnb import BranchAndBound
    from boggle_opt.proofs.board_classes import letter_mask
    from boggle_opt.proofs.class_tasks import ClassContext, ClassTask, TrieTiles, parse_class_name
    from boggle_opt.registry.dictionaries import load_dictionary

    try:
        geometry = size_geometry(ns.size)
        d = load_dictionary(ns.wordlist, ns.rule)
    except (BoggleOptError, OSError) as err:  # a bad size, an unknown list or rule, a missing file
        sys.exit(f"tree_shape: {err}")
    bnb = BranchAndBound(BranchAndBound.Options(min_score=ns.min_score, worker_memory=ns.memory))
    _, buckets = bnb.buckets(geometry, d.alphabet)
    switch_pct, switch_score = bnb.switch_settings(geometry)
    context = ClassContext(d.keys, d.points, geometry.cols, geometry.rows, buckets, ns.min_score, switch_pct, switch_score,
                           0, 0.0, TrieTiles.of(d.trie), ns.memory)
    cls = parse_class_name(ns.name)
    if len(cls) != geometry.n:
        sys.exit(f"tree_shape: class {ns.name!r} is not of size {ns.size}")
    masks = [letter_mask(s, context.symbols) for s in ClassTask(cls).letters(context.buckets, context.symbols)]
    t0 = time.process_time()
    tree = context.solver.build(masks)
    print(f"# {ns.name}: {tree.n_nodes:,} nodes (each use of a shared leaf counted), {tree.top:,} arena words, "
          f"built in {time.process_time() - t0:.1f} s CPU", flush=True)
    a = np.array(array.array("i", tree.a[: tree.top]), dtype=np.int64)
    root = int(tree.root)
    del tree, context

    # post-order over the distinct sum nodes (leaves are shared)
    seen = np.zeros(len(a), dtype=np.bool_)
    order: list[int] = []
    stack: list[tuple[int, bool]] = [(root, False)]
    while stack:
        s, done = stack.pop()
        if done:
            order.append(s)
            continue
        if seen[s]:
            continue
        seen[s] = True
        stack.append((s, True))
        for j in range(int(a[s]) & LOW):
            c = int(a[s + 2 + j])
            for y in range(bin(int(a[c]) >> 5).count("1")):
                child = int(a[c + 2 + 2 * y])
                if not seen[child]:
                    stack.append((child, False))

    steps: dict[int, int] = {}  # a chain's sum node: its steps to the leaf (-1: not a chain)
    kinds: Counter[str] = Counter()
    heads: Counter[int] = Counter()  # chains hanging off the rest of the tree, by steps
    for s in order:
        k = int(a[s]) & LOW
        kinds["sum nodes"] += 1
        kinds["sum words"] += 2 + k
        if k == 0:
            kinds["leaves"] += 1
            steps[s] = 0
            continue
        chain = -1
        for j in range(k):
            c = int(a[s + 2 + j])
            letters = bin(int(a[c]) >> 5).count("1")
            kinds["choice nodes"] += 1
            kinds["choice words"] += 2 + 2 * letters
            kinds["one-letter choice nodes"] += letters == 1
            if k == 1 and letters == 1 and steps[int(a[c + 2])] >= 0:
                chain = steps[int(a[c + 2])] + 1
        steps[s] = chain
        if chain > 0:
            kinds["chain words"] += SUM_STEP + CHOICE_STEP
        else:
            # its chain children are whole chains: heads
            for j in range(k):
                c = int(a[s + 2 + j])
                for y in range(bin(int(a[c]) >> 5).count("1")):
                    n = steps[int(a[c + 2 + 2 * y])]
                    if n > 0:
                        heads[n] += 1
    words = kinds["sum words"] + kinds["choice words"]
    inner = kinds["sum nodes"] - kinds["leaves"]
    chained = sum(n * count for n, count in heads.items())
    print(f"sum nodes {kinds['sum nodes']:,} ({kinds['leaves']:,} distinct leaves), "
          f"choice nodes {kinds['choice nodes']:,} ({kinds['one-letter choice nodes']:,} of one letter)")
    print(f"chain steps {chained:,}: {chained / max(1, inner):.1%} of the sum nodes that are not leaves; "
          f"their words {kinds['chain words']:,} of {words:,}: {kinds['chain words'] / max(1, words):.1%} of the tree")
    print(f"chains hanging off the rest: {sum(heads.values()):,}; by steps: "
          + ", ".join(f"{n}: {heads[n]:,}" for n in sorted(heads)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
