"""Boards in a run's records as people write them, and back.

A person reads run files and ``--progress jsonl``: every board, bucket and
part in them is written as the alphabet writes it (``[ij]bel...``, never a
tile's private symbol). The program works in symbols, one a cell: a record
is written with ``written_record`` as it leaves, and read back with
``stored_record``, which also takes the private symbols that files written
before this form hold (``"board": "40hktinas"`` for ``[th]0hktinas``...):
a symbol and its bracketed tile never clash, so both read as one.
``Alphabet.write`` is idempotent on either form, which is how a recorded
fingerprint or label is compared with a recomputed one (``written_label``).

Alphabets with no bracketed tile (English and every a-z or one-letter
alphabet) write a board as its symbols: their records pass unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ..core.alphabet import Alphabet
from ..core.errors import BoggleOptError
from ..proofs.board_classes import CORNERS_SEPARATOR, split_label

#: one piece of a part key: a cell, then its tile (a symbol, or ``[ij]``)
_PIECE = re.compile(r"(\d+)(\[[^\]]*\]|.)", re.DOTALL)


def written_label(label: Any, alphabet: Alphabet) -> Any:
    """Buckets (a label, ``"0aeiou ... / corners ..."``) or a board as people
    write them, whichever form they are in; anything else as it is."""
    return alphabet.write(label) if isinstance(label, str) and not alphabet.plain else label


def _stored_label(label: Any, alphabet: Alphabet) -> Any:
    if not isinstance(label, str):
        return label
    main, corners = split_label(label)
    out = alphabet.read_groups(main, stored=True)
    return out + (CORNERS_SEPARATOR + alphabet.read_groups(corners, "corner-buckets", stored=True)
                  if corners else "")


Convert = Callable[[Any], Any]


def _text(convert: Callable[[str], str]) -> Convert:
    """``convert`` on a string; anything else (a record's checks name it) as it is."""
    def on(value: Any) -> Any:
        return convert(value) if isinstance(value, str) else value
    return on


def _stored_board(alphabet: Alphabet) -> Convert:
    def read(board: Any) -> Any:
        if not isinstance(board, str):
            return board
        try:
            return alphabet.read(board, stored=True)
        except BoggleOptError:
            return board  # not a board: the record's checks say so, naming its line
    return read


def _part(board: Convert) -> Convert:
    """A part key (``"4a.1e"``: a cell, then its tile), its tiles by ``board``."""
    def convert(key: Any) -> Any:
        if not isinstance(key, str) or not key:
            return key
        pieces: list[str] = []
        for piece in key.split("."):
            found = _PIECE.fullmatch(piece)
            if found is None:
                return key  # the record's checks name it
            cell, tile = found.groups()
            pieces.append(cell + str(board(tile)))
        return ".".join(pieces)
    return convert


#: the built-in local searchers, whose checkpoint ``state`` names boards under
#: ``best`` (``[board, score]``), ``board``, ``pool`` and ``boards`` (boards,
#: or ``[board, score]`` pairs); another searcher's state is its own
LOCAL_STATES = ("annealing", "hillclimb", "genetic")


def _state(state: Mapping[str, Any], board: Convert) -> dict[str, Any]:
    """A local searcher's checkpoint state with its boards by ``board``."""
    def one(item: Any) -> Any:
        if isinstance(item, list) and item:
            return [board(item[0]), *item[1:]]
        return board(item)

    out = dict(state)
    if isinstance(out.get("best"), list):
        out["best"] = one(out["best"])
    if "board" in out:
        out["board"] = board(out["board"])
    for key in ("pool", "boards"):
        if isinstance(out.get(key), list):
            out[key] = [one(item) for item in out[key]]
    return out


def _convert(record: Mapping[str, Any], board: Convert, label: Convert) -> dict[str, Any]:
    part = _part(board)
    out = dict(record)
    kind = out.get("type")
    if kind == "improved":
        out["board"] = board(out.get("board"))
    elif kind == "finish":
        if "best_board" in out:
            out["best_board"] = board(out["best_board"])
        best = out.get("best")
        if isinstance(best, list):
            out["best"] = [{**b, "board": board(b.get("board"))} if isinstance(b, dict) else b for b in best]
        proof = out.get("proof")
        if isinstance(proof, dict) and "best_board" in proof:
            out["proof"] = {**proof, "best_board": board(proof["best_board"])}
    elif kind == "checkpoint" and isinstance(out.get("record"), dict):
        cp = dict(out["record"])
        if "buckets" in cp:
            cp["buckets"] = label(cp["buckets"])
        if isinstance(cp.get("boards"), list):
            cp["boards"] = [[board(p[0]), *p[1:]] if isinstance(p, list) and p else p for p in cp["boards"]]
        if "part" in cp:
            cp["part"] = part(cp["part"])
        if isinstance(cp.get("into"), list):
            cp["into"] = [part(k) for k in cp["into"]]
        if cp.get("kind") in LOCAL_STATES and isinstance(cp.get("state"), dict):
            cp["state"] = _state(cp["state"], board)
        out["record"] = cp
    elif kind == "start" and isinstance(out.get("settings"), dict):
        settings = dict(out["settings"])
        fingerprint = settings.get("fingerprint")
        if isinstance(fingerprint, dict) and "buckets" in fingerprint:
            settings["fingerprint"] = {**fingerprint, "buckets": label(fingerprint["buckets"])}
        out["settings"] = settings
    return out


#: stand-ins for bracketed tiles while a record's shape is checked without its alphabet
_STAND_INS = 0xE000


def neutral_task(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """A class record (bnb's) whose buckets and parts write tiles in brackets,
    with each distinct bracketed tile as one stand-in character: its shape
    (a partition of its own tiles, parts fixing cells to its letters) can be
    checked before the run's alphabet is known (``records.check_record``)."""
    fields = ("buckets", "part")
    if not any("[" in str(record.get(k, "")) for k in fields) and not any(
            "[" in str(k) for k in record.get("into") or () if isinstance(record.get("into"), list)):
        return record
    seen: dict[str, str] = {}

    def one(found: re.Match[str]) -> str:
        return seen.setdefault(found.group(0), chr(_STAND_INS + len(seen)))

    def neutral(value: Any) -> Any:
        return re.sub(r"\[[^\]]*\]", one, value) if isinstance(value, str) else value

    out = dict(record)
    for key in fields:
        if key in out:
            out[key] = neutral(out[key])
    if isinstance(out.get("into"), list):
        out["into"] = [neutral(k) for k in out["into"]]
    return out


def written_record(record: Mapping[str, Any], write: Callable[[str], str]) -> Mapping[str, Any]:
    """A record (``runs.events``) with its boards, buckets and parts as people
    write them (``write``: the alphabet's, ``RunState.write``): what a run
    file and ``--progress jsonl`` hold."""
    if write is str:
        return record
    on = _text(write)
    return _convert(record, on, on)


def stored_record(record: Mapping[str, Any], alphabet: Alphabet) -> Mapping[str, Any]:
    """A record read from a run file with its boards, buckets and parts in
    symbols, as the program works with them; either written form reads."""
    if alphabet.plain:
        return record
    return _convert(record, _stored_board(alphabet), lambda label: _stored_label(label, alphabet))
