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
from .written import stored_record, written_record
from ..core.alphabet import ENGLISH, Alphabet
from ..registry.registries import Registries
from .files import open_regular, refuse_dangling, refuse_irregular
from .lock import run_lock
from .records import (
    ELAPSED_KINDS, LINE_LIMIT, RunFileError as RunFileError, Segment, is_record_line, read_numbered,
    check_settings, recorded_boards, segment_budget,
)
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
        if not resume:  # a new file is made here, not at a symlink's target elsewhere
            refuse_dangling(path, f"run file {path!r}")
        try:
            self._fd = open_regular(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, "run file")
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
        #: a board as people write it (the run's ``RunState.write``, known at start)
        self._board: Callable[[str], str] = str
        #: why writing failed, as one line; None while all is well
        self.error: str | None = None

    def _write(self, record: Mapping[str, Any]) -> None:
        if self._fd is None:
            return
        data = (json.dumps(written_record(record, self._board)) + "\n").encode("utf-8")
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
        self._board = state.write
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
    is named first (``RunFileLocked``). A FIFO or a device is refused too: it
    would block the open, or never end."""
    refuse_irregular(path, "run file")
    try:
        size = os.stat(path).st_size
    except OSError:
        return  # missing (made by the run) or unreadable (the writer says why)
    if size > 0:
        # only to name a run writing it: no label of ours comes or goes
        with run_lock(path, create=False, label=False):
            pass
        raise not_empty(path)


def drop_torn_tail(fd: int) -> None:
    """Make the file end with its last whole record and a line break before
    appending: the tail after that record (a line torn by a kill or a full
    disk, the NUL bytes a power loss leaves, any junk) is cut off, as the
    reader skips it; a whole last record that lost only its line break gets
    one back. A file with no whole record is left as it is. A line over
    ``records.LINE_LIMIT`` is no record here either, and is never read whole."""
    size = os.lseek(fd, 0, os.SEEK_END)
    end = size  # the file up to ``end`` still holds the last whole record, if any
    while end > 0:
        # the last line before ``end``: from ``start`` to ``stop``, its break (if any) at ``stop``
        stop = end - 1 if os.pread(fd, 1, end - 1) == b"\n" else end
        start = _line_start(fd, stop)
        if stop - start <= LINE_LIMIT and is_record_line(os.pread(fd, stop - start, start)):
            if end < size:
                os.ftruncate(fd, end)
            if stop == end:
                os.write(fd, b"\n")
            return
        end = start


def _line_start(fd: int, stop: int) -> int:
    """Where the line that ends at ``stop`` begins: just after the line break
    before it, or 0; looked for backwards a chunk at a time."""
    pos = stop
    while pos > 0:
        step = min(pos, TAIL_CHUNK)
        pos -= step
        nl = os.pread(fd, step, pos).rfind(b"\n")
        if nl >= 0:
            return pos + nl + 1
    return 0


def run_alphabet(settings: Any, registries: Registries | None) -> Alphabet:
    """The tiles of a run's language as its settings name it (English when
    they name none, or it is not registered: its boards read as they are)."""
    name = settings.get("language") if isinstance(settings, dict) else None
    if registries is None or not isinstance(name, str) or name not in registries.languages:
        return ENGLISH
    return registries.languages.get(name).alphabet


@dataclass
class PastRun:
    """What a run file says about the run so far, in the order it happened:
    the one reading of a run file, for ``--resume`` and for ``report``."""

    settings: dict[str, Any]
    segments: int
    boards: list[tuple[str, int]] = field(default_factory=list)
    checkpoints: list[Mapping[str, Any]] = field(default_factory=list)
    #: time and evaluations over all segments; a killed one counts up to its last record
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
    #: when the first segment started (local ISO 8601, as recorded)
    started: str = ""
    #: each improvement as (seconds, evaluations, board, score), segments added up
    improved: list[tuple[float, int, str, int]] = field(default_factory=list)
    #: seconds since the run started (segments added up) of each of ``checkpoints``
    checkpoint_times: list[float] = field(default_factory=list)
    #: the last progress record's stats
    stats: Mapping[str, Any] = field(default_factory=dict)
    #: the last finish record, and its line
    finish: Mapping[str, Any] | None = None
    finish_line: int = 0
    #: every board the file records, as ``(line, board, score)``, to re-score before use
    recorded: list[tuple[int, str, int]] = field(default_factory=list)

    def recorded_boards(self) -> list[tuple[int, str, int]]:
        """Every board the file records, as ``(line, board, score)``."""
        return self.recorded

    @property
    def stop_reason(self) -> str | None:
        """How the run ended: as its last segment did (None: no finish record)."""
        return self.history[-1].stop_reason if self.history else None

    @property
    def proof(self) -> Mapping[str, Any] | None:
        """The last finish record's ``proof`` object, if it has one."""
        proof = (self.finish or {}).get("proof")
        return proof if isinstance(proof, dict) else None

    @property
    def best(self) -> list[tuple[str, int, int | None]]:
        """The last finish record's best boards as ``(board, score, words)``
        (read when asked: a resume does not need them)."""
        try:
            return [(str(b["board"]), int(b["score"]), int(b["words"]) if b.get("words") is not None else None)
                    for b in (self.finish or {}).get("best", [])]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise RunFileError(f"run file {self.path!r} line {self.finish_line} has a malformed record: "
                               f"{exc}") from None


def read_run_file(path: str, registries: Registries | None = None) -> PastRun:
    """Read a run file (every line checked by ``records.read_numbered``) and
    fold its segments: what ``--resume`` continues and ``report`` shows.
    With ``registries``, its boards, buckets and parts are read into the
    symbols of its language's tiles (``runs.written``; either written form);
    without, they stay as the file writes them."""
    numbered = read_numbered(path)
    first = next(r for _, r in numbered if r.get("type") == "start")
    # what a report shows and a resume continues, checked as verify checks it: one line, not a traceback
    check_settings(first["settings"], path)
    alphabet = run_alphabet(first.get("settings"), registries)
    if not alphabet.plain:
        numbered = [(line, dict(stored_record(r, alphabet))) for line, r in numbered]
        first = next(r for _, r in numbered if r.get("type") == "start")
    past = PastRun(settings=first["settings"], segments=0, path=path, started=str(first.get("time", "")))
    # time and evaluations add up over segments; a killed segment counts up
    # to its last record
    offset_s, offset_e = 0.0, 0
    best = -1
    seg: Segment | None = None
    for line, r in numbered:
        kind = r.get("type")
        if kind == "start":
            if seg is not None:
                offset_s, offset_e = offset_s + seg.elapsed, offset_e + seg.evaluations
            seg = Segment(segment_budget(r.get("settings")), str(r.get("time", "")), best=best)
            past.history.append(seg)
            past.segments += 1
            past.jobs = int(r["settings"].get("jobs") or 1)
            continue
        if seg is None:
            continue
        if kind in ELAPSED_KINDS:
            seg.elapsed = max(seg.elapsed, float(r.get("elapsed", 0.0)))
            seg.evaluations = max(seg.evaluations, int(r.get("evaluations", 0)))
        if kind == "improved":
            board, score = str(r["board"]), int(r["score"])
            past.boards.append((board, score))
            past.board_lines.append(line)
            past.improved.append((offset_s + float(r.get("elapsed", 0.0)),
                                  offset_e + int(r.get("evaluations", 0)), board, score))
            best = max(best, score)
            seg.best = best
        elif kind == "checkpoint":
            past.checkpoints.append(r["record"])
            past.checkpoint_lines.append(line)
            past.checkpoint_times.append(offset_s + float(r.get("elapsed", seg.elapsed)))
        elif kind == "progress" and isinstance(r.get("stats"), dict):
            past.stats = r["stats"]
        elif kind == "finish":
            seg.stop_reason = str(r.get("stop_reason", ""))
            past.finish, past.finish_line = r, line
    if seg is not None:
        past.elapsed, past.evaluations = offset_s + seg.elapsed, offset_e + seg.evaluations
    # checked as read: a checkpoint's boards that are not [board, score] pairs end here
    past.recorded = recorded_boards(past.boards, past.board_lines, past.checkpoints,
                                    past.checkpoint_lines, path)
    return past
