"""The run file: a JSON-lines record of a run, flushed as it goes.

One ``start`` record per segment (a resumed run appends a new one), then
``improved`` and ``checkpoint`` records as they happen, and a ``finish``
record. A killed run leaves every line written before the kill, so the file
can be read back (a torn last line is ignored) and the run resumed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from .core.errors import BoggleOptError
from .driver import RunState
from .search import Checkpoint, Event, Improved


PROGRESS_EVERY = 5.0  # seconds between progress records


class RunFileError(BoggleOptError):
    """A run file that cannot be written or read back."""


class RunFileWriter:
    """Consumer that appends records to a JSON-lines file."""

    def __init__(
        self,
        path: str,
        settings: Mapping[str, Any],
        word_count: Callable[[str], int],
        top: int = 50,
    ) -> None:
        try:
            self._file: TextIO = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise RunFileError(f"cannot write run file {path!r}: {exc.strerror}") from None
        self.path = path
        self.settings = dict(settings)
        self.word_count = word_count
        self.top = top
        self._last_progress = 0.0

    def _write(self, record: Mapping[str, Any]) -> None:
        self._file.write(json.dumps(record) + "\n")
        # flushed per line: a killed run keeps everything written so far
        self._file.flush()

    def start(self, state: RunState) -> None:
        self._write(
            {
                "type": "start",
                "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
                "settings": self.settings,
            }
        )

    def event(self, event: Event, state: RunState) -> None:
        if isinstance(event, Improved):
            self._write(
                {
                    "type": "improved",
                    "board": event.board,
                    "score": event.score,
                    "elapsed": round(state.elapsed(), 3),
                    "evaluations": state.evaluations,
                }
            )
        elif isinstance(event, Checkpoint):
            self._write({"type": "checkpoint", "record": dict(event.record)})
        now = state.elapsed()
        if now - self._last_progress >= PROGRESS_EVERY:
            # so a killed run knows how much of its budget it had used
            self._last_progress = now
            self._write(
                {"type": "progress", "elapsed": round(now, 3), "evaluations": state.evaluations}
            )

    def finish(self, state: RunState) -> None:
        best = [
            {"board": b, "score": s, "words": self.word_count(b)}
            for b, s in state.ranked()[: self.top]
        ]
        self._write(
            {
                "type": "finish",
                "stop_reason": state.stop_reason,
                "elapsed": round(state.elapsed(), 3),
                "evaluations": state.evaluations,
                "best": best,
            }
        )
        self._file.close()


@dataclass
class PastRun:
    """What a run file says about the run so far."""

    settings: dict[str, Any]
    segments: int
    boards: list[tuple[str, int]] = field(default_factory=list)
    checkpoints: list[Mapping[str, Any]] = field(default_factory=list)
    elapsed: float = 0.0
    evaluations: int = 0


def read_run_file(path: str) -> PastRun:
    """Parse a run file for ``--resume``; a torn last line (a kill) is skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RunFileError(f"cannot read run file {path!r}: {exc.strerror}") from None
    lines = text.splitlines()
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            if number == len(lines):
                break  # written half-way when the run was killed
            raise RunFileError(f"run file {path!r} line {number} is not JSON") from None
    starts = [r for r in records if r.get("type") == "start"]
    if not starts or not isinstance(starts[0].get("settings"), dict):
        raise RunFileError(f"{path!r} is not a boggle-opt run file (no start record)")
    past = PastRun(settings=starts[0]["settings"], segments=len(starts))
    # time and evaluations add up over segments; a killed segment counts up
    # to its last record
    seg_elapsed, seg_evals = 0.0, 0
    for r in records:
        kind = r.get("type")
        if kind == "start":
            past.elapsed += seg_elapsed
            past.evaluations += seg_evals
            seg_elapsed, seg_evals = 0.0, 0
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
