"""Standard output for the commands: a write that fails (a full disk, a
closed pipe) is an ``OutputError``, one line on stderr, not a traceback; and
what is still buffered is dropped, so it cannot fail again as Python exits.
What a person reads is wrapped to ``WIDTH`` columns (``fill``, ``comment``,
``columns``), never inside a word: a path, a board or a command stays whole."""

from __future__ import annotations

import errno
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, TextIO, cast

from ..core.errors import BoggleOptError


#: the columns of what a command prints for a person (a terminal's classic width)
WIDTH = 80


def fill(text: str, indent: str = "", subsequent: str | None = None, width: int = WIDTH,
         whole: Sequence[str] = ()) -> str:
    """``text`` wrapped to ``width`` columns after ``indent`` (later lines
    after ``subsequent``, else ``indent``), never inside a word, nor inside
    the phrases ``whole`` (a release tag, a command)."""
    for phrase in whole:  # spaces textwrap does not break at, put back after
        text = text.replace(phrase, phrase.replace(" ", "\0"))
    return textwrap.fill(text, width, initial_indent=indent,
                         subsequent_indent=indent if subsequent is None else subsequent,
                         break_long_words=False, break_on_hyphens=False).replace("\0", " ")


def plain(text: str, width: int = WIDTH) -> str:
    """A line of words on stderr (a note, why a run stopped)
    within ``width`` columns, continued on lines indented two spaces; a
    `quoted` command stays whole (a plugin's note can be any length)."""
    if len(text) <= width:
        return text
    return fill(text, "", "  ", width, whole=re.findall(r"`[^`]*`", text))


def comment(text: str) -> str:
    """A ``# `` line of a command's results, continued on ``#   `` lines."""
    return fill(text, "# ", "#   ")


def columns(name: str, text: str, column: int, indent: str = "  ", whole: Sequence[str] = ()) -> str:
    """``name``, then ``text`` wrapped from ``column``; a name too wide for
    its column gets a line of its own rather than running into the text."""
    body = fill(text, " " * column, whole=whole)
    head = indent + name
    if len(head) < column:
        return head + body[len(head):]
    return head + "\n" + body


def wrote(path: str, replaced: bool = False, detail: str = "") -> None:
    """Every command that writes a file says so alike, on stderr (stdout is
    the results): ``wrote FILE``, and whether it replaced an earlier one."""
    more = [detail] if detail else []
    if replaced:
        more.append("replaced the file that was there")
    print(f"wrote {path}" + (f" ({'; '.join(more)})" if more else ""), file=sys.stderr)


class OutputError(BoggleOptError):
    """Standard output could not be written."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(f"cannot write to standard output: {exc.strerror or exc}")
        self.errno = exc.errno

    @property
    def closed_pipe(self) -> bool:
        """The reader went away (``| head``): nothing is wrong with the command."""
        return self.errno == errno.EPIPE


class Stdout:
    """``stream`` with its write errors raised as ``OutputError`` (told apart
    from the errors of the files a command reads or writes); everything else
    as the stream has it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        #: a write failed: what is still buffered must not be flushed at exit
        self.failed = False

    def _error(self, exc: OSError) -> OutputError:
        self.failed = True
        return OutputError(exc)

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise self._error(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise self._error(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def stdout() -> tuple[Stdout, TextIO]:
    """The wrapper for ``sys.stdout``, and the same typed as the stream the commands take."""
    out = Stdout(sys.stdout)
    return out, cast(TextIO, out)


def discard_stdout() -> None:
    """Point standard output at ``os.devnull``: its buffer, which could not be
    written, then goes nowhere as Python exits instead of failing again (with
    an ``Exception ignored`` message and status 120)."""
    try:
        fd = sys.stdout.fileno()
        devnull = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError, AttributeError):
        return
    try:
        os.dup2(devnull, fd)
    except OSError:
        pass
    finally:
        os.close(devnull)
