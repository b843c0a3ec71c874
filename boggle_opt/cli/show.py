"""``boggle-opt show``: a board drawn in the terminal with the path of each word asked for.

Each word gets its own copy of the grid: the cells of its path are numbered
in the order they are spelled and highlighted, the others dimmed; below it
the word's points (or that the word list lacks it). Drawn with rich; ``--svg``
writes the board and each word's path as a self-contained picture (``board_svg``).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from ..boards import geometry_for, orientation, read_board
from ..core.alphabet import ENGLISH, Alphabet, capitals
from ..dictionary.language import Language
from ..core.trie import LATIN
from ..registry.dictionaries import language_of, wordlist_source
from .args import cache_choice, CLI_SIZE, add_rule_and_wordlist, deprecated_alias, note
from .output import wrote
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..registry.dictionaries import load_dictionary
from ..dictionary.dictionary import Dictionary
from ..registry.registries import Registries

if TYPE_CHECKING:
    from rich.console import RenderableType


def add_parser(sub: Any) -> None:
    show = sub.add_parser(
        "show",
        help="draw a board and the paths of words on it",
        description="Draw a board in the terminal, with each --word's path numbered in order.",
    )
    show.add_argument("board", metavar="BOARD", help="letters in column-major order")
    word = show.add_argument(
        "--word", action="append", default=[], dest="words", metavar="WORD",
        help="draw this word's path (repeatable; default: the board's best-scoring words)",
    )
    deprecated_alias(show, word, "--words")  # --word names one word, as in run
    show.add_argument("--top", type=int, default=3, metavar="N", help="words drawn without --word (default 3)")
    show.add_argument("--svg", metavar="FILE", help="also write the board and the paths as an SVG picture")
    show.add_argument("--size", metavar="CxR", help="CxR (default: square root of the board length)")
    add_rule_and_wordlist(show)
    show.set_defaults(run=cmd_show)


@dataclass(frozen=True)
class WordPath:
    word: str
    path: list[int]  # cells in spelling order
    points: int | None  # None: not in the word list


def find_path(geometry: Geometry, board: str, word: str,
              alphabet: Alphabet = ENGLISH, fold: bool = False) -> list[int] | None:
    """A path of adjacent, distinct cells spelling ``word`` (each cell spells
    its tile's letters: ``q`` cells "qu"); ``fold``: letters compared as
    case folding writes them (``ß`` is ``ss``: ``STRASSE`` typed for ``straße``)."""
    spelled = alphabet.cells(board)
    if fold:
        spelled, word = [c.casefold() for c in spelled], word.casefold()

    def extend(cell: int, at: int, path: list[int]) -> list[int] | None:
        piece = spelled[cell]
        if not word.startswith(piece, at):
            return None
        path.append(cell)
        at += len(piece)
        if at == len(word):
            return path
        for nb in geometry.neighbours(cell):
            if nb not in path and (found := extend(nb, at, path)) is not None:
                return found
        path.pop()
        return None

    for start in range(geometry.n):
        if (found := extend(start, 0, [])) is not None:
            return found
    return None


def grid(geometry: Geometry, board: str, path: list[int] | None = None,
         faces: list[str] | None = None) -> RenderableType:
    """The board as a table of cells; the path's cells numbered and highlighted."""
    from rich.table import Table
    from rich.text import Text

    step = {cell: i for i, cell in enumerate(path or [], 1)}
    table = Table.grid(padding=(0, 1))
    for _ in range(geometry.cols):
        table.add_column(justify="left", min_width=4)
    for y in range(geometry.rows):
        row = []
        for x in range(geometry.cols):
            cell = geometry.cell(x, y)
            letter = faces[cell] if faces else "Qu" if board[cell] == "q" else board[cell].upper()
            if cell in step:
                row.append(Text.assemble((letter, "bold black on yellow"), (str(step[cell]), "bold yellow")))
            elif path:
                row.append(Text(letter, style="dim"))
            else:
                row.append(Text(letter, style="bold"))
        table.add_row(*row)
    return table


def picture(
    geometry: Geometry, board: str, score: int, n_words: int, label: str, words: list[WordPath],
    alphabet: Alphabet = ENGLISH,
) -> RenderableType:
    """The whole picture: the board with its score, then one panel per word."""
    from rich.columns import Columns
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    faces = None if alphabet.symbols == LATIN else alphabet.faces(board)
    # (a title is markup to rich: a bracketed tile, [th], must show as written)
    head = Panel(grid(geometry, board, None, faces), title=Text(alphabet.write(board)), expand=False)
    panels = []
    for w in words:
        shown = capitals(w.word)
        note = "not in the word list" if w.points is None else f"{w.points} point{'s' * (w.points != 1)}"
        panels.append(Panel(grid(geometry, board, w.path, faces), title=shown, subtitle=note, expand=False))
    summary = Text.assemble(
        (f"{score:,} points", "bold"), f", {n_words:,} words · {geometry.size}"
        f"\n{label}\n{orientation(geometry, board, alphabet)}"
    )
    parts: list[RenderableType] = [head, summary]
    if panels:
        parts.append(Columns(panels))
    return Group(*parts)


def word_paths(
    geometry: Geometry, board: str, asked: list[str], found: dict[str, tuple[int, list[int]]], top: int,
    alphabet: Alphabet = ENGLISH,
) -> list[WordPath]:
    if not asked:
        best = sorted(found.items(), key=lambda kv: (-kv[1][0], -len(kv[0]), kv[0]))[:top]
        return [WordPath(w, path, points) for w, (points, path) in best]
    out = []
    for raw in asked:
        word = raw.strip().lower()
        if not word.isalpha() or (alphabet.symbols == LATIN and not word.isascii()):
            raise BoggleOptError(f"bad word {raw!r}: only letters a-z" if alphabet.symbols == LATIN
                                 else f"bad word {raw!r}: only letters")
        if word in found:
            points, path = found[word]
            out.append(WordPath(word, path, points))
            continue
        spelled = find_path(geometry, board, word, alphabet)
        if spelled is None:
            # typed in capitals, or ß as ss: the word is the letters its path spells
            spelled = find_path(geometry, board, word, alphabet, fold=True)
            if spelled is None:
                raise BoggleOptError(f"the word {word!r} cannot be spelled on {alphabet.write(board)}")
            word = alphabet.spell(board[c] for c in spelled)
            if word in found:
                points, path = found[word]
                out.append(WordPath(word, path, points))
                continue
        out.append(WordPath(word, spelled, None))
    return out


def svg_picture(
    geometry: Geometry, board: str, score: int, n_words: int, label: str, words: list[WordPath],
    alphabet: Alphabet = ENGLISH,
) -> str:
    """The picture ``--svg`` writes: one grid per word with its path, or the bare board."""
    from .board_svg import Panel, panels_svg

    faces = () if alphabet.symbols == LATIN else tuple(alphabet.faces(board))
    panels = [
        Panel(board, w.path, capitals(w.word),
              "not in the word list" if w.points is None else f"{w.points} point{'s' * (w.points != 1)}",
              faces)
        for w in words
    ] or [Panel(board, faces=faces)]
    return panels_svg(geometry, panels,
                      title=f"{alphabet.write(board)}: {score:,} points, {n_words:,} words",
                      subtitle=f"{geometry.size} · {label} · {orientation(geometry, board, alphabet)}")


def typed_word(language: Language, raw: str) -> str:
    """A ``--word`` as its player typed it (``été``, ``garçon``) in the
    language's spelling (French: ``ete``, ``garcon``), as its list's words are."""
    word, why = language.typed(raw)
    if not word:
        raise BoggleOptError(f"bad word {raw.strip()!r}: no word of {language.name}: {why}")
    return word


def settings_label(dictionary: Dictionary) -> str:
    """What the figures were counted under, as run's header names it: the
    rule (with ``--min-letters``), the word list, and a language not English."""
    language = dictionary.language.name
    return (f"rule {dictionary.rule_label} · {dictionary.label}"
            + (f" · language {language}" if language != "english" else ""))


def cmd_show(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from rich.console import Console

    from .board_svg import check_output, write_svg

    if ns.svg:
        check_output(ns.svg)  # a bad path fails before anything is drawn
    if ns.top < 0:
        raise BoggleOptError(f"--top must be >= 0, got {ns.top}")
    language = language_of(wordlist_source(ns.wordlist, regs), ns.language, regs)
    alphabet = language.alphabet
    asked = [typed_word(language, word) for word in ns.words]
    geometry = geometry_for(ns.board, ns.size, CLI_SIZE, alphabet)
    board = read_board(ns.board, geometry, alphabet)
    dictionary = load_dictionary(ns.wordlist, ns.rule, regs, cache=cache_choice(ns),
                                 language=ns.language,
                                 min_letters=ns.min_letters)
    note(dictionary.note)
    scorer = dictionary.scorer(geometry)
    found = {w.word: (w.points, w.path) for w in scorer.words(board)}
    words = word_paths(geometry, board, asked, found, ns.top, alphabet)
    label = settings_label(dictionary)
    drawing = picture(geometry, board, scorer.score(board), len(found), label, words, alphabet)
    Console(file=out, highlight=False).print(drawing)
    if ns.svg:
        replaced = write_svg(ns.svg, svg_picture(geometry, board, scorer.score(board), len(found),
                                                 label, words, alphabet))
        wrote(ns.svg, replaced)
    return 0
