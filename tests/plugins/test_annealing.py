"""Simulated annealing: schedules, presets, option checks and move behaviour."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from boggle_opt.boards import make_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.searching.driver import Budget, Driver
from boggle_opt.searching.options import OptionError, make_options
from boggle_opt.searching.interface import Event, Improved, Problem, Progress
from boggle_opt.plugins._plant import Planter, walk
from boggle_opt.plugins._pool import Pool
from boggle_opt.plugins.annealing import PRESETS, AnnealingSearch, _Run, temperatures

Options = AnnealingSearch.Options


@pytest.fixture(scope="module")
def default_dictionary() -> Dictionary:
    return load_dictionary("default", "standard")


def events(dictionary: Dictionary, pairs: Sequence[tuple[str, str]], evals: int = 30_000,
           seed: int = 1, size: tuple[int, int] = (3, 3)) -> tuple[list[Event], Problem]:
    problem = Problem(dictionary, make_geometry(*size))
    options = make_options("annealing", Options, pairs)
    out: list[Event] = []
    gen = AnnealingSearch(options).search(problem, np.random.default_rng(seed))
    for ev in gen:
        out.append(ev)
        if problem.evaluations >= evals:
            break
    return out, problem


def test_linear_schedule_is_the_issue_formula() -> None:
    plan = Options(preset="baseline", tmax=70, iterations=1000).plan()
    t = temperatures(plan, plan.tmax, 0, 1000)
    i = np.arange(1000)
    assert np.allclose(t, 70 * (1 - i / 1000))
    # blocks continue where the previous one stopped
    assert np.allclose(temperatures(plan, plan.tmax, 500, 10), t[500:510])


def test_geometric_schedule_runs_from_tmax_to_tmin() -> None:
    plan = Options(preset="improved", tmax=50, tmin=0.5, iterations=100).plan()
    t = temperatures(plan, plan.tmax, 0, 101)
    assert t[0] == pytest.approx(50)
    assert t[100] == pytest.approx(0.5)
    assert np.all(np.diff(t) < 0)
    assert t[50] == pytest.approx(5.0)  # halfway in log space


def test_presets_and_overrides() -> None:
    base = Options(preset="baseline").plan()
    assert (base.schedule, base.tmax, base.polish, base.reheat, base.cache) == (
        "linear", 70.0, False, 0.0, 0)
    assert Options().plan() == PRESETS["improved"]
    mixed = Options(preset="baseline", schedule="geometric", letter_moves=0).plan()
    assert mixed.schedule == "geometric" and mixed.moves == (0, 0.1, 0.1, 0)
    assert mixed.iterations == PRESETS["baseline"].iterations


def test_big_boards_anneal_afresh_unless_told() -> None:
    """From 5x5 up every anneal starts from a random board; 4x4 keeps its
    reheats, and a reheat share that was set is kept on any size."""
    assert Options().plan(16).reheat == PRESETS["improved"].reheat > 0
    assert Options().plan(25).reheat == 0
    assert Options().plan(36) == replace(PRESETS["improved"], reheat=0.0)
    assert Options(reheat=0.3).plan(25).reheat == 0.3


@pytest.mark.parametrize("name, value", [
    ("preset", "fast"), ("schedule", "cosine"), ("tmax", "0"), ("tmax", "inf"),
    ("tmin", "-1"), ("iterations", "0"), ("restarts", "-1"), ("letter-moves", "-0.5"),
    ("random-swaps", "nan"), ("reheat", "1.5"), ("reheat-tmax", "0"), ("cache", "-1"),
    ("reheat-tlow", "0"), ("pool", "0"), ("pool-radius", "1.5"), ("replant", "1.5"),
])
def test_bad_options_name_the_option(name: str, value: str) -> None:
    with pytest.raises(OptionError, match=name):
        make_options("annealing", Options, [(name, value)])


def test_move_mix_must_not_be_all_zero() -> None:
    pairs = [("letter-moves", "0"), ("adjacent-swaps", "0"), ("random-swaps", "0"),
             ("plant-words", "0")]
    with pytest.raises(OptionError, match="letter-moves"):
        make_options("annealing", Options, pairs)


def test_tmin_must_be_below_tmax() -> None:
    with pytest.raises(OptionError, match="tmin"):
        make_options("annealing", Options, [("tmax", "5"), ("tmin", "5")])


@pytest.mark.parametrize("kind", ["adjacent-swaps", "random-swaps"])
def test_swaps_alone_keep_the_letters(default_dictionary: Dictionary, kind: str) -> None:
    pairs = [("letter-moves", "0"), ("adjacent-swaps", "0"), ("random-swaps", "0"),
             ("plant-words", "0"), (kind, "1"), ("polish", "false"), ("reheat", "0"), ("restarts", "1"),
             ("iterations", "5000")]
    evs, _ = events(default_dictionary, pairs)
    boards = [e.board for e in evs if isinstance(e, Improved)]
    assert len(boards) > 1
    assert {"".join(sorted(b)) for b in boards} == {"".join(sorted(boards[0]))}


def test_planting_writes_a_dictionary_word_along_a_path(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(4, 4))
    planter = Planter(default_dictionary.keys, problem.geometry, 8, np.random.default_rng(2))
    assert planter.words and min(map(len, planter.words)) == 8
    for _ in range(50):
        path = planter.path(12)
        assert path is not None and len(set(path)) == 12
        assert all(d in problem.geometry.neighbours(c) for c, d in zip(path, path[1:]))
        b = bytearray(b"a" * 16)
        assert planter.plant(b)
        # the planted word (8+ cells; a q cell is "qu") is on the board now
        assert any(len(w.path) >= 8 for w in problem.words(b.decode("ascii")))


def test_a_cold_anneal_never_accepts_a_worse_board(default_dictionary: Dictionary) -> None:
    pairs = [("preset", "baseline"), ("tmax", "1e-9"), ("restarts", "1"), ("iterations", "6000")]
    evs, _ = events(default_dictionary, pairs)
    current = [int(e.stats["score"]) for e in evs if isinstance(e, Progress)]
    assert len(current) == 3 and current == sorted(current)


def test_a_hot_anneal_accepts_worse_boards(default_dictionary: Dictionary) -> None:
    pairs = [("preset", "baseline"), ("tmax", "1000"), ("restarts", "1"), ("iterations", "20000")]
    evs, _ = events(default_dictionary, pairs, evals=10**6)
    current = [int(e.stats["score"]) for e in evs if isinstance(e, Progress)]
    assert current != sorted(current)


def test_cache_changes_evaluations_not_the_path(default_dictionary: Dictionary) -> None:
    common = [("restarts", "2"), ("iterations", "20000"), ("polish", "false")]
    plain, p1 = events(default_dictionary, [*common, ("cache", "0")], evals=10**6)
    cached, p2 = events(default_dictionary, [*common, ("cache", "1000")], evals=10**6)
    assert [e for e in plain if isinstance(e, Improved)] == [
        e for e in cached if isinstance(e, Improved)]
    assert p2.evaluations < p1.evaluations


def test_restarts_end_the_search_and_polish_reaches_a_local_optimum(
    default_dictionary: Dictionary,
) -> None:
    evs, problem = events(default_dictionary, [("restarts", "2"), ("iterations", "3000")],
                          evals=10**7)
    improved = [e for e in evs if isinstance(e, Improved)]
    best = improved[-1]
    # no single letter change improves the best board after polishing
    assert max(problem.neighbourhood(best.board)) <= best.score
    assert isinstance(evs[-1], Progress)  # the generator ended on its own


def test_driver_budget_and_determinism(default_dictionary: Dictionary) -> None:
    def run() -> tuple[int, str]:
        problem = Problem(default_dictionary, make_geometry(4, 4))
        state = Driver(AnnealingSearch(Options(preset="baseline")), problem,
                       Budget(evaluations=5_000), seed=5).run()
        return state.best_score, state.best_board
    assert run() == run()


def test_the_pool_keeps_the_best_board_of_each_basin() -> None:
    pool = Pool(3, 2, make_geometry(3, 3).symmetries)
    assert pool.add("abcdefghi", 100)
    assert pool.distance("abcdefghi", "ghidefabc") == 0  # a mirror image
    assert not pool.add("ghidefabc", 100)  # the same board, mirrored
    assert not pool.add("xbcdefghy", 90)  # 2 cells away and worse: the same basin
    assert pool.add("xbcdefghy", 110)  # better: it takes the basin's place
    assert pool.boards == [("xbcdefghy", 110)]
    assert pool.add("zzzzefghi", 50)  # 4 cells from each: another basin
    assert pool.add("yyyyyyyyy", 60)
    assert not pool.add("qqqqqqqqq", 40)  # a fourth basin below the three kept
    assert pool.add("ppppppppp", 70)  # above the worst, which goes
    assert pool.boards == [("xbcdefghy", 110), ("ppppppppp", 70), ("yyyyyyyyy", 60)]
    # a board near two kept ones replaces both
    two = Pool(3, 1, make_geometry(1, 3).symmetries)
    two.add("aab", 5), two.add("acc", 4)
    assert two.boards == [("aab", 5), ("acc", 4)]
    assert two.add("acb", 9) and two.boards == [("acb", 9)]


def test_reheats_start_between_reheat_tlow_and_reheat_tmax(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(3, 3))
    run = _Run(problem, np.random.default_rng(0), Options(reheat_tmax=12, reheat_tlow=3).plan(), 0)
    starts = [run.reheat_start() for _ in range(2000)]
    assert 3 <= min(starts) < 3.2 and 11.8 < max(starts) <= 12
    # log-uniform: the geometric middle, 6, splits them in half
    assert 900 < sum(s < 6 for s in starts) < 1100
    fixed = _Run(problem, np.random.default_rng(0), Options(reheat_tmax=12, reheat_tlow=20).plan(), 0)
    assert fixed.reheat_start() == 12  # a range that is empty: always reheat-tmax
    # the improved preset's range is empty: every reheat starts at 3
    assert _Run(problem, np.random.default_rng(0), Options().plan(), 0).reheat_start() == 3
    hot = _Run(problem, np.random.default_rng(0), Options(tmax=5, reheat_tmax=12).plan(), 0)
    assert 3 <= hot.reheat_start() <= 5  # never above tmax


def test_reheats_start_from_the_pool_of_distinct_boards(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(3, 3))
    options = make_options("annealing", Options, [("iterations", "3000"), ("reheat", "0.5"),
                                                  ("pool", "3"), ("pool-radius", "0.3")])
    searcher = AnnealingSearch(options)
    gen = searcher.search(problem, np.random.default_rng(3))
    run = gen.gi_frame.f_locals["self"]  # type: ignore[attr-defined]
    reheated: list[str] = []
    pick = run.reheat_board

    def recorded() -> str:
        board: str = pick()
        reheated.append(board)
        return board
    run.reheat_board = recorded
    for _ in gen:
        if run.anneals >= 40:
            break
    boards = run.pool.boards
    assert len(boards) == 3 and boards[0] == (run.best, run.best_score)
    assert all(run.pool.distance(a, b) > 3 for i, (a, _) in enumerate(boards)
               for b, _ in boards[i + 1:])
    # reheats went to other boards of the pool, not to the best one only
    assert len(set(reheated)) > 1 and set(reheated) - {run.best}
    # a checkpoint holds the pool, and a resumed run starts with it (rescored)
    state = run.record()
    assert state["state"]["pool"] == [b for b, _ in boards]
    resumed = Problem(default_dictionary, make_geometry(3, 3), resumed=(state,))
    again = AnnealingSearch(options).search(resumed, np.random.default_rng(4))
    next(again)
    assert again.gi_frame.f_locals["self"].pool.boards == boards  # type: ignore[attr-defined]


def test_one_board_pool_reheats_from_the_best(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(3, 3))
    run = _Run(problem, np.random.default_rng(0), Options(pool=1).plan(), 0)
    run.best, run.best_score = "abcdefghi", 10
    for board, score in [("abcdefghi", 10), ("zzzzzzzzz", 5)]:
        run.pool.add(board, score)
    assert {run.reheat_board() for _ in range(20)} == {"abcdefghi"}


def test_replanting_moves_a_planted_word_to_another_path(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(4, 4))
    planter = Planter(default_dictionary.keys, problem.geometry, 8, np.random.default_rng(5))
    b = bytearray(b"a" * 16)
    assert planter.plant(b)
    first = planter.last
    word = bytes(b[c] for c in first)
    moved = 0
    for _ in range(20):
        before = bytes(b)
        if not planter.replant(b, planter.last):
            continue
        path = planter.last
        assert bytes(b[c] for c in path) == word  # the same word, along ...
        moved += path != first  # ... another path
        # cells off the new path keep what they showed
        assert all(b[c] == before[c] for c in range(16) if c not in path)
        text = b.decode("ascii")
        assert word.decode() in {"".join(text[c] for c in w.path) for w in problem.words(text)}
    assert moved
    # cells that no longer spell a word the planter writes: nothing happens
    b[first[0]] = ord("z") if b[first[0]] != ord("z") else ord("y")
    before = bytes(b)
    if bytes(b[c] for c in first) not in planter.known:
        assert not planter.replant(b, first) and bytes(b) == before


def test_the_longest_plantable_word_starts_the_replanting(default_dictionary: Dictionary) -> None:
    problem = Problem(default_dictionary, make_geometry(4, 4))
    run = _Run(problem, np.random.default_rng(0), Options(plant_length=5).plan(), 0)
    assert run.longest_word("abcdefghijklmnop") == []  # no planter: nothing to replant
    run.planter = Planter(default_dictionary.keys, problem.geometry, 5, np.random.default_rng(0))
    board = "perslatgsineters"
    cells = run.longest_word(board)
    longest = max(len(w.path) for w in problem.words(board))
    assert len(cells) == longest >= 5
    assert "".join(board[c] for c in cells).encode() in run.planter.known


def test_walk_finds_paths_through_every_cell() -> None:
    geometry = make_geometry(4, 4)
    nbrs = [geometry.neighbours(c) for c in range(16)]
    rnd = random.Random(7)
    found = 0
    for _ in range(300):
        path = walk(rnd, nbrs, rnd.randrange(16), bytes(16), {}, 2000)
        if path is not None:
            found += 1
            assert sorted(path) == list(range(16))
            assert all(d in nbrs[c] for c, d in zip(path, path[1:]))
    # cutting off no cell it must visit, the search finds most (the plain
    # random search of boards.random_path: about half)
    assert found > 0.7 * 300
    # fixed cells must show the word's letter; a word of fewer cells may leave
    # cells out
    word = b"abcdefghijklmn"
    for _ in range(50):
        path = walk(rnd, nbrs, 0, word, {5: ord("c"), 0: ord("a")}, 2000)
        if path is not None:
            assert len(set(path)) == 14 and path[0] == 0 and (5 not in path or path[2] == 5)
    assert walk(rnd, nbrs, 0, word, {0: ord("z")}, 2000) is None


def test_a_kick_swaps_and_changes_a_few_cells_never_a_fixed_one(default_dictionary: Dictionary) -> None:
    from boggle_opt.constraints.fixed import Constraints

    geometry = make_geometry(4, 4)
    board = "abcdefghijklmnop"
    free = Problem(default_dictionary, geometry)
    run = _Run(free, np.random.default_rng(3), Options().plan(), 0)
    changed = [sum(a != b for a, b in zip(board, k)) for k in (run.kick(board) for _ in range(500)) if k]
    # 1-3 swaps and 0-2 letters: at most 8 cells, and a kick always moves something
    assert min(changed) >= 1 and max(changed) <= 8 and len(changed) >= 490
    pinned = Problem(default_dictionary, geometry, constraints=Constraints.build(geometry, fix="ab" + "." * 14))
    run = _Run(pinned, np.random.default_rng(3), Options().plan(), 0)
    kicks = [run.kick(board) for _ in range(300)]
    assert all(k is None or k[:2] == "ab" for k in kicks) and sum(k is not None for k in kicks) > 250
    # a board of one movable cell cannot be kicked
    one = Problem(default_dictionary, make_geometry(1, 2),
                  constraints=Constraints.build(make_geometry(1, 2), fix="a."))
    assert _Run(one, np.random.default_rng(0), Options().plan(), 0).kick("ab") is None


def test_kicks_climb_past_a_local_optimum_that_polish_cannot_leave(default_dictionary: Dictionary) -> None:
    """One short anneal on 4x4: polished, it ends at a local optimum of letter
    changes and swaps; kicks from there (polished again) reach a better board."""
    def best(kicks: int) -> int:
        problem = Problem(default_dictionary, make_geometry(4, 4))
        run = _Run(problem, np.random.default_rng(5), Options(kicks=kicks, iterations=2_000).plan(), 1)
        for _ in run.events():
            pass
        return run.best_score
    # ten kicks (5 already climb higher with this seed; 40 took 3 s of CPU)
    assert best(10) > best(0)


def test_quench_polishes_copies_of_the_moving_board_and_the_anneal_goes_on(
        default_dictionary: Dictionary) -> None:
    """With ``quench``, an anneal polishes copies of its current board once it
    scores that share of the best and has moved since the last quench; the
    anneal itself is untouched (the same proposals, so a checkpoint taken
    in a quench still records the anneal), and the climbs reach the pool."""
    def run(quench: float) -> tuple[_Run, list[tuple[str, str | None]]]:
        problem = Problem(default_dictionary, make_geometry(4, 4))
        # temperatures per 1000 points of the current board: a first anneal is warm too
        plan = Options(quench=quench, iterations=40_000, reheat=0.0, scale="current").plan()
        r = _Run(problem, np.random.default_rng(7), plan, 1)
        seen: list[tuple[str, str | None]] = []
        polish = r.polish

        def spy(text: str, *, quench: bool = False):  # type: ignore[no-untyped-def]
            seen.append((text, r.phase if quench else None))
            return (yield from polish(text, quench=quench))
        r.polish = spy  # type: ignore[method-assign]
        for _ in r.events():
            pass
        return r, seen

    off, plain = run(0.0)
    on, seen = run(0.3)
    assert [phase for _, phase in plain] == [None]  # one polish after the anneal, no quench
    assert all(phase in (None, "anneal") for _, phase in seen)
    quenches = [text for text, phase in seen if phase == "anneal"]
    assert len(quenches) >= 3
    assert all(sum(a != b for a, b in zip(x, y)) >= 3 for x, y in zip(quenches, quenches[1:]))
    # one anneal: the same proposals with and without quenches
    assert on.best_score >= off.best_score and on.anneals == off.anneals == 1
    with pytest.raises(OptionError, match="quench"):
        make_options("annealing", Options, [("quench", "1.5")])
