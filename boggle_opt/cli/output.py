"""Standard output for the commands: a write that fails (a full disk, a
closed pipe) is an ``OutputError``, one line on stderr, not a traceback; and
what is still buffered is dropped, so it cannot fail again as Python exits."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any, TextIO, cast

from ..core.errors import BoggleOptError


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
