"""The run file: a JSON-lines record of a run, flushed as it goes.

One ``start`` record per segment (a resumed run appends a new one), then
``improved``, ``checkpoint`` and ``progress`` records as they happen, and a
``finish`` record: the schema of ``events``, shared with ``--progress jsonl``.
A killed run leaves every line written before the kill, so the file can be
read back (a torn or junk tail is ignored) and the run resumed. A new run
never appends to a file that holds something: that is ``--resume``'s job.
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..searching.driver import RunState, StopRun
from .events import event_record, finish_record, progress_record, start_record
from .lock import run_lock
from .records import RunFileError as RunFileError, Segment, is_record_line, read_numbered, recorded_boards, segments_of
from ..searching.interface import Event


PROGRESS_EVERY = 5.0  # seconds between progress records
#: bytes read at a time looking back for the last whole record
TAIL_CHUNK = 65536


class RunFileWriteFailed(StopRun):
    """The run file stopped taking records (disk full, read-only, removed):
    the run stops as at any other stop, keeping what it found."""


class RunFileWriter:
    """Consumer that appends records to a JSON-lines file: a new, empty one,
    or (``resume``) the run file of the run it continues, whose tail after
    its last whole record is cut off first.

    A write that fails ends the run (``RunFileWriteFailed``); ``error`` then
    says why, and nothing more is written, so the lines before it stay whole.
    """

    def __init__(
        self,
        path: str,
        settings: Mapping[str, Any],
        word_count: Callable[[str], int],
        top: int = 50,
        *,
        resume: bool = False,
    ) -> None:
        self.path = path
        self._fd: int | None = None
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
            if resume:
                drop_torn_tail(self._fd)
            elif os.fstat(self._fd).st_size > 0:
                self._close()
                raise not_empty(path)
        except OSError as exc:
            self._close()
            raise RunFileError(f"cannot write run file {path!r}: {exc.strerror}") from None
        self.settings = dict(settings)
        self.word_count = word_count
        self.top = top
        self._last_progress = 0.0
        #: why writing failed, as one line; None while all is well
        self.error: str | None = None

    def _write(self, record: Mapping[str, Any]) -> None:
        if self._fd is None:
            return
        data = (json.dumps(record) + "\n").encode("utf-8")
        try:
            if os.fstat(self._fd).st_nlink == 0:
                # writes would go on into a file no one can open again
                raise OSError(errno.ENOENT, "the file was removed")
            # unbuffered, one line a write: a killed run keeps every line
            # before the kill, and a failed write leaves nothing queued
            while data:
                data = data[os.write(self._fd, data):]
        except OSError as exc:
            self.error = f"cannot write run file {self.path!r}: {exc.strerror or exc}"
            self._close()
            raise RunFileWriteFailed("run file write failed") from None

    def _close(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass  # nothing is buffered: what was written stays written
            self._fd = None

    def start(self, state: RunState) -> None:
        try:
            self._write(start_record(state, self.settings))
        except RunFileWriteFailed:
            # nothing has run yet: an error like any other bad start
            raise RunFileError(str(self.error)) from None

    def event(self, event: Event, state: RunState) -> None:
        record = event_record(event, state)
        if record is not None:
            self._write(record)
        now = state.elapsed()
        if now - self._last_progress >= PROGRESS_EVERY:
            # so a killed run knows how much of its budget it had used
            self._last_progress = now
            self._write(progress_record(state))

    def finish(self, state: RunState) -> None:
        try:
            self._write(finish_record(state, self.word_count, self.top))
        except RunFileWriteFailed:
            pass  # the run has ended anyway; ``error`` says why the record is missing
        self._close()


def not_empty(path: str) -> RunFileError:
    # two runs in one file: a resume would mix their settings and their classes
    return RunFileError(
        f"run file {path!r} is not empty (it may hold a run): continue that run with "
        f"--resume {path}, or remove the file or write to another"
    )


def refuse_not_empty(path: str) -> None:
    """Refuse a new run's ``--out`` file that holds something, before the run is
    built (the writer checks again once the file is locked); a run writing it
    is named first (``RunFileLocked``)."""
    try:
        size = os.stat(path).st_size
    except OSError:
        return  # missing (made by the run) or unreadable (the writer says why)
    if size > 0 and os.path.isfile(path):
        with run_lock(path, create=False):
            pass
        raise not_empty(path)


def drop_torn_tail(fd: int) -> None:
    """Make the file end with its last whole record and a line break before
    appending: the tail after that record (a line torn by a kill or a full
    disk, the NUL bytes a power loss leaves, any junk) is cut off, as the
    reader skips it; a whole last record that lost only its line break gets
    one back. A file with no whole record is left as it is."""
    size = os.lseek(fd, 0, os.SEEK_END)
    pos, buf = size, b""
    while size:
        body = buf[:-1] if buf.endswith(b"\n") else buf
        nl = body.rfind(b"\n")
        if nl < 0 and pos > 0:  # the line may begin further back
            step = min(pos, TAIL_CHUNK)
            pos -= step
            buf = os.pread(fd, step, pos) + buf
            continue
        if is_record_line(body[nl + 1:]):
            end = pos + len(buf)
            if end < size:
                os.ftruncate(fd, end)
            if not buf.endswith(b"\n"):
                os.write(fd, b"\n")
            return
        if nl < 0:
            return
        buf = body[:nl + 1]


@dataclass
class PastRun:
    """What a run file says about the run so far."""

    settings: dict[str, Any]
    segments: int
    boards: list[tuple[str, int]] = field(default_factory=list)
    checkpoints: list[Mapping[str, Any]] = field(default_factory=list)
    elapsed: float = 0.0
    evaluations: int = 0
    #: the processes of the last segment, which a resume without --jobs keeps
    jobs: int = 1
    #: each segment's budget, use and stop reason, oldest first
    history: list[Segment] = field(default_factory=list)
    #: the file, and the line of each of ``boards`` and of ``checkpoints``, for errors
    path: str = ""
    board_lines: list[int] = field(default_factory=list)
    checkpoint_lines: list[int] = field(default_factory=list)

    def recorded_boards(self) -> list[tuple[int, str, int]]:
        """Every board the file records, as ``(line, board, score)``."""
        return recorded_boards(self.boards, self.board_lines, self.checkpoints,
                               self.checkpoint_lines, self.path)


def read_run_file(path: str) -> PastRun:
    """Parse a run file for ``--resume``."""
    numbered = read_numbered(path)
    records = [r for _, r in numbered]
    starts = [r for r in records if r.get("type") == "start"]
    past = PastRun(settings=starts[0]["settings"], segments=len(starts),
                   history=segments_of(records), path=path)
    # time and evaluations add up over segments; a killed segment counts up
    # to its last record
    seg_elapsed, seg_evals = 0.0, 0
    for line, r in numbered:
        kind = r.get("type")
        if kind == "start":
            past.elapsed += seg_elapsed
            past.evaluations += seg_evals
            seg_elapsed, seg_evals = 0.0, 0
            past.jobs = int(r["settings"].get("jobs") or 1)
        elif kind == "improved":
            past.boards.append((str(r["board"]), int(r["score"])))
            past.board_lines.append(line)
        elif kind == "checkpoint":
            past.checkpoints.append(r["record"])
            past.checkpoint_lines.append(line)
        if kind in ("improved", "progress", "finish"):
            seg_elapsed = max(seg_elapsed, float(r.get("elapsed", 0.0)))
            seg_evals = max(seg_evals, int(r.get("evaluations", 0)))
    past.elapsed += seg_elapsed
    past.evaluations += seg_evals
    return past
