"""A big pass's sorted keys are given back to the system as the tree takes
them in (TreeBuilder.release_every): the tree written is word for word the
one written with every key kept. A worker with memory to spare keeps a
forced build's key buffers for the next (TreeBuilder.keep_forced): the
solve is the same."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from boggle_opt.core.branch import ClassSolver
from boggle_opt.core.builder import KEEP_KEYS
from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.board_classes import letter_mask, parse_class

# class 7 of benchmarks/anchors/bnb-3x4-sample.tsv: about 3 million paths,
# built in one pass whose keys outgrow the buffer kept between classes
BIG_3X4 = ("bcdfghjklmnpqrtvwxz hklnrsty hklnrsty aeiosuy hklnrsty aeijou aeijou aeijou "
           "aeiosuy hklnrsty hklnrsty aeiosuy")


def test_keys_given_back_leave_the_tree_as_it_was(dictionary: Callable[[str, str], Dictionary]) -> None:
    d = dictionary("enable2k", "standard")
    geometry = Geometry(3, 4)
    masks = [letter_mask(s) for s in parse_class(BIG_3X4, geometry)]
    trees = []
    for every in (0, 1 << 18):  # never, then 2 MB of keys (a huge page) at a time
        solver = ClassSolver(d.trie, geometry)
        solver.builder.release_every = every
        tree = solver.build(masks)
        assert solver.builder.passes == 1
        if every:
            assert solver.builder.keys_released > 1_000_000, "no keys were given back"
        else:
            assert solver.builder.keys_released == 0
        trees.append((tree.root, tree.n_nodes, np.frombuffer(tree.a, dtype=np.int32)[: tree.top].copy()))
    (root0, nodes0, words0), (root1, nodes1, words1) = trees
    assert (root1, nodes1) == (root0, nodes0)
    assert np.array_equal(words0, words1)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmSize from /proc (Linux)")
def test_keys_grow_without_their_room_where_address_space_is_short() -> None:
    # The room (hundreds of MB of address space, none of it resident) is
    # only asked for: under a ulimit -v that leaves no room for it, the keys
    # grow as they did before, and the tree is the same.
    script = textwrap.dedent(
        """
        import resource, sys
        from boggle_opt.core.branch import ClassSolver
        from boggle_opt.core.geometry import Geometry
        from boggle_opt.core.trie import PackedTrie
        from boggle_opt.proofs.board_classes import letter_mask
        keys = [b"ate", b"east", b"eat", b"sat", b"seat", b"set", b"tea", b"tease", b"tee"]
        masks = [letter_mask("aest")] * 9
        def bound():
            s = ClassSolver(PackedTrie(keys, [1] * len(keys)), Geometry(3, 3))
            t = s.build(masks)
            return t.bound(t.root), t.n_nodes, s.builder.key_room
        free = bound()
        used = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (used + (96 << 20), resource.RLIM_INFINITY))
        short = bound()
        assert free[2] > 0 and short[2] == 0, (free, short)
        assert short[:2] == free[:2], (free, short)
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.slow  # 5 s: two solves of a big 3x4 class
def test_forced_builds_that_keep_their_keys_solve_the_same(dictionary: Callable[[str, str], Dictionary]) -> None:
    # the same big 3x4 class, its trees rebuilt de-duplicated wherever they
    # bound 4000 or more (7 rebuilds, the last of 1.26 million keys)
    d = dictionary("enable2k", "standard")
    geometry = Geometry(3, 4)
    masks = [letter_mask(s) for s in parse_class(BIG_3X4, geometry)]
    solves = []
    for keep in (KEEP_KEYS, 1 << 40):
        solver = ClassSolver(d.trie, geometry)
        solver.dedup_score = 4000
        solver.dedup_level = 0
        solver.builder.keep_forced = keep
        candidates = solver.solve(masks, 1500)
        kept = len(solver.builder.keys)
        assert (kept > KEEP_KEYS) == (keep > KEEP_KEYS), "the last forced build's keys were not kept"
        solves.append((sorted(candidates), solver.dedups, solver.n_nodes, list(solver.level_bound),
                       list(solver.level_words), solver.bounds))
    assert solves[0][1] > 0
    assert solves[1] == solves[0]
