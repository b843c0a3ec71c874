"""One writer per run file: an advisory lock held while a run writes it.

The lock is ``flock`` on the run file itself, so the kernel drops it when
the holding process ends, however it ends: a lock left by a killed run never
blocks the next one. ``flock`` cannot say who holds a lock, so the holder
also writes its process id and host to ``FILE.lock`` beside the run file; a
run refused the lock reads it to name the holder. That file is only a label:
a stale one (its process gone) is simply overwritten by the next holder.

``fcntl`` is POSIX; where it is missing (Windows) runs are not locked.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.errors import BoggleOptError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class RunFileLocked(BoggleOptError):
    """Another process is writing the run file."""


def holder_path(path: str) -> str:
    """The file naming the process that holds ``path``'s lock."""
    return path + ".lock"


class RunLock:
    """The lock on one run file; ``release()`` (or process exit) gives it up."""

    def __init__(self, path: str, create: bool = True) -> None:
        self.path = path
        #: a new run creates its file; a resumed one must find it
        self.create = create
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        """Take the lock, or raise ``RunFileLocked`` naming the holder."""
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT if self.create else 0)
        try:
            fd = os.open(self.path, flags, 0o666)
        except OSError as exc:
            verb = "read" if exc.errno == errno.ENOENT and not self.create else "write"
            raise BoggleOptError(
                f"cannot {verb} run file {self.path!r}: {exc.strerror}"
            ) from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise RunFileLocked(
                    f"run file {self.path!r} is being written by {describe_holder(self.path)}; "
                    "wait for that run to end or stop it"
                ) from None
            except OSError as exc:  # a filesystem without locks
                os.close(fd)
                raise BoggleOptError(
                    f"cannot lock run file {self.path!r}: {exc.strerror}"
                ) from None
        self._fd = fd
        self._label()
        return self

    def _label(self) -> None:
        record = {"pid": os.getpid(), "host": socket.gethostname(),
                  "since": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        try:
            with open(holder_path(self.path), "w", encoding="utf-8") as f:
                f.write(json.dumps(record) + "\n")
        except OSError:
            pass  # only a label: the lock itself is held

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(holder_path(self.path))
        except OSError:
            pass
        os.close(self._fd)  # closing drops the flock
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def describe_holder(path: str) -> str:
    """``process 1234 on host h (since ...)``, from the holder's label if it has one."""
    try:
        with open(holder_path(path), encoding="utf-8") as f:
            record: Any = json.loads(f.read())
        pid = int(record["pid"])
        host = str(record.get("host", ""))
        since = str(record.get("since", ""))
    except (OSError, ValueError, TypeError, KeyError):
        return "another process"
    where = f" on {host}" if host and host != socket.gethostname() else ""
    when = f" (since {since})" if since else ""
    return f"process {pid}{where}{when}"


@contextmanager
def run_lock(path: str | None, create: bool = True) -> Iterator[RunLock | None]:
    """Hold the lock on run file ``path`` (nothing if None) for the block."""
    if path is None:
        yield None
        return
    lock = RunLock(path, create).acquire()
    try:
        yield lock
    finally:
        lock.release()
