"""Checks on what a run file says, before ``--resume`` trusts it.

A run file is text a user can edit, copy half of, or mix up: every field the
resume reads is checked for its type here, so a wrong one is a one-line
``RunFileError`` naming the line and the field, never a traceback deep in a
searcher. Record types the reader does not use are left alone (a newer
version may write more).
"""

from __future__ import annotations

import gzip
import json
import math
import os
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoggleOptError, PluginError
from ..core.geometry import Geometry
from ..dictionary.wordlist import looks_like_path
from ..registry.registries import Registries, Registry
from .files import open_regular, refuse_irregular
from .written import neutral_task


class RunFileError(BoggleOptError):
    """A run file that cannot be written or read back."""


def is_record_line(line: bytes) -> bool:
    """Whether ``line`` (without its line break) is a whole record, a JSON
    object; a torn write or the junk a crash leaves (NUL bytes) is not."""
    try:
        return isinstance(json.loads(line.decode("utf-8")), dict)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        return False


#: the longest line a run file may have (a record of a class with many boards
#: is some kilobytes): a longer one is no record, and is never held in memory whole
LINE_LIMIT = 64 * 2**20
#: bytes read at a time: a line longer than this is read a chunk at a time
_SKIP_CHUNK = 1 << 20
#: what ``numbered_lines`` gives for a long line with a NUL byte in it: a
#: stand-in that is no record, as the line was not
JUNK = b"\0"
#: a run file never has this many blank lines in a row: past it, the work of
#: skipping them (each a step of Python) is refused, not done
BLANK_LIMIT = 10_000
#: a compressed run file unpacks to about 10-20 times its size; one that
#: unpacks to more than this many times (plus ``BOMB_SLACK`` bytes) is no run file
BOMB_RATIO = 250
BOMB_SLACK = 8 << 20
#: the first bytes of a gzip stream
GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: str) -> bool:
    """Whether ``path`` holds gzip-compressed data (by its content, not its name)."""
    try:
        with open(path, "rb") as f:
            return f.read(2) == GZIP_MAGIC
    except (OSError, ValueError):
        return False


def numbered_lines(path: str) -> Iterator[tuple[int, bytes | None]]:
    """Each line of run file ``path`` with its number, without its line break;
    None for a line over ``LINE_LIMIT``, and ``JUNK`` for a longer line than
    ``_SKIP_CHUNK`` with a NUL byte in it (the tail a power loss leaves: no
    record holds one, JSON writes it ``\\u0000``); neither is held in memory,
    each is read a chunk at a time and dropped at its first sign. The
    file must be a regular file: a FIFO or a device (``/dev/zero`` never ends)
    is refused before it is read. gzip-compressed data (a finished proof kept
    compressed) is read through gzip, whatever the file's name. The work is
    bounded by the bytes on disk: a file that unpacks to more than
    ``BOMB_RATIO`` times its size, or holds more than ``BLANK_LIMIT`` blank
    lines in a row, is refused."""
    refuse_irregular(path, "run file")
    try:
        raw = os.fdopen(open_regular(path, os.O_RDONLY, "run file"), "rb", buffering=_SKIP_CHUNK)
    except OSError as exc:
        raise RunFileError(f"cannot read run file {path!r}: {exc.strerror}") from None
    with raw:
        packed = raw.read(2) == GZIP_MAGIC
        raw.seek(0)
        handle: Any = gzip.GzipFile(fileobj=raw) if packed else raw
        with handle:
            try:
                yield from _lines_of(path, handle, raw if packed else None)
            except (OSError, EOFError, zlib.error) as exc:  # gzip's errors too: a bad or cut-off .gz
                raise RunFileError(f"cannot read run file {path!r}: {getattr(exc, 'strerror', None) or exc}") from None


def _lines_of(path: str, handle: Any, packed: Any) -> Iterator[tuple[int, bytes | None]]:
    """``numbered_lines`` of an open file; ``packed``: the compressed file under it, if any."""
    number = blanks = unpacked = 0
    while True:
        line: bytes | None = handle.readline(min(LINE_LIMIT + 1, _SKIP_CHUNK))
        if not line:
            return
        number += 1
        size = len(line)
        if not line.endswith(b"\n") and (size > LINE_LIMIT or size == _SKIP_CHUNK):
            line, size = _long_line(path, number, handle, line, unpacked, packed)
        unpacked += size
        if packed is not None:
            _bomb(path, number, unpacked, packed)
        if line is None:
            yield number, None
            continue
        if line.isspace():
            blanks += 1
            if blanks > BLANK_LIMIT:
                raise RunFileError(f"run file {path!r} has more than {BLANK_LIMIT:,} blank lines in a row "
                                   f"(at line {number:,}): it is not a run file")
        else:
            blanks = 0
        yield number, line[:-1] if line.endswith(b"\n") else line


def _long_line(path: str, number: int, handle: Any, first: bytes, unpacked: int,
               packed: Any) -> tuple[bytes | None, int]:
    """The rest of a line that began with ``first`` (no line break in it), read
    a chunk at a time: the line (break included), ``JUNK`` if it holds a NUL
    byte, or None if it is longer than ``LINE_LIMIT``; and its size on disk
    (unpacked). Only a line that may still be a record is kept as it is read."""
    size = len(first)
    nul = b"\0" in first
    kept: list[bytes] | None = None if nul or size > LINE_LIMIT else [first]
    while True:
        piece = handle.readline(_SKIP_CHUNK)
        if not piece:
            break
        size += len(piece)
        if packed is not None:
            _bomb(path, number, unpacked + size, packed)
        nul = nul or b"\0" in piece
        if kept is not None:
            if nul or size - (1 if piece.endswith(b"\n") else 0) > LINE_LIMIT:
                kept = None
            else:
                kept.append(piece)
        if piece.endswith(b"\n"):
            break
    if kept is not None:
        return b"".join(kept), size
    return (JUNK if nul else None), size


def _bomb(path: str, number: int, unpacked: int, packed: Any) -> None:
    """Refuse a compressed file that has unpacked to far more than its size."""
    if unpacked > BOMB_RATIO * packed.tell() + BOMB_SLACK:
        raise RunFileError(f"run file {path!r} unpacks to more than {BOMB_RATIO} times its size "
                           f"(at line {number:,}): it is not a run file")


def read_numbered(path: str) -> list[tuple[int, dict[str, Any]]]:
    """Every record of a run file with its line number, checked, the first a
    start record. The file's tail, whatever follows its last whole record (a
    torn last line, NUL bytes or junk left by a crash), is skipped: a resumed
    run cuts it off before appending (``runfile.drop_torn_tail``). A line
    before that record that is not one is an error naming the line. Read line
    by line, each at most ``LINE_LIMIT`` long."""
    records: list[tuple[int, dict[str, Any]]] = []
    bad: str | None = None  # why the first line since the last record is not one
    for number, raw in numbered_lines(path):
        where = f"run file {path!r} line {number}"
        if raw is None:
            bad = bad or f"{where} is longer than {LINE_LIMIT // 2**20} MiB"
            continue
        if not raw.strip():
            continue
        try:
            record = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            bad = bad or f"{where} is not text (byte {exc.start})"
            continue
        except (json.JSONDecodeError, RecursionError):
            bad = bad or f"{where} is not JSON"
            continue
        if not isinstance(record, dict):
            bad = bad or f"{where}: not a record (expected a JSON object)"
            continue
        if bad is not None:  # a line that is no record, before one that is
            raise RunFileError(bad)
        records.append((number, check_record(record, where)))
    starts = [(number, r["settings"]) for number, r in records if r.get("type") == "start"]
    if not starts:
        raise RunFileError(f"{path!r} is not a boggle-opt run file (no start record)")
    first, settings = starts[0]
    for number, later in starts[1:]:
        for name in ("searcher", "size"):
            if name in settings and name in later and later[name] != settings[name]:
                # two runs in one file (appended by an older boggle-opt, or by hand)
                raise RunFileError(
                    f"run file {path!r} line {number} starts another run ({name} {str(later[name])[:40]!r}, "
                    f"not line {first}'s {str(settings[name])[:40]!r}); a run file holds one run"
                )
    return records


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return (_is_int(value) or isinstance(value, float)) and math.isfinite(value)


def _need(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise RunFileError(f"{where}: {what}")


#: the records whose ``elapsed`` and ``evaluations`` say how far their segment got
ELAPSED_KINDS = ("improved", "checkpoint", "progress", "finish")


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
        _check_task(record["record"], where)
    if kind in ELAPSED_KINDS:
        for name in ("elapsed", "evaluations"):
            value = record.get(name, 0)
            _need(_is_number(value) and value >= 0, where, f"{name!r} is not a number >= 0")
    checked: dict[str, Any] = record
    return checked


def _check_task(inner: Mapping[str, Any], where: str) -> None:
    """A proof's finished or split class (bnb's ``Ledger`` records), which
    ``--resume`` and ``report`` must be able to trust: checked against the
    size and buckets it names."""
    if inner.get("kind") != "bnb" or ("class" not in inner and "split" not in inner):
        return
    from ..boards import size_geometry
    from ..proofs.class_tasks import TaskRecordError, check_task_record

    size = inner.get("size")
    _need(isinstance(size, str), where, "the class's size is not a string")
    try:
        geometry = size_geometry(str(size))
    except BoggleOptError as exc:
        raise RunFileError(f"{where}: {exc}") from None
    try:
        # (the run's alphabet is not known line by line: its buckets are
        # checked as a partition of their own symbols, and verify and a resume
        # compare them with the run's)
        # (tiles written in brackets, [ij], stand in as one character each)
        check_task_record(neutral_task(inner), geometry, where, None)
    except TaskRecordError as exc:
        raise RunFileError(str(exc)) from None


_SETTINGS_TEXT = ("searcher", "size", "rule", "wordlist", "executor", "scheduler")


def check_settings(settings: Mapping[str, Any], path: str) -> None:
    """The first start record's settings, as ``RunSpec.resuming`` reads them."""
    where = f"run file {path!r} settings"
    for name in _SETTINGS_TEXT:
        value = settings.get(name)
        _need(value is None or isinstance(value, str), where, f"{name!r} is not a string")
    _need(settings.get("seed") is None or _is_int(settings.get("seed")), where,
          "'seed' is not a whole number")
    letters = settings.get("min_letters")
    _need(letters is None or (_is_int(letters) and letters >= 1), where,
          "'min_letters' is not a whole number >= 1")
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


def check_registered(settings: Mapping[str, Any], registries: Registries, path: str,
                     kinds: tuple[str, ...] = ("searcher", "rule", "wordlist", "executor")) -> None:
    """The plugins a run file's ``settings`` name (its searcher, rule, word list
    and executor, of ``kinds``) are registered here; else one line saying which
    is missing and how to load it. A run file is data: it never loads code."""
    tables: dict[str, tuple[str, Registry[Any]]] = {
        "searcher": ("searcher", registries.searchers), "rule": ("scoring rule", registries.rules),
        "wordlist": ("word list", registries.wordlists), "executor": ("executor", registries.executors),
    }
    for key in kinds:
        noun, table = tables[key]
        name = settings.get(key)
        if not isinstance(name, str) or not name or name in table:
            continue
        if key == "wordlist" and looks_like_path(name):
            continue  # a file, read as such
        available = ", ".join(table.names()) or "none"
        raise PluginError(
            f"run file {path!r} was written with the {noun} {name!r}, which no plugin loaded here "
            f"registers (available: {available}): load the plugin that provides it "
            f"(--plugin FILE or MODULE, or install its package)"
        )


def check_boards(boards: list[tuple[str, int]], geometry: Geometry, where: str) -> None:
    """Boards of the run being resumed: one tile's symbol a cell (English:
    letters a-z; ``core.alphabet``), as many as the size has cells. Its scores
    are checked against the dictionary, whose alphabet checks the symbols."""
    for board, _ in boards:
        _need(len(board) == geometry.n and board.isprintable()
              and not any(ch.isspace() or ch.isupper() or ch in "[]" for ch in board),
              where, f"board {board[:40]!r} is not a {geometry.size} board")


def checked_pairs(value: Any, where: str) -> list[tuple[str, int]]:
    """``[[board, score], ...]`` as written in a checkpoint."""
    _need(isinstance(value, list), where, "boards are not a list")
    pairs: list[tuple[str, int]] = []
    for item in value:
        _need(isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)
              and _is_int(item[1]), where, f"{str(item)[:40]} is not a [board, score] pair")
        pairs.append((item[0], item[1]))
    return pairs


def check_scores(
    boards: Iterable[tuple[int, str, int]], score: Callable[[str], int], geometry: Geometry, path: str,
) -> None:
    """Boards an earlier segment recorded, as ``(line, board, score)``: each
    re-scored before a resumed run reports it, so an edited or damaged score
    (or a board added by hand) is refused in one line naming its line."""
    for line, board, recorded in boards:
        where = f"run file {path!r} line {line}"
        check_boards([(board, recorded)], geometry, where)
        actual = score(board)
        _need(actual == recorded, where, f"board {board!r} scores {actual}, not the {recorded} recorded "
              "(the file was edited or damaged)")


def recorded_boards(
    boards: Iterable[tuple[str, int]], board_lines: Iterable[int],
    checkpoints: Iterable[Mapping[str, Any]], checkpoint_lines: Iterable[int], path: str,
) -> list[tuple[int, str, int]]:
    """Every board a run file records, with its line: improvements, and the
    ``[[board, score], ...]`` of checkpoints that list boards (bnb's classes,
    longword's tasks)."""
    found = [(line, board, score) for (board, score), line in zip(boards, board_lines)]
    for record, line in zip(checkpoints, checkpoint_lines):
        if "boards" in record:
            where = f"run file {path!r} line {line}"
            found.extend((line, board, score) for board, score in checked_pairs(record["boards"], where))
    return found


@dataclass
class Segment:
    """One segment of a run (a fresh run, or one ``--resume``), as its records
    say (``runfile.read_run_file`` folds them)."""

    #: the segment's own budget (``seconds``, ``evaluations``, ``target``; None: no limit)
    budget: dict[str, float | None]
    started: str = ""
    elapsed: float = 0.0
    evaluations: int = 0
    #: None if the segment has no finish record (killed, or still running)
    stop_reason: str | None = None
    #: the best score the run had reached by the segment's end (-1: none)
    best: int = -1


def segment_budget(settings: Any) -> dict[str, float | None]:
    """A start record's budget, with anything that is not a number dropped
    (only the first start's settings are checked strictly)."""
    raw = settings.get("budget") if isinstance(settings, dict) else None
    raw = raw if isinstance(raw, dict) else {}
    return {name: raw[name] if _is_number(raw.get(name)) else None
            for name in ("seconds", "evaluations", "target")}


def describe_budget(budget: Mapping[str, Any]) -> str:
    """A budget as a person reads it: ``50,000 evaluations, 60 s``; ``no limit`` if unlimited."""
    parts = []
    if budget.get("evaluations") is not None:
        parts.append(f"{int(budget['evaluations']):,} evaluations")
    if budget.get("seconds") is not None:
        parts.append(f"{float(budget['seconds']):g} s")
    if budget.get("target") is not None:
        parts.append(f"target {int(budget['target']):,}")
    return ", ".join(parts) or "no limit"


def describe_stop(reason: str, budget: Mapping[str, Any], evaluations: int) -> str:
    """Why a run stopped, as a person reads it: a budget reached is named as
    one, with what was done past it ("budget of 30,000 evaluations reached
    (31,704 done: the last batch finishes)"); any other reason as it is."""
    evals, seconds, target = budget.get("evaluations"), budget.get("seconds"), budget.get("target")
    if evals is not None and reason == f"used {int(evals):,} evaluations":
        over = f" ({evaluations:,} done: the last batch finishes)" if evaluations > int(evals) else ""
        return f"budget of {int(evals):,} evaluation{'s' * (int(evals) != 1)} reached{over}"
    if seconds is not None and reason == f"used {float(seconds):g} s":
        return f"time budget of {float(seconds):g} s reached"
    if target is not None and reason == f"reached target {target}":
        return f"target score {int(target):,} reached"
    return reason


def latest_state(records: tuple[Mapping[str, Any], ...], kind: str, size: str) -> Mapping[str, Any] | None:
    """The state a local search checkpointed (``{"kind": kind, "size": size,
    "state": {...}}``) that a resumed run continues from: the one with the
    highest best score, the latest of those (several ``--jobs`` copies each
    write their own). None if there is none (a fresh run, or a run file of a
    version that did not checkpoint local searches)."""
    chosen: Mapping[str, Any] | None = None
    top = -1
    for rec in records:
        state = rec.get("state")
        if rec.get("kind") != kind or rec.get("size") != size or not isinstance(state, dict):
            continue
        best = state.get("best")
        score = best[1] if isinstance(best, list) and len(best) == 2 and _is_int(best[1]) else -1
        if score >= top:
            chosen, top = state, score
    return chosen
