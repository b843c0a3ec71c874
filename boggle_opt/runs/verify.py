"""Checking a proof's run file without trusting its own summary.

``verify_run`` reads a ``bnb`` run file one line at a time and checks, from
the records alone and facts it recomputes:

- the fingerprint: the word list is re-read (afresh, not from the dictionary
  cache) and hashed, the rule's points, the size and the buckets recomputed
  from the settings, and every segment's fingerprint is the first one's;
- every class record: its size, buckets and min score are the proof's, and
  each of its boards is canonical, lies in the class (or piece), re-scores
  to its recorded score and scores at least the min score; every other
  reported board (improvements, the finish record) re-scores too and is in
  some class record;
- coverage: every canonical class of the class space (recomputed here from
  the board's symmetries, not taken from ``ClassSpace``) is recorded exactly
  once, whole or as pieces whose splits partition it (one piece per letter
  of one cell) and are each recorded once; nothing else is recorded;
- with ``recheck``, a seeded random sample of class records is solved again
  by another method (brute force over a small task's boards, else the core's
  source run as plain Python instead of the compiled build) and must give the
  same boards.

The first problem found is raised as a ``Hole`` whose message is one line.
Memory is one byte per bucket assignment (4x4: 8.5 MB) plus the split
classes and the boards found; records are never all held.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
import shutil
import sys
import tempfile
import time
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..proofs.board_classes import count_classes
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..dictionary.dictionary import Dictionary
from ..registry.dictionaries import load_dictionary
from .fingerprints import FIELDS, dictionary_fields, kernel_version, recorded_options
from ..searching.options import make_options
from ..registry.registries import Registries
from .records import RunFileError, check_record

#: a task with at most this many boards is re-solved by scoring every one of them
BRUTE_MAX = 200_000
#: at most this many bucket assignments are tracked (one byte each)
MAX_ASSIGNMENTS = 1 << 31
#: assignments tested per numpy step of the coverage pass
BLOCK = 1 << 16
#: the re-solving methods, as the summary names them
BRUTE = "brute force"
PURE = "the kernel's source as plain Python"

T = TypeVar("T")


class Hole(Exception):
    """What makes a run file not a complete, consistent proof: one line."""


class VerifyError(BoggleOptError):
    """A run file that verify cannot check at all (unreadable, not a bnb proof)."""


@dataclass
class Verified:
    """What ``verify_run`` checked, for its one-line summary."""

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
    rechecked: list[str] = field(default_factory=list)
    methods: dict[str, int] = field(default_factory=dict)
    kernel_note: str = ""
    seconds: float = 0.0

    def summary(self) -> str:
        methods = " and ".join(f"{n} by {m}" for m, n in self.methods.items())
        recheck = f"{len(self.rechecked)} class records re-solved ({methods}), all agree" if self.rechecked else "no class record re-solved"
        pieces = f" ({self.split_classes:,} of them split, in {self.pieces:,} pieces)" if self.split_classes else ""
        return (
            f"verified: {self.classes:,} of {self.classes:,} classes of {self.size} "
            f"(buckets {self.buckets}) exactly once{pieces}; word list {self.wordlist} re-read and hashed, "
            f"rule {self.rule}, size and buckets match the fingerprint; min score {self.min_score:,} "
            f"({self.min_score_from}); {self.boards:,} boards re-scored; {recheck}"
        )


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
    """The pieces of one class: part key -> line of its record, and its splits."""

    done: dict[str, int] = field(default_factory=dict)
    splits: dict[str, tuple[list[str], int]] = field(default_factory=dict)


@dataclass
class _Task:
    """A sampled class record to re-solve."""

    name: str
    part: str
    sets: list[str]
    boards: set[str]
    line: int


def _lines(path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, checked record) of each line, streamed; a torn last line is skipped."""
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise VerifyError(f"cannot read run file {path!r}: {exc.strerror}") from None
    with handle:
        pending: int | None = None  # a line that did not parse: fine only if it is the last
        try:
            for number, line in enumerate(handle, 1):
                if pending is not None:
                    raise Hole(f"line {pending} is not JSON")
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                except (json.JSONDecodeError, RecursionError):
                    pending = number
                    continue
                try:
                    yield number, check_record(record, f"line {number}")
                except RunFileError as exc:
                    raise Hole(str(exc)) from None
        except UnicodeDecodeError as exc:
            raise VerifyError(f"run file {path!r} is not text (byte {exc.start})") from None


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


def verify_run(
    path: str,
    registries: Registries,
    recheck: int = 3,
    seed: int = 1,
    wordlist: str | None = None,
) -> Verified:
    """Check the proof in the run file ``path``; raise ``Hole`` at the first problem."""
    started = time.perf_counter()
    records = _lines(path)
    first = next(records, None)
    if first is None or first[1].get("type") != "start":
        raise VerifyError(f"{path!r} is not a boggle-opt run file (it does not begin with a start record)")
    settings = first[1]["settings"]
    proof = _Proof(settings, registries, wordlist)
    geometry, scorer = proof.geometry, proof.scorer
    whole = bytearray(proof.total)  # whole-class records per assignment (2: more than one)
    split: dict[int, _Split] = {}
    failed: dict[str, str] = {}
    found: set[str] = set()  # canonical boards of the class records
    reported: dict[str, tuple[int, int]] = {}  # other reported boards: score, line
    min_score: int | None = proof.option_min_score
    min_line = 0
    segments, n_records, n_boards = 1, 0, 0
    sampler: Reservoir[_Task] = Reservoir(recheck, seed)

    def need_min(where: str) -> int:
        if min_score is None:
            raise Hole(f"{where}: a class record before the proof's setup record (its min score is unknown)")
        return min_score

    for number, rec in records:
        kind = rec.get("type")
        where = f"line {number}"
        if kind == "start":
            segments += 1
            if rec["settings"].get("fingerprint") != proof.fingerprint:
                raise Hole(f"{where}: segment {segments}'s fingerprint is not the first segment's")
            continue
        if kind == "improved":
            reported[rec["board"]] = (int(rec["score"]), number)
            continue
        if kind == "finish":
            for item in rec.get("best") or []:
                if not (isinstance(item, dict) and isinstance(item.get("board"), str) and _is_int(item.get("score"))):
                    raise Hole(f"{where}: the finish record's best boards are not {{board, score}} objects")
                reported[item["board"]] = (int(item["score"]), number)
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
            score = cp.get("min_score")
            if not _is_int(score) or score < 1:
                raise Hole(f"{where}: the setup's min score {score!r} is not a whole number >= 1")
            if min_score is not None and score != min_score:
                source = f"line {min_line}" if min_line else "the min-score option"
                raise Hole(f"{where}: the setup's min score {score} is not {min_score} ({source})")
            if min_score is None:
                proof.min_from = "a hill climb's best, from the setup record"
            min_score, min_line = score, number
            continue
        if cp.get("min_score") != need_min(where):
            raise Hole(f"{where}: a record with min score {cp.get('min_score')!r}; the proof's is {min_score}")
        if "failed" in cp:
            failed[str(cp["failed"])] = str(cp.get("reason", ""))
            continue
        name = cp.get("class", cp.get("split"))
        if name is None:
            continue
        num = proof.class_number(name, where)
        part = cp.get("part", "")
        if not isinstance(part, str):
            raise Hole(f"{where}: class {name}'s part is not a string")
        sets = proof.letters(name, part, where)
        if "split" in cp:
            into = cp.get("into")
            if not (isinstance(into, list) and all(isinstance(k, str) for k in into)):
                raise Hole(f"{where}: the split of class {name}'s pieces are not a list of part names")
            entry = split.setdefault(num, _Split())
            if part in entry.splits:
                raise Hole(f"{where}: class {name} piece {part or '(whole)'} split twice (first at line {entry.splits[part][1]})")
            entry.splits[part] = (into, number)
            continue
        # a solved class or piece
        if part:
            entry = split.setdefault(num, _Split())
            if part in entry.done:
                raise Hole(f"{where}: class {name} piece {part} recorded twice (first at line {entry.done[part]})")
            entry.done[part] = number
        else:
            if whole[num]:
                raise Hole(f"{where}: class {name} recorded twice (this is its second record)")
            whole[num] = 1
        boards = cp.get("boards", [])
        if not isinstance(boards, list):
            raise Hole(f"{where}: class {name}'s boards are not a list")
        mine: set[str] = set()
        for pair in boards:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and _is_int(pair[1])):
                raise Hole(f"{where}: {str(pair)[:40]} is not a [board, score] pair")
            board, score = pair
            _check_board(proof, board, score, need_min(where), where)
            if board != geometry.canonical(board):
                raise Hole(f"{where}: board {board} is not canonical ({geometry.canonical(board)})")
            if not any(all(b in s for b, s in zip(variant, sets)) for variant in geometry.variants(board)):
                raise Hole(f"{where}: board {board} is not in class {name}{' part ' + part if part else ''}")
            mine.add(board)
            n_boards += 1
        found |= mine
        n_records += 1
        sampler.offer(_Task(name, part, sets, mine, number))

    if min_score is None:
        raise Hole("no setup record: the proof never started")
    for board, (score, number) in reported.items():
        where = f"line {number}"
        if not (len(board) == geometry.n and board.isascii() and board.isalpha() and board.islower()):
            raise Hole(f"{where}: board {board[:40]!r} is not a {geometry.size} board")
        _check_board(proof, board, score, min_score, where)
        if geometry.canonical(board) not in found:
            raise Hole(f"{where}: board {board} ({score}) is reported but no class record holds it")
        n_boards += 1

    classes, pieces = _coverage(proof, whole, split, failed)
    result = Verified(
        size=geometry.size, buckets=proof.label, classes=classes, pieces=pieces, split_classes=len(split),
        wordlist=proof.dictionary.name, rule=proof.rule, min_score=min_score, min_score_from=proof.min_from,
        boards=n_boards, records=n_records, segments=segments, kernel_note=proof.kernel_note,
    )
    if sampler.items:
        _recheck(proof, sampler.items, min_score, result)
    result.seconds = time.perf_counter() - started
    return result


def _check_board(proof: _Proof, board: str, score: int, min_score: int, where: str) -> None:
    if not (len(board) == proof.geometry.n and board.isascii() and board.isalpha() and board.islower()):
        raise Hole(f"{where}: board {board[:40]!r} is not a {proof.geometry.size} board")
    actual = proof.scorer.score(board)
    if actual != score:
        raise Hole(f"{where}: board {board} is recorded as {score} points but scores {actual}")
    if score < min_score:
        raise Hole(f"{where}: board {board} scores {score}, below the min score {min_score}")


def _coverage(proof: _Proof, whole: bytearray, split: dict[int, _Split], failed: Mapping[str, str]) -> tuple[int, int]:
    """Every canonical class recorded exactly once, whole or in pieces that
    partition it, and nothing else; (classes, pieces)."""
    recorded = np.frombuffer(whole, dtype=np.uint8)
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
                raise Hole(f"class {name} ({letters}) is missing: no record of it{reason}")
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
                return f"{label} is recorded solved (line {entry.done[key]}) and split (line {entry.splits[key][1]})"
            continue
        if key not in entry.splits:
            return f"{label} is missing: it is split off but never solved"
        into, line = entry.splits[key]
        sets = proof.letters(name, key, f"line {line}")
        prefix = key + "." if key else ""
        cells = set()
        letters: list[str] = []
        for child in into:
            if not child.startswith(prefix) or "." in child[len(prefix):]:
                return f"{label}: its split (line {line}) names {child!r}, not one more fixed cell"
            (cell, letter), = proof.parse_part(child[len(prefix):], f"line {line}")
            cells.add(cell)
            letters.append(letter)
        if len(cells) != 1 or len(sets[min(cells)]) < 2 or sorted(letters) != sorted(sets[min(cells)]):
            return (f"{label}: its split (line {line}) into {into} is not one piece per letter of one cell "
                    f"with several letters")
        stack.extend(into)
    stray = sorted((set(entry.done) | set(entry.splits)) - reached)
    if stray:
        line = entry.done.get(stray[0]) or entry.splits[stray[0]][1]
        return f"class {name} piece {stray[0]} is recorded (line {line}) but no split of the class leads to it"
    return None


def _recheck(proof: _Proof, sample: list[_Task], min_score: int, result: Verified) -> None:
    """Solve the sampled tasks again by another method and compare boards."""
    geometry = proof.geometry
    solve: Callable[[list[str]], list[str]] | None = None
    tmp: tempfile.TemporaryDirectory[str] | None = None
    try:
        for task in sorted(sample, key=lambda t: t.line):
            n_boards = 1
            for s in task.sets:
                n_boards *= len(s)
            if n_boards <= BRUTE_MAX:
                method = BRUTE
                found = {
                    geometry.canonical(b)
                    for b in map("".join, itertools.product(*task.sets))
                    if proof.scorer.score(b) >= min_score
                }
            else:
                method = PURE
                if solve is None:
                    tmp = tempfile.TemporaryDirectory()
                    solve = _pure_solver(proof, Path(tmp.name), min_score)
                found = {geometry.canonical(b) for b in solve(task.sets)}
            result.methods[method] = result.methods.get(method, 0) + 1
            label = f"class {task.name}{' piece ' + task.part if task.part else ''} (line {task.line})"
            if found != task.boards:
                missing = sorted(found - task.boards)
                extra = sorted(task.boards - found)
                detail = (f"board {missing[0]} is not in the record" if missing
                          else f"the recorded board {extra[0]} is not found")
                raise Hole(
                    f"recheck: {label} re-solved by {method} gives {len(found)} boards >= {min_score}, "
                    f"the record {len(task.boards)}: {detail}"
                )
            result.rechecked.append(label)
    finally:
        if tmp is not None:
            tmp.cleanup()
            sys.modules.pop("boggle_opt_verify_core", None)


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
