"""The run file: a JSON-lines record of a run, flushed as it goes.

One ``start`` record per segment (a resumed run appends a new one), then
``improved``, ``checkpoint`` and ``progress`` records as they happen, and a
``finish`` record: the schema of ``events``, shared with ``--progress jsonl``.
A killed run leaves every line written before the kill, so the file can be
read back (a torn last line is ignored) and the run resumed.
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
from .records import RunFileError as RunFileError, Segment, read_records, segments_of
from ..searching.interface import Event


PROGRESS_EVERY = 5.0  # seconds between progress records
#: how every record's line starts (``json.dumps`` of a dict whose first key is type)
RECORD_START = b'{"type": '


class RunFileWriteFailed(StopRun):
    """The run file stopped taking records (disk full, read-only, removed):
    the run stops as at any other stop, keeping what it found."""


class RunFileWriter:
    """Consumer that appends records to a JSON-lines file.

    A write that fails ends the run (``RunFileWriteFailed``); ``error`` then
    says why, and nothing more is written, so the lines before it stay whole.
    """

    def __init__(
        self,
        path: str,
        settings: Mapping[str, Any],
        word_count: Callable[[str], int],
        top: int = 50,
    ) -> None:
        self.path = path
        try:
            self._fd: int | None = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
            drop_torn_tail(self._fd)
        except OSError as exc:
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


def drop_torn_tail(fd: int) -> None:
    """Make the file end at a line break before appending: a torn last line
    (a kill or a full disk mid-write) is cut off, a whole record that lost
    only its line break gets one back."""
    size = os.lseek(fd, 0, os.SEEK_END)
    if size == 0 or os.pread(fd, 1, size - 1) == b"\n":
        return
    start = max(0, size - 65536)
    tail = os.pread(fd, size - start, start)
    cut = tail.rfind(b"\n")
    if cut < 0 and start > 0:
        return  # a single line longer than we look back: not a run file's, leave it
    line = tail[cut + 1:]
    try:
        json.loads(line)
    except ValueError:
        if line[:len(RECORD_START)] == RECORD_START[:len(line)]:  # one of ours, torn
            os.ftruncate(fd, start + cut + 1)
            return
    os.write(fd, b"\n")


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
    path: str = ""


def read_run_file(path: str) -> PastRun:
    """Parse a run file for ``--resume``."""
    records = read_records(path)
    starts = [r for r in records if r.get("type") == "start"]
    past = PastRun(settings=starts[0]["settings"], segments=len(starts),
                   history=segments_of(records), path=path)
    # time and evaluations add up over segments; a killed segment counts up
    # to its last record
    seg_elapsed, seg_evals = 0.0, 0
    for r in records:
        kind = r.get("type")
        if kind == "start":
            past.elapsed += seg_elapsed
            past.evaluations += seg_evals
            seg_elapsed, seg_evals = 0.0, 0
            past.jobs = int(r["settings"].get("jobs") or 1)
        elif kind == "improved":
            past.boards.append((str(r["board"]), int(r["score"])))
        elif kind == "checkpoint":
            past.checkpoints.append(r["record"])
        if kind in ("improved", "progress", "finish"):
            seg_elapsed = max(seg_elapsed, float(r.get("elapsed", 0.0)))
            seg_evals = max(seg_evals, int(r.get("evaluations", 0)))
    past.elapsed += seg_elapsed
    past.evaluations += seg_evals
    return past
