"""Checking a proof's run files without trusting their own summaries.

``verify_runs`` reads one or more ``bnb`` run files (a whole proof, or the
shards of one) a line at a time and checks, from the records alone and facts
it recomputes. In full:

- the fingerprint: the word list is re-read (afresh, not from the dictionary
  cache) and hashed, the rule's points, the size and the buckets recomputed
  from the settings; every segment of every file has the first one's;
- shards: every file names the same number of shards, none twice; all of
  them make a proof, fewer a partial set (``runs.shard_set``), checked in
  the same way over the classes of the shards given and stated as what it
  is, not as a proof;
- every class record on its own (``proofs.class_records``): canonical, its
  boards present, each a canonical board listed once that lies in the class
  (or piece), re-scores to its recorded score, reaches the min score and is
  under the record's root bound, and ``pruned`` only below the min score;
- every reported board (improvements, finish records) re-scores to what each
  record says and, at or above the min score, is in some class record; each
  finish record's best board and score agree with its own list, and the last
  one of a complete proof with the class records;
- coverage: every canonical class of the class space (recomputed here from
  the board's symmetries, not taken from ``ClassSpace``), or of the shards
  given, is recorded exactly once over all the files, whole or as pieces
  whose splits partition it (one piece per letter of one cell) and are each
  recorded once; nothing else is; a shard's file holds classes of its own
  shard only.

The proof's facts come from ``runs.proof_facts`` and the coverage check
from ``runs.coverage``. And, as independent witnesses that no board was
left out of a consistent record (``runs.witness``, ``runs.recheck``):
seeded climbs, the closure of the recorded boards under one change, hops
from the best board of every class that holds one, class records drawn at
random (from verify's own seed, fresh unless given) re-solved whole by the
compiled kernel, and one small task solved by the kernel's plain-Python
source; and, sharing no code with the kernel but the scorer, the lowest
draws solved again (whole or a drawn piece) by the max/no-mark bound
(``runs.reference_solve``). Nothing a record claims decides what is
re-solved: the summary states the chance each class record had of it.

The first problem found is raised as a ``Hole`` whose message is one line.
Memory is two bytes per bucket assignment (4x4: 17 MB) plus the split
classes, the boards found and the records kept for re-solving.
"""

from __future__ import annotations

import json
import math
import os
import random
import secrets
import time
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..core.alphabet import ENGLISH, Alphabet
from ..core.errors import BoggleOptError
from ..dictionary.rules import letters_note
from ..proofs.class_records import ClassRecordError, RecordChecker, is_board_text
from ..proofs.class_tasks import TrieTiles
from ..proofs.memory import DEFAULT_WORKER_MB
from ..registry.registries import Registries
from ..searching.interface import Problem
from .coverage import coverage
from .fingerprints import FIELDS, kernel_version
from .proof_facts import Hole, ProofFacts, Split, VerifyError
from .reference_solve import Drawn, ReferenceChecked, ReferenceMismatch, percent, reference_check
from .recheck import DEFAULT_CHANCE, PURE_FLOOR, PURE_SHARE, RECHECK_FLOOR, hop_count, kernel_check
from .records import RunFileError, check_record, numbered_lines
from .resolving import Plan, Resolver, resolve
from .shard_set import Scope, ShardSet, read_shards
from .written import stored_record
from .witness import Draw, Record, Unrecorded, Witnessed, class_hops, climbs, closure, hops

#: records kept for the draw of an automatic re-solving (the lowest draws):
#: a 4x4 proof's 67,257 classes at the default chance need about 1,350
RECHECK_KEEP = 20_000
#: seeded climbs of the witness, and the best recorded boards whose neighbours are checked
CLIMBS = 40
CLOSURE = 2000
#: the most files one verify reads (their shard marks are kept in two bytes)
MAX_FILES = 65_000

#: hears a verify's progress: a step's text, and whether it updates the step under way
Say = Callable[[str, bool], None]

T = TypeVar("T")


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
    #: the shards given (``runs.shard_set``); of a partial set, ``classes`` counts theirs
    shard_set: ShardSet = field(default_factory=ShardSet)
    #: the class space's classes (``classes`` of a whole proof)
    space: int = 0
    #: witnesses' boards >= the min score in classes of shards not given (not looked up)
    outside: int = 0
    #: the boards >= the min score, in symbols (as run files hold them)
    best: list[tuple[str, int]] = field(default_factory=list)
    #: a board or buckets as people write them (the alphabet's ``write``)
    written: Callable[[str], str] = str
    wordlist_label: str = ""
    witness: Witnessed = field(default_factory=Witnessed)
    budget: float = 0.0
    full_recheck: bool = False
    #: the seed of the witnesses and the draw (``--seed`` repeats the check)
    seed: int = 0
    methods: dict[str, int] = field(default_factory=dict)
    #: drawn records solved again without the kernel (``runs.reference_solve``)
    reference: ReferenceChecked = field(default_factory=ReferenceChecked)
    kernel_note: str = ""
    #: the records were re-solved at another worker memory than some files' own (their root bounds not compared)
    memory_note: str = ""
    seconds: float = 0.0
    cpu_recorded: float = 0.0
    #: some records give only their class's wall time
    wall_recorded: bool = False
    #: the run's ``--min-letters`` (None: the rule's own minimum), which its statement names
    min_letters: int | None = None

    @property
    def rechecked(self) -> list[str]:
        return self.witness.resolved

    def statement(self) -> str:
        """What the proof proves, as a single run would state it."""
        where = f"{self.wordlist_label or self.wordlist} under the {self.rule} rule{letters_note(self.min_letters)}"
        if not self.best:
            return f"no {self.size} board scores >= {self.min_score:,} for {where}"
        top = self.best[0][1]
        tied = [self.written(b) for b, s in self.best if s == top]
        if len(tied) == 1:
            first = f"{tied[0]} ({top:,}) is the best {self.size} board"
        else:
            named = ", ".join(tied[:2]) + (f" and {len(tied) - 2:,} more" if len(tied) > 2 else "")
            first = f"{named} ({top:,}) are the {len(tied):,} best {self.size} boards"
        n = len(self.best)
        return f"{first} for {where}; {n:,} board{'s' * (n != 1)} score{'s' * (n == 1)} >= {self.min_score:,}"

    @property
    def partial(self) -> bool:
        """Fewer than all the shards of a proof: verified, but not a proof."""
        return self.shard_set.partial

    def partial_statement(self) -> str:
        """What a partial set shows: the boards at or above the min score in its classes."""
        where = f"{self.wordlist_label or self.wordlist} under the {self.rule} rule{letters_note(self.min_letters)}"
        head = f"no {self.size} board in them scores >= {self.min_score:,} for {where}"
        if not self.best:
            return head
        n = len(self.best)
        named = ", ".join(f"{self.written(b)} ({s:,})" for b, s in self.best[:3])
        more = f" and {n - 3:,} more" if n > 3 else ""
        return f"{head} except {'this one' if n == 1 else f'these {n:,}'}: {named}{more}"

    def summary(self) -> str:
        pieces = f" ({self.split_classes:,} of them split, in {self.pieces:,} pieces)" if self.split_classes else ""
        if self.partial:
            cut = f"; {self.split_classes:,} split, in {self.pieces:,} pieces" if self.split_classes else ""
            return (f"verified {self.shard_set.given_text()} ({self.classes:,} of {self.space:,} classes of "
                    f"{self.size}, each exactly once{cut}): {self.partial_statement()}; not a proof: "
                    f"{self.shard_set.missing_text()}")
        files = f" in {self.files:,} run files" if self.files > 1 else ""
        shards = f" ({self.shards:,} shards)" if self.shards else ""
        return (f"verified: {self.classes:,} of {self.classes:,} classes of {self.size} exactly once{pieces}"
                f"{files}{shards}; proved: {self.statement()}")

    def _of_these(self) -> str:
        return f" of {self.shard_set.given_text()}" if self.partial else ""

    def covered_text(self) -> str:
        """What the coverage check covered, for the details."""
        if self.partial:
            return (f"the {self.classes:,} classes of {self.shard_set.given_text()} covered exactly once, and no "
                    f"other (each file's of its own shard; the class space counted again by Burnside's lemma)")
        return "the class space covered exactly once (counted again by Burnside's lemma)"

    def outside_note(self) -> str:
        """Of a partial set: what the witnesses could not look up."""
        if not self.partial:
            return ""
        n = self.outside
        return (f"; of the boards >= the min score the climbs, hops and changes reached, {counted(n, 'board')} "
                f"lay in classes of the shards not given, which no record here can hold: not looked up")

    def worth(self) -> str:
        """What the re-solving was worth, in a line a reader can quote."""
        w = self.witness
        if self.full_recheck:
            return (f"every one of the {counted(w.drawn_from, 'class record')} was re-solved whole (--recheck all): "
                    f"no board of any class{self._of_these()} can have been left out")
        if w.resolved and w.chance >= 1:
            return (f"every one of the {counted(w.drawn_from, 'class record')} was re-solved whole (all the "
                    f"draws fitted the budget): no board of any class{self._of_these()} can have been left out")
        if not w.resolved:
            return ("no class record was re-solved (--recheck 0): a board left out of a record, with every "
                    "other record made to agree, is found only if a witness above reaches it; --recheck all "
                    "re-solves every class record")
        return (f"each class record had at least a {percent(w.chance)} chance of being re-solved whole "
                f"(drawn with seed {self.seed}); a forgery confined to one class record escapes this check with "
                f"probability at most {_escape(w.chance)}; --recheck all re-solves every class record")

    def details(self) -> list[str]:
        """What was checked in full, and what was sampled, one line each."""
        w = self.witness
        methods = " and ".join(f"{m} on {counted(n, 'task')}" for m, n in self.methods.items())
        kernel = f"; the kernel checked against {methods}: {w.kernel_check}" if w.kernel_check else ""
        resolved = (
            f"{counted(len(w.resolved), 'class record')} re-solved by the compiled kernel (whole; "
            f"{len(w.resolved):,} of {w.drawn_from:,}, drawn at random) in "
            f"{w.resolve_seconds:.1f} s{f' of CPU in {w.resolve_workers} worker processes' if w.resolve_workers else ''}"
            f"{' (all of them: --recheck all)' if self.full_recheck else ''}, all agree"
            if w.resolved else "no class record re-solved (--recheck 0)"
        )
        closure = ("the best board's" if w.closure_tried == 1 else f"the best {w.closure_tried:,} boards'")
        return [
            f"checked in full: the fingerprint of {counted(self.segments, 'segment')} (word list {self.wordlist} "
            f"re-read and hashed, rule {self.rule}{letters_note(self.min_letters)}, size, buckets {self.buckets}, min score {self.min_score:,} "
            f"({self.min_score_from})); {self.covered_text()}; "
            f"{counted(self.records, 'class record')} each consistent (canonical, boards listed, in their class, "
            f"re-scored, >= the min score, under the root bound; pruned only below the min score); "
            f"{counted(self.boards, 'board')} re-scored; every reported board recorded; the finish records' "
            f"summaries",
            f"witnesses (sampled): seed {self.seed} (--seed {self.seed} repeats them); "
            f"{counted(w.climbs, 'seeded climb')} ({w.climb_hits} reached the min score), "
            f"all their boards recorded; {counted(w.hops, 'seeded basin hop')} (a count set by the budget) "
            f"({counted(w.hop_hits, 'distinct board')} >= the min score), all recorded; "
            f"{counted(w.class_hops, 'hop')} from the best boards of {counted(w.class_starts, 'class record')} "
            f"with boards, all recorded if >= the min score; {closure} one-letter "
            f"changes and swaps, all recorded if >= the min score; {resolved}{kernel}{self.outside_note()}",
            f"what the re-solving was worth: {self.worth()}",
            self.reference.details(),
            f"what the kernel-independent solve was worth: {self.reference.worth()}",
        ]


def _escape(chance: float) -> str:
    """1 - ``chance``, three decimals, rounded up (an escape is never understated)."""
    return f"{math.ceil((1 - chance) * 1000 - 1e-9) / 1000:g}"


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


def _lines(path: str, alphabet: Alphabet = ENGLISH) -> Generator[tuple[int, dict[str, Any]], None, None]:
    """(line number, checked record) of each line, streamed; a torn last line
    is skipped. Boards, buckets and parts in ``alphabet``'s symbols, in
    whichever written form the file holds (``runs.written``)."""
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
                yield number, dict(stored_record(check_record(record, f"{path}: line {number}"), alphabet))
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
    except Hole:  # its first line is no record: not a run file, whichever input it is
        first = None
    finally:
        records.close()
    if first is None or first[1].get("type") != "start":
        raise VerifyError(f"{path!r} is not a boggle-opt run file (it does not begin with a start record)")
    return first[1]


def _each_once(paths: Sequence[str]) -> None:
    """Refuse a file named twice (or through two names): read twice, its
    classes would be reported as recorded twice, as if the proof were wrong."""
    seen: dict[tuple[int, int], str] = {}
    for path in paths:
        st = os.stat(path)
        first = seen.get((st.st_dev, st.st_ino))
        if first is not None:
            same = "given twice" if first == path else f"the same file as {first!r}"
            raise VerifyError(f"run file {path!r} is {same}: give each file once")
        seen[(st.st_dev, st.st_ino)] = path


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def verify_run(path: str, registries: Registries, recheck: int | None = -1, seed: int | None = None,
               wordlist: str | None = None) -> Verified:
    """Check the proof in one run file (see ``verify_runs``)."""
    return verify_runs([path], registries, recheck=recheck, seed=seed, wordlist=wordlist)


class _Reader:
    """What the records of all the files add up to, checked as they stream by."""

    def __init__(self, proof: ProofFacts, n_files: int, keep: int | None, seed: int,
                 same_kernel: Sequence[bool] = ()) -> None:
        self.proof = proof
        # per assignment: 0 none, else the number (1-based) of the file that recorded it whole
        self.whole = np.zeros(proof.total, dtype=np.uint16)
        self.split: dict[int, Split] = {}
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
        self.draw = Draw(keep, seed)
        self.names: list[str] = []
        #: per file: whether this install's kernel wrote it (root bounds are compared only then)
        self.same_kernel = list(same_kernel) or [True] * n_files
        #: the best board of each class (or piece) record that holds any: the class hops start there
        self.class_best: dict[tuple[str, str], tuple[str, int]] = {}

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
            self.checker = RecordChecker(self.proof.geometry, self.proof.label, score, self.proof.scorer.score,
                                         self.proof.symbols, self.proof.dictionary.alphabet.write)

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
            entry = self.split.setdefault(num, Split())
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
            entry = self.split.setdefault(num, Split())
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
        if boards:
            self.class_best[(str(name), part)] = max(boards, key=lambda bs: (bs[1], bs[0]))
        # the class's CPU where the record has it (older files have only its
        # wall time, which a busy machine stretches): reported beside verify's
        # own, never used to decide what is checked
        if "cpu" not in cp:
            self.wall_only = True
        seconds = cp.get("cpu", cp.get("seconds", 0.0))
        seconds = float(seconds) if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) else 0.0
        seconds = seconds if 0.0 <= seconds < 1e9 else 0.0
        self.cpu += seconds
        bound = cp.get("root_bound")
        self.draw.offer(Record(str(name), part, sets, {b for b, _ in boards}, bound if _is_int(bound) else None,
                               where, same_kernel=self.same_kernel[index],
                               write=self.proof.dictionary.alphabet.write))

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
        shown = proof.dictionary.alphabet.write  # a board as people write it: [ij]
        min_score = self.need_min("the run files")
        for board, score, where in self.reported:
            if not (len(board) == geometry.n and is_board_text(board, proof.symbols)):
                raise Hole(f"{where}: board {shown(board)[:40]!r} is not a {geometry.size} board")
            actual = proof.scorer.score(board)
            if actual != score:
                raise Hole(f"{where}: board {shown(board)} is recorded as {score} points but scores {actual}")
            if score >= min_score and geometry.canonical(board) not in self.found:
                raise Hole(f"{where}: board {shown(board)} ({score}) is reported but no class record holds it")
            self.boards += 1

    def check_finishes(self) -> None:
        """Each finish record's summary agrees with its own best list and the
        scores; each file's last one, if it says its proof (or shard) is
        complete, with that file's class records."""
        last = {index: rec for rec, _, index in self.finishes}
        for rec, where, index in self.finishes:
            board, score = rec.get("best_board"), rec.get("best_score")
            listed = [(str(i["board"]), int(i["score"])) for i in rec.get("best") or []]
            for item in rec.get("best") or []:
                # (files written before finish records listed tiles have none)
                tiles, cells = item.get("tiles"), self.proof.dictionary.alphabet.cells(item["board"])
                if tiles is not None and tiles != cells:
                    raise Hole(f"{where}: the finish record lists the tiles {tiles!r} for the board "
                               f"{self.proof.dictionary.alphabet.write(item['board'])}, whose tiles are {cells!r}")
            if board is not None or score is not None:
                if not (isinstance(board, str) and _is_int(score)):
                    raise Hole(f"{where}: the finish record's best board and score are not a board and a number")
                if board and self.proof.scorer.score(board) != score:
                    raise Hole(f"{where}: the finish record's best score {score} is not its best board "
                               f"{self.proof.dictionary.alphabet.write(board)}'s "
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


def verify_runs(
    paths: Sequence[str],
    registries: Registries,
    recheck: int | None = -1,
    seed: int | None = None,
    wordlist: str | None = None,
    budget: float | None = None,
    progress: Say | None = None,
    jobs: int = 1,
    chance: float | None = None,
    whole: bool = False,
    worker_memory: float | None = None,
) -> Verified:
    """Check the proof in the run files ``paths`` (one run, or its shards:
    all of them, or, unless ``whole``, some, which ``Verified.partial`` says);
    raise ``Hole`` at the first problem. ``recheck``: how many class records
    to re-solve, drawn at random (-1: auto, the lowest draws for ``budget``
    CPU seconds, by default ``recheck.RECHECK_FLOOR``, then every draw below
    ``chance``, by default ``recheck.DEFAULT_CHANCE``; None: every one).
    ``seed``: of the witnesses and the draw; None draws a fresh one (the
    result says which, to repeat the check). ``progress`` hears what is being
    checked: each step's text, and ``update`` True for progress within it
    (a big proof takes minutes). ``jobs`` > 1: records are re-solved in that
    many worker processes (the budget is their CPU, summed). ``worker_memory``:
    the MB of memory the kernel re-solves for (None: the first file's run's);
    a record's root bound is compared only if its run had the same."""
    started = time.process_time()  # CPU, to set beside the CPU the proof recorded
    say = progress if progress is not None else _silent
    seed = secrets.randbits(32) if seed is None else seed
    if not paths:
        raise VerifyError("no run file given")
    if len(paths) > MAX_FILES:
        raise VerifyError(f"{len(paths):,} run files; at most {MAX_FILES:,} in one verify")
    # each file's start record first, the file closed again: a campaign's
    # thousands of shards are never open at once (a process may open ~1,024)
    heads = [(path, _start(path)) for path in paths]
    _each_once(paths)
    proof = ProofFacts(heads[0][1]["settings"], registries, wordlist, heads[0][0])
    # from here on, boards, buckets and parts in the run's symbols (either written form read)
    alphabet = proof.dictionary.alphabet
    heads = [(path, dict(stored_record(start, alphabet))) for path, start in heads]
    proof.fingerprint = heads[0][1]["settings"]["fingerprint"]
    for path, start in heads[1:]:
        _same_proof(heads[0][0], heads[0][1]["settings"], path, start["settings"])
    shard_set = read_shards([(path, start["settings"]) for path, start in heads], whole)
    kernel = kernel_version()
    same_kernel = [(start["settings"].get("fingerprint") or {}).get("kernel") == kernel for _, start in heads]
    # the memory the kernel re-solves for decides no board, but may decide a
    # split class's root bound (``proofs.memory``): compared at the run's own only
    memory = proof.worker_memory if worker_memory is None else worker_memory
    proof.worker_memory = memory
    runs_memory = [recorded_worker_memory(start["settings"]) for _, start in heads]
    same_bounds = [same and mb == memory for same, mb in zip(same_kernel, runs_memory)]
    keep = None if recheck is None else (RECHECK_KEEP if recheck < 0 else recheck)
    reader = _Reader(proof, len(paths), keep, seed, same_bounds)
    reader.names = [path for path, _ in heads]
    for index, (path, start) in enumerate(heads):
        # one step for all the files: a campaign's 20,000 shards are not 20,000 lines in a log
        say(f"reading and re-scoring {os.path.basename(path)}"
            + (f" ({index + 1} of {len(heads)} files)" if len(heads) > 1 else ""), index > 0)
        reader.segments += 1
        records = _lines(path, alphabet)
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
    covered = coverage(proof, reader.whole, reader.split, reader.failed, reader.names, shard_set)
    best = sorted(reader.found.items(), key=lambda bs: (-bs[1], bs[0]))
    reader.check_finishes()
    others = [(path, (start["settings"].get("fingerprint") or {}).get("kernel"))
              for (path, start), same in zip(heads, same_kernel) if not same]
    # buckets and boards as people write them (a bracketed tile as [ij], not
    # its private symbol); ``best`` stays in symbols, as merge writes it
    written = proof.dictionary.alphabet.write
    result = Verified(
        size=proof.geometry.size, buckets=written(proof.label), classes=covered.expected, pieces=covered.pieces,
        split_classes=len(reader.split), wordlist=proof.dictionary.name, rule=proof.rule,
        min_score=min_score, min_score_from=proof.min_from, boards=reader.boards, records=reader.records,
        segments=reader.segments, files=len(paths), shards=shard_set.count, best=best, written=written,
        shard_set=shard_set, space=covered.classes,
        wordlist_label=proof.dictionary.label, kernel_note=_kernel_note(others, len(paths), kernel),
        cpu_recorded=reader.cpu, wall_recorded=reader.wall_only, full_recheck=recheck is None, seed=seed,
        min_letters=proof.min_letters,
        memory_note=_memory_note(runs_memory, memory, [k for k, _ in heads], same_kernel),
    )
    result.budget = budget if budget is not None else RECHECK_FLOOR
    if recheck is None:
        plan = Plan(everything=True)
    elif recheck > 0:
        plan = Plan(count=recheck)
    else:
        plan = Plan(budget=result.budget, chance=DEFAULT_CHANCE if chance is None else chance)
    scope = Scope(set(reader.found), proof, covered.in_shards)
    _witness(proof, reader, result, None if recheck == 0 else plan, say, jobs, scope)
    result.outside = len(scope.outside)
    # the workers' CPU too: their re-solving is part of what verify spent
    w = result.witness
    result.seconds = time.process_time() - started + (w.resolve_seconds if w.resolve_workers else 0.0)
    return result


def recorded_worker_memory(settings: Mapping[str, Any]) -> float | None:
    """The worker memory (MB) a run file's bnb options record: bnb's default
    where they do not (a run from before the option); None if it is not a
    number > 0, or a merged file's shards ran at several (its root bounds are
    then not compared)."""
    merged = settings.get("merged_from")
    if isinstance(merged, dict) and merged.get("worker_memories"):
        return None
    options = settings.get("options")
    value = options.get("worker-memory", options.get("worker_memory", DEFAULT_WORKER_MB)) \
        if isinstance(options, dict) else DEFAULT_WORKER_MB
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
        return None
    return float(value)


def _memory_note(runs_memory: Sequence[float | None], memory: float, paths: Sequence[str],
                 same_kernel: Sequence[bool]) -> str:
    """The note for files (of this install's kernel) whose runs had another
    worker memory than the one their records were re-solved at."""
    others = [(path, mb) for path, mb, same in zip(paths, runs_memory, same_kernel) if same and mb != memory]
    if not others:
        return ""
    def mb_text(mb: float | None) -> str:
        return "several worker memories, or none readable" if mb is None else f"{mb:,g} MB"
    at = f"re-solved at {memory:,g} MB of worker memory"
    if len(paths) == 1:
        return f"the records were {at}, the run's at {mb_text(others[0][1])}"
    named = ", ".join(f"{path} ({mb_text(mb)})" for path, mb in others[:3])
    more = f" and {len(others) - 3:,} more" if len(others) > 3 else ""
    return f"the records were {at}; {counted(len(others), 'file')} of {len(paths):,} ({named}{more}) ran at another"


def _kernel_note(others: Sequence[tuple[str, Any]], files: int, kernel: str) -> str:
    """The note for files (path, recorded kernel) written by another kernel version than this install's."""
    if not others:
        return ""
    if files == 1:
        return f"the run's kernel version {others[0][1]!r} is not this install's {kernel!r}"
    named = ", ".join(f"{path} ({str(version)[:16]!r})" for path, version in others[:3])
    more = f" and {len(others) - 3:,} more" if len(others) > 3 else ""
    return f"{counted(len(others), 'file')} of {files:,} ({named}{more}) came from another kernel version than this install's {kernel!r}"


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


def _witness(proof: ProofFacts, reader: _Reader, result: Verified, plan: Plan | None, say: Say,
             jobs: int, found: Scope) -> None:
    """Climbs, closure, class hops, re-solving (``plan``; None: none), basin
    hops and the kernel check (``runs.witness``), all from ``result.seed``."""
    min_score, seed = result.min_score, result.seed
    problem = Problem(proof.dictionary, proof.geometry)
    witnessed = result.witness
    try:
        witnessed.climbs = CLIMBS
        say(f"witnesses: {CLIMBS} seeded climbs", False)
        witnessed.climb_hits = climbs(problem, found, min_score, CLIMBS, seed)
        # the best boards of the proof, and the best of every class that holds one
        starts = sorted(set(reader.class_best.values()), key=lambda bs: (-bs[1], bs[0]))
        near_top = sorted(reader.found.items(), key=lambda bs: (-bs[1], bs[0]))[:CLOSURE]
        tried = dict(near_top)
        tried.update(starts)
        say(f"witnesses: the one-change neighbours of {counted(len(tried), 'board')}", False)
        witnessed.closure_tried = closure(problem, found, list(tried.items()), min_score, len(tried))
        say(f"witnesses: hops from the best boards of {counted(len(starts), 'class record')}", False)
        class_hops(problem, found, min_score, [b for b, _ in starts], seed, witnessed)
        chosen = reader.draw.chosen()
        if plan is not None and chosen:
            args = (proof.dictionary.keys, proof.dictionary.points, proof.geometry.cols, proof.geometry.rows,
                    proof.buckets, min_score, *proof.bnb.switch_settings(proof.geometry), 0, 0.0,
                    TrieTiles.of(proof.dictionary.trie), proof.worker_memory)
            resolve(chosen, reader.draw.seen, reader.draw.complete, args, Resolver(proof.geometry, proof.symbols),
                    witnessed, plan, jobs, say)
            # the kernel's answer checked by a method that shares none of its code but the scorer
            say("drawn class records solved again without the kernel", False)
            result.reference = reference_check(
                proof.dictionary.trie, proof.geometry, proof.scorer, min_score,
                [Drawn(r.label, r.sets, frozenset(r.boards)) for _, r in chosen], reader.draw.seen,
                result.budget, seed, proof.dictionary.alphabet.write)
        # a count set by the budget, not a time limit: the seed repeats them on any machine
        count = hop_count(result.budget)
        say(f"witnesses: basin hops, {count:,} of them", False)

        def hopping(made: int, cpu: float, wall: float) -> None:
            # the count shows they go on; CPU beside the wall clock, which a busy machine sets apart
            say(f"witnesses: basin hops, {made:,} of {count:,}, {cpu:.0f} s CPU ({wall:.0f} s wall)", True)

        hops(problem, found, min_score, count, seed, witnessed, hopping)
        if witnessed.solved:
            say("one task solved again without the compiled kernel", False)
            share = 0.0 if result.full_recheck else PURE_SHARE * witnessed.resolve_seconds
            pure_budget = max(PURE_FLOOR, share)
            method, label = kernel_check(proof, witnessed.solved, min_score, pure_budget, random.Random(seed))
            result.methods[method] = result.methods.get(method, 0) + 1
            witnessed.kernel_check = label
    except (Unrecorded, ReferenceMismatch, Hole) as exc:
        # every witness's finding is repeated only from its seed: name it
        text = str(exc)
        named = f"(seed {seed})" in text
        raise Hole(f"{text} ({'' if named else f'seed {seed}: '}--seed {seed} repeats this check)") from None


def _silent(text: str, update: bool) -> None:
    """No progress to tell."""


