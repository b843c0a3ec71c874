"""Checks on what a run file says, before ``--resume`` trusts it.

A run file is text a user can edit, copy half of, or mix up: every field the
resume reads is checked for its type here, so a wrong one is a one-line
``RunFileError`` naming the line and the field, never a traceback deep in a
searcher. Record types the reader does not use are left alone (a newer
version may write more).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .core.errors import BoggleOptError
from .core.geometry import Geometry


class RunFileError(BoggleOptError):
    """A run file that cannot be written or read back."""


def read_records(path: str) -> list[dict[str, Any]]:
    """Every record of a run file, checked, the first a start record; a torn
    last line (written half-way when the run was killed) is skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RunFileError(f"cannot read run file {path!r}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise RunFileError(f"run file {path!r} is not text (byte {exc.start})") from None
    lines = text.splitlines()
    records: list[dict[str, Any]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            if number == len(lines):
                break
            raise RunFileError(f"run file {path!r} line {number} is not JSON") from None
        records.append(check_record(record, f"run file {path!r} line {number}"))
    starts = [r for r in records if r.get("type") == "start"]
    if not starts:
        raise RunFileError(f"{path!r} is not a boggle-opt run file (no start record)")
    return records


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise RunFileError(f"{where}: {what}")


def check_record(record: Any, where: str) -> dict[str, Any]:
    """``record`` (one parsed line) if the fields the reader uses have the right types."""
    _need(isinstance(record, dict), where, "not a record (expected a JSON object)")
    kind = record.get("type")
    _need(isinstance(kind, str), where, "no \"type\" field")
    if kind == "start":
        _need(isinstance(record.get("settings"), dict), where, "\"settings\" is not an object")
        jobs = record["settings"].get("jobs")
        _need(jobs is None or (_is_int(jobs) and jobs >= 1), where, "'jobs' is not a whole number >= 1")
    elif kind == "improved":
        _need(isinstance(record.get("board"), str), where, "\"board\" is not a string")
        _need(_is_int(record.get("score")), where, "\"score\" is not a whole number")
    elif kind == "checkpoint":
        _need(isinstance(record.get("record"), dict), where, "\"record\" is not an object")
    if kind in ("improved", "progress", "finish"):
        for name in ("elapsed", "evaluations"):
            value = record.get(name, 0)
            _need(_is_number(value) and value >= 0, where, f"{name!r} is not a number >= 0")
    checked: dict[str, Any] = record
    return checked


_SETTINGS_TEXT = ("searcher", "size", "rule", "wordlist")


def check_settings(settings: Mapping[str, Any], path: str) -> None:
    """The first start record's settings, as ``RunSpec.resuming`` reads them."""
    where = f"run file {path!r} settings"
    for name in _SETTINGS_TEXT:
        value = settings.get(name)
        _need(value is None or isinstance(value, str), where, f"{name!r} is not a string")
    _need(settings.get("seed") is None or _is_int(settings.get("seed")), where,
          "'seed' is not a whole number")
    options = settings.get("options")
    _need(options is None or isinstance(options, dict), where, "'options' is not an object")
    for key, value in (options or {}).items():
        _need(value is None or isinstance(value, (str, int, float, bool)), where,
              f"option {key!r} is not a single value")
    budget = settings.get("budget")
    _need(budget is None or isinstance(budget, dict), where, "'budget' is not an object")
    for name in ("seconds", "evaluations", "target"):
        value = (budget or {}).get(name)
        _need(value is None or _is_number(value), where, f"budget {name!r} is not a number")


def check_boards(boards: list[tuple[str, int]], geometry: Geometry, where: str) -> None:
    """Boards of the run being resumed: letters a-z, as many as the size has cells."""
    for board, _ in boards:
        _need(len(board) == geometry.n and board.isascii() and board.isalpha()
              and board.islower(), where, f"board {board[:40]!r} is not a {geometry.size} board")


def checked_pairs(value: Any, where: str) -> list[tuple[str, int]]:
    """``[[board, score], ...]`` as written in a checkpoint."""
    _need(isinstance(value, list), where, "boards are not a list")
    pairs: list[tuple[str, int]] = []
    for item in value:
        _need(isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
              and _is_int(item[1]), where, f"{str(item)[:40]} is not a [board, score] pair")
        pairs.append((item[0], item[1]))
    return pairs
