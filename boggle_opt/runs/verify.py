"""Checking a proof's run files without trusting their own summaries.

``verify_runs`` reads one or more ``bnb`` run files (a whole proof, or the
shards of one) a line at a time and checks, from the records alone and facts
it recomputes. In full:

- the fingerprint: the word list is re-read (afresh, not from the dictionary
  cache) and hashed, the rule's points, the size and the buckets recomputed
  from the settings; every segment of every file has the first one's;
- shards: every file names the same number of shards, none twice;
- every class record on its own (``proofs.class_records``): canonical, its
  boards present, each a canonical board listed once that lies in the class
  (or piece), re-scores to its recorded score, reaches the min score and is
  under the record's root bound, and ``pruned`` only below the min score;
- every reported board (improvements, finish records) re-scores to what each
  record says and, at or above the min score, is in some class record; each
  finish record's best board and score agree with its own list, and the last
  one of a complete proof with the class records;
- coverage: every canonical class of the class space (recomputed here from
  the board's symmetries, not taken from ``ClassSpace``) is recorded exactly
  once over all the files, whole or as pieces whose splits partition it (one
  piece per letter of one cell) and are each recorded once; nothing else is.

And, as independent witnesses that no board was left out of a consistent
record (``runs.witness``): seeded climbs, the closure of the recorded boards
under one change, class records re-solved by the compiled kernel within a
time budget, and one small task solved by the kernel's plain-Python source.

The first problem found is raised as a ``Hole`` whose message is one line.
Memory is two bytes per bucket assignment (4x4: 17 MB) plus the split
classes, the boards found and the records kept for re-solving.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import os
import random
import sys
import tempfile
import time
import types
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..proofs.board_classes import count_classes
from ..proofs.class_records import ClassRecordError, RecordChecker
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..dictionary.dictionary import Dictionary
from ..registry.dictionaries import load_dictionary
from .fingerprints import FIELDS, dictionary_fields, kernel_version, recorded_options
from ..searching.options import make_options
from ..registry.registries import Registries
from .records import RunFileError, check_record, numbered_lines
from .resolving import Resolver, resolve
from .witness import Chooser, Record, Unrecorded, Witnessed, climbs, closure, hops, in_sets, narrowed
from ..searching.interface import Problem

#: a task with at most this many boards is re-solved by scoring every one of them
BRUTE_MAX = 200_000
#: at most this many bucket assignments are tracked (two bytes each)
MAX_ASSIGNMENTS = 1 << 31
#: assignments tested per numpy step of the coverage pass
BLOCK = 1 << 16
#: the re-solving methods, as the summary names them
BRUTE = "brute force"
PURE = "the kernel's source as plain Python"
#: the re-solving budget by default: this share of the proof's recorded CPU ...
RECHECK_SHARE = 0.02
#: ... but at least this many seconds (a small proof is re-solved whole)
RECHECK_FLOOR = 3.0
#: records kept for the seeded draw of an automatic budget
RECHECK_KEEP = 4096
#: the kernel's plain-Python check gets at most this share of the budget
PURE_SHARE = 0.3
#: plain Python runs the kernel about this many times slower than the compiled build
PURE_SLOWDOWN = 60.0
#: the basin hops' share of the budget (and their most seconds): taken from re-solving.
#: They never take more than the CPU the proof recorded (at least HOP_FLOOR s):
#: a budget that large re-solves the whole proof, the complete check.
HOP_SHARE = 0.25
HOP_MAX = 60.0
HOP_FLOOR = 1.0
#: seeded climbs of the witness, and the best recorded boards whose neighbours are checked
CLIMBS = 40
CLOSURE = 2000
#: the most files one verify reads (their shard marks are kept in two bytes)
MAX_FILES = 65_000

#: hears a verify's progress: a step's text, and whether it updates the step under way
Say = Callable[[str, bool], None]

T = TypeVar("T")


class Hole(Exception):
    """What makes a run file not a complete, consistent proof: one line."""


class VerifyError(BoggleOptError):
    """A run file that verify cannot check at all (unreadable, not a bnb proof)."""


@dataclass
class Verified:
    """What ``verify_runs`` checked, for its summary."""

    size: str
    buckets: str
    classes: int
    pieces: int
    split_classes: int
    wordlist: str
    rule: str
    min_score: int
    min_score_from: str
    boards: int
    records: int
    segments: int
    files: int = 1
    shards: int = 0
    best: list[tuple[str, int]] = field(default_factory=list)
    wordlist_label: str = ""
    witness: Witnessed = field(default_factory=Witnessed)
    budget: float = 0.0
    full_recheck: bool = False
    methods: dict[str, int] = field(default_factory=dict)
    kernel_note: str = ""
    seconds: float = 0.0
    cpu_recorded: float = 0.0
    #: some records give only their class's wall time
    wall_recorded: bool = False

    @property
    def rechecked(self) -> list[str]:
        return self.witness.resolved

    def statement(self) -> str:
        """What the proof proves, as a single run would state it."""
        where = f"{self.wordlist_label or self.wordlist} under the {self.rule} rule"
        if not self.best:
            return f"no {self.size} board scores >= {self.min_score:,} for {where}"
        top = self.best[0][1]
        tied = [b for b, s in self.best if s == top]
        if len(tied) == 1:
            first = f"{tied[0]} ({top:,}) is the best {self.size} board"
        else:
            named = ", ".join(tied[:2]) + (f" and {len(tied) - 2:,} more" if len(tied) > 2 else "")
            first = f"{named} ({top:,}) are the {len(tied):,} best {self.size} boards"
        n = len(self.best)
        return f"{first} for {where}; {n:,} board{'s' * (n != 1)} score{'s' * (n == 1)} >= {self.min_score:,}"

    def summary(self) -> str:
        pieces = f" ({self.split_classes:,} of them split, in {self.pieces:,} pieces)" if self.split_classes else ""
        files = f" in {self.files:,} run files" if self.files > 1 else ""
        shards = f" ({self.shards:,} shards)" if self.shards else ""
        return (f"verified: {self.classes:,} of {self.classes:,} classes of {self.size} exactly once{pieces}"
                f"{files}{shards}; proved: {self.statement()}")

    def details(self) -> list[str]:
        """What was checked in full, and what was sampled, one line each."""
        w = self.witness
        methods = " and ".join(f"{m} on {counted(n, 'task')}" for m, n in self.methods.items())
        kernel = f"; the kernel checked against {methods}: {w.kernel_check}" if w.kernel_check else ""
        resolved = (
            f"{counted(len(w.resolved), 'class record')} re-solved by the compiled kernel "
            f"({w.resolved_whole:,} whole, {len(w.resolved) - w.resolved_whole:,} in one piece) in "
            f"{w.resolve_seconds:.1f} s{f' of CPU in {w.resolve_workers} worker processes' if w.resolve_workers else ''}"
            f"{' (all of them: --recheck all)' if self.full_recheck else ''}, all agree"
            if w.resolved else "no class record re-solved (--recheck 0)"
        )
        closure = ("the best board's" if w.closure_tried == 1 else f"the best {w.closure_tried:,} boards'")
        return [
            f"checked in full: the fingerprint of {counted(self.segments, 'segment')} (word list {self.wordlist} "
            f"re-read and hashed, rule {self.rule}, size, buckets {self.buckets}, min score {self.min_score:,} "
            f"({self.min_score_from})); the class space covered exactly once (counted again by Burnside's lemma); "
            f"{counted(self.records, 'class record')} each consistent (canonical, boards listed, in their class, "
            f"re-scored, >= the min score, under the root bound; pruned only below the min score); "
            f"{counted(self.boards, 'board')} re-scored; every reported board recorded; the finish records' "
            f"summaries",
            f"witnesses (sampled): {counted(w.climbs, 'seeded climb')} ({w.climb_hits} reached the min score), "
            f"all their boards recorded; {counted(w.hops, 'seeded basin hop')} "
            f"({counted(w.hop_hits, 'distinct board')} >= the min score), all recorded; {closure} one-letter "
            f"changes and swaps, all recorded if >= the min score; {resolved}{kernel}",
        ]


def counted(n: int, noun: str) -> str:
    """``1 board``, ``2 boards``: a count and its noun."""
    return f"{n:,} {noun}{'s' * (n != 1)}"


class Reservoir(Generic[T]):
    """``k`` items drawn uniformly from a stream of unknown length, in one
    pass and memory for ``k`` (reservoir sampling); the same for a seed."""

    def __init__(self, k: int, seed: int) -> None:
        self.k = k
        self.rng = random.Random(seed)
        self.items: list[T] = []
        self.seen = 0

    def offer(self, item: T) -> None:
        if self.k <= 0:
            return
        if self.seen < self.k:
            self.items.append(item)
        else:
            j = self.rng.randrange(self.seen + 1)
            if j < self.k:
                self.items[j] = item
        self.seen += 1


@dataclass
class _Split:
    """The pieces of one class: part key -> where its record is, and its splits."""

    done: dict[str, str] = field(default_factory=dict)
    splits: dict[str, tuple[list[str], str]] = field(default_factory=dict)


def _lines(path: str) -> Generator[tuple[int, dict[str, Any]], None, None]:
    """(line number, checked record) of each line, streamed; a torn last line is skipped."""
    pending: int | None = None  # a line that did not parse: fine only if it is the last
    try:
        for number, raw in numbered_lines(path):
            if pending is not None:
                raise Hole(f"{path}: line {pending} is not a record")
            if raw is None:
                pending = number
                continue
            if not raw.strip():
                continue
            try:
                record = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError as exc:
                raise VerifyError(f"run file {path!r} is not text (line {number}, byte {exc.start})") from None
            except (json.JSONDecodeError, RecursionError):
                pending = number
                continue
            try:
                yield number, check_record(record, f"{path}: line {number}")
            except RunFileError as exc:
                raise Hole(str(exc)) from None
    except VerifyError:
        raise
    except BoggleOptError as exc:  # unreadable, or not a regular file
        raise VerifyError(str(exc)) from None


def _start(path: str) -> dict[str, Any]:
    """The start record of run file ``path``, which is closed again."""
    records = _lines(path)
    try:
        first = next(records, None)
    finally:
        records.close()
    if first is None or first[1].get("type") != "start":
        raise VerifyError(f"{path!r} is not a boggle-opt run file (it does not begin with a start record)")
    return first[1]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def load_pure_core(tmp: Path) -> types.ModuleType | None:
    """The core's source (``boggle_opt/core/*.py``) loaded as plain Python under
    another package name, beside the compiled build; None if this install
    ships no sources."""
    sources = [f for f in resources.files("boggle_opt.core").iterdir() if f.name.endswith(".py")]
    if not any(f.name == "branch.py" for f in sources):
        return None
    dest = tmp / "boggle_opt_verify_core"
    dest.mkdir()
    for f in sources:
        (dest / f.name).write_bytes(f.read_bytes())
    name = "boggle_opt_verify_core"
    spec = importlib.util.spec_from_file_location(name, dest / "__init__.py", submodule_search_locations=[str(dest)])
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class _Proof:
    """The run's facts, recomputed from its settings (not from its summary)."""

    def __init__(self, settings: Mapping[str, Any], registries: Registries, wordlist: str | None) -> None:
        from ..boards import size_geometry

        if settings.get("searcher") != "bnb":
            raise VerifyError(
                f"verify checks branch-and-bound proofs; this run file is of searcher "
                f"{settings.get('searcher')!r}"
            )
        recorded = settings.get("fingerprint")
        if not isinstance(recorded, dict):
            raise Hole("the run file records no fingerprint (written by an older boggle-opt)")
        self.fingerprint: dict[str, Any] = recorded
        searcher: Any = registries.searchers.get("bnb")
        options = settings.get("options") or {}
        if not isinstance(options, dict):
            raise Hole("settings: 'options' is not an object")
        # typed as recorded; buckets an older run left to since-changed defaults, from its fingerprint
        opts = make_options("bnb", searcher.Options, recorded_options(searcher, options, recorded))
        # the registered bnb (its buckets and switch settings), typed loosely:
        # the package core does not import its plugins
        self.bnb = searcher(opts)
        self.option_min_score: int | None = opts.min_score
        try:
            self.geometry: Geometry = size_geometry(str(settings.get("size")))
        except BoggleOptError as exc:
            raise Hole(f"settings: {exc}") from None
        self.label, self.buckets = self.bnb.buckets(self.geometry)
        self.counts = [len(b) for b in self.buckets]
        self.rule = str(settings.get("rule") or "standard")
        self.wordlist = wordlist or str(settings.get("wordlist") or "default")
        self.dictionary: Dictionary = load_dictionary(self.wordlist, self.rule, registries, cache=False)
        self.scorer = self.dictionary.scorer(self.geometry)
        computed = {**dictionary_fields(self.dictionary), "size": self.geometry.size, "buckets": self.label}
        for key, value in computed.items():
            if recorded.get(key) != value:
                what = FIELDS.get(key, key)
                raise Hole(
                    f"fingerprint: {what} does not match ({key}: {recorded.get(key)!r} recorded, "
                    f"{value!r} recomputed from {self._source(key)})"
                )
        self.min_from = "the min-score option"
        if self.option_min_score is not None and recorded.get("min_score") != str(self.option_min_score):
            raise Hole(
                f"fingerprint: the min score does not match (min_score: {recorded.get('min_score')!r} "
                f"recorded, {str(self.option_min_score)!r} in the settings' options)"
            )
        kernel = kernel_version()
        self.kernel_note = "" if recorded.get("kernel") == kernel else (
            f"the run's kernel version {recorded.get('kernel')!r} is not this install's {kernel!r}"
        )
        n = self.geometry.n
        self.weights = [1] * n
        for i in range(n - 2, -1, -1):
            self.weights[i] = self.weights[i + 1] * self.counts[i + 1]
        self.total = self.weights[0] * self.counts[0]
        if self.total > MAX_ASSIGNMENTS:
            raise VerifyError(f"{self.geometry.size} with these buckets has {self.total:,} assignments; too many to verify")

    def _source(self, key: str) -> str:
        return {
            "wordlist": f"the word list {self.wordlist!r} re-read",
            "rule": f"the rule {self.rule!r}",
            "size": "the settings' size",
            "buckets": "the settings' options",
        }[key]

    def class_number(self, name: Any, where: str) -> int:
        """The assignment number of a class name (``"0120..."``), checked."""
        n = self.geometry.n
        if not isinstance(name, str) or len(name) != n:
            raise Hole(f"{where}: class name {str(name)[:40]!r} is not {n} bucket numbers")
        number = 0
        for cell, ch in enumerate(name):
            try:
                digit = int(ch, 36)
            except ValueError:
                raise Hole(f"{where}: class name {name!r} is not {n} bucket numbers") from None
            if digit >= self.counts[cell]:
                raise Hole(f"{where}: class {name!r} has bucket {digit} in cell {cell}, which has {self.counts[cell]}")
            number += digit * self.weights[cell]
        return number

    def letters(self, name: str, part: str, where: str) -> list[str]:
        """Each cell's letters in the class ``name`` narrowed by ``part`` (``"4a.1e"``)."""
        sets = [self.buckets[cell][int(ch, 36)] for cell, ch in enumerate(name)]
        for cell, letter in self.parse_part(part, where):
            if letter not in sets[cell]:
                raise Hole(f"{where}: class {name} part {part!r} fixes cell {cell} to {letter!r}, not a letter it has")
            sets[cell] = letter
        return sets

    def parse_part(self, part: str, where: str) -> list[tuple[int, str]]:
        out: list[tuple[int, str]] = []
        for piece in part.split(".") if part else []:
            cell, letter = piece[:-1], piece[-1:]
            if not (cell.isdigit() and int(cell) < self.geometry.n and "a" <= letter <= "z"):
                raise Hole(f"{where}: part {part!r} is not cells fixed to letters (e.g. '4a.1e')")
            out.append((int(cell), letter))
        if len({c for c, _ in out}) != len(out):
            raise Hole(f"{where}: part {part!r} fixes a cell twice")
        return out

    def canonical_mask(self, numbers: np.ndarray) -> np.ndarray:
        """Which assignment numbers are the smallest of their symmetry images,
        computed digit by digit from the board's symmetries."""
        digits = [(numbers // w) % c for w, c in zip(self.weights, self.counts)]
        keep = np.ones(len(numbers), dtype=bool)
        for perm in self.geometry.symmetries[1:]:
            image = np.zeros(len(numbers), dtype=np.int64)
            for i, src in enumerate(perm):  # image[i] = cls[perm[i]]
                image += digits[src] * self.weights[i]
            keep &= numbers <= image
        return keep

    def name_of(self, number: int) -> str:
        return "".join(
            "0123456789abcdefghijklmnopqrstuvwxyz"[(number // w) % c] for w, c in zip(self.weights, self.counts)
        )


def verify_run(path: str, registries: Registries, recheck: int | None = -1, seed: int = 1,
               wordlist: str | None = None) -> Verified:
    """Check the proof in one run file (see ``verify_runs``)."""
    return verify_runs([path], registries, recheck=recheck, seed=seed, wordlist=wordlist)


class _Reader:
    """What the records of all the files add up to, checked as they stream by."""

    def __init__(self, proof: _Proof, n_files: int, keep: int | None, seed: int) -> None:
        self.proof = proof
        # per assignment: 0 none, else the number (1-based) of the file that recorded it whole
        self.whole = np.zeros(proof.total, dtype=np.uint16)
        self.split: dict[int, _Split] = {}
        self.failed: dict[str, str] = {}
        self.found: dict[str, int] = {}  # canonical boards of the class records: score
        self.reported: list[tuple[str, int, str]] = []  # other reported boards: board, score, where
        self.finishes: list[tuple[dict[str, Any], str, int]] = []
        #: per file: its class records' boards (a finish record sums up its own file)
        self.file_found: list[dict[str, int]] = [{} for _ in range(n_files)]
        self.min_score: int | None = proof.option_min_score
        self.min_where = ""
        self.segments = 0
        self.records = 0
        self.boards = 0
        self.cpu = 0.0
        self.wall_only = False
        self.checker: RecordChecker | None = None
        self.chooser = Chooser(keep, seed)
        self.names: list[str] = []

    def need_min(self, where: str) -> int:
        if self.min_score is None:
            raise Hole(f"{where}: a class record before the proof's setup record (its min score is unknown)")
        return self.min_score

    def read(self, index: int, path: str, records: Iterator[tuple[int, dict[str, Any]]]) -> None:
        proof = self.proof
        geometry = proof.geometry
        for number, rec in records:
            kind = rec.get("type")
            where = f"{path}: line {number}"
            if kind == "start":
                self.segments += 1
                if rec["settings"].get("fingerprint") != proof.fingerprint:
                    raise Hole(f"{where}: this segment's fingerprint is not the first file's")
                continue
            if kind == "improved":
                self.reported.append((rec["board"], int(rec["score"]), where))
                continue
            if kind == "finish":
                self.finish(rec, where, index)
                continue
            if kind != "checkpoint":
                continue
            cp = rec["record"]
            if cp.get("kind") != "bnb":
                continue
            if cp.get("size") != geometry.size or cp.get("buckets") != proof.label:
                raise Hole(
                    f"{where}: a record of size {cp.get('size')!r}, buckets {cp.get('buckets')!r}; "
                    f"the proof's are {geometry.size!r}, {proof.label!r}"
                )
            if cp.get("setup"):
                self.setup(cp, where)
                continue
            if cp.get("min_score") != self.need_min(where):
                raise Hole(f"{where}: a record with min score {cp.get('min_score')!r}; the proof's is {self.min_score}")
            if "failed" in cp:
                self.failed[str(cp["failed"])] = str(cp.get("reason", ""))
                continue
            name = cp.get("class", cp.get("split"))
            if name is None:
                continue
            self.task(index, cp, name, where)

    def setup(self, cp: Mapping[str, Any], where: str) -> None:
        raw: Any = cp.get("min_score")
        if not _is_int(raw) or raw < 1:
            raise Hole(f"{where}: the setup's min score {raw!r} is not a whole number >= 1")
        score: int = raw
        if self.min_score is not None and score != self.min_score:
            source = self.min_where or "the min-score option"
            raise Hole(f"{where}: the setup's min score {score} is not {self.min_score} ({source})")
        if self.min_score is None:
            self.proof.min_from = "a hill climb's best, from the setup record"
        self.min_score, self.min_where = score, self.min_where or where
        if self.checker is None:
            self.checker = RecordChecker(self.proof.geometry, self.proof.label, score, self.proof.scorer.score)

    def task(self, index: int, cp: Mapping[str, Any], name: Any, where: str) -> None:
        proof = self.proof
        num = proof.class_number(name, where)
        part = cp.get("part", "")
        if not isinstance(part, str):
            raise Hole(f"{where}: class {name}'s part is not a string")
        sets = proof.letters(name, part, where)
        if "split" in cp:
            into = cp.get("into")
            if not (isinstance(into, list) and all(isinstance(k, str) for k in into)):
                raise Hole(f"{where}: the split of class {name}'s pieces are not a list of part names")
            entry = self.split.setdefault(num, _Split())
            if part in entry.splits:
                raise Hole(f"{where}: class {name} piece {part or '(whole)'} split twice (first at {entry.splits[part][1]})")
            entry.splits[part] = (into, where)
            return
        # a solved class or piece, checked on its own
        assert self.checker is not None  # need_min passed: the setup came first
        try:
            boards = self.checker.solved(cp, where)
        except ClassRecordError as exc:
            raise Hole(str(exc)) from None
        if part:
            entry = self.split.setdefault(num, _Split())
            if part in entry.done:
                raise Hole(f"{where}: class {name} piece {part} recorded twice (first at {entry.done[part]})")
            entry.done[part] = where
        else:
            first = int(self.whole[num])
            if first:
                other = "this file" if first == index + 1 else self.names[first - 1]
                raise Hole(f"{where}: class {name} recorded twice (first in {other})")
            self.whole[num] = index + 1
        for board, score in boards:
            self.found[board] = score
            self.file_found[index][board] = score
        self.boards += len(boards)
        self.records += 1
        # the class's CPU where the record has it (older files have only its
        # wall time, which a busy machine stretches)
        if "cpu" not in cp:
            self.wall_only = True
        seconds = cp.get("cpu", cp.get("seconds", 0.0))
        seconds = float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0.0
        seconds = seconds if 0.0 <= seconds < 1e9 else 0.0
        self.cpu += seconds
        bound = cp.get("root_bound")
        self.chooser.offer(Record(
            str(name), part, sets, {b for b, _ in boards}, bound if _is_int(bound) else None, seconds, where,
            best=max((s for _, s in boards), default=-1),
        ))

    def finish(self, rec: Mapping[str, Any], where: str, index: int) -> None:
        best = rec.get("best") or []
        if not isinstance(best, list):
            raise Hole(f"{where}: the finish record's best boards are not a list")
        for item in best:
            if not (isinstance(item, dict) and isinstance(item.get("board"), str) and _is_int(item.get("score"))):
                raise Hole(f"{where}: the finish record's best boards are not {{board, score}} objects")
            self.reported.append((item["board"], int(item["score"]), where))
        self.finishes.append((dict(rec), where, index))

    def check_reported(self) -> None:
        """Every improvement and finish record's boards re-scored, each as its
        own record says (not the last word on a board); those at or above the
        min score recorded in some class record."""
        proof, geometry = self.proof, self.proof.geometry
        min_score = self.need_min("the run files")
        for board, score, where in self.reported:
            if not (len(board) == geometry.n and board.isascii() and board.isalpha() and board.islower()):
                raise Hole(f"{where}: board {board[:40]!r} is not a {geometry.size} board")
            actual = proof.scorer.score(board)
            if actual != score:
                raise Hole(f"{where}: board {board} is recorded as {score} points but scores {actual}")
            if score >= min_score and geometry.canonical(board) not in self.found:
                raise Hole(f"{where}: board {board} ({score}) is reported but no class record holds it")
            self.boards += 1

    def check_finishes(self) -> None:
        """Each finish record's summary agrees with its own best list and the
        scores; each file's last one, if it says its proof (or shard) is
        complete, with that file's class records."""
        last = {index: rec for rec, _, index in self.finishes}
        for rec, where, index in self.finishes:
            board, score = rec.get("best_board"), rec.get("best_score")
            listed = [(str(i["board"]), int(i["score"])) for i in rec.get("best") or []]
            if board is not None or score is not None:
                if not (isinstance(board, str) and _is_int(score)):
                    raise Hole(f"{where}: the finish record's best board and score are not a board and a number")
                if board and self.proof.scorer.score(board) != score:
                    raise Hole(f"{where}: the finish record's best score {score} is not its best board {board}'s "
                               f"{self.proof.scorer.score(board)}")
                top = max((s for _, s in listed), default=None)
                if listed and top != score:
                    raise Hole(f"{where}: the finish record's best score {score} is not the best of its list ({top})")
            summary = rec.get("proof")
            if not (isinstance(summary, dict) and summary.get("complete") and last[index] is rec):
                continue
            found = self.file_found[index]
            best = max(found.values(), default=-1)
            if summary.get("best_score") != best:
                raise Hole(f"{where}: the proof's summary says the best score is {summary.get('best_score')!r}; "
                           f"the file's class records' best is {best}")
            if summary.get("boards") != len(found):
                raise Hole(f"{where}: the proof's summary counts {summary.get('boards')!r} boards; the file's "
                           f"class records hold {len(found)}")


def _shards(settings: list[tuple[str, Mapping[str, Any]]]) -> int:
    """The number of shards the files are of (0: whole runs), each given once."""
    marks: dict[int, str] = {}
    count = 0
    for path, s in settings:
        options = s.get("options")
        shard = (options.get("shard") or None) if isinstance(options, dict) else None
        if shard is None:
            if count:
                raise Hole(f"{path} is a whole run, {next(iter(marks.values()))} a shard: give one or the other")
            continue
        if not (isinstance(shard, str) and shard.count("/") == 1):
            raise Hole(f"{path}: its shard {str(shard)[:20]!r} is not K/N")
        k_text, n_text = shard.split("/")
        if not (k_text.isdigit() and n_text.isdigit() and 1 <= int(k_text) <= int(n_text)):
            raise Hole(f"{path}: its shard {shard!r} is not K/N with 1 <= K <= N")
        k, n = int(k_text), int(n_text)
        if count and n != count:
            raise Hole(f"{path} is shard {shard}, of {n} shards; {next(iter(marks.values()))} is of {count}")
        if marks and not count:
            raise Hole(f"{path} is a shard, {next(iter(marks.values()))} a whole run: give one or the other")
        count = n
        if k in marks:
            raise Hole(f"shard {k}/{n} is given twice: {marks[k]} and {path}")
        marks[k] = path
    if count:
        missing = [k for k in range(1, count + 1) if k not in marks]
        if missing:
            named = ", ".join(f"{k}/{count}" for k in missing[:5]) + (f" and {len(missing) - 5:,} more" if len(missing) > 5 else "")
            raise Hole(f"shard{'s' * (len(missing) > 1)} {named} missing: {len(marks):,} of {count:,} shards given")
    return count


def verify_runs(
    paths: Sequence[str],
    registries: Registries,
    recheck: int | None = -1,
    seed: int = 1,
    wordlist: str | None = None,
    budget: float | None = None,
    progress: Say | None = None,
    jobs: int = 1,
) -> Verified:
    """Check the proof in the run files ``paths`` (one run, or its shards);
    raise ``Hole`` at the first problem. ``recheck``: how many class records
    to re-solve (-1: as many as ``budget`` seconds allow, by default
    ``RECHECK_SHARE`` of the proof's recorded CPU and at least
    ``RECHECK_FLOOR``; None: every one). ``progress`` hears what is being
    checked: each step's text, and ``update`` True for progress within it
    (a big proof takes minutes). ``jobs`` > 1: records are re-solved in that
    many worker processes (the budget is their CPU, summed)."""
    started = time.process_time()  # CPU, to set beside the CPU the proof recorded
    say = progress if progress is not None else _silent
    if not paths:
        raise VerifyError("no run file given")
    if len(paths) > MAX_FILES:
        raise VerifyError(f"{len(paths):,} run files; at most {MAX_FILES:,} in one verify")
    # each file's start record first, the file closed again: a campaign's
    # thousands of shards are never open at once (a process may open ~1,024)
    heads = [(path, _start(path)) for path in paths]
    proof = _Proof(heads[0][1]["settings"], registries, wordlist)
    for path, start in heads[1:]:
        _same_proof(heads[0][0], heads[0][1]["settings"], path, start["settings"])
    shards = _shards([(path, start["settings"]) for path, start in heads])
    keep = None if recheck is None else (RECHECK_KEEP if recheck < 0 else recheck)
    reader = _Reader(proof, len(paths), keep, seed)
    reader.names = [path for path, _ in heads]
    for index, (path, start) in enumerate(heads):
        # one step for all the files: a campaign's 20,000 shards are not 20,000 lines in a log
        say(f"reading and re-scoring {os.path.basename(path)}"
            + (f" ({index + 1} of {len(heads)} files)" if len(heads) > 1 else ""), index > 0)
        reader.segments += 1
        records = _lines(path)
        try:
            again = next(records, None)
            if again is None or again[1] != start:  # what was checked above is what is read
                raise Hole(f"{path}: its start record changed while verify read it")
            reader.read(index, path, records)
        finally:
            records.close()
    say("checking that every class is recorded once", False)
    min_score = reader.need_min("the run files") if reader.min_score is not None else None
    if min_score is None:
        raise Hole("no setup record: the proof never started")
    reader.check_reported()
    classes, pieces = _coverage(proof, reader)
    best = sorted(reader.found.items(), key=lambda bs: (-bs[1], bs[0]))
    reader.check_finishes()
    result = Verified(
        size=proof.geometry.size, buckets=proof.label, classes=classes, pieces=pieces,
        split_classes=len(reader.split), wordlist=proof.dictionary.name, rule=proof.rule,
        min_score=min_score, min_score_from=proof.min_from, boards=reader.boards, records=reader.records,
        segments=reader.segments, files=len(paths), shards=shards, best=best,
        wordlist_label=proof.dictionary.label, kernel_note=proof.kernel_note, cpu_recorded=reader.cpu,
        wall_recorded=reader.wall_only,
        full_recheck=recheck is None,
    )
    result.budget = budget if budget is not None else default_budget(reader.cpu)
    _witness(proof, reader, result, recheck, seed, say, jobs)
    # the workers' CPU too: their re-solving is part of what verify spent
    w = result.witness
    result.seconds = time.process_time() - started + (w.resolve_seconds if w.resolve_workers else 0.0)
    return result


def _same_proof(first: str, settings: Mapping[str, Any], path: str, other: Mapping[str, Any]) -> None:
    """Another file of the same proof: searcher and fingerprint as the first file's."""
    if other.get("searcher") != "bnb":
        raise VerifyError(f"{path}: verify checks branch-and-bound proofs; this run file is of searcher "
                          f"{other.get('searcher')!r}")
    mine, theirs = settings.get("fingerprint"), other.get("fingerprint")
    if not isinstance(theirs, dict):
        raise Hole(f"{path} records no fingerprint (written by an older boggle-opt)")
    assert isinstance(mine, dict)
    for key in sorted(set(mine) | set(theirs)):
        if key != "kernel" and mine.get(key) != theirs.get(key):
            what = FIELDS.get(key, key)
            raise Hole(f"{path} is of another proof than {first}: its {what} differs ({key}: "
                       f"{str(theirs.get(key))[:40]!r}, not {str(mine.get(key))[:40]!r})")


def shares(budget: float, cpu: float) -> tuple[float, float, float]:
    """A witness budget's seconds for the basin hops, the re-solving and the
    plain-Python kernel check (at most), for a proof that recorded ``cpu``."""
    hop = min(HOP_SHARE * budget, HOP_MAX, max(HOP_FLOOR, cpu))
    rest = budget - hop  # the hops' share comes out of it
    return hop, rest - PURE_SHARE * rest, PURE_SHARE * rest


def default_budget(cpu: float) -> float:
    """verify's witness budget for a proof that recorded ``cpu`` seconds of classes."""
    return max(RECHECK_FLOOR, RECHECK_SHARE * cpu)


def _witness(proof: _Proof, reader: _Reader, result: Verified, recheck: int | None, seed: int,
             say: Say, jobs: int) -> None:
    """Climbs, closure, re-solving and the kernel check (``runs.witness``)."""
    min_score = result.min_score
    problem = Problem(proof.dictionary, proof.geometry)
    found = set(reader.found)
    witnessed = result.witness
    try:
        witnessed.climbs = CLIMBS
        say(f"witnesses: {CLIMBS} seeded climbs", False)
        witnessed.climb_hits = climbs(problem, found, min_score, CLIMBS, seed)
        say(f"witnesses: the one-change neighbours of {len(found):,} boards", False)
        witnessed.closure_tried = closure(problem, found, list(reader.found.items()), min_score, CLOSURE)
        hop_budget, resolving, pure_share = shares(result.budget, reader.cpu)
        say(f"witnesses: basin hops for {hop_budget:.0f} s", False)
        hops(problem, found, min_score, hop_budget, seed, witnessed)
        chosen = reader.chooser.chosen()
        if recheck == 0 or not chosen:
            return
        pure_budget = 0.0 if recheck is None else pure_share
        args = (proof.dictionary.keys, proof.dictionary.points, proof.geometry.cols, proof.geometry.rows,
                proof.bnb.buckets(proof.geometry)[1], min_score, *proof.bnb.switch_settings(proof.geometry))
        resolver = Resolver(proof.geometry, not proof.kernel_note, seed)
        limit = None if recheck is None or recheck > 0 else resolving
        count = recheck if recheck is not None and recheck > 0 else None
        resolve(chosen, args, resolver, witnessed, limit, count, jobs, say)
        say("one task solved again without the compiled kernel", False)
        _kernel_check(proof, chosen, min_score, max(pure_budget, 1.0), result)
    except Unrecorded as exc:
        raise Hole(str(exc)) from None


def _silent(text: str, update: bool) -> None:
    """No progress to tell."""


def _coverage(proof: _Proof, reader: _Reader) -> tuple[int, int]:
    """Every canonical class recorded exactly once, whole or in pieces that
    partition it, and nothing else; (classes, pieces)."""
    recorded, split, failed = reader.whole, reader.split, reader.failed
    has_pieces = np.zeros(proof.total, dtype=bool)
    if split:
        has_pieces[np.fromiter(split, dtype=np.int64, count=len(split))] = True
    canonical = pieces = 0
    for begin in range(0, proof.total, BLOCK):
        numbers = np.arange(begin, min(begin + BLOCK, proof.total), dtype=np.int64)
        canon = proof.canonical_mask(numbers)
        rec = recorded[begin:begin + len(numbers)] > 0
        cut = has_pieces[begin:begin + len(numbers)]
        canonical += int(canon.sum())
        problems = (~canon & (rec | cut)) | (canon & ~rec & ~cut) | (rec & cut)
        # split classes are checked piece by piece, in class order with the rest
        for num in np.flatnonzero(cut & canon & ~rec).tolist():
            problems[num] = _pieces_hole(proof, begin + num, split[begin + num]) is not None
        bad = np.flatnonzero(problems)
        if len(bad):
            num = begin + int(bad[0])
            name = proof.name_of(num)
            letters = " ".join(proof.letters(name, "", "class"))
            if not canon[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded but is not canonical (a symmetric image of it is)")
            if rec[bad[0]] and cut[bad[0]]:
                raise Hole(f"class {name} ({letters}) is recorded whole and in pieces")
            if not cut[bad[0]]:
                reason = f" (its task failed: {failed[name]})" if name in failed else ""
                files = " in any of the files" if len(reader.names) > 1 else ""
                raise Hole(f"class {name} ({letters}) is missing: no record of it{files}{reason}")
            hole = _pieces_hole(proof, num, split[num])
            raise Hole(str(hole))
    for entry in split.values():
        pieces += len(entry.done)
    expected = count_classes(proof.geometry, proof.counts)
    if canonical != expected:  # two independent counts of the class space
        raise Hole(f"the class space has {canonical:,} canonical classes here but {expected:,} by Burnside's lemma")
    return canonical, pieces


def _pieces_hole(proof: _Proof, num: int, entry: _Split) -> str | None:
    """What is wrong with a split class's pieces, or None: from the whole
    class down, each piece is either recorded solved or split into one piece
    per letter of one of its cells with several letters; every record is
    reached."""
    name = proof.name_of(num)
    reached: set[str] = set()
    stack = [""]
    while stack:
        key = stack.pop()
        reached.add(key)
        label = f"class {name} piece {key or '(whole)'}"
        if key in entry.done:
            if key in entry.splits:
                return f"{label} is recorded solved ({entry.done[key]}) and split ({entry.splits[key][1]})"
            continue
        if key not in entry.splits:
            return f"{label} is missing: it is split off but never solved"
        into, line = entry.splits[key]
        sets = proof.letters(name, key, line)
        prefix = key + "." if key else ""
        cells = set()
        letters: list[str] = []
        for child in into:
            if not child.startswith(prefix) or "." in child[len(prefix):]:
                return f"{label}: its split ({line}) names {child!r}, not one more fixed cell"
            (cell, letter), = proof.parse_part(child[len(prefix):], line)
            cells.add(cell)
            letters.append(letter)
        if len(cells) != 1 or len(sets[min(cells)]) < 2 or sorted(letters) != sorted(sets[min(cells)]):
            return (f"{label}: its split ({line}) into {into} is not one piece per letter of one cell "
                    f"with several letters")
        stack.extend(into)
    stray = sorted((set(entry.done) | set(entry.splits)) - reached)
    if stray:
        line = entry.done.get(stray[0]) or entry.splits[stray[0]][1]
        return f"class {name} piece {stray[0]} is recorded ({line}) but no split of the class leads to it"
    return None


def _kernel_check(proof: _Proof, chosen: list[Record], min_score: int, budget: float, result: Verified) -> None:
    """One small task solved again without the compiled kernel: by scoring
    every board if it has few, else by the kernel's source as plain Python
    (a piece of a record cut down to about ``budget`` seconds of it)."""
    geometry = proof.geometry
    # a record with boards if there is one: a check that finds nothing proves less
    record = min(chosen, key=lambda r: (not r.boards, r.seconds, r.where))
    n_boards = 1
    for s in record.sets:
        n_boards *= len(s)
    if n_boards <= BRUTE_MAX:
        method = BRUTE
        sets, part = record.sets, record.part
        found = {geometry.canonical(b) for b in map("".join, itertools.product(*sets))
                 if proof.scorer.score(b) >= min_score}
    else:
        method = PURE
        factor = record.seconds * PURE_SLOWDOWN / budget
        part, sets = (record.part, record.sets) if factor <= 1 else narrowed(record, factor, geometry, random.Random(0))
        with tempfile.TemporaryDirectory() as tmp:
            try:
                solve = _pure_solver(proof, Path(tmp), min_score)
                found = {geometry.canonical(b) for b in solve(sets)}
            finally:
                sys.modules.pop("boggle_opt_verify_core", None)
    want = {b for b in record.boards if in_sets(b, sets, geometry)}
    label = record.label if part == record.part else f"{record.label}, its piece {part}"
    if found != want:
        missing = sorted(found - want)
        detail = (f"board {missing[0]} is not in the record" if missing
                  else f"the recorded board {sorted(want - found)[0]} is not found")
        raise Hole(f"recheck: {label} re-solved by {method} gives {len(found)} boards >= {min_score}, "
                   f"the record {len(want)}: {detail}")
    result.methods[method] = result.methods.get(method, 0) + 1
    result.witness.kernel_check = label


def _pure_solver(proof: _Proof, tmp: Path, min_score: int) -> Callable[[list[str]], list[str]]:
    core = load_pure_core(tmp)
    if core is None:
        raise VerifyError(
            "--recheck: this install has no core sources to run as plain Python, and a sampled "
            "class is too big to brute force; use --recheck 0"
        )
    trie_mod = importlib.import_module(f"{core.__name__}.trie")
    branch = importlib.import_module(f"{core.__name__}.branch")
    geo = importlib.import_module(f"{core.__name__}.geometry")
    scorer_mod = importlib.import_module(f"{core.__name__}.scorer")
    d = proof.dictionary
    trie = trie_mod.PackedTrie(d.keys, d.points)
    g = geo.Geometry(proof.geometry.cols, proof.geometry.rows)
    solver = branch.ClassSolver(trie, g)
    scorer = scorer_mod.Scorer(trie, g)
    switch_pct, switch_score = proof.bnb.switch_settings(proof.geometry)

    def solve(sets: list[str]) -> list[str]:
        masks = [sum(1 << (ord(ch) - 97) for ch in s) for s in sets]
        candidates = solver.solve(masks, min_score, switch_pct, switch_score, 0.0)
        return [b for b in candidates if scorer.score(b) >= min_score]

    return solve
