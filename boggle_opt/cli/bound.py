"""``boggle-opt bound CLASS``: the orderly-tree bound of one board class.

Prints the bound, node count, build time and memory; with ``--min-score S``
also explores the class (branch and bound) and lists its boards scoring S+.
"""

from __future__ import annotations

import argparse
import resource
import time
from typing import Any, TextIO

from ..boards import make_geometry
from ..core.alphabet import ENGLISH, Alphabet
from .args import cache_choice, add_rule_and_wordlist, note, score
from ..signals import let_signals_in
from ..core.errors import BoardError
from ..core.geometry import infer_size, parse_size
from ..registry.dictionaries import language_of, load_dictionary, wordlist_source
from ..registry.registries import Registries


def add_parser(sub: Any) -> None:
    """Add the ``bound`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "bound",
        help="bound one board class (letter sets per cell)",
        description="Orderly-tree bound of one board class: no board of the class scores more.",
    )
    p.add_argument(
        "cls", metavar="CLASS",
        help="one letter set per cell, column-major, e.g. \"lnrsy aeiou ...\", in the tiles of "
             "the word list's language (--language; [ij] for a tile of more letters); or a board, a tile a cell (its bound counts a word "
             "once for each set of cells that spells it)",
    )
    p.add_argument("--size", metavar="CxR", help="CxR (default: square root of the number of cells)")
    add_rule_and_wordlist(p)
    p.add_argument("--order", help="cell order, nearest the root first, e.g. 4,5,1,3,7,0,2,6,8 "
                                   "(default: the one a proof uses: on 4x4 and bigger the class's own)")
    p.add_argument(
        "--min-score", type=score, help="also explore the class: list its boards scoring at least this"
    )
    p.set_defaults(run=cmd_bound)


def _order(text: str, n: int) -> list[int]:
    try:
        order = [int(x) for x in text.replace(",", " ").split()]
    except ValueError:
        raise BoardError(f"bad --order {text!r}: expected cell numbers, e.g. 4,5,1,3") from None
    if sorted(order) != list(range(n)):
        raise BoardError(f"bad --order {text!r}: must list each cell 0..{n - 1} once")
    return order


def class_text(text: str, size: tuple[int, int] | None, alphabet: Alphabet = ENGLISH) -> str:
    """The class as letter sets apart: one word of 4 or more letters is a
    board, a tile a cell, as ``score`` takes boards (a set of one cell, 1x1,
    cannot spell a word), unless ``--size`` has one cell for each set. A
    board of another alphabet may write a tile in brackets (``[ij]``)."""
    words = text.split()
    if len(words) != 1:
        # letter sets as people write them ([ij]aeiou): in symbols for parse_class
        return alphabet.read_groups(text, "class")
    cells = words[0]
    if not alphabet.plain or "[" in cells:
        try:
            cells = alphabet.read(cells)
        except BoardError:
            if "[" in cells or any(alphabet.private(ch) for ch in cells):
                raise  # what people never write, or a tile that is none
            # not a board: parse_class says what is wrong with it as a class
    if len(cells) >= 4 and (size is None or size[0] * size[1] == len(cells)):
        return " ".join(cells)
    return text


def _class_size(cells: int) -> tuple[int, int]:
    """The square size of a class of ``cells`` letter sets."""
    if cells == 0:
        raise BoardError("empty class: give a letter set for each cell")
    try:
        return infer_size(cells)
    except BoardError:
        raise BoardError(f"cannot infer the size of a class of {cells} cells: give --size CxR") from None


def cmd_bound(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    # the proof's modules: imported by this command alone, so the others start sooner
    from ..core.branch import ClassSolver
    from ..proofs.board_classes import check_alphabet, letter_mask, parse_class

    given_size = parse_size(ns.size) if ns.size else None
    # the class is written in the language's tiles: known before the list is read
    alphabet = language_of(wordlist_source(ns.wordlist, regs), ns.language, regs).alphabet
    check_alphabet(alphabet.name, alphabet.symbols)
    symbols = alphabet.symbols
    text = class_text(ns.cls, given_size, alphabet)
    cols, rows = given_size or _class_size(len(text.split()))
    geometry = make_geometry(cols, rows)
    sets = parse_class(text, geometry, symbols, alphabet.write)
    if ns.min_score is not None and ns.min_score < 1:
        raise BoardError(f"--min-score must be >= 1, got {ns.min_score}")
    given = _order(ns.order, geometry.n) if ns.order else None
    dictionary = load_dictionary(ns.wordlist, ns.rule, regs, cache=cache_choice(ns), language=ns.language,
                                 min_letters=ns.min_letters)
    note(dictionary.note)
    solver = ClassSolver(dictionary.trie, geometry, given)
    solver.poll = let_signals_in  # Ctrl-C stops a long solve at once
    masks = [letter_mask(s, symbols) for s in sets]
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    tree = solver.build(masks)
    seconds = time.perf_counter() - start
    rss1 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    boards = 1
    for s in sets:
        boards *= len(s)
    out.write(f"# word list: {dictionary.label}; rule: {dictionary.rule_label}; size {geometry.size}\n")
    out.write(f"class\t{' '.join(alphabet.write(s) for s in sets)}\n")
    out.write(f"boards\t{boards:,}\n")
    out.write(f"cell order\t{','.join(map(str, solver.order))}\n")
    out.write(f"bound\t{tree.bound(tree.root)}\n")
    out.write(f"nodes\t{tree.n_nodes:,}\n")
    out.write(f"time\t{seconds:.3f} s\n")
    out.write(f"memory\t{4 * float(tree.top) / 1e6:.1f} MB arena; peak RSS {rss1 / 1024:.0f} MB "
              f"(+{(rss1 - rss0) / 1024:.0f} MB building)\n")
    if ns.min_score is not None:
        start = time.perf_counter()
        candidates = solver.solve(masks, ns.min_score)
        scorer = dictionary.scorer(geometry)
        scored = {(geometry.canonical(b), scorer.score(b)) for b in candidates}
        found = sorted(
            [bs for bs in scored if bs[1] >= ns.min_score], key=lambda bs: (-bs[1], bs[0])
        )
        out.write(f"explored\t{time.perf_counter() - start:.3f} s; {len(candidates):,} candidates; "
                  f"{len(found):,} boards >= {ns.min_score}\n")
        for board, score in found:
            out.write(f"{alphabet.write(board)}\t{score}\n")
    return 0
