"""SIGTERM and SIGHUP end a run the way Ctrl-C does.

``docker stop``, cluster schedulers and preempted cloud machines send
SIGTERM; a closed terminal sends SIGHUP. Under ``on_termination()`` either
one raises ``Terminated``, a ``KeyboardInterrupt``, so every path that
already keeps a run's results on Ctrl-C (the driver's stop, the searchers'
clean-up, the run file's finish record) serves these signals too. The exit
status is then 128 + the signal number (143, 129), as a shell reports it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: the signals handled like Ctrl-C (SIGHUP is POSIX only)
SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class Terminated(KeyboardInterrupt):
    """A termination signal arrived; the message is the run's stop reason."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"terminated by {signal.Signals(signum).name}")
        self.signum = signum


class Termination:
    """What ``on_termination`` saw: the first signal, if any."""

    def __init__(self) -> None:
        self.received: int | None = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None:
            return  # already stopping: let the clean-up finish (SIGKILL is the hurry-up)
        self.received = signum
        raise Terminated(signum)

    def status(self, code: int) -> int:
        """The exit status: 128 + the signal's number if one arrived, else ``code``."""
        return 128 + self.received if self.received is not None else code


def exit_status(exc: KeyboardInterrupt) -> int:
    """The exit status for a run ended by ``exc`` (Ctrl-C: 130)."""
    return 128 + (exc.signum if isinstance(exc, Terminated) else signal.SIGINT)


@contextmanager
def on_termination() -> Iterator[Termination]:
    """SIGTERM and SIGHUP raise ``Terminated`` in the main thread for the
    block; a signal the process was told to ignore (``nohup``) stays ignored."""
    seen = Termination()
    if threading.current_thread() is not threading.main_thread():
        yield seen  # only the main thread may set handlers
        return
    saved: dict[signal.Signals, Any] = {}
    for sig in SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            saved[sig] = signal.signal(sig, seen._handle)
    try:
        yield seen
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def quiet_worker() -> None:
    """For a worker process: leave Ctrl-C to the main process, which stops
    the workers itself (a terminal sends SIGINT to every process of the
    group; a worker idle between tasks would print a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
