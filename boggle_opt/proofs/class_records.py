"""One solved class record checked on its own: what ``verify`` and ``--resume``
both require of it before they count it.

A record a proof wrote (``{"class": name, "part": key, "boards": [...],
"pruned": ..., "root_bound": ...}``) must agree with itself and with facts
recomputed here, never with the rest of the file: the class is canonical;
its ``boards`` field is there; each board is a board of the size, canonical,
listed once, lies in the class (or piece), re-scores to its recorded score
and reaches the min score; a root bound, when recorded, bounds every board
(the kernel's root bound is an upper bound on the class), and ``pruned``
says exactly that the bound is below the min score (so a pruned class has
no boards). What it cannot see is a board left out of a consistent record:
that takes an independent witness (``runs.witness``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..core.trie import LATIN
from .class_tasks import check_task_record, label_buckets, parse_class_name, written_part


class ClassRecordError(BoggleOptError):
    """A class record that is not consistent with itself: one line."""


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_board_text(board: str, symbols: str = LATIN) -> bool:
    """Whether every character of ``board`` is a tile's symbol (English: a-z)."""
    if symbols == LATIN:
        return board.isascii() and board.isalpha() and board.islower()
    return all(ch in symbols for ch in board)


def canonical_class(cls: tuple[int, ...], geometry: Geometry) -> tuple[int, ...]:
    """The smallest of a class's images under the board's symmetries (the
    spelling a proof records: ``image[i] = cls[perm[i]]``)."""
    return min(tuple(cls[src] for src in perm) for perm in geometry.symmetries)


class RecordChecker:
    """Checks solved class records of one proof: its size, buckets, min
    score, and a scorer (boards are re-scored, not trusted), in the
    alphabet of ``symbols`` (the run's language's; English: a-z)."""

    def __init__(self, geometry: Geometry, label: str, min_score: int, score: Callable[[str], int],
                 symbols: str = LATIN, write: Callable[[str], str] = str) -> None:
        self.geometry = geometry
        #: a board as its messages name it (the alphabet's ``write``: ``[ij]``)
        self.write = write
        self.label = label
        self.symbols = symbols
        self.buckets = label_buckets(label, geometry, symbols)
        self.min_score = min_score
        self.score = score

    def letters(self, rec: Mapping[str, Any]) -> list[str]:
        """Each cell's letters in the record's class narrowed by its part
        (the record's structure already checked)."""
        cls = parse_class_name(str(rec.get("class", rec.get("split"))))
        sets = [self.buckets[cell][b] for cell, b in enumerate(cls)]
        part = str(rec.get("part", ""))
        for piece in part.split(".") if part else []:
            sets[int(piece[:-1])] = piece[-1]
        return sets

    def structure(self, rec: Mapping[str, Any], where: str) -> None:
        """A solved or split record's names and parts (``check_task_record``),
        of this proof's size, buckets and min score, its class canonical."""
        if rec.get("size") != self.geometry.size or rec.get("buckets") != self.label:
            raise ClassRecordError(
                f"{where}: a record of size {str(rec.get('size'))[:20]!r}, buckets {str(rec.get('buckets'))[:60]!r}; "
                f"the proof's are {self.geometry.size!r}, {self.label!r}"
            )
        if rec.get("min_score") != self.min_score:
            raise ClassRecordError(
                f"{where}: a record with min score {str(rec.get('min_score'))[:20]}; the proof's is {self.min_score}"
            )
        try:
            check_task_record(rec, self.geometry, where, self.symbols)
        except BoggleOptError as exc:
            raise ClassRecordError(str(exc)) from None
        name = str(rec.get("class", rec.get("split")))
        cls = parse_class_name(name)
        canonical = canonical_class(cls, self.geometry)
        if canonical != cls:
            spelled = "".join("0123456789abcdefghijklmnopqrstuvwxyz"[b] for b in canonical)
            raise ClassRecordError(
                f"{where}: class {name} is not written canonically (a symmetric image of it, {spelled}, is "
                "how a proof names it)"
            )

    def solved(self, rec: Mapping[str, Any], where: str) -> list[tuple[str, int]]:
        """A solved class or piece, checked whole; its boards."""
        self.structure(rec, where)
        name = str(rec["class"])
        part = str(rec.get("part", ""))
        label = f"class {name}{' piece ' + written_part(part, self.write) if part else ''}"
        shown = self.write
        if "boards" not in rec:
            raise ClassRecordError(f"{where}: {label} has no boards field")
        raw = rec["boards"]
        if not isinstance(raw, list):
            raise ClassRecordError(f"{where}: {label}'s boards are not a list")
        sets = self.letters(rec)
        geometry = self.geometry
        boards: list[tuple[str, int]] = []
        seen: set[str] = set()
        for pair in raw:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and _is_int(pair[1])):
                raise ClassRecordError(f"{where}: {str(pair)[:40]} is not a [board, score] pair")
            board, score = pair[0], int(pair[1])
            if not (len(board) == geometry.n and is_board_text(board, self.symbols)):
                raise ClassRecordError(f"{where}: board {shown(board)[:40]!r} is not a {geometry.size} board")
            if board in seen:
                raise ClassRecordError(f"{where}: board {shown(board)} is listed twice in {label}")
            seen.add(board)
            canonical = geometry.canonical(board)
            if board != canonical:
                raise ClassRecordError(f"{where}: board {shown(board)} is not canonical ({shown(canonical)})")
            if not any(all(b in s for b, s in zip(variant, sets)) for variant in geometry.variants(board)):
                raise ClassRecordError(f"{where}: board {shown(board)} is not in {label}")
            actual = self.score(board)
            if actual != score:
                raise ClassRecordError(f"{where}: board {shown(board)} is recorded as {score} points but scores {actual}")
            if score < self.min_score:
                raise ClassRecordError(f"{where}: board {shown(board)} scores {score}, below the min score {self.min_score}")
            boards.append((board, score))
        pruned, bound = rec.get("pruned"), rec.get("root_bound")
        if pruned is not None and not isinstance(pruned, bool):
            raise ClassRecordError(f"{where}: {label}'s pruned is not true or false")
        if bound is not None:
            if not _is_int(bound):
                raise ClassRecordError(f"{where}: {label}'s root bound is not a whole number")
            top = max((s for _, s in boards), default=None)
            if top is not None and top > bound:
                raise ClassRecordError(
                    f"{where}: {label}'s root bound {bound} is below its board's {top} points (a bound bounds "
                    "every board of its class)"
                )
            if pruned is not None and pruned != (bound < self.min_score):
                says = "pruned at the root" if pruned else "not pruned"
                raise ClassRecordError(
                    f"{where}: {label} is {says} but its root bound {bound} is "
                    f"{'at or above' if bound >= self.min_score else 'below'} the min score {self.min_score}"
                )
        elif pruned:
            raise ClassRecordError(f"{where}: {label} is pruned at the root but records no root bound")
        return boards
