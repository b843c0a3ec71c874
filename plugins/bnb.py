"""``bnb``: branch and bound, proving which boards score at least ``min-score``.

Every board belongs to one class (a letter bucket per cell); one class per
symmetry orbit is solved (see ``boggle_opt.core.branch``) and the boards that
survive the bounds are re-scored with the real scorer. Classes run in
``problem.jobs`` worker processes, a few per worker in flight at a time and
handed out as results come back. Up to ``COST_ORDER_MAX`` classes (3x3,
3x4 and 4x4 at the default buckets) go biggest first by a cost model, so the
work, not the count, is balanced; more (4x4 with 2 corner buckets: 1.07
million classes) come from a lazy generator in a fixed shuffled order, so
the classes done so far are a fair sample for the ETA. Each finished class is a Checkpoint (its name
and boards), so a resumed run skips it and ends with the same boards.
"""

from __future__ import annotations

import itertools
import math
import re
import time
import warnings
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from boggle_opt.lazy import numpy as np

from boggle_opt import hookimpl
from boggle_opt.boards import board_text, steepest_ascent
from boggle_opt import Alphabet
from boggle_opt.proofs.board_classes import (
    Calibration,
    ClassSpace,
    LATIN,
    CostModel,
    buckets_label,
    cell_buckets,
    check_alphabet,
    class_name,
    count_classes,
    default_buckets,
    parse_buckets,
    split_label,
)
from boggle_opt import BoggleOptError
from boggle_opt.proofs.shards import parse_shard, shard_classes
from boggle_opt.proofs.memory import DEFAULT_WORKER_MB, MAX_WORKER_MB
from boggle_opt.proofs.switch import DEFAULT_SWITCH, SWITCH_RATIOS
from boggle_opt.core.geometry import Geometry
from boggle_opt.runs.fingerprints import kernel_version
from boggle_opt.searching.options import check
from boggle_opt.proofs import outcome as proof
from boggle_opt.searching.interface import Checkpoint, Event, Improved, Problem, Progress, SearcherBase, Stopping

if TYPE_CHECKING:
    # a proof's modules (the class tasks, the executor, the run file's
    # records): imported by ``search`` and a resume's readers, not when the
    # plugin registers, which every command does
    from boggle_opt.proofs.class_tasks import ClassResult, ClassTask
    from boggle_opt.proofs.executor import TaskRunner

#: marks this searcher's checkpoint records in a run file
RECORD_KIND = "bnb"
#: the kernel multiplies switch x 100 by the min score in 64-bit integers
MAX_SWITCH = 1e6
#: sizes with at most this many classes are solved biggest first by the cost
#: model: 4x4's default partition, 67,257 classes, costed in about 0.5 s of a
#: proof of hundreds of CPU-hours (the model's rank correlation with 4x4
#: class CPU: 0.85 on plan's 40-class sample); the slowest classes then start
#: first instead of last on some worker. More (4x4 with 2 corner buckets:
#: 1.07 million) come lazily in the fixed shuffled order of ``ClassSpace``
COST_ORDER_MAX = 100_000
#: a new proof of boards of this many cells or more starts with a note of its
#: scale: 4x4 takes hundreds of CPU-hours (docs/benchmarks.md), which a user
#: trying ``--size 4x4`` would otherwise learn from the ETA, minutes later
BIG_PROOF_CELLS = 16
#: 4x4's classes under the default buckets, the yardstick bigger proofs are given in
CLASSES_4X4 = 67_257


class BranchAndBound(SearcherBase["BranchAndBound.Options"]):
    """Branch and bound: prove which boards score at least min-score, over every board."""

    name = "bnb"
    parallel = True
    exhaustive = True

    @dataclass(frozen=True, kw_only=True)
    class Options:
        min_score: int | None = field(
            default=None,
            metadata={"help": "report every board scoring at least this (none: a short hill climb's best)"},
        )
        buckets: str = field(
            default="",
            metadata={"help": "letter buckets covering the alphabet's tiles once (English: a-z), e.g. "
                      "'aeiou bdfgjqvwxz lnrsy chkmpt' (empty: the default for the size and language)"},
        )
        corner_buckets: str = field(
            default="",
            metadata={"help": "other buckets for the 4 corner cells, e.g. 'aeiosuy "
                      "bcdfghjklmnpqrtvwxz' (empty: as buckets, or the size's default)"},
        )
        switch: float | None = field(
            default=None,
            metadata={"help": "use the orderly bound once a tree's bound is at most switch x min-score "
                      f"(none: {SWITCH_RATIOS['4x4']:.2f} on 4x4, {SWITCH_RATIOS['3x4']:.1f} on 3x4, "
                      f"else {DEFAULT_SWITCH})"},
        )
        switch_score: int | None = field(
            default=None,
            metadata={"help": "use the orderly bound once a tree's bound is at most this score, "
                      "instead of the switch ratio (the published 4x4 run used 8000 at min-score "
                      "3500); none or 0: the switch ratio"},
        )
        node_budget: int | None = field(
            default=None,
            metadata={"help": "split a class (one task per letter of its top cell) whose tree has more "
                      "nodes than this, to bound each task's memory and time (none: split only "
                      "tasks whose worker died)"},
        )
        time_budget: float | None = field(
            default=None,
            metadata={"help": "a task still running after this many seconds stops between two letters "
                      "of its top cell; the letters done are kept and each letter left becomes a "
                      "task of its own (none: no time limit)"},
        )
        worker_memory: float = field(
            default=DEFAULT_WORKER_MB,
            metadata={"help": "memory of one worker in MB (run --worker-memory MB): the kernel shares "
                      "a big class's repeated subtrees, solves a bigger one a letter of a cell at a "
                      "time, and builds in passes, at thresholds in proportion to it, so a class "
                      f"peaks under it (default {DEFAULT_WORKER_MB:g}: 4x4 classes under 1 GB; give "
                      "what a core has, e.g. 4000); the boards found never depend on it"},
        )
        climb_seconds: float = field(
            default=5.0, metadata={"help": "length of the hill climb that sets a missing min-score"}
        )
        shard: str = field(
            default="",
            metadata={"help": "K/N: solve only shard K of N, every N-th class (run --shard K/N; "
                      "`boggle-opt verify` checks all N files as one proof); empty: every class"},
        )

        def __post_init__(self) -> None:
            check(
                self.min_score is None or self.min_score >= 1,
                "min-score", f"must be >= 1, got {self.min_score}",
            )
            # what needs no alphabet (the word list's language is not known
            # yet); ``buckets`` checks them against it, in one line too
            # (a bracketed tile, ``[ij]``, is read once the alphabet is known)
            if self.buckets:
                parse_buckets(_unbracketed(self.buckets), None)  # raises a one-line ValueError
            if self.corner_buckets:
                parse_buckets(_unbracketed(self.corner_buckets), None)
            check(self.switch is None or self.switch >= 1.0, "switch", f"must be >= 1, got {self.switch}")
            check(self.switch is None or self.switch <= MAX_SWITCH, "switch",
                  f"must be at most {MAX_SWITCH:,.0f}, got {self.switch}")
            check(
                self.switch_score is None or self.switch_score >= 0,
                "switch-score", f"must be >= 0, got {self.switch_score}",
            )
            check(
                self.node_budget is None or self.node_budget >= 1,
                "node-budget", f"must be >= 1, got {self.node_budget}",
            )
            check(
                self.time_budget is None or self.time_budget > 0,
                "time-budget", f"must be > 0, got {self.time_budget}",
            )
            check(0 < self.worker_memory <= MAX_WORKER_MB, "worker-memory",
                  f"must be > 0 and at most {MAX_WORKER_MB:,.0f} MB, got {self.worker_memory:g}")
            check(self.climb_seconds > 0, "climb-seconds", f"must be > 0, got {self.climb_seconds}")
            if self.shard:
                try:
                    parse_shard(self.shard)
                except ValueError as exc:
                    check(False, "shard", str(exc))
                # each shard's own warm-up climb could set a different min score,
                # and shards of different min scores are not one proof
                check(self.min_score is not None, "shard",
                      "needs --min-score N, the same for every shard of the proof (a search's best, or "
                      "boggle-opt plan, suggests one)")

    def buckets(self, geometry: Geometry, alphabet: Alphabet | None = None) -> tuple[str, list[list[str]]]:
        """The buckets' label (as run files record it) and each cell's buckets,
        in the tiles of ``alphabet`` (the word list's language's; None: English's)."""
        opts = self.options
        symbols, spellings = LATIN, None
        write: Callable[[str], str] = str
        if alphabet is not None:
            symbols, spellings = alphabet.symbols, [t.letters for t in alphabet.tiles]
            write = alphabet.write
            check_alphabet(alphabet.name, symbols)
        default, default_corners = default_buckets(geometry, symbols, spellings)
        given, given_corners = opts.buckets, opts.corner_buckets
        if alphabet is not None:
            # typed ([ij]aeiou) or from a run file, whose fingerprint may
            # hold the private symbols older files wrote: both read
            given = alphabet.read_groups(given, "buckets", stored=True)
            given_corners = alphabet.read_groups(given_corners, "corner-buckets", stored=True)
        main = parse_buckets(given or default, symbols, write)
        corner_text = given_corners or ("" if given else default_corners)
        corners = parse_buckets(corner_text, symbols, write) if corner_text else None
        return buckets_label(main, corners), cell_buckets(geometry, main, corners)

    @staticmethod
    def check_typed(options: BranchAndBound.Options, alphabet: Alphabet) -> None:
        """Buckets as a person gave them (``-o buckets``, ``search(options=)``;
        ``RunSpec.build`` and ``plan`` call this, not a resume or ``verify``,
        whose run files may hold what older versions wrote): a tile of more
        letters as people write it (``[ij]``), never its private symbol
        (``0``), refused in one line as ``--fix`` refuses it."""
        for name, text in (("buckets", options.buckets), ("corner-buckets", options.corner_buckets)):
            alphabet.read_groups(text, name)

    def switch_settings(self, geometry: Geometry) -> tuple[int, int]:
        """The kernel's ``switch_pct`` and ``switch_score`` for this size."""
        opts = self.options
        switch = opts.switch if opts.switch is not None else SWITCH_RATIOS.get(geometry.size, DEFAULT_SWITCH)
        return round(switch * 100), opts.switch_score or 0

    @classmethod
    def options_from_fingerprint(
        cls, options: Mapping[str, object], recorded: Mapping[str, Any]
    ) -> dict[str, object]:
        """A run file's options with the buckets its fingerprint records, when
        it left them to the defaults: resuming or verifying a run started
        before the defaults changed (3x4 and 4x4 corners: 2 buckets, then 1)
        keeps its own classes."""
        out = dict(options)
        label = recorded.get("buckets")
        given = [out.get(k) for k in ("buckets", "corner-buckets", "corner_buckets")]
        if isinstance(label, str) and label and not any(given):
            main, corners = split_label(label)
            out.pop("corner_buckets", None)
            out["buckets"] = main
            if corners:
                out["corner-buckets"] = corners
        return out

    def fingerprint(self, problem: Problem) -> dict[str, str]:
        """What decides this searcher's answer beyond the dictionary and size
        (``boggle_opt.runs.fingerprints``); switch, budgets and worker memory
        only change speed and memory."""
        min_score = self.options.min_score
        return {
            "buckets": self.buckets(problem.geometry, problem.dictionary.alphabet)[0],
            "min_score": "a hill climb's best" if min_score is None else str(min_score),
            "kernel": kernel_version(),
        }

    def start_notes(self, problem: Problem) -> list[str]:
        """What to know before a new proof starts: its scale, if it is big."""
        geometry = problem.geometry
        if geometry.n < BIG_PROOF_CELLS or self.options.shard:
            return []
        _, buckets = self.buckets(geometry, problem.dictionary.alphabet)
        classes = count_classes(geometry, [len(b) for b in buckets])
        size = geometry.size
        if (geometry.cols, geometry.rows) == (4, 4):
            scale = f"a 4x4 proof takes hundreds of CPU-hours ({classes:,} classes)"
        else:
            scale = (f"a {size} proof has {classes:,} classes (a 4x4 proof, {CLASSES_4X4:,} under the "
                     "default buckets, takes hundreds of CPU-hours)")
        return [f"{scale}; `boggle-opt plan --size {size}` estimates it from a sample, and "
                "--shard K/N spreads it over machines (docs/campaigns.md)"]

    def check_resumed(self, problem: Problem) -> list[str]:
        """The records of the run being resumed, checked before it writes
        anything (a damaged one is refused in one line); notes of what was
        repaired."""
        geometry = problem.geometry
        alphabet = problem.dictionary.alphabet
        label, _ = self.buckets(geometry, alphabet)
        setup = _resumed_setup(problem.resumed, geometry, label, self.options.shard)
        min_score = self.options.min_score
        if min_score is None and setup is not None:
            min_score = int(setup["min_score"])
        if min_score is None:
            return []
        notes = _resumed_classes(problem.resumed, geometry, label, min_score,
                                 problem.dictionary.scorer(geometry).score, self._shard_names(geometry, alphabet),
                                 alphabet.symbols)[3]
        return [f"resume: {note}" for note in notes]

    def _shard_names(self, geometry: Geometry, alphabet: Alphabet) -> set[str] | None:
        """The names of this shard's classes (None: not a shard)."""
        if not self.options.shard:
            return None
        _, buckets = self.buckets(geometry, alphabet)
        space = ClassSpace(geometry, [len(b) for b in buckets])
        return {class_name(c) for c in shard_classes(space, *parse_shard(self.options.shard))}

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        from boggle_opt.core.tree import cell_order
        from boggle_opt.proofs.class_tasks import ClassContext, ClassTask, TrieTiles, parse_class_name, tasks_left
        from boggle_opt.proofs.executor import (
            Done, ExecutorWarning, Failed, Split, TaskRunner, WorkerSetup, failed_tasks_error,
        )
        from boggle_opt.proofs.local import open_session

        opts = self.options
        geometry = problem.geometry
        alphabet = problem.dictionary.alphabet
        symbols = alphabet.symbols
        label, buckets = self.buckets(geometry, alphabet)  # refuses, in one line, an alphabet it cannot play
        space = ClassSpace(geometry, [len(b) for b in buckets])
        mine: list[tuple[int, ...]] | None = None
        if opts.shard:
            mine = list(shard_classes(space, *parse_shard(opts.shard)))
            total = len(mine)
        else:
            total = count_classes(geometry, space.counts)
        setup = _resumed_setup(problem.resumed, geometry, label, opts.shard)
        min_score = opts.min_score
        source = proof.GIVEN if opts.min_score is not None else proof.CLIMB
        if min_score is None and setup is not None:
            min_score = int(setup["min_score"])  # the first segment's climb decided it
        if min_score is None:
            board, min_score = yield from _climb(problem, rng, opts.climb_seconds, total)
            yield Improved(board, min_score)
        base = {"kind": RECORD_KIND, "size": geometry.size, "buckets": label, "min_score": min_score}
        finished, partial, found, _ = _resumed_classes(
            problem.resumed, geometry, label, min_score, problem.dictionary.scorer(geometry).score,
            None if mine is None else {class_name(c) for c in mine}, symbols)
        try:
            yield Checkpoint({**base, "setup": True, **({"shard": opts.shard} if opts.shard else {})})
            for board, score in found:
                yield Improved(board, score)
        except Stopping:
            # a budget spent before the first class (the driver checks it at
            # each event): the counts still say what is not done, so the run
            # ends incomplete with its finish hint, not as a search that found
            # nothing
            yield Progress({proof.DONE: len(finished), proof.TOTAL: total, proof.MIN_SCORE: min_score,
                            proof.MIN_FROM: source})
            return
        best = max((s for _, s in found), default=-1)
        begun = finished | set(partial)
        fresh: Iterable[tuple[int, ...]]
        if total <= COST_ORDER_MAX:
            # biggest first: no worker idles at the end while another works
            # through a queue of big classes
            model = CostModel(problem.dictionary.keys, geometry, buckets, symbols)
            classes = mine if mine is not None else space.iterate(shuffled=False)
            unfinished = [c for c in classes if class_name(c) not in finished]
            costs = dict(zip(unfinished, model.costs(unfinished)))
            fresh = sorted((c for c in costs if class_name(c) not in partial), key=lambda c: -costs[c])
            calibration = Calibration(list(costs.values()))
            earlier = _earlier_seconds(problem.resumed, finished)
            calibration.prime(model.costs([parse_class_name(n) for n in earlier]), list(earlier.values()))
            stats = _Stats(total, len(finished), sum(costs.values()), source, calibration)
        else:
            costs = {}
            fresh = (c for c in (mine if mine is not None else space.iterate(shuffled=True))
                     if class_name(c) not in begun)
            stats = _Stats(total, len(finished), float(total - len(finished)), source)
        todo = itertools.chain(tasks_left(partial, symbols), (ClassTask(c) for c in fresh))
        # pieces still to finish, per class begun and not finished
        open_parts = {name: len(left) for name, left in partial.items()}
        args = (
            problem.dictionary.keys, problem.dictionary.points, geometry.cols, geometry.rows,
            buckets, min_score, *self.switch_settings(geometry), opts.node_budget or 0,
            opts.time_budget or 0.0, TrieTiles.of(problem.dictionary.trie), opts.worker_memory,
        )
        order = cell_order(geometry)
        import uuid  # a run's, not the plugin's registration (every command)

        session = open_session(problem, WorkerSetup(ClassContext, args, uuid.uuid4().hex))
        runner: TaskRunner[ClassTask, ClassResult] = TaskRunner(
            session, todo, split_lost=lambda t: t.split(buckets, order, symbols),
        )
        stats.runner = runner
        failed: list[str] = []
        stats.found.update(geometry.canonical(b) for b, _ in found)
        try:
            yield Progress(stats.snapshot(best, min_score))
            for item in runner.events():
                if item is None:  # still waiting: refresh the display, let the driver check time
                    yield Progress(stats.snapshot(best, min_score))
                    continue
                task = item.task
                if isinstance(item, Failed):
                    failed.append(task.label(symbols))
                    yield Checkpoint({**base, "failed": task.name, "part": task.key(symbols),
                                      "reason": item.reason, "attempts": item.attempts})
                    continue
                if isinstance(item, Split) or item.result.too_big:
                    pieces = item.into if isinstance(item, Split) else tuple(task.split(buckets, order, symbols))
                    if isinstance(item, Done):
                        runner.add(pieces)
                        stats.budget_splits += 1
                    reason = item.reason if isinstance(item, Split) else (
                        f"tree of {item.result.nodes:,} nodes > node budget {opts.node_budget:,}")
                    if isinstance(item, Split):
                        # a lost worker (the out-of-memory killer, a preempted
                        # machine) is a note of the run: the panel, the
                        # progress lines and the finish record say it
                        warnings.warn(ExecutorWarning(
                            f"class {task.label(symbols)}: {reason}; solved again in {len(pieces)} pieces"))
                    open_parts[task.name] = open_parts.get(task.name, 1) + len(pieces) - 1
                    yield Checkpoint({**base, "split": task.name, "part": task.key(symbols),
                                      "into": [p.key(symbols) for p in pieces], "reason": reason})
                    continue
                result = item.result
                stats.add(result, task.name)
                problem.evaluations += result.candidates
                solved: list[tuple[ClassTask, list[tuple[str, int]]]] = [(task, result.boards)]
                if result.unfinished:  # past the time budget: keep the letters done, queue the rest
                    cell = result.split_cell
                    pieces = tuple(task.split_on(buckets, cell, symbols))
                    runner.add([p for p in pieces if symbols[p.part[-1][1]] in result.unfinished])
                    stats.budget_splits += 1
                    open_parts[task.name] = open_parts.get(task.name, 1) + len(pieces) - 1
                    yield Checkpoint({**base, "split": task.name, "part": task.key(symbols),
                                      "into": [p.key(symbols) for p in pieces],
                                      "reason": f"ran past the time budget of {opts.time_budget:g} s"})
                    solved = [(p, [(b, s) for b, s in result.boards if b[cell] == symbols[p.part[-1][1]]])
                              for p in pieces if symbols[p.part[-1][1]] not in result.unfinished]
                classes_before = stats.done
                for piece, found_here in solved:
                    left = open_parts.get(piece.name, 1) - 1
                    if left:
                        open_parts[piece.name] = left
                    else:
                        open_parts.pop(piece.name, None)
                        stats.finish(costs.get(piece.cls, 1.0), piece.name)
                    boards = sorted({geometry.canonical(b): s for b, s in found_here}.items())
                    record: dict[str, Any] = {**base, "class": piece.name}
                    if piece.part:
                        record["part"] = piece.key(symbols)
                    yield Checkpoint({
                        **record,
                        "boards": [[b, s] for b, s in boards],
                        # for reports: how the class went and what it cost (a task
                        # stopped by the time budget shares its figures among the
                        # pieces it finished)
                        "pruned": result.pruned, "root_bound": result.root_bound,
                        "nodes": result.nodes, "candidates": result.candidates // len(solved),
                        "seconds": round(
                            (result.build_s + result.force_s + result.bound_s + result.rescore_s)
                            / len(solved), 4
                        ),
                        "cpu": round(result.cpu / len(solved), 4),
                        # memory: the task's tree arena at its peak, and its
                        # worker's high-water mark once it was done (which
                        # bounds the class's own peak: issue 69)
                        "arena_mb": round(result.arena_mb, 1), "worker_peak_mb": round(result.peak_mb, 1),
                        # what the worker memory made the kernel do: solve it as
                        # subclasses (0: whole), share its tree's repeated families
                        # (a split class's: its last subclass's)
                        "subclasses": result.subclasses, "shared": result.shared,
                    })
                    stats.found.update(b for b, _ in boards)
                    for board, score in boards:
                        best = max(best, score)
                        yield Improved(board, score)
                # after every class finished, so the counts a stop leaves are the run file's
                if stats.due() or stats.done > classes_before:
                    yield Progress(stats.snapshot(best, min_score))
            yield Progress(stats.snapshot(best, min_score))
        except Stopping:
            # the counts as the proof stops (the driver keeps them: its outcome)
            yield Progress(stats.snapshot(best, min_score))
            return
        finally:
            session.close()  # on a budget stop or Ctrl-C: stop the workers now
        if failed:
            raise failed_tasks_error("proof", failed)


class _Stats:
    """Running totals shown by the display and the benchmark."""

    def __init__(self, total: int, resumed: int, work: float, source: str,
                 calibration: Calibration | None = None) -> None:
        self.total = total
        #: the cost model fitted to the classes done, for the time left (None: classes
        #: in a random order, where the count done is a fair measure)
        self.calibration = calibration
        #: seconds of work so far per class not finished (its pieces' tasks)
        self.class_s: dict[str, float] = {}
        #: where the min score came from (``proof.GIVEN`` or ``proof.CLIMB``)
        self.source = source
        #: distinct boards (canonical) found >= the min score
        self.found: set[str] = set()
        self.done = resumed
        self.resumed = resumed
        self.work_total = work
        self.work_done = 0.0
        self.tasks = 0
        self.task_s = 0.0
        self.pruned = 0
        self.candidates = 0
        self.nodes_max = 0
        self.build_s = self.force_s = self.bound_s = self.rescore_s = 0.0
        self.peak_mb = 0.0
        self.budget_splits = 0
        self.runner: TaskRunner[ClassTask, ClassResult] | None = None
        self.started = time.monotonic()
        self.last = 0.0

    def add(self, r: ClassResult, name: str = "") -> None:
        """A task (a class or a piece of one, of class ``name``) solved."""
        self.class_s[name] = self.class_s.get(name, 0.0) + r.seconds
        self.tasks += 1
        self.task_s += r.seconds
        self.pruned += int(r.pruned)
        self.candidates += r.candidates
        self.nodes_max = max(self.nodes_max, r.nodes)
        self.build_s += r.build_s
        self.force_s += r.force_s
        self.bound_s += r.bound_s
        self.rescore_s += r.rescore_s
        self.peak_mb = max(self.peak_mb, r.peak_mb)

    def finish(self, cost: float, name: str = "") -> None:
        """A class finished (its last piece solved)."""
        self.done += 1
        self.work_done += cost
        seconds = self.class_s.pop(name, 0.0)
        if self.calibration is not None:
            self.calibration.add(cost, seconds)

    def due(self) -> bool:
        now = time.monotonic()
        if now - self.last >= 0.25:
            self.last = now
            return True
        return False

    def snapshot(self, best: int, min_score: int) -> Mapping[str, int | float | str]:
        elapsed = time.monotonic() - self.started
        left = ""
        if self.calibration is not None:
            # not before the exponent is fitted to the first classes: the
            # linear guess was 2-3x the truth, and halved as the fit came in
            seconds = self.calibration.time_left(elapsed) if self.calibration.fitted else None
            left = "" if seconds is None else proof.duration(seconds)
        elif self.work_done > 0 and self.work_total > 0:
            left = proof.duration(elapsed * (self.work_total - self.work_done) / self.work_done)
        runner = self.runner
        this_segment = self.done - self.resumed
        return {
            "classes": f"{self.done:,}/{self.total:,}",
            proof.DONE: self.done,
            proof.TOTAL: self.total,
            proof.RATE: round(this_segment / elapsed, 2) if elapsed > 0 else 0.0,
            "workers": runner.session.workers if runner else 0,
            "tasks in flight": runner.in_flight if runner else 0,
            proof.OLDEST: round(runner.oldest_since(), 1) if runner else 0.0,
            "tasks split": (runner.splits if runner else 0) + self.budget_splits,
            "retries": runner.retries if runner else 0,
            "failed": runner.failed if runner else 0,
            "tasks/s": round(self.tasks / elapsed, 2) if elapsed > 0 else 0.0,
            "tasks solved": self.tasks,
            "worker busy s": round(self.task_s, 2),
            "pruned at root": self.pruned,
            "candidates": self.candidates,
            "boards >= min": len(self.found),
            "best": best,
            proof.MIN_SCORE: min_score,
            proof.MIN_FROM: self.source,
            "time left": left,
            "tree build s": round(self.build_s, 2),
            "merge s": round(self.force_s, 2),
            "orderly bound s": round(self.bound_s, 2),
            "re-score s": round(self.rescore_s, 2),
            "largest tree": self.nodes_max,
            "worker peak MB": round(self.peak_mb, 1),
        }


def _unbracketed(text: str) -> str:
    """Buckets without their bracketed tiles (``[ij]``), for the checks made
    before the alphabet is known: the letters inside a bracket are one tile."""
    return re.sub(r"\[[^\]]*\]", "", text)


def _matches(rec: Mapping[str, Any], geometry: Geometry, label: str) -> bool:
    return (
        rec.get("kind") == RECORD_KIND
        and rec.get("size") == geometry.size
        and rec.get("buckets") == label
    )


def _resumed_setup(
    records: tuple[Mapping[str, Any], ...], geometry: Geometry, label: str, shard: str | None = None,
) -> Mapping[str, Any] | None:
    from boggle_opt.runs.records import RunFileError

    for rec in records:
        if rec.get("setup") and _matches(rec, geometry, label):
            score = rec.get("min_score")
            if not isinstance(score, int) or isinstance(score, bool) or score < 1:
                raise RunFileError(f"run file: bnb setup's min score {score!r} is not a whole number >= 1")
            if (rec.get("shard") or None) != (shard or None):
                # the start record's settings say one shard, the setup another: the file was edited
                raise RunFileError(
                    f"run file: the bnb setup record is of shard {rec.get('shard') or 'none'!s:.20}, the run's "
                    f"settings of shard {shard or 'none'} (the file was edited or mixed up; `boggle-opt verify` "
                    "checks it)")
            return rec
    return None


def _earlier_seconds(records: tuple[Mapping[str, Any], ...], finished: set[str]) -> dict[str, float]:
    """The recorded seconds of each class an earlier segment finished whole
    (records ``_resumed_classes`` has checked; a split class's pieces are left
    out: their seconds are shares of tasks)."""
    out: dict[str, float] = {}
    for rec in records:
        name, seconds = rec.get("class"), rec.get("seconds")
        # a figure no check covers: only a finite one >= 0 (JSON reads NaN) is used
        if (rec.get("kind") == RECORD_KIND and isinstance(name, str) and name in finished and "part" not in rec
                and isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
                and math.isfinite(seconds) and seconds >= 0):
            out[name] = float(seconds)
    return out


def _resumed_classes(
    records: tuple[Mapping[str, Any], ...], geometry: Geometry, label: str, min_score: int,
    score: Callable[[str], int], mine: set[str] | None = None, symbols: str = LATIN,
) -> tuple[set[str], dict[str, list[str]], list[tuple[str, int]], list[str]]:
    """What an earlier segment did: the classes it finished, the parts left
    of those it split and did not finish, the boards it found, and notes of
    what was repaired. Each record is checked as ``verify`` checks it
    (``RecordChecker``: canonical, boards re-scored, in their class, >= the
    min score, consistent with its root bound); a record of another size,
    buckets or min score, of a class outside the shard (``mine``), or of a
    class or piece recorded twice (even the same way) is refused, as verify
    refuses it."""
    from boggle_opt.proofs.class_records import RecordChecker
    from boggle_opt.proofs.class_tasks import Ledger
    from boggle_opt.runs.records import RunFileError

    ledger = Ledger()
    checker = RecordChecker(geometry, label, min_score, score, symbols)
    seen: dict[tuple[str, str, str], Mapping[str, Any]] = {}
    damaged = "(the file was edited or damaged; `boggle-opt verify` checks it)"
    for number, rec in enumerate(records, 1):
        name = rec.get("class", rec.get("split"))
        if rec.get("kind") != RECORD_KIND or rec.get("setup") or name is None:
            continue
        where = f"run file: bnb record {number}"
        # verify refuses what does not belong to the proof: so does a resume, never skipping it
        if rec.get("size") != geometry.size or rec.get("buckets") != label:
            raise RunFileError(f"{where}: class {str(name)[:40]} is of size {str(rec.get('size'))[:20]!r}, "
                               f"buckets {str(rec.get('buckets'))[:60]!r}; the run's are {geometry.size!r}, "
                               f"{label!r} {damaged}")
        if rec.get("min_score") != min_score:
            raise RunFileError(f"{where}: class {str(name)[:40]} is recorded at min score "
                               f"{str(rec.get('min_score'))[:20]}; the run's is {min_score} {damaged}")
        if mine is not None and name not in mine:
            raise RunFileError(f"{where}: class {str(name)[:40]} is not a class of this shard {damaged}")
        try:
            if "class" in rec:
                checker.solved(rec, where)
            else:
                checker.structure(rec, where)
        except BoggleOptError as exc:
            raise RunFileError(f"{exc} (the file was edited or damaged; `boggle-opt verify` checks it)") from None
        key = ("class" if "class" in rec else "split", str(name), str(rec.get("part", "")))
        if key in seen:
            # even an exact repeat: verify refuses it, and a resume that went on
            # would end in a file verify calls no proof
            what = "solved" if key[0] == "class" else "split"
            same = ", the same way" if _same_record(seen[key], rec) else ", differently"
            raise RunFileError(
                f"{where}: class {key[1]}{' piece ' + key[2] if key[2] else ''} is recorded {what} twice{same} "
                f"{damaged}"
            )
        seen[key] = rec
        ledger.add(rec)
    split = {n for k, n, _ in seen if k == "split"}  # a set: a 4x4 file holds 67,257 classes
    for (kind, name, part) in seen:
        if kind == "class" and part == "" and name in split:
            raise RunFileError(f"run file: class {name} is recorded both solved whole and split "
                               "(the file was edited or damaged; `boggle-opt verify` checks it)")
    notes: list[str] = []
    finished, partial = ledger.state()
    return finished, partial, ledger.boards, notes


def _same_record(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Two records of one class or piece that say the same (its timing may differ)."""
    skip = {"seconds", "cpu", "nodes", "candidates", "arena_mb", "worker_peak_mb", "subclasses", "shared"}
    return {k: v for k, v in a.items() if k not in skip} == {k: v for k, v in b.items() if k not in skip}


def _climb(
    problem: Problem, rng: np.random.Generator, seconds: float, total: int
) -> Generator[Event, None, tuple[str, int]]:
    """A good board fast, to set the min score: the hillclimb plugin if it is
    installed, else a plain best-letter-change climb with restarts. Yields
    its best so far as it climbs (the display says what the proof waits for)."""
    try:
        from .hillclimb import climb_steps
    except ImportError:
        return _local_climb(problem, rng, seconds)
    best_board, best = "", -1
    last = 0.0
    yield Progress({proof.TOTAL: total, proof.CLIMB_BEST: best})
    for best_board, best in climb_steps(problem, rng, seconds=seconds):
        now = time.monotonic()
        if now - last >= 0.25:
            last = now
            yield Progress({proof.TOTAL: total, proof.CLIMB_BEST: best})
    if best < 1:
        return _local_climb(problem, rng, seconds)
    return best_board, best


def _local_climb(problem: Problem, rng: np.random.Generator, seconds: float) -> tuple[str, int]:
    """Steepest one-letter ascents from uniformly random boards, restarted
    until ``seconds`` have passed; the best local optimum."""
    end = time.monotonic() + seconds
    best_board, best = "", -1
    while True:
        board = board_text(rng.integers(0, problem.n_tiles, problem.n_cells), problem.symbols)
        board, score = steepest_ascent(problem, board, problem.score(board))
        if score > best:
            best_board, best = board, score
        if time.monotonic() >= end:
            return best_board, best


@hookimpl
def register_searchers(register: Callable[[type], None]) -> None:
    register(BranchAndBound)
