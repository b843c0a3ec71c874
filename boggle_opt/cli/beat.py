"""A beat on a thread of its own, for progress lines that fall due while the
main thread is busy: a class solved in this process gives no event for
minutes (compiled code lets the thread in at its polls)."""

from __future__ import annotations

import threading
from collections.abc import Callable


class Beat:
    """Calls ``beat`` every ``every`` seconds (real time), holding ``lock``,
    from ``start`` until ``stop``."""

    def __init__(self, beat: Callable[[], None], every: float, lock: threading.Lock, name: str) -> None:
        self.beat = beat
        self.every = every
        self.lock = lock
        self.name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            with self.lock:
                if not self._stop.is_set():
                    self.beat()

    def stop(self) -> None:
        """Stop the thread: no beat comes after this returns (call it without
        holding ``lock``)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
