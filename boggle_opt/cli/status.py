"""One line of progress on stderr for the commands that work for minutes
without a live panel (``plan``, ``verify``, ``merge``, ``report``).

On a terminal the line is rewritten in place. Off one (a log, a batch job)
each new phase gets its line at once, an update within a phase at most every
``EVERY`` seconds, and the same line again only after ``SAME`` seconds: a
heartbeat, not a log full of one line.
"""

from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable

#: seconds between updates off a terminal, and between repeats of one line
EVERY = 5.0
SAME = 60.0


class StatusLine:
    """``PREFIX: text`` on stderr (see the module)."""

    def __init__(self, prefix: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.prefix = prefix
        self.tty = sys.stderr.isatty()
        self.clock = clock
        self.last = clock()
        self.line = ""  # the last line written
        self.width = 0  # of the line standing on the terminal

    def show(self, text: str, update: bool = False) -> None:
        """A new phase's ``text``, or with ``update`` the phase's progress."""
        line = f"{self.prefix}: {text}"
        now = self.clock()
        if self.tty:
            if line == self.line:
                return
            # a line the terminal wraps cannot be rewritten in place
            shown = line[:max(20, shutil.get_terminal_size().columns - 1)]
            sys.stderr.write("\r" + shown + " " * max(0, self.width - len(shown)))
            self.width = len(shown)
        else:
            since = now - self.last
            if since < (SAME if line == self.line else EVERY if update else 0.0):
                return
            sys.stderr.write(line + "\n")
            self.last = now
        self.line = line
        sys.stderr.flush()

    def keep(self) -> None:
        """Leave the last line standing (on a terminal: end it)."""
        if self.tty and self.width:
            sys.stderr.write("\n")
            sys.stderr.flush()
        self.width = 0

    def __enter__(self) -> StatusLine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.clear()

    def clear(self) -> None:
        """Take the line away on a terminal, before the results are written."""
        if self.tty and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
        self.width = 0
