"""Each class's own cell order (tree.class_cell_order; ClassSolver.order_by_class,
on by default from 16 cells): a permutation that keeps the fixed order's
tiers, every brute-force board found whatever order a class gets, and the
deadline's letters named on the class's own split cell."""

from __future__ import annotations

import itertools
import types

import pytest

from boggle_opt.core.geometry import Geometry
from boggle_opt.core.tree import cell_order, class_cell_order
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.board_classes import letter_mask

from helpers import SOLVER_CASES, brute_force, kernels, small  # noqa: F401  (small: a fixture)


def tiers(geometry: Geometry, order: list[int]) -> list[int]:
    return [len(geometry.neighbours(c)) for c in order]


@pytest.mark.parametrize("size", [(2, 2), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_class_order_sorts_each_tier_by_letters(size: tuple[int, int]) -> None:
    geometry = Geometry(*size)
    base = cell_order(geometry)
    counts = [1 + (7 * c) % 5 for c in range(geometry.n)]  # 1-5 letters, uneven
    masks = [(1 << k) - 1 for k in counts]
    order = class_cell_order(geometry, masks)
    assert sorted(order) == list(range(geometry.n))
    # the tiers (neighbour counts) stay where cell_order has them
    assert tiers(geometry, order) == tiers(geometry, base)
    for i in range(geometry.n - 1):
        if tiers(geometry, order)[i] == tiers(geometry, order)[i + 1]:
            a, b = order[i], order[i + 1]
            assert counts[a] < counts[b] or (counts[a] == counts[b] and base.index(a) < base.index(b))
    # a class with the same letters everywhere keeps the fixed order
    assert class_cell_order(geometry, [0b111] * geometry.n) == base


def test_the_fixed_order_differs_only_on_4x4_sized_boards(core: types.SimpleNamespace,
                                                         small: tuple[dict[bytes, int], Dictionary]) -> None:
    _, d = small
    _, branch = kernels(core)
    trie = core.trie.PackedTrie(d.keys, d.points)
    assert branch.ClassSolver(trie, core.geometry.Geometry(4, 4)).order_by_class
    assert not branch.ClassSolver(trie, core.geometry.Geometry(3, 4)).order_by_class
    given = list(range(16))
    solver = branch.ClassSolver(trie, core.geometry.Geometry(4, 4), given)
    assert not solver.order_by_class
    solver.solve([letter_mask("ae")] * 8 + [letter_mask("lnrst")] * 8, 10_000)
    assert solver.order == given


@pytest.mark.parametrize(("size", "buckets", "cutoff"), SOLVER_CASES)
def test_class_orders_find_every_board(
    core: types.SimpleNamespace,
    small: tuple[dict[bytes, int], Dictionary],
    size: tuple[int, int],
    buckets: str,
    cutoff: int,
) -> None:
    """Every class of the buckets solved in its own order (several orders
    over the run, one solver): exactly the brute-force boards, each once."""
    if core.kind == "pure" and size != (2, 2):
        pytest.skip("plain Python is slow here; 2x2 covers it")
    _, d = small
    _, branch = kernels(core)
    geometry = Geometry(*size)
    scorer = d.scorer(geometry)
    groups = buckets.split()
    expected = brute_force(scorer, geometry, "".join(groups), cutoff)
    solver = branch.ClassSolver(core.trie.PackedTrie(d.keys, d.points), core.geometry.Geometry(*size))
    solver.order_by_class = True
    orders = set()
    found: dict[str, int] = {}
    for cls in itertools.product(groups, repeat=geometry.n):
        masks = [letter_mask(g) for g in cls]
        for switch in (100, 10_000):  # the orderly bound at once, or forcing first
            boards = solver.solve(masks, cutoff, switch)
            assert solver.order == class_cell_order(geometry, masks)
            orders.add(tuple(solver.order))
            for board in boards:
                score = scorer.score(board)
                if score >= cutoff:
                    assert found.setdefault(board, score) == score
    assert len(orders) > 1
    assert found == expected


def test_deadline_names_the_class_orders_split_cell(
    core: types.SimpleNamespace, small: tuple[dict[bytes, int], Dictionary]
) -> None:
    """The letters left by a deadline are those of the class's own first cell
    with several letters, not the fixed order's: its other letters, solved
    as pieces, give the rest of the class's boards."""
    _, d = small
    _, branch = kernels(core)
    geometry = Geometry(2, 3)
    scorer = d.scorer(geometry)
    trie = core.trie.PackedTrie(d.keys, d.points)
    solver = branch.ClassSolver(trie, core.geometry.Geometry(2, 3))
    solver.order_by_class = True
    # solved a letter of the split cell at a time (tiny passes: each build counts its paths)
    solver.split_words = 1
    solver.builder.key_pass_words = 40
    solver.builder.pass_paths = 10
    sets = ("aei", "lnrst", "st", "ae", "lr", "st")  # middle cells 1 and 4: 5 and 2 letters
    masks = [letter_mask(g) for g in sets]
    fixed_first = next(c for c in cell_order(geometry) if bin(masks[c]).count("1") > 1)
    boards = solver.solve(masks, 10, 100, deadline=1e-9)
    cell = solver.order[solver.split_level]
    assert cell != fixed_first  # the point of the test: the class's order differs
    assert solver.subclasses == 1
    assert solver.unfinished == masks[cell] ^ (masks[cell] & -masks[cell])
    found = set(boards)
    m = solver.unfinished
    while m:
        bit = m & -m
        m ^= bit
        sub = list(masks)
        sub[cell] = bit
        found.update(solver.solve(sub, 10, 100))
    expected = {b for b in map("".join, itertools.product(*sets)) if scorer.score(b) >= 10}
    assert expected and {b for b in found if scorer.score(b) >= 10} == expected
