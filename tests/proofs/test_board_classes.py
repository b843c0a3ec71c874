"""Board classes: the lazy enumeration yields one class per symmetry orbit,
exactly Burnside's count of them, in a fixed order; it matches the plain
exhaustive enumeration it replaced."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Sequence

import pytest

from boggle_opt.proofs.board_classes import (
    BUCKETS_1,
    BUCKETS_2,
    BUCKETS_3,
    BucketError,
    ClassSpace,
    cell_buckets,
    class_name,
    corner_cells,
    count_classes,
    default_buckets,
    enumerate_classes,
    iterate_classes,
    parse_buckets,
)
from boggle_opt.core.geometry import Geometry

Cls = tuple[int, ...]


def counts_with_corners(geometry: Geometry, main: int, corner: int) -> list[int]:
    corners = set(corner_cells(geometry))
    return [corner if c in corners else main for c in range(geometry.n)]


def orbits(geometry: Geometry, counts: Sequence[int]) -> set[frozenset[Cls]]:
    """Every orbit of bucket assignments under the symmetries, by brute force."""
    out: set[frozenset[Cls]] = set()
    for cls in itertools.product(*[range(k) for k in counts]):
        out.add(frozenset(tuple(cls[i] for i in p) for p in geometry.symmetries))
    return out


def old_enumeration(geometry: Geometry, counts: Sequence[int]) -> list[Cls]:
    """The enumeration this module had before: every assignment, kept if it
    is lexicographically the smallest of its images."""
    perms = geometry.symmetries[1:]
    return [
        cls for cls in itertools.product(*[range(k) for k in counts])
        if all(cls <= tuple(cls[i] for i in p) for p in perms)
    ]


@pytest.mark.parametrize(("main", "corner"), [(2, 2), (2, 1), (1, 2)])
def test_4x4_each_orbit_once(main: int, corner: int) -> None:
    g = Geometry(4, 4)
    counts = counts_with_corners(g, main, corner)
    classes = list(iterate_classes(g, counts))
    expected = orbits(g, counts)
    assert len(classes) == len(set(classes)) == len(expected) == count_classes(g, counts)
    by_orbit = {frozenset(tuple(c[i] for i in p) for p in g.symmetries): c for c in classes}
    assert set(by_orbit) == expected  # every orbit, each once
    assert all(c == min(orbit) for orbit, c in by_orbit.items())  # its smallest member


def test_4x4_default_buckets_burnside() -> None:
    """3 buckets, 2 in the corners: Burnside's count of D4 acting on the 4x4
    grid (identity; two quarter turns; the half turn and the two mid-line
    reflections; the two diagonal reflections) and the full enumeration."""
    g = Geometry(4, 4)
    k, c = 3, 2
    formula = (k**12 * c**4 + 2 * k**3 * c + 3 * k**6 * c**2 + 2 * k**7 * c**3) // 8
    buckets = cell_buckets(g, parse_buckets(BUCKETS_3), parse_buckets(BUCKETS_2))
    counts = [len(b) for b in buckets]
    assert counts == counts_with_corners(g, k, c)
    assert count_classes(g, counts) == formula == 1_068_363
    t0 = time.process_time()  # CPU: a busy machine's wall clock says nothing
    n = sum(1 for _ in iterate_classes(g, counts))
    seconds = time.process_time() - t0
    assert n == formula
    # about 2 s here; plain Python over the 8.5 million assignments took minutes
    assert seconds < 60


@pytest.mark.parametrize(("size", "total"), [((3, 3), 2_862), ((3, 4), 1_863), ((4, 4), 67_257)])
def test_default_buckets_and_their_counts(size: tuple[int, int], total: int) -> None:
    """3 buckets; from 3x4 up one bucket in the corners (every letter). On
    4x4, Burnside's count with one corner bucket is (3^12 + 2*3^3 + 3*3^6 +
    2*3^7) / 8 (the formula above with c = 1); the research line's 2 corner
    buckets stay one option away."""
    g = Geometry(*size)
    main, corners = default_buckets(g)
    assert main == BUCKETS_3 and corners == ("" if g.n <= 9 else BUCKETS_1)
    buckets = cell_buckets(g, parse_buckets(main), parse_buckets(corners) if corners else None)
    counts = [len(b) for b in buckets]
    assert count_classes(g, counts) == total
    if g.n == 16:
        assert total == (3**12 + 2 * 3**3 + 3 * 3**6 + 2 * 3**7) // 8
        assert [len(b) for b in buckets[0]] == [26] and buckets[0] == [BUCKETS_1]
    else:
        assert sum(1 for _ in iterate_classes(g, counts)) == total


@pytest.mark.parametrize(("cols", "rows"), [(1, 1), (1, 3), (2, 2), (2, 3), (3, 3), (3, 4)])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_same_as_the_old_enumeration(cols: int, rows: int, k: int) -> None:
    g = Geometry(cols, rows)
    counts = counts_with_corners(g, k, 2) if g.n >= 9 and k == 3 else [k] * g.n
    old = old_enumeration(g, counts)
    assert enumerate_classes(g, counts) == old  # lexicographic, as before
    assert sorted(iterate_classes(g, counts)) == old  # the same classes, shuffled
    assert count_classes(g, counts) == len(old)


def test_order_is_fixed_and_shuffled() -> None:
    g = Geometry(4, 4)
    counts = counts_with_corners(g, 3, 2)
    first = [class_name(c) for c in itertools.islice(iterate_classes(g, counts), 20_000)]
    again = [class_name(c) for c in itertools.islice(ClassSpace(g, counts), 20_000)]
    assert first == again
    # resumed runs skip classes by name in this order: it must never change
    assert first[:3] == ["0000000000000000", "0011020122101221", "0001020110221001"]
    assert first != sorted(first)
    # a stretch of the sequence samples the whole: bucket shares of the first
    # 20,000 classes are those of all 1.06 million (to 2 percentage points)
    whole = [0.0] * 3
    for cls in iterate_classes(g, counts, shuffled=False):
        whole[cls[5]] += 1
    part = [sum(name[5] == str(b) for name in first) / len(first) for b in range(3)]
    assert all(abs(p - w / sum(whole)) < 0.02 for p, w in zip(part, whole))


def test_5x5_starts_at_once() -> None:
    """5x5 has 1.7e11 assignments: the first classes come at once, canonical."""
    g = Geometry(5, 5)
    counts = counts_with_corners(g, 3, 2)
    assert count_classes(g, counts) == 20_923_452_549
    t0 = time.process_time()  # CPU: a busy machine's wall clock says nothing
    head = list(itertools.islice(iterate_classes(g, counts), 2000))
    assert time.process_time() - t0 < 10
    assert len(set(head)) == len(head)
    for cls in head:
        assert cls == min(tuple(cls[i] for i in p) for p in g.symmetries)


def test_counts_must_respect_symmetry() -> None:
    g = Geometry(3, 3)
    with pytest.raises(BucketError, match="symmetry"):
        ClassSpace(g, [3] * 8 + [2])  # a corner with its own count, the others not
    with pytest.raises(BucketError, match="9 bucket counts"):
        count_classes(g, [3] * 4)


def test_calibration_fits_how_time_grows_with_cost() -> None:
    # classes whose time grows as cost ** 2.5, done biggest first as bnb hands them out
    from boggle_opt.proofs.board_classes import FIT_AFTER, Calibration

    rng = random.Random(5)
    costs = sorted((rng.uniform(1e5, 4e6) for _ in range(2000)), reverse=True)
    seconds = [3e-15 * c ** 2.5 * rng.uniform(0.8, 1.25) for c in costs]
    cal = Calibration(costs)
    assert cal.time_left(10.0) is None  # nothing done yet
    for c, s in zip(costs[:FIT_AFTER - 1], seconds[:FIT_AFTER - 1]):
        cal.add(c, s)
    assert cal.fit() == 1.0  # too few to fit
    for c, s in zip(costs[FIT_AFTER - 1:400], seconds[FIT_AFTER - 1:400]):
        cal.add(c, s)
    assert 2.2 < cal.fit() < 2.8
    elapsed = sum(seconds[:400])
    left = cal.time_left(elapsed)
    actual = sum(seconds[400:])
    assert left is not None and abs(left - actual) < 0.15 * actual
    # linear in cost, as before, the estimate is far too high
    linear = elapsed * sum(costs[400:]) / sum(costs[:400])
    assert linear > 1.5 * actual


def test_calibration_of_alike_costs_stays_linear() -> None:
    from boggle_opt.proofs.board_classes import Calibration

    cal = Calibration([5.0] * 100)
    for _ in range(50):
        cal.add(5.0, 2.0)
    assert cal.fit() == 1.0
    assert cal.time_left(100.0) == 100.0


def test_calibration_kept_sums_match_the_formula() -> None:
    """time_left keeps its sums between calls: asked after every class, it
    gives what the sums over all classes give, across refits of b."""
    from boggle_opt.proofs.board_classes import Calibration

    rng = random.Random(7)
    costs = sorted((rng.uniform(1e5, 4e6) for _ in range(600)), reverse=True)
    cal = Calibration(costs)
    elapsed = 0.0
    exponents = set()
    for c in costs[:500]:
        s = 3e-15 * c ** 2.5 * rng.uniform(0.8, 1.25)
        cal.add(c, s)
        elapsed += s
        left = cal.time_left(elapsed)
        b = cal.exponent
        exponents.add(b)
        done = sum(x ** b for x in cal.costs)
        expect = elapsed * (sum(x ** b for x in costs) - done) / done
        assert left is not None and abs(left - expect) <= 1e-6 * max(expect, 1.0)
    assert len(exponents) > 3  # refitted along the way


def test_calibration_of_a_resumed_run_fits_from_its_earlier_classes() -> None:
    """A resumed run's earlier classes fit the exponent at once: its time left
    comes after PRIMED_AFTER classes of the new segment, not FIT_AFTER, and
    it scales only the new segment's elapsed time by the new segment's
    classes (the earlier segments' time is not in ``elapsed``)."""
    from boggle_opt.proofs.board_classes import FIT_AFTER, PRIMED_AFTER, Calibration

    rng = random.Random(9)
    costs = sorted((rng.uniform(1e5, 4e6) for _ in range(1000)), reverse=True)
    seconds = [3e-15 * c ** 2.5 * rng.uniform(0.8, 1.25) for c in costs]
    before = 200  # finished by earlier segments
    cal = Calibration(costs[before:])
    cal.prime(costs[:before], seconds[:before])
    assert not cal.fitted and cal.time_left(1.0) is None
    for i in range(before, before + PRIMED_AFTER):
        cal.add(costs[i], seconds[i])
    assert PRIMED_AFTER < FIT_AFTER and cal.fitted
    assert 2.2 < cal.fit() < 2.8  # from the earlier classes
    elapsed = sum(seconds[before:before + PRIMED_AFTER])
    left = cal.time_left(elapsed)
    actual = sum(seconds[before + PRIMED_AFTER:])
    assert left is not None and abs(left - actual) < 0.25 * actual
    # a fresh run with as few classes done is not fitted yet
    fresh = Calibration(costs)
    for i in range(PRIMED_AFTER):
        fresh.add(costs[i], seconds[i])
    assert not fresh.fitted
