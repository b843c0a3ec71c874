"""Classes split into sub-classes give the same boards as whole classes; a run
resumed in the middle of split classes finishes exactly the pieces left."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

import pytest
from helpers import run_bnb, small  # noqa: F401  (small: a fixture)

from boggle_opt.proofs.board_classes import BUCKETS_3, cell_buckets, parse_buckets
from boggle_opt.proofs.class_tasks import ClassContext, ClassTask, Ledger
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.tree import cell_order
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.searching.interface import Problem

#: 2x2 at 14 (45 boards); trees above 200 nodes are split, some of them twice
MIN_SCORE = 14
BUDGET = 200


def solved(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(r["class"], r.get("part", "")) for r in records if "class" in r]


def assert_whole(records: list[dict[str, Any]], whole_records: list[dict[str, Any]]) -> None:
    """No piece recorded twice, and the ledger finishes the whole run's classes."""
    assert len(solved(records)) == len(set(solved(records)))
    ledger = Ledger()
    for r in records:
        ledger.add(r)
    finished, partial = ledger.state()
    assert not partial and finished == {name for name, _ in solved(whole_records)}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_forced_split_gives_the_same_boards(dictionary: Callable[[str, str], Dictionary], jobs: int) -> None:
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 2)
    whole, whole_records, _ = run_bnb(Problem(d, geometry), min_score=MIN_SCORE)
    split, records, progress = run_bnb(Problem(d, geometry, jobs=jobs), min_score=MIN_SCORE, node_budget=BUDGET)
    assert split == whole and len(whole) == 45
    splits = [r for r in records if "split" in r]
    assert len(splits) >= 10 and any(r["part"] for r in splits)  # pieces split again too
    assert all(re.fullmatch(rf"tree of [\d,]+ nodes > node budget {BUDGET}", r["reason"]) for r in splits)
    assert_whole(records, whole_records)
    assert progress[-1].stats["classes"] == "21/21"
    assert progress[-1].stats["tasks split"] == len(splits)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_time_budget_split_keeps_the_letters_done(
    dictionary: Callable[[str, str], Dictionary], jobs: int
) -> None:
    """A budget no task can meet: each stops after one letter of its split
    cell (if it gets there), keeps it as a finished piece and queues the
    rest, down to single boards; the boards and the ledger are those of the
    whole run."""
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 2)
    whole, whole_records, _ = run_bnb(Problem(d, geometry), min_score=MIN_SCORE)
    # switch score 1: forced down to single boards, never the orderly bound,
    # so every task that is not pruned reaches its split cell
    split, records, progress = run_bnb(Problem(d, geometry, jobs=jobs), min_score=MIN_SCORE,
                                       switch_score=1, time_budget=1e-9)
    assert split == whole and len(whole) == 45
    splits = [r for r in records if "split" in r]
    assert len(splits) >= 20 and any(r["part"] for r in splits)
    assert all(r["reason"] == "ran past the time budget of 1e-09 s" for r in splits)
    assert_whole(records, whole_records)
    # the piece a split task finished itself is recorded right after its split
    for i, r in enumerate(records[:-1]):
        if "split" in r:
            after = records[i + 1]
            assert after["class"] == r["split"] and after["part"] in r["into"]
    assert progress[-1].stats["classes"] == "21/21"


def test_resume_inside_split_classes(dictionary: Callable[[str, str], Dictionary]) -> None:
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 2)
    full, records, _ = run_bnb(Problem(d, geometry), min_score=MIN_SCORE, node_budget=BUDGET)
    # cut where some classes are split and only some of their pieces are done
    cut = len(records) // 2
    earlier = tuple(records[:cut])
    ledger = Ledger()
    for r in earlier:
        ledger.add(r)
    _, partial = ledger.state()
    assert partial, "the cut should fall inside a split class"
    resumed, later, progress = run_bnb(Problem(d, geometry, resumed=earlier), min_score=MIN_SCORE,
                                       node_budget=BUDGET)
    assert resumed == full
    assert not set(solved(later)) & set(solved(list(earlier)))  # no piece solved twice
    for r in later:
        ledger.add(r)
    finished, partial = ledger.state()
    assert not partial and len(finished) == 21
    assert progress[-1].stats["classes"] == "21/21"


def test_splitting_a_class_covers_it_once() -> None:
    """The pieces of a split are disjoint and together the class: each fixes the
    first cell, in the kernel's order, that still has several letters."""
    geometry = Geometry(2, 2)
    buckets = cell_buckets(geometry, parse_buckets(BUCKETS_3))
    order = cell_order(geometry)
    task = ClassTask((0, 1, 2, 0))
    pieces = task.split(buckets, order)
    top = order[0]
    assert [p.letters(buckets)[top] for p in pieces] == list(task.letters(buckets)[top])
    assert all(p.letters(buckets)[c] == task.letters(buckets)[c] for p in pieces for c in range(4) if c != top)
    deeper = pieces[0].split(buckets, order)
    assert all(len(p.letters(buckets)[order[1]]) == 1 and p.part[0] == pieces[0].part[0] for p in deeper)
    single = ClassTask((0, 0, 0, 0), tuple((c, 0) for c in range(4)))
    assert single.split(buckets, order) == []


def test_a_time_budget_split_on_4x4_names_the_class_orders_cell(small: tuple[dict[bytes, int], Dictionary]) -> None:
    """On 4x4 each class has its own cell order, so the cell whose letters a
    task ran out of time on is the result's ``split_cell``, not the fixed
    order's first cell with several letters; its letters done plus the
    pieces left, solved, are exactly the task's boards."""
    _, d = small
    geometry = Geometry(4, 4)
    buckets = cell_buckets(geometry, parse_buckets(BUCKETS_3))
    board = "tesalrinetsaline"
    open_cells = {5: 1, 6: 0, 1: 2}  # 12, 6 and 8 letters: the fixed order has 5 first, the class's 6
    cls = tuple(open_cells.get(c, 2) for c in range(16))
    task = ClassTask(cls, tuple((c, ord(board[c]) - 97) for c in range(16) if c not in open_cells))
    sets = task.letters(buckets)
    scorer = d.scorer(geometry)
    scored = {b: scorer.score(b) for b in map("".join, itertools.product(*sets))}
    min_score = sorted(scored.values(), reverse=True)[9]
    expected = {(b, v) for b, v in scored.items() if v >= min_score}
    # switch score 1: forced to single boards, so the solve reaches its split cell
    args = (d.keys, d.points, 4, 4, buckets, min_score, 100, 1)
    result = ClassContext(*args, time_budget=1e-9).run(task)
    fixed_first = next(c for c in cell_order(geometry) if len(sets[c]) > 1)
    assert result.unfinished and result.split_cell == 6 != fixed_first
    whole = ClassContext(*args)
    assert set(whole.run(task).boards) == expected
    found = set(result.boards)
    for piece in task.split_on(buckets, result.split_cell):
        letter = chr(97 + piece.part[-1][1])
        if letter in result.unfinished:
            found |= set(whole.run(piece).boards)
        else:  # done by the task: its boards have this letter there
            assert {(b, v) for b, v in expected if b[6] == letter} <= found
    assert found == expected
