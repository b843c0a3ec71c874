"""One line of progress on stderr for the commands that work for minutes
without a live panel (``plan``, ``verify``, ``merge``, ``report``).

On a terminal the line is rewritten in place. Off one (a log, a batch job)
each new phase gets its line at once, an update within a phase at most every
``EVERY`` seconds, and the same line again only after ``SAME`` seconds: a
heartbeat, not a log full of one line.

A line that stands unchanged for ``STILL`` seconds says for how long (a
thread writes it: a class solved in this process, as a one-job ``plan`` or
re-solve does, gives no progress for minutes), on a terminal every second,
off one every ``SAME`` seconds.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable

from ..proofs.outcome import duration
from .beat import Beat

#: seconds between updates off a terminal, and between repeats of one line
EVERY = 5.0
SAME = 60.0
#: seconds a line stands unchanged before it says for how long
STILL = 10.0


class StatusLine:
    """``PREFIX: text`` on stderr (see the module)."""

    def __init__(self, prefix: str, clock: Callable[[], float] = time.monotonic, tick: float = 1.0) -> None:
        self.prefix = prefix
        self.tty = sys.stderr.isatty()
        self.clock = clock
        self.last = clock()
        self.line = ""  # the last line written
        self.width = 0  # of the line standing on the terminal
        self.text = ""  # the last text shown, and since when
        self.written = ""  # off a terminal: the text of the last line written
        self.changed = self.last
        self._lock = threading.Lock()
        #: the line written again as it stands still (``tick``: seconds between looks)
        self._beat = Beat(lambda: self._write(True), tick, self._lock, "status-line")

    def show(self, text: str, update: bool = False) -> None:
        """A new phase's ``text``, or with ``update`` the phase's progress."""
        with self._lock:
            if text != self.text:
                self.text, self.changed = text, self.clock()
            self._write(update)
            if not self._beat.running:
                self._beat.start()

    def _write(self, update: bool) -> None:
        now = self.clock()
        line = f"{self.prefix}: {self.text}"
        still = now - self.changed
        if still >= STILL:
            line += f" (unchanged for {duration(still)})"
        if self.tty:
            if line == self.line:
                return
            # a line the terminal wraps cannot be rewritten in place
            shown = line[:max(20, shutil.get_terminal_size().columns - 1)]
            sys.stderr.write("\r" + shown + " " * max(0, self.width - len(shown)))
            self.width = len(shown)
        else:
            # the same text (whatever it says of how long) only as a heartbeat
            since = now - self.last
            if since < (SAME if self.text == self.written else EVERY if update else 0.0):
                return
            sys.stderr.write(line + "\n")
            self.last = now
            self.written = self.text
        self.line = line
        sys.stderr.flush()

    def keep(self) -> None:
        """Leave the last line standing (on a terminal: end it)."""
        self._beat.stop()
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
        self._beat.stop()
        if self.tty and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
        self.width = 0
