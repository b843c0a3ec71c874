"""``boggle-opt dice BOARD``: can a dice set roll the board, and how likely is it?
Without a board, the dice sets (or with ``--set NAME`` that set's dice).

Also the constraint options ``run`` takes (``--fix``, ``--word``, ``--dice``).
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from ..boards import geometry_for, read_board
from .args import CLI_SIZE, deprecated_alias
from ..constraints.dice import DiceError, DiceSet, describe_probability
from ..core.alphabet import ENGLISH, Alphabet
from ..registry.registries import Registries


def add_constraint_options(parser: argparse.ArgumentParser) -> None:
    """``--fix``, ``--word`` and ``--dice`` for ``run``."""
    group = parser.add_argument_group("constraints (every reported board meets them)")
    group.add_argument(
        "--fix", metavar="PATTERN",
        help="tiles fixed in place: a board string with . for free cells, e.g. r.q............. "
             "or [ij]........",
    )
    group.add_argument("--word", help="the board must hold this word (anywhere)")
    group.add_argument(
        "--dice", metavar="NAME", help="the board must be rollable by this dice set (`boggle-opt dice` lists them)"
    )


def add_parser(sub: Any) -> None:
    """Add the ``dice`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "dice",
        help="can a dice set roll a board, and how likely is it",
        description="For each board and dice set: rollable or not, the number of ways "
        "(dice to cells, each showing its cell's letter) and the chance of rolling it. "
        "Without a board: the dice sets.",
    )
    p.add_argument("boards", nargs="*", metavar="BOARD",
                   help="tiles in column-major order, [er] for a tile of more letters "
                        "(none: list the dice sets)")
    one_set = p.add_argument("--dice", dest="dice_set", metavar="NAME",
                             help="one dice set (default: every set with a die per cell); no BOARD: its dice")
    deprecated_alias(p, one_set, "--set")  # run names a dice set --dice NAME
    p.add_argument("--size", metavar="CxR", help="CxR (default: square root of the board length)")
    p.add_argument("--language", metavar="NAME",
                   help="the language whose tiles the boards are written in (default: the dice "
                        "set's, English without --dice; see `boggle-opt languages`)")
    p.set_defaults(run=cmd_dice)


def _alphabet(regs: Registries, ns: argparse.Namespace) -> Alphabet:
    """The tiles boards are written in: --language's, else the named set's."""
    if ns.language:
        return regs.languages.get(ns.language).alphabet
    if ns.dice_set:
        return regs.dice.get(ns.dice_set).alphabet
    return ENGLISH


def _sets(regs: Registries, name: str | None, n_cells: int, size: str,
          alphabet: Alphabet = ENGLISH) -> list[DiceSet]:
    """The sets to try, their faces as ``alphabet``'s symbols."""
    if name is not None:
        chosen = regs.dice.get(name)
        chosen.check_cells(n_cells, size)
        return [chosen.in_alphabet(alphabet)]
    found: list[DiceSet] = []
    foreign: list[str] = []
    for e in regs.dice.entries():
        if e.item.n == n_cells:
            try:
                found.append(e.item.in_alphabet(alphabet))
            except DiceError:
                foreign.append(e.name)  # a set of tiles these boards are not written in
    if not found and foreign:
        raise DiceError(f"no dice set of {n_cells} dice shows only tiles of {alphabet.name}: "
                        f"{', '.join(foreign)} show tiles it has not (`boggle-opt dice --dice NAME` "
                        "lists a set's faces)")
    if not found:
        have = ", ".join(f"{e.name} ({e.item.n})" for e in regs.dice.entries()) or "none"
        raise DiceError(f"no dice set has {n_cells} dice for a {size} board (sets: {have})")
    return found


def list_sets(regs: Registries, name: str | None, out: TextIO) -> None:
    """The dice sets (``run --dice NAME`` takes them), or one set's dice."""
    if name is not None:
        dice = regs.dice.get(name)
        out.write(f"# dice set {dice.name}: {dice.summary}\n# die\tfaces\n")
        for i, die in enumerate(dice.dice, 1):
            out.write(f"{i}\t{dice.written(die)}\n")
        return
    out.write("# dice set\tdice\taliases\tsummary\n")
    for entry in regs.dice.entries():
        out.write(f"{entry.name}\t{entry.item.n}\t{', '.join(entry.aliases) or '-'}\t{entry.summary}\n")


def cmd_dice(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    if not ns.boards:
        list_sets(regs, ns.dice_set, out)
        return 0
    # every board and its dice sets first: bad input is one line, with no table begun
    alphabet = _alphabet(regs, ns)
    checked = []
    for text in ns.boards:
        geometry = geometry_for(text, ns.size, CLI_SIZE, alphabet)
        checked.append((read_board(text, geometry, alphabet),
                        _sets(regs, ns.dice_set, geometry.n, geometry.size, alphabet)))
    out.write("# board\tdice set\trollable\tways\tprobability\n")
    unrollable: list[str] = []
    for board, sets in checked:
        written = alphabet.write(board)
        any_set = False
        for dice in sets:
            if dice.rollable(board):
                any_set = True
                ways = dice.ways(board)
                p = dice.probability(board, ways)
                out.write(f"{written}\t{dice.name}\tyes\t{ways}\t{describe_probability(p)}\n")
            else:
                out.write(f"{written}\t{dice.name}\tno: {dice.shortfall(board)}\t0\t0\n")
        if not any_set:
            unrollable.append(written)
    out.flush()
    if unrollable:
        which = f"dice set {ns.dice_set!r}" if ns.dice_set else "no dice set"
        verb = "cannot roll" if ns.dice_set else "can roll"
        raise DiceError(f"{which} {verb} {', '.join(unrollable)}")
    return 0
