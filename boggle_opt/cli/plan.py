"""``boggle-opt plan``: what a proof will cost, from a seeded sample of its classes.

Solves ``--sample N`` classes drawn (seeded) from the proof's classes, in
worker processes started as the proof starts them, and prints the estimated
CPU time (the sample scaled up, with its standard error, plus what the proof
spends beyond solving: its set-up, each worker's start, each class's
dispatch and run-file records, and the climb that sets a missing min score;
``proofs/estimate.py``), the wall time on ``--jobs K``, the memory, and the
split that keeps every task within ``--worker-memory``. With ``--shards N``,
the same per shard (the mean and the slowest), and the lines to submit them.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import os
import shlex
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from .. import defaults
from ..core.errors import BoggleOptError
from .args import (
    add_option_pairs, add_rule_and_wordlist, add_worker_memory, cache_choice, deprecated_alias, note, number_text,
    option_pairs, positive_int, seed,
)
from . import output
from .status import StatusLine

if TYPE_CHECKING:
    # the proof's modules (and multiprocessing) are imported by ``cmd_plan``
    # and its steps: every other command starts without them
    from ..core.geometry import Geometry
    from ..proofs.board_classes import ClassSpace
    from ..proofs.class_tasks import ClassResult
    from ..proofs.estimate import Measured, Overheads, Scaled
    from ..registry.registries import Registries
    from ..searching.interface import Event, Problem, SearcherBase

#: the searcher whose proofs are planned
SEARCHER = "bnb"
#: the climb bnb runs for a missing min score (plugins/bnb.py's ``_climb``)
CLIMB_OPTIONS = {"pool-size": 5, "restarts": 0}
#: class spaces up to this size are costed whole and sampled by strata of
#: cost (4x4 at the default buckets, 67,257 classes: about 10 s); bigger
#: ones by a plain draw
STRATIFY_MAX = 100_000
#: classes the run-file replay goes through at least (all, if fewer), and
#: the boards it replays at most, to time the main process's per-class work
REPLAY_CLASSES = 1000
REPLAY_BOARDS = 100_000
#: output width, and the column a field's value starts at (after its tab)
WIDTH = 80
VALUE_COLUMN = 16
#: the campaign script the submit line names
SLURM_SCRIPT = "examples/campaigns/slurm-array.sh"
#: memory asked of SLURM beyond the sample's peak: a proof holds bigger
#: classes than any a small sample drew
MEMORY_HEADROOM = 1.25


def add_parser(sub: Any) -> None:
    """Add the ``plan`` command to the CLI's subparsers."""
    p = sub.add_parser(
        "plan",
        help="estimate a bnb proof's cost from a sample of its classes",
        description="Solve a seeded sample of a proof's classes and estimate the whole "
                    "proof: CPU time, wall time on K workers, memory, the split; with "
                    "--shards N, each shard's and the lines that submit them.",
    )
    p.add_argument("--size", default=defaults.SIZE, help=f"board size CxR (default: {defaults.SIZE})")
    add_rule_and_wordlist(p)
    add_option_pairs(p, "a bnb option (min-score, buckets, corner-buckets, switch, switch-score, "
                        "climb-seconds); repeatable")
    p.add_argument("--sample", type=positive_int, default=20, help="classes to solve (default 20)")
    jobs = p.add_argument("--jobs", type=positive_int, default=os.cpu_count() or 1, metavar="K",
                          help="the run's --jobs (each shard's, with --shards): its workers, for the "
                               "wall time; the sample is solved in as many (at most this machine's "
                               "cores) (default: this machine's cores)")
    deprecated_alias(p, jobs, "--workers")
    p.add_argument("--shards", type=positive_int, metavar="N",
                   help="plan the proof as N shards (run --shard K/N): each shard's CPU, wall "
                        "time and memory, and the lines that submit them")
    add_worker_memory(p, "memory of one worker in MB (default 1000), as the proof's run --worker-memory: "
                         "the sample is solved with the kernel's sharing and splitting for it, and the "
                         "split and shard lines keep every task within it (the same as -o worker-memory MB)")
    p.add_argument("--seed", type=seed, default=1, help="seed of the sample (default 1)")
    p.add_argument("--sample-out", metavar="FILE",
                   help="also write the sampled classes and their CPU seconds to FILE, one a line "
                        "(the format of benchmarks/bnb_classes.py, which can time them again)")
    p.set_defaults(run=cmd_plan)


def draw(space: ClassSpace, total: int, n: int, rng: np.random.Generator) -> list[tuple[int, ...]]:
    """``n`` classes (all if fewer) at seeded random places of the class sequence."""
    wanted = set(rng.choice(total, size=min(n, total), replace=False).tolist())
    picked = [cls for i, cls in enumerate(space.iterate(shuffled=True)) if i in wanted]
    return picked


def _hours(seconds: float) -> str:
    """A CPU or wall time at the precision that matters: ``1.2 h``, ``125 s``, ``2.4 s``, ``38 ms``."""
    if seconds >= 360:
        return f"{seconds / 3600:,.1f} h"
    if seconds >= 10:
        return f"{seconds:,.0f} s"
    if seconds >= 1:
        return f"{seconds:.1f} s"
    ms = seconds * 1000
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms" if ms < 100 else f"{ms:.0f} ms"


def _mb(value: float) -> str:
    return f"{value:,.0f} MB"


def _given_mb(value: float) -> str:
    """A memory the user gave: ``2,000 MB``, ``0.5 MB``."""
    return f"{value:,.0f} MB" if value >= 10 and float(value).is_integer() else f"{number_text(value)} MB"


class _Out:
    """Plan's lines: ``name<TAB>value``, the value wrapped so that every line,
    its tab expanded, fits ``WIDTH`` columns; comments and commands as given."""

    def __init__(self, out: TextIO) -> None:
        self.out = out

    def field(self, name: str, text: str) -> None:
        lines = textwrap.wrap(text, WIDTH - VALUE_COLUMN, break_on_hyphens=False) or [""]
        self.out.write(f"{name}\t{lines[0]}\n")
        for line in lines[1:]:
            self.out.write(f"\t{line}\n")

    def comment(self, text: str, whole: Sequence[str] = ()) -> None:
        """``# `` lines continued on ``#   `` lines, as the other commands' (a
        figure and its name, or the phrases ``whole``, never broken apart)."""
        self.out.write(output.fill(text, "# ", "#   ", WIDTH, whole=whole) + "\n")

    def command(self, words: Sequence[str], indent: str = "  ") -> None:
        """A shell command, cut with backslashes between words to fit."""
        line = ""
        for word in words:
            if line and len(line) + 1 + len(word) > WIDTH - 2:  # room for " \\"
                self.out.write(line + " \\\n")
                line = indent + word
            else:
                line = f"{line} {word}" if line else word
        self.out.write(line + "\n")

    def flush(self) -> None:
        self.out.flush()


class _Progress:
    """``plan: 12 of 40 classes solved`` on stderr (``cli/status.py``'s line):
    the first and the last at once, the counts between as updates."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.status = StatusLine("plan", clock)
        self.started = False

    def show(self, done: int, so_far: str = "") -> None:
        end = done == self.total
        more = f"; {so_far}" if so_far else ""
        self.status.show(f"{done} of {self.total} classes solved{more}", update=self.started and not end)
        self.started = True
        if end:
            self.status.keep()

    def interrupt(self) -> None:
        self.status.keep()


def cmd_plan(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from ..boards import size_geometry
    from ..proofs.board_classes import ClassSpace, CostModel, count_classes
    from ..proofs.class_tasks import TrieTiles
    from ..proofs.estimate import Draw, Overheads, part_of_sample, rss_mb, scale_up, stratified_draw
    from ..proofs.shards import MAX_SHARDS
    from ..registry.dictionaries import load_dictionary
    from ..searching.options import make_options

    w = _Out(out)
    cls = regs.searchers.get(SEARCHER)
    options = make_options(SEARCHER, cls.Options, option_pairs(ns))
    searcher: Any = cls(options)
    if options.shard:
        raise BoggleOptError("plan estimates the whole proof: use --shards N, not -o shard")
    geometry = size_geometry(ns.size)
    dictionary = load_dictionary(ns.wordlist, ns.rule, regs, cache=cache_choice(ns), language=ns.language,
                                 min_letters=ns.min_letters)
    note(dictionary.note)
    searcher.check_typed(options, dictionary.alphabet)  # [ij], never its private symbol
    label, buckets = searcher.buckets(geometry, dictionary.alphabet)
    shown_label = dictionary.alphabet.write(label)  # [ij], not its private symbol
    space = ClassSpace(geometry, [len(b) for b in buckets])
    total = count_classes(geometry, space.counts)
    if ns.shards is not None and ns.shards > min(total, MAX_SHARDS):
        raise BoggleOptError(f"--shards {ns.shards}: at most one shard per class ({total:,} classes)"
                             if ns.shards > total else f"--shards {ns.shards}: at most {MAX_SHARDS:,}")
    # known at once, while the sample takes seconds to minutes: shown first
    min_score, climb_cpu, from_climb = options.min_score, 0.0, False
    given = "" if min_score is None else f"min score {min_score}; "
    # 'min score\n# 1500' and a bucket cut from its letters read badly
    w.comment(f"plan: bnb {geometry.size}; word list {dictionary.label}; rule {dictionary.rule_label}; "
              f"{given}buckets {shown_label}", whole=[f"min score {min_score}", f"buckets {shown_label}",
                                                    dictionary.label])
    w.field("classes", f"{total:,}")
    w.flush()
    if min_score is None:
        min_score, climb_cpu = _climb(ns, regs, dictionary, options.climb_seconds)
        from_climb = True
        w.field("min score", f"{min_score} (the best of a {options.climb_seconds:g} s climb, as the proof's "
                             f"own climb sets it; another climb may find another)")
        w.flush()

    # the sample: by strata of the cost model where every class can be costed.
    # What only plan does (the climb, costing and sorting every class to
    # draw) is kept apart from the CPU so far, which a proof's main process
    # spends too: interpreter, imports, plugins, word list, class space and
    # a pass over its classes
    clock = time.process_time()
    model = CostModel(dictionary.keys, geometry, buckets, dictionary.alphabet.symbols)
    model_init_cpu = time.process_time() - clock
    rng = np.random.default_rng(ns.seed)
    costs: list[float]
    if total <= STRATIFY_MAX:
        classes = list(space.iterate(shuffled=False))
        clock = time.process_time()
        costs = model.costs(classes)
        costing_cpu = (time.process_time() - clock) / total
        picked = stratified_draw(costs, ns.sample, rng)
        plan_only = time.process_time() - clock
        sample = [classes[i] for i in picked.places]
        how = "strata of the cost model"
    else:
        sample = draw(space, total, ns.sample, rng)  # one pass over the class space, as a shard makes
        costs = []  # not costed: too many to cost whole
        picked = Draw(list(range(len(sample))), [0] * len(sample), [total])
        clock = time.process_time()
        model.costs(sample)
        plan_only = time.process_time() - clock
        costing_cpu = plan_only / len(sample)
        how = "a plain draw"
    base_cpu = time.process_time() - plan_only - model_init_cpu - climb_cpu
    main_mb = rss_mb()

    workers = min(ns.jobs, os.cpu_count() or 1, len(sample))
    # said before the minutes of solving: --jobs 64 on 2 cores solves on 2
    where = "in this process" if ns.jobs == 1 else f"on {workers} worker {'process' if workers == 1 else 'processes'}"
    capped = f" (--jobs {ns.jobs}: {os.cpu_count() or 1} cores here)" if ns.jobs > 1 and workers < ns.jobs else ""
    w.field("solving", f"the sample's {len(sample):,} classes {where}{capped}")
    out.flush()
    switch_pct, switch_score = searcher.switch_settings(geometry)
    args = (dictionary.keys, dictionary.points, geometry.cols, geometry.rows, buckets, min_score,
            switch_pct, switch_score, 0, 0.0, TrieTiles.of(dictionary.trie), options.worker_memory)
    place = {c: i for i, c in enumerate(sample)}
    # each sampled class's weight: the classes of the proof it stands for
    weights = scale_up([0.0] * len(sample), picked.strata, picked.sizes).weights

    def so_far(done: list[Measured]) -> tuple[float, float | None]:
        # the classes solved so far scaled up to the whole proof: a running
        # figure while the sample takes minutes, and what an interrupt keeps
        return part_of_sample([m.cpu for m in done], [weights[place[m.result.task.cls]] for m in done],
                              len(sample))

    try:
        solved, dispatch_cpu = _solve(ns, sample, args, workers, buckets, label, min_score, so_far,
                                      dictionary.alphabet.write)
    except _Interrupted as stop:
        _kept(w, stop.solved, len(sample), so_far(stop.solved))
        raise stop.signal from None
    by_class = {m.result.task.cls: m for m in solved}
    measured = [by_class[c] for c in sample]  # in the draw's order, beside their strata
    cpu = [m.cpu for m in measured]
    solve = scale_up(cpu, picked.strata, picked.sizes)

    # what the proof spends beyond solving, each part measured
    cost_order_max = _cost_order_max(cls)
    # bnb times the classes left by its cost model where it sorts by it
    calibrate = [costs, [costs[i] for i in picked.places]] if total <= min(cost_order_max, STRATIFY_MAX) else None
    try:
        replay_fixed, replay_per_class = _replay(ns, regs, dictionary, geometry, measured, total, calibrate)
    except KeyboardInterrupt as exc:  # the sample is solved: its figure is kept
        _kept(w, solved, len(sample), so_far(solved))
        raise exc from None
    inline = ns.jobs == 1
    starts = {m.pid: m for m in measured}.values()
    worker_start = 0.0 if inline else sum(m.ready for m in starts) / len(starts)
    # a proof of one job solves in its main process: its only start is the trie
    context_cpu = max(m.context for m in measured) if inline else 0.0
    gaps = [m.gap for m in measured]
    worker_per_class = 0.0 if inline else sum(gaps) / len(gaps)
    # a proof's main process; bnb costs its classes (a shard's: below) when it sorts them
    main_cpu = base_cpu + replay_fixed + context_cpu
    if total <= cost_order_max:  # bnb costs every class to solve the biggest first
        main_cpu += model_init_cpu + costing_cpu * total
    per_class = replay_per_class + dispatch_cpu + worker_per_class
    overheads = Overheads(main_cpu, worker_start, min(ns.jobs, total) if not inline else 0, per_class,
                          climb_cpu)
    whole = solve.total + overheads.total(total)

    # figures
    mean = solve.total / total
    slowest = max(cpu)
    census = len(sample) == total
    drawn = (f"all {total:,} classes" if census else
             f"{len(sample)} class{'es' * (len(sample) != 1)} (seed {ns.seed}, by {how})")
    where = "this process" if inline else f"{workers} worker{'s' * (workers != 1)}"
    w.field("sample", f"{drawn}, {_hours(sum(cpu))} CPU in {where}; "
                      f"{sum(len(m.result.boards) for m in measured):,} boards >= min score")

    def error(of: float) -> str:
        if census:
            return "every class solved"
        return "no standard error from one class" if len(sample) < 2 else f"standard error {_hours(of)}"

    w.field("per class", f"{_hours(mean)} CPU mean ({error(solve.error / total)}), slowest {_hours(slowest)}; "
                         f"{_hours(per_class)} more to send it and record it")
    w.field("set-up", f"{_hours(overheads.fixed())} CPU: main process {_hours(main_cpu)}"
                      + (f", {overheads.workers} worker starts of {_hours(worker_start)}" if overheads.workers else "")
                      + (f", the climb {_hours(climb_cpu)}" if from_climb else ""))
    w.field("CPU", f"{_hours(whole)} ({error(solve.error)}): solving {_hours(solve.total)}, "
                   f"set-up and per-class work {_hours(overheads.total(total))}")
    w.field("wall time", f"{_hours(overheads.climb + (whole - overheads.climb) / ns.jobs)} on {ns.jobs} "
                         f"worker(s)")
    biggest = max(measured, key=lambda m: m.result.arena_mb)
    base_mb = max(m.base_mb for m in measured)
    worker_mb = max(max(m.peak_mb for m in measured), base_mb + biggest.result.arena_mb)
    w.field("largest task", f"{biggest.result.arena_mb:,.0f} MB tree arena ({biggest.result.nodes:,} nodes) "
                            f"on a worker's base of {base_mb:,.0f} MB")
    if inline:  # a run of one job solves in its main process
        w.field("peak memory", f"{_mb(max(worker_mb, main_mb))} the run's one process (the sample's largest)")
    else:
        w.field("peak memory", f"{_mb(worker_mb)} a worker, {_mb(main_mb)} the main process (the sample's "
                               f"largest)")
    for name, text in _split(measured, base_mb, options.worker_memory):
        w.field(name, text)
    from ..runs.recheck import DEFAULT_CHANCE, default_cost  # lazy, as in _climb

    resolving, hop = default_cost(solve.total)
    w.field("verify", f"by default about {_hours(resolving)} CPU re-solving class records (each with a "
                      f"{DEFAULT_CHANCE:.0%} chance; verify --jobs K: in K workers) and {_hours(hop)} of basin "
                      f"hops, beside reading the run file(s)")
    if ns.shards is not None:
        _shards(ns, w, options, geometry, total, min_score, measured, solve, overheads,
                base_cpu + replay_fixed + context_cpu, model_init_cpu, costing_cpu, cost_order_max,
                worker_mb, main_mb)
    return 0


def _cost_order_max(cls: type) -> int:
    """The most classes bnb costs and sorts before solving (its ``COST_ORDER_MAX``)."""
    value = getattr(importlib.import_module(cls.__module__), "COST_ORDER_MAX", 0)
    return value if isinstance(value, int) else 0


def _climb(ns: argparse.Namespace, regs: Registries, dictionary: Any, seconds: float) -> tuple[int, float]:
    """The min score a proof's climb would set, and its CPU: bnb's climb (a
    hill climb with a pool of 5) for ``seconds``, on one core."""
    from ..runs.run import search  # lazy: score and show start without the run machinery

    clock = time.process_time()
    found = search("hillclimb", size=ns.size, rule=ns.rule, wordlist=ns.wordlist, dictionary=dictionary,
                   min_letters=ns.min_letters, registries=regs, seconds=seconds, seed=ns.seed,
                   options=CLIMB_OPTIONS)
    if found.best_score < 1:
        raise BoggleOptError(f"a {seconds:g} s climb found no board that scores: give --min-score N")
    return found.best_score, time.process_time() - clock


class _Interrupted(Exception):
    """The sample's solving stopped by a signal: the classes solved by then."""

    def __init__(self, solved: list[Measured], signal: KeyboardInterrupt) -> None:
        super().__init__(str(signal))
        self.solved = solved
        self.signal = signal


def _kept(w: _Out, solved: list[Measured], sampled: int, figure: tuple[float, float | None]) -> None:
    """What an interrupted plan keeps: the solving's CPU from the classes
    solved so far, with its error and how many classes it rests on (as
    ``run`` prints what it found before it exits on Ctrl-C)."""
    total, error = figure
    if not solved:
        w.field("interrupted", f"before any of the sample's {sampled:,} classes was solved: no estimate")
    else:
        err = "no standard error from one class" if error is None else f"standard error {_hours(error)}"
        w.field("interrupted", f"solving the proof: about {_hours(total)} of CPU ({err}), from "
                               f"{len(solved):,} of the sample's {sampled:,} classes; set-up and per-class "
                               "work not measured")
    w.flush()


def _solve(
    ns: argparse.Namespace, sample: list[tuple[int, ...]], args: tuple[Any, ...], workers: int,
    buckets: list[list[str]], label: str, min_score: int,
    so_far: Callable[[list[Measured]], tuple[float, float | None]],
    write: Callable[[str], str] = str,
) -> tuple[list[Measured], float]:
    """The sample solved in ``workers`` worker processes (in this process for
    a run of one job, as the proof would), with progress on stderr; and the
    CPU this process spent per class receiving results. A signal raises
    ``_Interrupted`` with the classes solved by then."""
    from ..proofs.board_classes import class_letters
    from ..proofs.class_tasks import ClassTask
    from ..proofs.estimate import MeasuredContext
    from ..proofs.executor import Done, ExecutorSession, InlineSession, WorkerSetup
    from ..proofs.local import LocalSession
    import uuid

    setup = WorkerSetup(MeasuredContext, args, uuid.uuid4().hex)
    session: ExecutorSession = InlineSession(setup) if ns.jobs == 1 else LocalSession(setup, workers)
    written = _sample_file(ns, write(label), min_score)  # tiles as people write them: [ij]
    progress = _Progress(len(sample))
    solved: list[Measured] = []
    first = after = 0.0
    try:
        # in a seeded shuffle, not the draw's order (cheapest strata first):
        # the classes solved so far are then a fair part of the sample, for
        # the running figure (each class's CPU is the same in any order)
        for i in np.random.default_rng([ns.seed, 2]).permutation(len(sample)):
            session.submit(ClassTask(sample[int(i)]))
        progress.show(0)
        while len(solved) < len(sample):
            for item in session.collect(0.25):
                if not isinstance(item, Done):
                    raise BoggleOptError(f"plan: a worker died solving class {item.task.name} (out of "
                                         "memory?); a proof would split it: -o node-budget N")
                if not solved:
                    first = time.process_time()
                m: Measured = item.result
                solved.append(m)
                if written is not None:  # line by line: a long sample keeps what it has timed
                    written.write(" ".join(write(s) for s in class_letters(m.result.task.cls, buckets))
                                  + f"\t{m.cpu:.3f}\n")
                    written.flush()
            after = time.process_time()
            progress.show(len(solved), f"solving the proof: about {_hours(so_far(solved)[0])} of CPU so far"
                          if solved else "")
    except KeyboardInterrupt as exc:
        progress.interrupt()
        raise _Interrupted(list(solved), exc) from None
    except BaseException:
        progress.interrupt()
        raise
    finally:
        session.close()
        if written is not None:
            written.close()
    # from the first result on: the pool's start is a worker start's, not a class's
    dispatch = (after - first) / (len(sample) - 1) if ns.jobs > 1 and len(sample) > 1 else 0.0
    return solved, dispatch


def _replay(
    ns: argparse.Namespace, regs: Registries, dictionary: Any, geometry: Geometry,
    measured: list[Measured], total: int, calibrate: list[list[float]] | None,
) -> tuple[float, float]:
    """The main process's CPU for a proof's records and events, measured by
    passing the sample's classes (their boards, and bnb's events for each)
    through a real run with a run file, at least ``REPLAY_CLASSES`` classes
    of them (with ``calibrate``, the costs of every class and of the
    sampled ones, the ETA bnb fits to them too). Returns the run's fixed
    CPU (its spec, the word list's fingerprint, the run file's start and
    finish) and its CPU per class."""
    budget = min(total, REPLAY_CLASSES)
    rounds = max(1, math.ceil(budget / len(measured)))
    per_round = sum(len(m.result.boards) for m in measured)
    if per_round:
        rounds = max(1, min(rounds, REPLAY_BOARDS // per_round))
    loop: list[float] = []
    replay = _replay_searcher([m.result for m in measured], rounds, geometry, loop, calibrate)
    from ..runs.run import search  # lazy, as in _climb

    with tempfile.TemporaryDirectory(prefix="boggle-opt-plan-") as folder:
        clock = time.process_time()
        search(replay, size=ns.size, rule=ns.rule, wordlist=ns.wordlist, dictionary=dictionary,
               min_letters=ns.min_letters,
               registries=regs, seed=ns.seed, out=os.path.join(folder, "replay.jsonl"))
        whole = time.process_time() - clock
    replayed = rounds * len(measured)
    return max(0.0, whole - loop[0]), loop[0] / replayed


def _replay_searcher(
    results: list[ClassResult], rounds: int, geometry: Geometry, loop: list[float],
    calibrate: list[list[float]] | None,
) -> type[SearcherBase[Any]]:
    """A searcher that yields, for each result ``rounds`` times over, what
    bnb yields for a finished class: its checkpoint record, each board as an
    improvement, and its progress figures; ``loop`` gets the CPU of it all."""
    from ..proofs.board_classes import Calibration
    from ..searching.interface import Checkpoint, Improved, Progress, SearcherBase

    class Replay(SearcherBase[Any]):
        name = "plan-replay"
        parallel = True
        exhaustive = True

        @dataclasses.dataclass(frozen=True, kw_only=True)
        class Options:
            pass

        def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
            start = time.process_time()
            found: set[str] = set()
            done = 0
            calibration = Calibration(calibrate[0]) if calibrate else None
            for _ in range(rounds):
                for i, r in enumerate(results):
                    boards = sorted({geometry.canonical(b): s for b, s in r.boards}.items())
                    yield Checkpoint({
                        "kind": SEARCHER, "size": geometry.size, "buckets": "", "min_score": 0,
                        "class": r.task.name, "boards": [[b, s] for b, s in boards],
                        "pruned": r.pruned, "root_bound": r.root_bound, "nodes": r.nodes,
                        "candidates": r.candidates,
                        "seconds": round(r.build_s + r.force_s + r.bound_s + r.rescore_s, 4),
                    })
                    found.update(b for b, _ in boards)
                    for board, score in boards:
                        yield Improved(board, score)
                    done += 1
                    if calibrate and calibration is not None:
                        calibration.add(calibrate[1][i], r.seconds)
                        calibration.time_left(time.monotonic())
                    yield Progress(_snapshot(done, len(found), r))
            loop.append(time.process_time() - start)

    return Replay


def _snapshot(done: int, found: int, r: ClassResult) -> dict[str, int | float | str]:
    """Figures of the size bnb's progress events carry after each class."""
    return {
        "classes": f"{done:,}/{done:,}", "classes done": done, "classes total": done, "classes/s": 1.0,
        "workers": 2, "tasks in flight": 2, "tasks split": 0, "retries": 0, "failed": 0, "tasks/s": 1.0,
        "tasks solved": done, "worker busy s": round(r.seconds * done, 2), "pruned at root": 0,
        "candidates": r.candidates, "boards >= min": found, "best": 0, "min score": 0,
        "min score from": "given", "time left": "", "tree build s": round(r.build_s, 2),
        "merge s": round(r.force_s, 2), "orderly bound s": round(r.bound_s, 2),
        "re-score s": round(r.rescore_s, 2), "largest tree": r.nodes, "worker peak MB": round(r.peak_mb, 1),
    }


def _sample_file(ns: argparse.Namespace, label: str, min_score: int) -> TextIO | None:
    """The ``--sample-out`` file, opened with a header that says how it was drawn."""
    if ns.sample_out is None:
        return None
    try:
        f = open(ns.sample_out, "x", encoding="utf-8")
    except OSError as exc:
        raise BoggleOptError(f"cannot write --sample-out {ns.sample_out!r}: {exc.strerror}") from None
    f.write(f"# boggle-opt plan --size {ns.size} --sample {ns.sample} --seed {ns.seed}: min score "
            f"{min_score}, buckets {label}\n# class\tboggle_opt_cpu_s\n")
    return f


def _split(measured: list[Measured], base_mb: float, worker_mb: float) -> list[tuple[str, str]]:
    """The node budget that keeps the sample's worst arena-per-node ratio within a worker."""
    room = worker_mb - base_mb
    if room <= 0:
        return [("split", f"a {_given_mb(worker_mb)} worker is smaller than its base of {base_mb:,.0f} MB")]
    results = [m.result for m in measured]
    per_node = max((r.arena_mb / r.nodes for r in results if r.nodes), default=0.0)
    if per_node == 0:
        return [("split", "none needed (no sampled class built a tree)")]
    budget = int(room / per_node)
    over = sum(1 for r in results if r.nodes > budget)
    if over == 0:
        return [("split", f"none in the sample: every tree fits a {_given_mb(worker_mb)} worker; "
                          f"-o node-budget {budget:,} splits any class that would not")]
    return [("split", f"-o node-budget {budget:,}: {over} of {len(results)} sampled classes would be "
                      f"split to fit a {_given_mb(worker_mb)} worker")]


def _shards(
    ns: argparse.Namespace, w: _Out, options: Any, geometry: Geometry, total: int,
    min_score: int, measured: list[Measured], solve: Scaled, overheads: Overheads,
    main_cpu: float, model_init_cpu: float, costing_cpu: float, cost_order_max: int,
    worker_mb: float, main_mb: float,
) -> None:
    """Each of ``--shards N`` shards: its CPU (the mean, and the slowest the
    sample implies), wall time and memory, and the lines that run them."""
    from ..proofs.estimate import Overheads, shard_spread
    from ..proofs.memory import DEFAULT_WORKER_MB

    n, jobs = ns.shards, ns.jobs
    per_shard = total / n
    small, big = total // n, -(-total // n)
    # a shard's main process goes through the whole class space to find its
    # own classes (in ``main_cpu``), and costs them when they are few enough to sort
    shard_main = main_cpu
    if big <= cost_order_max:
        shard_main += model_init_cpu + costing_cpu * per_shard
    each = Overheads(shard_main, overheads.worker, 0 if jobs == 1 else min(jobs, big),
                     overheads.per_class, 0.0)
    spread = shard_spread([m.cpu for m in measured], solve.weights, per_shard, n,
                          np.random.default_rng(ns.seed))
    mean = spread.mean + each.total(round(per_shard))
    slowest = spread.slowest + each.total(big)
    how = ("the sample's classes dealt into shards" if spread.method == "resampled"
           else "a normal approximation")
    sizes = f"{small:,}" if small == big else f"{small:,} or {big:,}"
    w.field("shards", f"{n:,}: {sizes} classes each (one class in {n:,}: run --shard K/{n}), each "
                      f"with --jobs {jobs}")
    w.field("shard CPU", f"{_hours(mean)} mean, of which set-up {_hours(each.fixed())}; the slowest of "
                         f"{n:,} about {_hours(slowest)} ({how}; a class slower than the sample's slowest, "
                         f"{_hours(max(m.cpu for m in measured))}, would make it slower)")
    w.field("shard wall", f"{_hours(mean / jobs)} mean, {_hours(slowest / jobs)} the slowest, on {jobs} "
                          f"worker{'s' * (jobs != 1)} each")
    if jobs == 1:  # one process, solving
        shard_mb = max(main_mb, worker_mb)
        w.field("shard memory", f"{_mb(shard_mb)} at the sample's peak: one process, solving")
    else:
        shard_mb = main_mb + jobs * worker_mb
        w.field("shard memory", f"{_mb(shard_mb)} at the sample's peak: {jobs} workers of {_mb(worker_mb)} "
                                f"and a main process of {_mb(main_mb)}")
    per_cpu = math.ceil(shard_mb * MEMORY_HEADROOM / jobs / 100) * 100
    w.field("all shards", f"{_hours(mean * n)} CPU, the set-up paid {n:,} times "
                          f"(one run: {_hours(solve.total + overheads.total(total))})")
    extra = _given_options(options)
    wordlist = ns.wordlist
    if not os.path.isabs(wordlist) and os.path.exists(wordlist):
        wordlist = os.path.abspath(wordlist)  # a file: the shards run elsewhere
    w.comment(f"submit on SLURM ({SLURM_SCRIPT}; --mem-per-cpu has {MEMORY_HEADROOM - 1:.0%} headroom):")
    if extra:
        w.comment("the script runs bnb's default buckets and switch; for the -o options above, use "
                  "the line below in your own script")
    # a language other than the list's own (--language) goes with every shard
    language = [f"LANGUAGE={shlex.quote(ns.language)}"] if ns.language else []
    # and so does a minimum word length other than the rule's own
    letters = [] if ns.min_letters is None else [f"MIN_LETTERS={ns.min_letters}"]
    # a worker memory other than the default goes with every shard: it decides their sharing and splitting
    memory = [] if options.worker_memory == DEFAULT_WORKER_MB else [number_text(options.worker_memory)]
    w.command([f"SHARDS={n}", f"SIZE={geometry.size}", f"WORDLIST={shlex.quote(wordlist)}", *language, *letters,
               *[f"WORKER_MEMORY={m}" for m in memory],
               f"RULE={shlex.quote(ns.rule)}", f"MIN_SCORE={min_score}", "OUT=proof", "sbatch",
               f"--array=1-{n}", f"--cpus-per-task={jobs}", f"--mem-per-cpu={per_cpu}M", "--export=ALL",
               SLURM_SCRIPT])
    if n >= 1001:  # the script's shard is the task's index
        w.comment("SLURM's default MaxArraySize (1001) allows indices up to 1000: ask for a larger "
                  "one, or plan at most 1000 shards")
    w.comment(f"or anywhere, once for each K from 1 to {n:,}:")
    w.command(["boggle-opt", "run", "--searcher", "bnb", "--size", geometry.size, "--wordlist",
               shlex.quote(wordlist), *(["--language", shlex.quote(ns.language)] if ns.language else []), "--rule", shlex.quote(ns.rule),
               *([] if ns.min_letters is None else ["--min-letters", str(ns.min_letters)]), "--min-score", str(min_score),
               *extra, *[word for m in memory for word in ("--worker-memory", m)], "--shard", f"K/{n}",
               "--jobs", str(jobs), "--out", "shard-K.jsonl"])
    w.comment(f"then check them as one proof: boggle-opt verify --jobs {jobs} proof/shard-*.jsonl")


def _given_options(options: Any) -> list[str]:
    """``-o NAME VALUE`` for each bnb option given that changes what a shard
    runs (not the min score, the shard, the climb; nor the worker memory,
    which has a flag of its own), quoted for a shell."""
    defaults_ = type(options)()
    words: list[str] = []
    for f in dataclasses.fields(options):
        if f.name in ("min_score", "shard", "climb_seconds", "worker_memory"):  # (its own flag)
            continue
        value = getattr(options, f.name)
        if value != getattr(defaults_, f.name):
            text = number_text(value) if isinstance(value, float) else str(value)
            words += ["-o", f.name.replace("_", "-"), shlex.quote(text)]
    return words
