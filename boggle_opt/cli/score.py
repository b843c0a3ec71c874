"""``boggle-opt score``: score boards from the command line or a stream, computing only what is printed.

Plain output (board, score, word count) takes one counting search per board
(``Scorer.score_count``); ``--multi`` and ``--words`` add their own searches
only when asked. Standard input is read in chunks of whatever has arrived,
and each chunk's lines are written and flushed together: a file of boards
streams at close to the core's speed, and a program feeding boards one at a
time still gets each answer at once.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from ..boards import _shown as shown, geometry_for, read_board
from .args import cache_choice, CLI_SIZE, add_rule_and_wordlist, note
from ..core.trie import LATIN
from ..core.errors import BoardError
from ..core.geometry import Geometry
from ..core.scorer import Scorer
from ..dictionary.dictionary import Dictionary
from ..registry.dictionaries import load_dictionary
from ..registry.registries import Registries

CHUNK = 1 << 16  # bytes read from a stream at a time
#: a line of standard input longer than this is refused as it comes, not read
#: to its end (``/dev/zero`` has none): a board has at most 64 letters
MAX_LINE = CHUNK


def add_parser(sub: Any) -> None:
    score = sub.add_parser("score", help="score boards", description="Score boards.")
    score.add_argument(
        "boards", nargs="+", metavar="BOARD", help="letters in column-major order; - reads stdin"
    )
    score.add_argument("--size", metavar="CxR", help="CxR (default: square root of the board length)")
    add_rule_and_wordlist(score)
    score.add_argument("--words", action="store_true", help="list the words and their paths")
    score.add_argument(
        "--multi", action="store_true", help="add Multi-Boggle and de-duplicated Multi columns"
    )
    score.add_argument("--json", action="store_true", help="one JSON object per board")
    score.set_defaults(run=cmd_score)


class BoardScorer:
    """Turns board lines into output lines for one set of ``score`` options."""

    def __init__(
        self, dictionary: Dictionary, size: str | None, words: bool, multi: bool, as_json: bool
    ) -> None:
        self.dictionary = dictionary
        self.size = size
        self.words = words
        self.multi = multi
        self.as_json = as_json
        self.plain = not (words or multi or as_json)
        #: the tiles boards are written in (English: a-z, ``q`` for Qu: read as they are)
        self.alphabet = dictionary.alphabet
        self.latin = dictionary.alphabet.symbols == LATIN
        # scorers by board length (a fixed --size has one, an inferred size one per length)
        self._scorers: dict[int, tuple[Geometry, Scorer]] = {}

    def header(self) -> str:
        if self.as_json:
            return ""
        columns = "board\tscore\twords" + ("\tdemulti\tmulti" if self.multi else "")
        d = self.dictionary
        return f"# word list: {d.label}; rule: {d.rule_label}; language: {d.language.name}\n# {columns}\n"

    def _scorer(self, board: str) -> tuple[Geometry, Scorer]:
        """The geometry and scorer for a board, checking it (BoardError says what is wrong)."""
        found = self._scorers.get(len(board))
        if found is None:
            # (``board`` is already read: its private symbols are its own)
            geometry = geometry_for(board, self.size, CLI_SIZE, self.alphabet, stored=True)
            read_board(board, geometry, self.alphabet, stored=True)
            found = self._scorers[len(board)] = (geometry, self.dictionary.scorer(geometry))
        return found

    def lines(self, boards: list[str], out: list[str]) -> None:
        """Append the output for ``boards`` (raw lines; blank ones skipped) to ``out``.

        On a bad board, what came before it is in ``out`` and BoardError is raised.
        """
        if not self.plain:
            for raw in boards:
                if raw.strip():
                    out.append(self.one(raw))
            return
        # the hot loop: one dict lookup and one compiled call per board
        scorers = self._scorers
        latin, alphabet = self.latin, self.alphabet
        for raw in boards:
            board = raw.strip().lower() if latin and "[" not in raw else alphabet.read(raw)
            if not board:
                continue
            found = scorers.get(len(board))
            if found is None:
                found = self._scorer(board)
            try:
                score, count = found[1].score_count(board)
            except BoardError:
                read_board(board, geometry_for(board, self.size, CLI_SIZE, alphabet, stored=True), alphabet,
                           stored=True)
                raise  # (the line above gives the user-facing message)
            out.append(f"{alphabet.write(board)}\t{score}\t{count}\n")

    def check(self, text: str) -> tuple[str, Geometry, Scorer]:
        """The board parsed, its geometry and scorer; BoardError says what is wrong."""
        board = text.strip().lower() if self.latin and "[" not in text else self.alphabet.read(text)
        if not board:
            raise BoardError("empty board")
        geometry, scorer = self._scorer(board)
        return read_board(board, geometry, self.alphabet, stored=True), geometry, scorer

    def one(self, text: str) -> str:
        """The output for one board, with whatever the options ask for."""
        board, geometry, scorer = self.check(text)
        found = scorer.words(board) if self.words else None
        if found is None:
            score, count = scorer.score_count(board)
        else:
            score, count = scorer.score(board), len(found)
        multi = (scorer.demulti(board), scorer.multi(board)) if self.multi else None
        written = self.alphabet.write(board)
        if self.as_json:
            record: dict[str, object] = {
                "board": written, "size": geometry.size, "score": score, "words": count,
                "tiles": self.alphabet.cells(board),
            }
            if multi is not None:
                record["demulti"], record["multi"] = multi
            d = self.dictionary
            record["canonical"] = self.alphabet.write(geometry.canonical(board))
            record["rule"] = d.rule.name
            record["min_letters"] = d.rule.min_letters
            record["wordlist"] = {"name": d.name, "words": d.n_words}
            record["language"] = d.language.name
            if found is not None:
                record["found"] = [{"word": w.word, "points": w.points, "path": w.path} for w in found]
            return json.dumps(record) + "\n"
        line = f"{written}\t{score}\t{count}"
        if multi is not None:
            line += f"\t{multi[0]}\t{multi[1]}"
        text = line + "\n"
        canon = geometry.canonical(board)
        if canon != board:  # the form results and run files list it in
            text += (f"# {written} is {self.alphabet.write(canon)} rotated or reflected "
                     "(its canonical form)\n")
        if found is not None:
            for w in sorted(found, key=lambda w: (-w.points, w.word)):
                text += f"  {w.word}\t{w.points}\t{'-'.join(str(c) for c in w.path)}\n"
        return text


def stream_chunks(stream: TextIO) -> Iterator[list[str]]:
    """Lines of ``stream`` in chunks of what has arrived (bytes that are not UTF-8
    become characters that no board accepts, as they do in argv)."""
    try:
        fd = stream.fileno()
    except (OSError, AttributeError, io.UnsupportedOperation):
        fd = -1
    if fd < 0:  # not a real file (a test's StringIO): line by line
        for line in stream:
            yield [line]
        return
    tail = b""
    while True:
        data = os.read(fd, CHUNK)
        if not data:
            break
        lines = (tail + data).split(b"\n")
        tail = lines.pop()
        if lines:
            yield b"\n".join(lines).decode("utf-8", "surrogateescape").split("\n")
        if len(tail) > MAX_LINE:
            text = tail.decode("utf-8", "surrogateescape")
            raise BoardError(f"bad board {shown(text)}: a line of more than {MAX_LINE:,} bytes, "
                             "and a board has at most 64 letters")
    if tail:
        yield [tail.decode("utf-8", "surrogateescape")]


def score_boards(scorer: BoardScorer, args: list[str], stdin: TextIO | None, out: TextIO) -> None:
    """Score each board argument in turn; ``-`` streams standard input."""
    for arg in args:
        if arg != "-":
            out.write(scorer.one(arg))
            out.flush()
            continue
        if stdin is None:
            raise BoardError("cannot read boards from standard input: it is closed")
        read = 0  # lines of standard input before this chunk
        for chunk in stream_chunks(stdin):
            done: list[str] = []
            try:
                scorer.lines(chunk, done)
            except BoardError as exc:
                # the bad line is the first board not done (blank lines are skipped)
                boards = [i for i, raw in enumerate(chunk) if raw.strip()]
                line = read + boards[len(done)] + 1 if len(done) < len(boards) else read + len(chunk)
                raise BoardError(f"standard input, line {line:,}: {exc}") from None
            finally:
                out.write("".join(done))
                out.flush()
            read += len(chunk)


def cmd_score(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    dictionary = load_dictionary(ns.wordlist, ns.rule, regs, cache=cache_choice(ns),
                                 language=ns.language,
                                 min_letters=ns.min_letters)
    note(dictionary.note)
    scorer = BoardScorer(dictionary, ns.size, ns.words, ns.multi, ns.json)
    for arg in ns.boards:  # a bad board on the command line: its error, not a header first
        if arg != "-":
            scorer.check(arg)
    out.write(scorer.header())
    out.flush()  # a program that reads the header before sending boards must get it
    score_boards(scorer, ns.boards, sys.stdin, out)
    return 0
