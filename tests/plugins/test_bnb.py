"""The ``bnb`` searcher: the boards it proves equal brute force over every
board; worker processes change nothing; a killed run resumes without redoing
finished classes and ends with the same answer (through the real CLI)."""

from __future__ import annotations

import itertools
import json
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from helpers import exe, run_bnb, run_until

from boggle_opt.runs.records import RunFileError

from boggle_opt.proofs import class_tasks
from boggle_opt.proofs.board_classes import (
    BUCKETS_1, BUCKETS_3, ClassSpace, cell_buckets, class_name, count_classes, letter_mask, parse_buckets,
)
from boggle_opt.core.geometry import Geometry
from boggle_opt.core.tree import cell_order, class_cell_order
from boggle_opt.dictionary.dictionary import Dictionary, to_key
from boggle_opt.proofs.executor import WINDOW_PER_WORKER
from boggle_opt.registry.loader import Registries
from boggle_opt.plugins import bnb
from boggle_opt.plugins.bnb import BranchAndBound
from boggle_opt.searching.interface import Checkpoint, Problem
from boggle_opt.dictionary.wordlist import clean_words

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def brute_force(d: Dictionary, geometry: Geometry, alphabet: str, cutoff: int) -> dict[str, int]:
    scorer = d.scorer(geometry)
    out: dict[str, int] = {}
    for letters in itertools.product(alphabet, repeat=geometry.n):
        board = "".join(letters)
        score = scorer.score(board)
        if score >= cutoff:
            out[geometry.canonical(board)] = score
    return out


@pytest.mark.parametrize(("rule", "cutoff", "jobs"), [("standard", 14, 1), ("standard", 14, 2), ("pow2", 24, 1)])
def test_2x2_equals_brute_force(
    dictionary: Callable[[str, str], Dictionary], rule: str, cutoff: int, jobs: int
) -> None:
    """Every 2x2 board of ENABLE2K (26^4 of them) against the proof."""
    d = dictionary("enable2k", rule)
    geometry = Geometry(2, 2)
    expected = brute_force(d, geometry, ALPHABET, cutoff)
    assert len(expected) >= 5
    boards, records, progress = run_bnb(Problem(d, geometry, jobs=jobs), min_score=cutoff)
    assert boards == expected
    classes = [r["class"] for r in records if "class" in r]
    assert len(classes) == len(set(classes)) == 21  # 3 buckets, 3^4 boards' classes up to symmetry
    assert progress[-1].stats["classes"] == "21/21"


def test_2x3_equals_brute_force(registries: Registries) -> None:
    """A small word list (the embedded list's words over 7 letters): boards
    over those letters and one letter no word has stand for every board."""
    letters = "aelnrst"
    words = [w for w in clean_words(registries.wordlists.get("default").load())
             if len(w) <= 6 and set(to_key(w).decode()) <= set(letters)]
    d = Dictionary("small", words, registries.rules.get("standard"))
    geometry = Geometry(2, 3)
    cutoff = 60
    expected = brute_force(d, geometry, letters + "z", cutoff)
    # no board with an unused letter reaches the cutoff, so the boards over
    # ``letters`` are every board that does
    assert expected and not any("z" in b for b in expected)
    boards, _, _ = run_bnb(Problem(d, geometry), min_score=cutoff, buckets="aeiou lnrst bcdfghjkmpqvwxyz")
    assert boards == expected


def test_resume_skips_finished_classes(dictionary: Callable[[str, str], Dictionary]) -> None:
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 3)
    full, records, _ = run_bnb(Problem(d, geometry), min_score=110)
    assert full
    classes = [r for r in records if "class" in r]
    earlier = tuple(r for r in records if "class" not in r) + tuple(classes[: len(classes) // 2])
    resumed, later, progress = run_bnb(Problem(d, geometry, resumed=earlier), min_score=110)
    assert resumed == full
    redone = {r["class"] for r in later if "class" in r} & {r["class"] for r in earlier if "class" in r}
    assert not redone
    assert len([r for r in later if "class" in r]) == len(classes) - len(classes) // 2
    # a record of another min score is refused, as verify refuses it (issue 67: it was skipped)
    with pytest.raises(RunFileError, match="is recorded at min score 110; the run's is 120"):
        run_bnb(Problem(d, geometry, resumed=earlier), min_score=120)


def test_a_class_whose_worker_always_dies_fails_the_proof_in_one_line(
    dictionary: Callable[[str, str], Dictionary],
) -> None:
    """A lost class is split, and a piece that cannot be split (one board:
    the class of a one-letter bucket) is retried, then reported; the proof
    ends with a one-line error naming it, every other class checkpointed."""
    from losing_executor import LosingExecutor

    from boggle_opt.core.errors import BoggleOptError
    from boggle_opt.proofs.executor import MAX_RETRIES

    losing = LosingExecutor(lambda task: task.name == "0000")
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 2)
    searcher = BranchAndBound(BranchAndBound.Options(min_score=14, buckets="q abcdefghijklmnoprstuvwxyz"))
    records: list[dict[str, Any]] = []
    with pytest.raises(BoggleOptError, match=r"^proof incomplete: 1 task\(s\) failed, .*\(0000\); .*--resume"):
        for ev in searcher.search(Problem(d, geometry, executor=losing), np.random.default_rng(1)):
            if isinstance(ev, Checkpoint):
                records.append(dict(ev.record))
    assert losing.sessions[0].lost == MAX_RETRIES + 1
    assert [(r["failed"], r["attempts"]) for r in records if "failed" in r] == [("0000", MAX_RETRIES + 1)]
    space = ClassSpace(geometry, [2] * 4)
    others = {class_name(c) for c in space.iterate(shuffled=False)} - {"0000"}
    assert {r["class"] for r in records if "class" in r} == others


def test_min_score_from_a_hill_climb(dictionary: Callable[[str, str], Dictionary]) -> None:
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 2)
    boards, records, _ = run_bnb(Problem(d, geometry), climb_seconds=0.5)
    setup = records[0]
    assert setup["setup"] and setup["min_score"] >= 1
    assert max(boards.values()) == 18  # the best 2x2 board, found and proved


def test_bad_options_are_one_line(run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    r = run_cli("run", "--searcher", "bnb", "--size", "2x2", "-o", "buckets", "aeiou bcd")
    assert r.returncode != 0
    assert r.stderr.count("\n") == 1 and "in no bucket" in r.stderr
    r = run_cli("bound", "aeiou bcd", "--size", "2x2")
    assert r.returncode != 0 and r.stderr.count("\n") == 1
    r = run_cli("run", "--searcher", "bnb", "--size", "2x2", "-o", "switch-score", "-5")
    assert r.returncode != 0 and r.stderr.count("\n") == 1 and "switch-score" in r.stderr


def test_bound_command(run_cli: Callable[..., subprocess.CompletedProcess[str]], enable2k_path: Path) -> None:
    r = run_cli(
        "bound", "lnrsy aeiou chkmpt chkmpt aeiou lnrsy lnrsy aeiou bdfgjvwxz",
        "--size", "3x3", "--wordlist", "enable2k", "--order", "4,5,1,3,7,0,2,6,8", "--min-score", "540",
    )
    assert r.returncode == 0, r.stderr
    fields = dict(line.split("\t", 1) for line in r.stdout.splitlines() if not line.startswith("#"))
    assert fields["bound"] == "1231" and fields["nodes"] == "332,401"
    assert fields["deslatper"] == "545"  # streaedlp turned, found by exploring the class


def test_bound_uses_the_class_order_a_proof_uses(run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    """Without --order, 4x4 classes are built in their own order (fewest
    letters first in each tier of the fixed order), as a proof builds them."""
    sets = ["aeiou", "st", "lnrst", "e"] * 4
    r = run_cli("bound", " ".join(sets), "--size", "4x4")
    assert r.returncode == 0, r.stderr
    fields = dict(line.split("\t", 1) for line in r.stdout.splitlines() if not line.startswith("#"))
    order = [int(c) for c in fields["cell order"].split(",")]
    assert order == class_cell_order(Geometry(4, 4), [letter_mask(s) for s in sets])
    assert order != cell_order(Geometry(4, 4))
    base = ",".join(map(str, cell_order(Geometry(4, 4))))
    fixed = run_cli("bound", " ".join(sets), "--size", "4x4", "--order", base)
    assert fixed.returncode == 0, fixed.stderr
    assert f"cell order\t{base}\n" in fixed.stdout


def test_bound_takes_a_board(run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    """A board as other commands take it (a letter a cell) is a class of one
    board; a word of letters was a 1x1 class, which spells nothing. A 1x1
    class is still given with --size 1x1."""
    spaced = run_cli("bound", " ".join("perslatgsineters"))
    board = run_cli("bound", "perslatgsineters", "--min-score", "1")
    assert spaced.returncode == board.returncode == 0, spaced.stderr + board.stderr
    fields = dict(line.split("\t", 1) for line in board.stdout.splitlines() if not line.startswith("#"))
    assert "size 4x4" in board.stdout and fields["boards"] == "1"
    assert f"bound\t{fields['bound']}\n" in spaced.stdout
    score = run_cli("score", "perslatgsineters").stdout.splitlines()[-1].split("\t")[1]
    assert fields["perslatgsineters"] == score  # the class's one board, explored
    one_cell = run_cli("bound", "abcd", "--size", "1x1")
    assert one_cell.returncode == 0 and "class\tabcd\n" in one_cell.stdout, one_cell.stdout


def _class_records(path: Path) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by the kill
        if rec.get("type") == "checkpoint" and "class" in rec["record"]:
            out.append(rec["record"]["class"])
    return out


def _ranked(stdout: str) -> list[tuple[str, str]]:
    return [tuple(line.split("\t")[1:3]) for line in stdout.splitlines()  # type: ignore[misc]
            if "\t" in line and not line.startswith("#")]


# heavy: a CLI proof killed mid-way and resumed to its end: 5 s (docs/testing.md)
@pytest.mark.slow
def test_cli_kill_and_resume(
    tmp_path: Path,
    cli_env: dict[str, str],
    dictionary: Callable[[str, str], Dictionary],
) -> None:
    """SIGKILL a run once some classes are written; --resume finishes it
    without redoing them, with the answer of an uninterrupted run (made in
    this process, on the dictionary the module's other tests share)."""
    buckets = "aeiou bdfgjqvwxz lnrsy chkmpt"
    args = ["run", "--searcher", "bnb", "--size", "2x3", "--wordlist", "enable2k",
            "-o", "min-score", "100", "-o", "buckets", buckets, "--progress", "none", "--top", "1000"]
    full, _, _ = run_bnb(Problem(dictionary("enable2k", "standard"), Geometry(2, 3)), min_score=100,
                         buckets=buckets)
    assert full
    out = tmp_path / "run.jsonl"
    proc = subprocess.Popen([exe(), *args, "--out", str(out)], cwd=tmp_path, env=cli_env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline:
            if out.exists() and out.read_text().count('"class"') >= 40:
                break
            time.sleep(0.005)
        assert proc.poll() is None, "the run ended before it could be killed"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    before = _class_records(out)
    assert 40 <= len(before) < 1120
    resumed = subprocess.run([exe(), "run", "--progress", "none", "--top", "1000", "--resume", str(out)],
                             cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    after = _class_records(out)
    assert len(after) == len(set(after)) == 1120  # each class once: none redone
    ranked = [(board, int(score)) for board, score in _ranked(resumed.stdout)]
    assert dict(ranked) == full and len(ranked) == len(full)  # every board once, with its score
    assert [score for _, score in ranked] == sorted(full.values(), reverse=True)


def test_switch_score_reaches_the_kernel(
    dictionary: Callable[[str, str], Dictionary], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``switch-score`` and ``switch`` (or the size's default ratio) are what
    each class is solved with; the boards do not depend on them."""
    calls: list[tuple[int, int]] = []
    real = class_tasks.ClassSolver

    class Spy:
        def __init__(self, *args: Any) -> None:
            self.inner = real(*args)

        def solve(self, masks: list[int], cutoff: int, switch_pct: int = 150, switch_score: int = 0,
                  deadline: float = 0.0) -> list[str]:
            calls.append((switch_pct, switch_score))
            return self.inner.solve(masks, cutoff, switch_pct, switch_score, deadline)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    monkeypatch.setattr(class_tasks, "ClassSolver", Spy)
    d = dictionary("enable2k", "standard")
    geometry = Geometry(2, 2)
    expected, _, _ = run_bnb(Problem(d, geometry), min_score=14)
    assert set(calls) == {(150, 0)} and len(calls) == 21  # no default for 2x2: the ratio
    for options, used in [
        ({"switch_score": 30}, (150, 30)),
        ({"switch_score": 10**6, "switch": 2.0}, (200, 10**6)),  # the orderly bound at once
        ({"switch_score": 0}, (150, 0)),
    ]:
        calls.clear()
        boards, _, _ = run_bnb(Problem(d, geometry), min_score=14, **options)
        assert boards == expected and set(calls) == {used}
    monkeypatch.setitem(bnb.SWITCH_RATIOS, "2x2", 2.5)
    for options, used in [({}, (250, 0)), ({"switch_score": 0}, (250, 0)), ({"switch": 1.2}, (120, 0)),
                          ({"switch_score": 40}, (250, 40))]:
        calls.clear()
        boards, _, _ = run_bnb(Problem(d, geometry), min_score=14, **options)
        assert boards == expected and set(calls) == {used}


def test_cli_4x4_starts_checkpoints_and_resumes(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """4x4 with 2 corner buckets (1,068,363 classes, more than are cost-ordered) starts at once, writes
    each class as it finishes, in the fixed order of ``ClassSpace``, and a
    resumed run goes on from there without redoing any. A small word list and
    a min score no class reaches keep each class to a root bound."""
    words = tmp_path / "words.txt"
    words.write_text("\n".join([
        "tea", "eat", "ate", "sea", "set", "rat", "tar", "art", "star", "rate", "tear", "stare",
        "later", "alter", "least", "steal", "slate", "quit", "quiet", "jump", "bog", "boggle",
        "fox", "wax", "zip", "hymn", "lynx", "glyph", "crypt", "vow",
    ]) + "\n")
    out = tmp_path / "run.jsonl"
    corners = "aeiosuy bcdfghjklmnpqrtvwxz"
    # stopped as Ctrl-C stops it once 20 classes are written: `--time 4` left
    # none on a busy machine
    first = run_until(["run", "--searcher", "bnb", "--size", "4x4", "--wordlist", str(words),
                       "-o", "min-score", "100000", "-o", "corner-buckets", corners,
                       "--progress", "none", "--out", str(out)],
                      cli_env, tmp_path, lambda: out.exists() and len(_class_records(out)) >= 20)
    assert first.returncode == 130, first.stderr  # interrupted, the proof incomplete
    before = _class_records(out)
    assert 20 <= len(before) < 1_068_363
    g = Geometry(4, 4)
    space = ClassSpace(g, [len(b) for b in cell_buckets(g, parse_buckets(BUCKETS_3), parse_buckets(corners))])
    assert count_classes(g, space.counts) > bnb.COST_ORDER_MAX
    sequence = [class_name(c) for c in itertools.islice(space, 3 * len(before) + 1000)]
    assert before == sequence[: len(before)]  # one process: exactly the fixed order
    second = run_until(["run", "--resume", str(out), "--jobs", "2", "--progress", "none"], cli_env, tmp_path,
                       lambda: len(_class_records(out)) >= len(before) + 20)
    assert second.returncode == 130, second.stderr
    after = _class_records(out)
    assert after[: len(before)] == before
    new = after[len(before):]
    assert len(new) >= 20 and len(set(after)) == len(after)  # none redone
    # two workers, a few classes in flight: the next classes of the sequence
    window = 2 * WINDOW_PER_WORKER
    assert set(new) <= set(sequence[: len(after) + window])
    # every class before them is done, but for the few in flight when the
    # budget ended the run (not always the last handed out: a worker slowed
    # by a busy machine can hold an early class while the other runs on)
    assert len(set(sequence[: len(after)]) - set(after)) <= window


def test_cli_4x4_default_goes_biggest_first(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """4x4 at the default buckets (67,257 classes) is cost-ordered: its
    slowest classes start first, not last on one worker. One job: the
    records come exactly in the cost model's order, biggest first."""
    from boggle_opt.proofs.board_classes import CostModel
    from boggle_opt.registry.dictionaries import load_dictionary

    words = tmp_path / "words.txt"
    words.write_text("\n".join(["tea", "eat", "sea", "set", "rat", "star", "rate", "stare", "later",
                                 "quit", "jump", "bog", "fox", "zip", "hymn", "lynx"]) + "\n")
    out = tmp_path / "run.jsonl"
    # until 20 classes are written (`--time 4` left none on a busy machine: the
    # cost order of 67,257 classes comes first)
    first = run_until(["run", "--searcher", "bnb", "--size", "4x4", "--wordlist", str(words),
                       "-o", "min-score", "100000", "--progress", "none", "--out", str(out)],
                      cli_env, tmp_path, lambda: out.exists() and len(_class_records(out)) >= 20)
    assert first.returncode == 130, first.stderr
    done = _class_records(out)
    assert len(done) >= 20
    g = Geometry(4, 4)
    buckets = cell_buckets(g, parse_buckets(BUCKETS_3), parse_buckets(BUCKETS_1))
    space = ClassSpace(g, [len(b) for b in buckets])
    assert count_classes(g, space.counts) <= bnb.COST_ORDER_MAX
    model = CostModel(load_dictionary(str(words), "standard").keys, g, buckets)
    classes = list(space.iterate(shuffled=False))
    costs = dict(zip(map(class_name, classes), model.costs(classes)))
    assert [costs[c] for c in done] == sorted(costs.values(), reverse=True)[: len(done)]


def test_a_resume_fits_its_time_left_only_to_sound_timing_figures() -> None:
    """A class record's seconds are a figure no check covers: the resumed
    time left (Calibration.prime) takes only finite ones >= 0 (JSON reads
    NaN and Infinity), and never a split class's pieces (shares of tasks)."""
    from boggle_opt.plugins.bnb import RECORD_KIND, _earlier_seconds

    def rec(name: str, seconds: Any, **more: Any) -> dict[str, Any]:
        return {"kind": RECORD_KIND, "class": name, "seconds": seconds, **more}

    records = (rec("a", 1.5), rec("b", float("nan")), rec("c", float("inf")), rec("d", -1.0), rec("e", "2"),
               rec("f", True), rec("g", 3, part="x"), rec("h", 4.0), {"kind": "other", "class": "i", "seconds": 1})
    assert _earlier_seconds(records, {"a", "b", "c", "d", "e", "f", "g", "i"}) == {"a": 1.5}
