"""Dice sets: the counted ways against a brute-force permanent, random rolls,
the plugin hook, and ``boggle-opt dice``."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from boggle_opt.cli.app import main
from boggle_opt.constraints.dice import DiceError, DiceSet


def brute_ways(dice: DiceSet, board: str) -> int:
    """The permanent over every assignment of dice to cells."""
    return sum(
        math.prod(dice.dice[d].count(board[c]) for c, d in enumerate(perm))
        for perm in itertools.permutations(range(dice.n))
    )


def test_ways_is_the_permanent():
    rng = np.random.default_rng(2)
    for _ in range(30):
        dice = DiceSet("t", "", tuple("".join(rng.choice(list("abcdeq"), 6)) for _ in range(6)))
        boards = [dice.roll(rng) for _ in range(3)]
        boards.append("".join(rng.choice(list("abcdeq"), 6)))  # often not rollable
        for board in boards:
            assert board is not None
            ways = brute_ways(dice, board)
            assert dice.ways(board) == ways
            assert dice.rollable(board) == (ways > 0)
            if not ways:  # Hall's theorem names letters that lack dice
                assert "but only" in dice.shortfall(board), (dice, board)
            assert dice.probability(board) == Fraction(ways, math.factorial(6) * 6**6)


def test_rolls_show_the_fixed_letters(registries):
    classic = registries.dice.get("classic")
    rng = np.random.default_rng(1)
    for _ in range(20):
        board = classic.roll(rng, {0: "q", 5: "z", 15: "x"})
        assert board is not None and classic.rollable(board)
        assert (board[0], board[5], board[15]) == ("q", "z", "x")
    assert classic.roll(rng, {0: "q", 1: "q"}) is None  # one Qu die


def test_builtin_sets_come_through_the_hook(registries):
    assert {"classic", "new", "big"} <= set(registries.dice.names())
    assert registries.dice.get("modern") is registries.dice.get("new")
    assert [registries.dice.get(n).n for n in ("classic", "new", "big")] == [16, 16, 25]
    with pytest.raises(DiceError, match="six faces"):
        DiceSet("bad", "", ("abc",))


def test_dice_command(capsys):
    assert main(["dice", "perslatgsineters"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # every 16-dice set, the languages' editions among them (french-4x4, ...)
    by_set = {line.split("\t")[1]: line for line in lines[1:]}
    assert by_set["classic"].startswith("perslatgsineters\tclassic\tyes\t221616\t3.75e-21")
    assert by_set["new"].startswith("perslatgsineters\tnew\tyes\t")
    assert {"french-4x4", "italian-4x4"} <= set(by_set)
    # Qu: only the classic set's abjmoq die (and the new set's himnqu) shows it
    assert main(["dice", "qqrsaaaaeeeeiiii", "--dice", "classic"]) == 1
    out, err = capsys.readouterr()
    assert "no: it has 2 cells of 'Qu' but only 1 die shows 'Qu'" in out
    assert err == "boggle-opt: error: dice set 'classic' cannot roll qqrsaaaaeeeeiiii\n"
    # one cell, no die: each counted as a sentence says it
    assert main(["dice", "sxxxaaaaeeeeiiii", "--dice", "classic"]) == 1
    assert "no: it has 3 cells of 'x' but only 1 die shows 'x'" in capsys.readouterr().out
    assert main(["dice", "--language", "german", "ßaaaeeeeiiiitttt", "--dice", "classic"]) == 1
    assert "no: it has 1 cell of 'ß' but only 0 dice show 'ß'" in capsys.readouterr().out
    # sets of 16 dice there are, but none of Polish's tiles only: said so, not "no set has 16 dice"
    assert main(["dice", "--language", "polish", "żółćgęślajaźńmor"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("boggle-opt: error: no dice set of 16 dice shows only tiles of polish: classic, ")
    assert err.count("\n") == 1 and "(16)" not in err, err


@pytest.mark.parametrize(
    "args, message",
    [
        (["perslatgsineters", "--dice", "big"], "dice set 'big' has 25 dice but a 4x4 board has 16"),
        (["streaedlp"], "no dice set has 9 dice for a 3x3 board"),
        (["perslatgsineters", "--dice", "nosuch"], "unknown dice set 'nosuch'"),
        (["pers1atgsineters"], "is not a letter a-z"),
        (["perslatgsineters", "streaedlp"], "no dice set has 9 dice for a 3x3 board"),
    ],
)
def test_dice_command_errors_are_one_line(capsys, args, message):
    assert main(["dice", *args]) == 1
    out, err = capsys.readouterr()
    assert err.count("\n") == 1 and message in err, err
    assert out == "", out  # every board checked before the table begins
