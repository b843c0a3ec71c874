"""One writer per run file: an advisory lock held while a run writes it.

The lock is ``flock`` on the run file itself, so the kernel drops it when
the holding process ends, however it ends: a lock left by a killed run never
blocks the next one. ``flock`` cannot say who holds a lock, so the holder
also writes its process id and host to a label, ``FILE.lock`` beside the run
file; a run refused the lock reads it to name the holder. As git does with
its lock files, the label is made with ``O_CREAT | O_EXCL`` (never through a
symlink, never over a file that is there) and removed only by the process
that made it, checked by inode. A stale label (a regular file in the label's
form whose process is gone) is replaced; any other ``FILE.lock`` is left
alone, and the run is then locked without a label.

``fcntl`` is POSIX; where it is missing (Windows) runs are not locked.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..core.errors import BoggleOptError
from .files import open_regular, refuse_dangling, refuse_irregular

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

#: the most of a label read: a label is one short line
LABEL_BYTES = 4096


class RunFileLocked(BoggleOptError):
    """Another process is writing the run file."""


def holder_path(path: str) -> str:
    """The file naming the process that holds ``path``'s lock."""
    return path + ".lock"


class RunLock:
    """The lock on one run file; ``release()`` (or process exit) gives it up.
    ``label``: write ``FILE.lock`` naming this process while it holds the lock
    (False for a lock taken only to see whether another process holds it)."""

    def __init__(self, path: str, create: bool = True, label: bool = True) -> None:
        self.path = path
        #: a new run creates its file; a resumed one must find it
        self.create = create
        self.label = label
        self._fd: int | None = None
        #: the label this lock made, the only one it removes: (device, inode, contents)
        self._label_made: tuple[int, int, bytes] | None = None

    def acquire(self) -> RunLock:
        """Take the lock, or raise ``RunFileLocked`` naming the holder."""
        # a FIFO would block the open below until someone opened its other end
        refuse_irregular(self.path, "run file")
        if self.create:  # the file is made here, not at a symlink's target elsewhere
            refuse_dangling(self.path, f"run file {self.path!r}")
        flags = os.O_WRONLY | os.O_APPEND | (os.O_CREAT if self.create else 0)
        try:
            fd = open_regular(self.path, flags, "run file")
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
        if self.label:
            self._label_made = _make_label(holder_path(self.path))
        return self

    def release(self) -> None:
        if self._fd is None:
            return
        if self._label_made is not None:
            _remove_label(holder_path(self.path), self._label_made)
            self._label_made = None
        os.close(self._fd)  # closing drops the flock
        self._fd = None

    @property
    def held(self) -> bool:
        return self._fd is not None


def _make_label(label: str) -> tuple[int, int, bytes] | None:
    """Write the label naming this process, as a new file; its (device, inode,
    contents), or None if there is none (a file not ours is in the way, or it cannot be
    written: only a label, the lock itself is held)."""
    record = {"pid": os.getpid(), "host": socket.gethostname(),
              "since": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    data = (json.dumps(record) + "\n").encode("utf-8")
    for _ in range(2):
        try:
            # O_EXCL: never through a symlink, never over anything there
            fd = os.open(label, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            if not _stale_label(label):
                return None
            try:
                os.unlink(label)  # a stale label of a run that was killed
            except FileNotFoundError:
                pass
            except OSError:
                return None
            continue
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            made = (st.st_dev, st.st_ino, data)
            try:
                os.write(fd, data)
            except OSError:
                os.unlink(label)  # ours, made a moment ago: not left half written
                return None
        finally:
            os.close(fd)
        return made
    return None


def _remove_label(label: str, made: tuple[int, int, bytes]) -> None:
    """Remove ``label`` if it is still the one made here: the same inode (a
    file put in its place may reuse the number) holding the same words."""
    try:
        fd = os.open(label, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) != made[:2] or os.read(fd, LABEL_BYTES + 1) != made[2]:
            return
        os.unlink(label)
    except OSError:
        pass
    finally:
        os.close(fd)


def _read_label(label: str) -> dict[str, Any] | None:
    """The label's record if ``label`` is a regular file (not a symlink) that
    holds one: ``{"pid": int, "host": str, ...}``; None otherwise."""
    try:
        fd = os.open(label, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        data = os.read(fd, LABEL_BYTES)
    except OSError:
        return None
    finally:
        os.close(fd)
    try:
        record: Any = json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if (not isinstance(record, dict) or not isinstance(record.get("pid"), int)
            or isinstance(record.get("pid"), bool) or not isinstance(record.get("host"), str)):
        return None
    return record


def _stale_label(label: str) -> bool:
    """Whether ``label`` is a label whose process is gone (this run holds the
    lock, so it is stale anyway; a live process of that number on this host
    may still be its writer, holding an older file's lock, and is left be)."""
    record = _read_label(label)
    if record is None:
        return False
    pid = int(record["pid"])
    if record["host"] != socket.gethostname() or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False  # alive, another user's
    return False


def describe_holder(path: str) -> str:
    """``process 1234 on host h (since ...)``, from the holder's label if it has one."""
    record = _read_label(holder_path(path))
    if record is None:
        return "another process"
    pid = int(record["pid"])
    host = str(record.get("host", ""))
    since = str(record.get("since", ""))
    where = f" on {host}" if host and host != socket.gethostname() else ""
    when = f" (since {since})" if since else ""
    return f"process {pid}{where}{when}"


@contextmanager
def run_lock(path: str | None, create: bool = True, label: bool = True) -> Iterator[RunLock | None]:
    """Hold the lock on run file ``path`` (nothing if None) for the block;
    ``label`` as for ``RunLock``."""
    if path is None:
        yield None
        return
    lock = RunLock(path, create, label).acquire()
    try:
        yield lock
    finally:
        lock.release()
