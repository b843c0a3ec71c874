"""``--fix``, ``--word`` and ``--dice`` through the real command line: every
board a run reports meets them, a resumed run keeps them, and impossible or
unsupported ones are a one-line error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boggle_opt.boards import size_geometry
from boggle_opt.cli.app import main
from boggle_opt.constraints.fixed import ConstraintError, Constraints
from boggle_opt.constraints.dice import DiceSet
from helpers import records, unwrapped

CLASSIC = DiceSet(
    "classic", "", tuple("aaciot abilty abjmoq acdemp acelrs adenvz ahmors biforx "
                         "denosw dknotu eefhiy egkluy egintv ehinps elpstu gilruw".split()),
)


def improved(path: Path) -> list[tuple[str, int]]:
    return [(r["board"], r["score"]) for r in records(path) if r["type"] == "improved"]


@pytest.mark.parametrize(
    "searcher, args, constraints",
    [
        ("annealing", ["--fix", "r.q............."], Constraints.build(size_geometry("4x4"), fix="r.q.............")),
        ("hillclimb", ["--word", "painters", "-o", "pool-size", "20"],
         Constraints.build(size_geometry("4x4"), word="painters")),
        ("genetic", ["--dice", "classic", "--fix", "....e..........."],
         Constraints.build(size_geometry("4x4"), fix="....e...........", dice=CLASSIC)),
    ],
)
def test_reported_boards_meet_the_constraints(run_cli, tmp_path, searcher, args, constraints):
    out = tmp_path / "run.jsonl"
    # evaluations, not seconds: a busy machine's second may score no board
    r = run_cli("run", "--searcher", searcher, *args, "--seed", "3", "--evals", "3000",
                "--progress", "none", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert f"constraints {constraints.describe()}" in unwrapped(r.stdout)
    found = improved(out)
    assert found
    for board, _ in found:
        assert constraints.satisfied(board), board
    best = r.stdout.split("\n1\t")[1].split("\t")[0]
    assert constraints.satisfied(best)


def test_resume_keeps_the_constraints(run_cli, tmp_path):
    out = tmp_path / "run.jsonl"
    r = run_cli("run", "--searcher", "annealing", "--word", "quiet", "--seed", "1",
                "--evals", "3000", "--progress", "none", "--out", str(out))
    assert r.returncode == 0, r.stderr
    start = json.loads(out.read_text().splitlines()[0])
    assert start["settings"]["constraints"] == {"word": "quiet"}
    r = run_cli("run", "--resume", str(out), "--evals", "3000", "--progress", "none")
    assert r.returncode == 0, r.stderr
    check = Constraints.build(size_geometry("4x4"), word="quiet")
    assert all(check.satisfied(b) for b, _ in improved(out))
    r = run_cli("run", "--resume", str(out), "--word", "other")
    assert r.returncode == 1 and "drop --word" in r.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["--word", "charitablenesses", "--size", "3x3"], "needs 16 cells but a 3x3 board has 9"),
        (["--fix", "r.q"], "--fix pattern 'r.q' has 3 cells but a 4x4 board has 16"),
        (["--fix", "r.q............1"], "is neither a letter a-z nor '.'"),
        (["--word", "qat"], "has a q without a u"),
        (["--dice", "classic", "--fix", "qq.............."], "cannot roll the letters of --fix"),
        (["--dice", "classic", "--word", "zzz"], "no board that dice set 'classic' can roll holds"),
        (["--word", "abc", "--fix", "xxxx.xxxx", "--size", "3x3"], "no board holds --word 'abc'"),
        (["--dice", "big"], "has 25 dice but a 4x4 board has 16"),
        (["--dice", "nosuch"], "unknown dice set 'nosuch'"),
        (["--searcher", "bnb", "--size", "3x3", "--fix", "s........"], "searcher 'bnb' cannot honour"),
    ],
)
def test_impossible_constraints_are_one_line_errors(capsys, args, message):
    # the CLI's own entry function, in this process: a subprocess each would be slow
    if "--searcher" not in args:
        args = ["--searcher", "annealing", *args]
    assert main(["run", *args, "--evals", "100", "--progress", "none"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("boggle-opt: error: "), err
    assert message in err, err


def test_random_boards_meet_every_combination():
    geometry = size_geometry("4x4")
    rng = np.random.default_rng(5)
    freqs = np.full(26, 1 / 26)
    c = Constraints.build(geometry, fix="s..............e", word="quest", dice=CLASSIC)
    for _ in range(50):
        board = c.random_board(16, rng, freqs)
        assert c.satisfied(board) and board[0] == "s" and board[15] == "e"
        assert CLASSIC.rollable(board)
    assert c.holds_word("qest" + "x" * 12)  # Qu-e-s-t down the first column
    assert not c.holds_word("qesx" + "x" * 11 + "t")


def test_constraints_need_no_searcher_change_to_refuse():
    from boggle_opt.searching.driver import Budget, Driver
    from boggle_opt.searching.interface import Problem, SearcherBase

    class Plain(SearcherBase):
        name = "plain"

    with pytest.raises(ConstraintError, match="searcher 'plain' cannot honour"):
        problem = Problem.__new__(Problem)
        problem.constraints = Constraints.build(size_geometry("3x3"), word="tea")
        Driver(Plain(), problem, Budget(evaluations=1), 1)
