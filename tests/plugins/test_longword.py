"""``longword``: its paths against brute force, its boards against trying every
placement by hand on a small board, and the published long-word boards."""

from __future__ import annotations

import itertools
import types
from pathlib import Path

import pytest

from boggle_opt.boards import make_geometry, size_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.plugins.longword import LongWord, letter_bounds
from boggle_opt.runs.run import search


_ALL_PATHS: dict[tuple[int, int, int], list[tuple[int, ...]]] = {}


def all_paths(geometry, length: int) -> list[tuple[int, ...]]:
    """Every directed path of ``length`` distinct adjacent cells, by brute force
    (kept: both builds of the core are checked against the same paths)."""
    key = (geometry.cols, geometry.rows, length)
    if key not in _ALL_PATHS:
        n = geometry.n
        _ALL_PATHS[key] = [
            cells for cells in itertools.permutations(range(n), length)
            if all(b in geometry.neighbours(a) for a, b in zip(cells, cells[1:]))
        ]
    return _ALL_PATHS[key]


def orbit(geometry, path: tuple[int, ...]) -> set[tuple[int, ...]]:
    images = set()
    for perm in geometry.symmetries:
        inv = [0] * geometry.n
        for i, p in enumerate(perm):
            inv[p] = i
        images.add(tuple(inv[c] for c in path))
    return images


@pytest.mark.parametrize("size, lengths", [("2x3", range(1, 7)), ("3x3", (1, 2, 4, 9))])
def test_paths_are_one_per_orbit(core: types.SimpleNamespace, size: str, lengths) -> None:
    cols, rows = map(int, size.split("x"))
    geometry = core.geometry.Geometry(cols, rows)
    for length in lengths:
        flat = core.paths.paths(geometry, length)
        got = [tuple(flat[i:i + length]) for i in range(0, len(flat), length)]
        every = all_paths(make_geometry(cols, rows), length)
        orbits = {min(orbit(geometry, p)) for p in every}
        assert sorted(got) == sorted(orbits), (size, length)
        assert all(p == min(orbit(geometry, p)) for p in got)


def test_4x4_full_path_count() -> None:
    # 343,184 directed paths through all 16 cells, each orbit of 8 distinct
    from boggle_opt.plugins.longword import _paths

    assert len(_paths(4, 4, 16)) // 16 == 343_184 // 8


def test_paths_stop_at_their_limit_and_are_polled(core: types.SimpleNamespace) -> None:
    """5x5 has billions of full paths: the listing stops at ``limit`` + 1
    (a count, not a time), and its ``poll`` is called as it goes, so what
    the poll raises (a time budget, Ctrl-C) stops compiled code that never
    returned (issue 70: a 5x5 longword run under --time 1 ran for 10
    minutes and took 4.5 GB)."""
    five = core.geometry.Geometry(5, 5)
    flat = core.paths.paths(five, 25, 10)
    assert len(flat) == 11 * 25
    assert all(b in five.neighbours(a) for a, b in zip(flat[:25], flat[1:25]))  # whole paths
    polls = [0]

    def poll() -> None:
        polls[0] += 1
        if polls[0] == 3:
            raise KeyboardInterrupt("stop")

    with pytest.raises(KeyboardInterrupt):
        core.paths.paths(five, 25, 0, poll)
    assert polls[0] == 3
    assert len(core.paths.paths(core.geometry.Geometry(3, 3), 9, 0, None)) // 9 > 0  # no limit, no poll


def test_too_many_paths_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """More paths than ``MAX_PATHS`` (4x5's full paths: more than a million)
    is refused in a line that says what to do, not held in memory."""
    from boggle_opt.core.errors import BoggleOptError
    from boggle_opt.plugins import longword

    monkeypatch.setattr(longword, "MAX_PATHS", 100)
    words = tmp_path / "words.txt"
    words.write_text("abcdefghijkl\nstable\n")
    with pytest.raises(BoggleOptError, match=r"^longword: more than 100 paths of 12 cells on a 3x4 board, too "
                                             r"many to place words along; give -o length L \(fewer cells\)$"):
        search("longword", size="3x4", wordlist=str(words), evals=1000, seed=1)
    monkeypatch.undo()
    assert len(longword._paths(3, 4, 12)) // 12 == 2339  # the listing cut short was not kept as whole


def test_a_time_budget_stops_the_listing_of_paths(run_cli, tmp_path: Path) -> None:
    """``--time 1`` on 5x5 ran on for ever: the setup lists every path of
    25 cells in compiled code, which never looked at the budget. The
    listing polls it; stopped at the budget, the run says so. (Listing
    a million 25-cell paths of 5x5 takes far longer than a second on any
    machine: the path reaches few of its last cells.)"""
    words = tmp_path / "words.txt"
    words.write_text("abcdefghijklmnoprstuvwxyz\nstable\n")  # one word of 25 letters
    r = run_cli("run", "--searcher", "longword", "--size", "5x5", "--wordlist", str(words), "--time", "1",
                "--progress", "none")
    assert r.returncode == 0, r.stderr
    assert "# stopped: time budget of 1 s reached" in r.stdout, r.stdout


def test_the_setup_is_said_before_it_starts(run_cli) -> None:
    """Nothing was shown while longword listed its words and paths (12 s of a
    20 s budget with -o length 15 on a busy machine; the letter bounds of
    3x3's 30,372 words on the embedded list longer): its first progress says
    it is setting up, and the budget stops it there as anywhere."""
    import json

    r = run_cli("run", "--searcher", "longword", "--size", "3x3", "--time", "1", "--progress", "jsonl")
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in r.stderr.splitlines()]
    progress = [rec for rec in records if rec["type"] == "progress"]
    assert progress and progress[0]["stats"] == {"setup": "listing the words and paths of 9 cells"}, records
    assert records[-1]["type"] == "finish" and records[-1]["stop_reason"] == "used 1 s", records[-1]


WORDS = ["planet", "plants", "stable", "tables", "bleats", "ablest", "lap", "pal", "tab", "bat",
         "sable", "table", "plan", "plane", "slant", "last", "salt", "tan", "ant", "bet",
         "quiets", "quiet", "suite", "ties", "sit", "its", "equip", "quip"]


def test_full_placements_match_brute_force(tmp_path: Path) -> None:
    """On 2x3 every word of 6 cells along every path, by hand: the same best
    score and the same best boards (up to symmetry) as longword."""
    words_file = tmp_path / "words.txt"
    words_file.write_text("\n".join(WORDS))
    geometry = size_geometry("2x3")
    d = Dictionary("small", WORDS, _standard())
    scorer = d.scorer(geometry)
    sixes = [k for k in d.keys if len(k) == 6]
    bound = dict(zip(sixes, letter_bounds(d.keys, d.points, sixes)))
    best, boards = -1, set()
    for key in (k.decode() for k in sixes):
        for path in all_paths(geometry, 6):
            cells = [""] * 6
            for c, ch in zip(path, key):
                cells[c] = ch
            board = "".join(cells)
            score = scorer.score(board)
            assert score <= bound[key.encode()]
            if score > best:
                best, boards = score, set()
            if score == best:
                boards.add(geometry.canonical(board))
    result = search(LongWord, size="2x3", wordlist=str(words_file), seed=1, dictionary=d)
    assert result.stop_reason == "searcher finished"
    assert result.best_score == best
    assert {b for b, s in result.boards if s == best} == boards


def test_letter_bounds_by_hand() -> None:
    """A word's bound is the points of every key its letters can spell."""
    from collections import Counter

    d = Dictionary("small", WORDS, _standard())
    words = [k for k in d.keys if len(k) >= 5]
    expected = []
    for w in words:
        have = Counter(w)
        expected.append(sum(p for k, p in zip(d.keys, d.points) if not Counter(k) - have))
    assert letter_bounds(d.keys, d.points, words) == expected
    assert letter_bounds(d.keys, d.points, []) == []


def test_words_below_the_running_best_are_skipped_not_scored() -> None:
    """A task given a floor above every bound scores nothing; below, all."""
    from boggle_opt.constraints.fixed import Constraints
    from boggle_opt.plugins.longword import _Context, _Setup

    d = Dictionary("small", WORDS, _standard())
    sixes = [k for k in d.keys if len(k) == 6]
    bounds = letter_bounds(d.keys, d.points, sixes)
    ranked = sorted(zip(bounds, sixes), reverse=True)
    setup = _Setup(list(d.keys), list(d.points), 2, 3, 6, [w for _, w in ranked],
                   [b for b, _ in ranked], 64, 312, Constraints.build(size_geometry("2x3")),
                   [1 / 26] * 26, 1)
    context = _Context(setup)
    paths = context.n_paths
    boards, scored, skipped = context.solve(0, ranked[0][0] + 1)
    assert (boards, scored, skipped) == ([], 0, paths * len(sixes))
    boards, scored, skipped = context.solve(0, -1)
    assert scored == paths * len(sixes) and skipped == 0 and boards
    # a floor between the bounds: only the words that can reach it are placed
    middle = ranked[len(ranked) // 2][0]
    _, scored, skipped = context.solve(0, middle)
    assert scored == paths * sum(1 for b, _ in ranked if b >= middle)
    assert skipped == paths * sum(1 for b, _ in ranked if b < middle)


def test_shorter_words_keep_their_cells(tmp_path: Path) -> None:
    words_file = tmp_path / "words.txt"
    words_file.write_text("\n".join(WORDS))
    d = Dictionary("small", WORDS, _standard())
    result = search(LongWord, size="2x3", wordlist=str(words_file), seed=1, dictionary=d,
                    options={"length": 5}, fix="s.....")
    assert result.stop_reason == "searcher finished" and result.boards
    fresh = d.scorer(size_geometry("2x3"))
    for board, score in result.boards:
        assert board[0] == "s" and fresh.score(board) == score
    # some 5-cell word sits on every reported board
    five = [w for w in WORDS if len(w.replace("qu", "q")) == 5]
    from boggle_opt.constraints.fixed import Constraints

    for board, _ in result.boards:
        assert any(Constraints.build(size_geometry("2x3"), word=w).holds_word(board) for w in five)


def _standard():
    from boggle_opt.registry.loader import PluginLoader

    return PluginLoader(autoload=False).load().rules.get("standard")


@pytest.mark.slow  # every path of five published words on ENABLE2K and YAWL (about 15 s of CPU)
@pytest.mark.parametrize(
    "wordlist, rule, word, board, score",
    [
        ("enable2k", "standard", "charitablenesses", "hclbaiaertnssese", 2149),
        ("enable2k", "standard", "quadricentennials", "qaicdrneetasnnil", 1391),
        ("enable2k", "pow2", "prequalifications", "rpqaselinifcoita", 44726),
        ("yawl", "standard", "supernaturalised", "usaupltreaiernsd", 2988),
        ("yawl", "standard", "quartermistresses", "qressatstiseremr", 1935),
    ],
)
def test_published_long_word_boards(dictionary, wordlist, rule, word, board, score) -> None:
    """The best board holding each published word, over every path (the full
    passes over every word are recorded in docs/benchmarks.md)."""
    d = dictionary(wordlist, rule)
    result = search(LongWord, wordlist=wordlist, rule=rule, seed=1, dictionary=d, word=word)
    geometry = size_geometry("4x4")
    assert result.best_score == score
    assert geometry.canonical(result.best_board) == geometry.canonical(board)


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_published_board_through_the_cli(run_cli, enable2k_path) -> None:
    r = run_cli("run", "--searcher", "longword", "--wordlist", "enable2k", "--rule", "pow2",
                "--word", "prequalifications", "--progress", "none", "--top", "1")
    assert r.returncode == 0, r.stderr
    assert "1\taciatflqiieponsr\t44726\t229" in r.stdout  # rpqaselinifcoita, canonical


def test_a_stopped_run_resumes_to_the_same_boards(run_cli, tmp_path: Path) -> None:
    """Two tasks on 3x3 (98 paths in chunks of 64): stopped after the first,
    resumed, it ends with the boards of an uninterrupted run (in two workers)."""
    words = tmp_path / "words.txt"
    words.write_text("\n".join(["seventies", "relations", "stainless", "retaining", "sat", "tea",
                                "eat", "ate", "tin", "its", "sit", "rat", "tar", "art", "lie", "ties"]))
    common = ["--searcher", "longword", "--size", "3x3", "--wordlist", str(words),
              "--progress", "none", "--top", "100"]
    whole = run_cli("run", *common, "--seed", "1", "--jobs", "2")  # the worker pool too
    assert whole.returncode == 0, whole.stderr
    out = tmp_path / "run.jsonl"
    first = run_cli("run", *common, "--seed", "1", "--evals", "1", "--out", str(out))
    assert first.returncode == 0 and "budget of 1 evaluation reached" in first.stdout, first.stdout
    again = run_cli("run", "--resume", str(out), "--evals", "1000000", "--progress", "none",
                    "--top", "100")
    assert again.returncode == 0, again.stderr
    assert "searcher finished" in again.stdout

    def best(text: str) -> tuple[int, set[str]]:
        """The best score and every board with it: which lower boards are
        reported depends on the order tasks finish in (the running best)."""
        rows = [line.split("\t") for line in text.splitlines() if line[:1].isdigit()]
        top = max(int(row[2]) for row in rows)
        return top, {row[1] for row in rows if int(row[2]) == top}

    assert best(again.stdout) == best(whole.stdout)


def test_a_task_whose_worker_always_dies_is_retried_then_reported() -> None:
    """longword runs on the run's executor: a lost task comes back (twice),
    then the pass ends with a one-line error, its other tasks checkpointed."""
    from losing_executor import LosingExecutor

    from boggle_opt.core.errors import BoggleOptError
    from boggle_opt.proofs.executor import MAX_RETRIES
    from boggle_opt.searching.interface import Checkpoint, Problem

    losing = LosingExecutor(lambda task: task[0] == 1)

    words = ["seventies", "relations", "stainless", "retaining", "sat", "tea", "eat", "its", "ties"]
    d = Dictionary("small", words, _standard())
    problem = Problem(d, size_geometry("3x3"), executor=losing)  # 98 paths: tasks 0 and 1
    events = LongWord(LongWord.Options()).search(problem, __import__("numpy").random.default_rng(1))
    chunks = []
    with pytest.raises(BoggleOptError, match=r"longword pass incomplete: 1 task\(s\) failed, .*\(task 1\)"):
        for event in events:
            if isinstance(event, Checkpoint) and "chunk" in event.record:
                chunks.append(event.record["chunk"])
    assert chunks == [0] and losing.sessions[0].lost == MAX_RETRIES + 1


def test_dask_gives_the_local_boards(run_cli, tmp_path: Path) -> None:
    """``--executor dask`` runs longword's tasks on a LocalCluster (it once
    ran them in a local pool whatever the executor; the losing-session test
    above shows the tasks go to the run's executor)."""
    words = tmp_path / "words.txt"
    words.write_text("\n".join(["seventies", "relations", "stainless", "retaining", "sat", "tea",
                                "eat", "ate", "tin", "its", "sit", "rat", "tar", "art", "lie", "ties"]))
    common = ["run", "--searcher", "longword", "--size", "3x3", "--wordlist", str(words),
              "--seed", "1", "--progress", "none", "--top", "1"]
    local = run_cli(*common)
    dask = run_cli(*common, "--executor", "dask", "--jobs", "2")
    assert local.returncode == 0 and dask.returncode == 0, dask.stderr
    rows = [[line for line in r.stdout.splitlines() if line.startswith("1\t")] for r in (local, dask)]
    assert rows[0] == rows[1] and rows[0]
