"""A big pass's sorted keys are given back to the system as the tree takes
them in (TreeBuilder.release_every): the tree written is word for word the
one written with every key kept."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from boggle_opt.core.branch import ClassSolver
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
