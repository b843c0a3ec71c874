"""Re-solving class records, the costliest witness of ``verify``: chosen
records are solved again with the compiled kernel, in this process or in
worker processes (``verify --jobs``), within a budget of CPU seconds.

The budget is CPU summed over every process, so ``--jobs`` makes the same
check sooner, not a bigger one. A task goes out only while the CPU spent
plus what the tasks in flight should take (by the proof's own records) is
under the budget; the first task always goes.
"""

from __future__ import annotations

import random
import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..proofs.class_tasks import ClassContext, ClassResult, ClassTask, parse_class_name, parse_part
from ..proofs.executor import (
    WINDOW_PER_WORKER, Done, ExecutorSession, Failed, InlineSession, TaskRunner, WorkerSetup,
)
from .witness import Record, Unrecorded, Witnessed, in_sets, narrowed

#: seconds between progress reports while waiting on workers
COLLECT_SECONDS = 0.25


@dataclass
class Resolving:
    """A record to solve again: the task the kernel is given (the record's,
    or one piece of it) and what the record says that task holds."""

    record: Record
    part: str
    sets: list[str]
    task: ClassTask
    #: the CPU it should take, by the proof's own record
    estimate: float

    @property
    def label(self) -> str:
        r = self.record
        return r.label if self.part == r.part else f"{r.label}, its piece {self.part}"


class Resolver:
    """``piece`` says what to solve (a record, or a piece of one too costly
    for its share); ``check`` compares the kernel's answer with the record."""

    def __init__(self, geometry: Geometry, same_kernel: bool, seed: int) -> None:
        self.geometry = geometry
        self.same_kernel = same_kernel
        self.rng = random.Random(seed)

    def piece(self, record: Record, cap: float) -> Resolving:
        """``record``, or a piece of it if its recorded time is past ``cap``."""
        factor = record.seconds / cap if cap > 0 else 1.0
        if factor <= 1.0:
            part, sets, estimate = record.part, record.sets, record.seconds
        else:
            (part, sets), estimate = narrowed(record, factor, self.geometry, self.rng), cap
        return Resolving(record, part, sets, ClassTask(parse_class_name(record.name), parse_part(part)), estimate)

    def check(self, resolving: Resolving, solved: ClassResult, result: Witnessed) -> None:
        """Compare a solved piece with its record; ``Unrecorded`` if they differ."""
        geometry, record, label = self.geometry, resolving.record, resolving.label
        # CPU, not wall time: the budget is a share of the proof's CPU, whatever else the machine runs
        result.resolve_seconds += solved.cpu
        got = {geometry.canonical(b) for b, _ in solved.boards}
        want = {b for b in record.boards if in_sets(b, resolving.sets, geometry)}
        if got != want:
            missing = sorted(got - want)
            detail = (f"board {missing[0]} is not in the record" if missing
                      else f"the recorded board {sorted(want - got)[0]} is not found")
            raise Unrecorded(
                f"witness: {label} solved again gives {len(got)} boards >= the min score, the record "
                f"{len(want)}: {detail}"
            )
        whole = resolving.part == record.part
        if whole and record.part == "" and self.same_kernel and record.root_bound is not None \
                and solved.root_bound != record.root_bound:
            raise Unrecorded(
                f"witness: {label} solved again has root bound {solved.root_bound}, the record {record.root_bound}"
            )
        result.resolved.append(label)
        if whole:
            result.resolved_whole += 1


def resolve(
    chosen: Sequence[Record], context_args: tuple[Any, ...], resolver: Resolver, result: Witnessed,
    limit: float | None, count: int | None, jobs: int, say: Callable[[str, bool], None],
) -> None:
    """Re-solve ``chosen`` in order: ``count`` of them, or as many as ``limit``
    CPU seconds allow (the first always), or all (both None); each record is
    given ``limit``'s share (an eighth of it, at most), a piece of it if it
    took longer in the proof. ``jobs`` > 1: in that many worker processes."""
    todo = deque(chosen[:count] if count is not None else chosen)
    cap = float("inf") if limit is None else max(limit / max(1, min(len(chosen), 8)), 0.05)
    of = (f"class records for {limit:.0f} s of CPU" if limit is not None
          else f"{len(todo):,} class record{'s' * (len(todo) != 1)}")
    setup = WorkerSetup(ClassContext, context_args, uuid.uuid4().hex)
    workers = min(jobs, len(todo))
    session: ExecutorSession
    if workers > 1:
        from ..proofs.local import LocalSession  # lazy: one job needs no pool

        session = LocalSession(setup, workers)
        result.resolve_workers = workers
    else:
        session = InlineSession(setup)
    flight: dict[ClassTask, deque[Resolving]] = {}  # each task out, and what it is to check
    expected = 0.0  # the CPU the tasks out should take
    handed = 0  # tasks handed out so far

    def tasks() -> Iterator[ClassTask]:
        """The next task while the budget allows (the first always)."""
        nonlocal expected, handed
        while todo and (limit is None or not (result.resolved or flight)
                        or result.resolve_seconds + expected < limit):
            item = resolver.piece(todo.popleft(), cap)
            flight.setdefault(item.task, deque()).append(item)
            expected += item.estimate
            handed += 1
            yield item.task

    try:
        say(f"re-solving {of}: 0 done, 0 s", False)
        while True:
            # proofs' runner: a window of tasks out, and a task whose worker
            # died sent again. One job takes its next task once the last
            # one's CPU is known.
            runner: TaskRunner[ClassTask, ClassResult] = TaskRunner(
                session, tasks(), window_per_worker=WINDOW_PER_WORKER if workers > 1 else 1,
                heartbeat=COLLECT_SECONDS)
            before = handed
            for event in runner.events():
                if isinstance(event, Failed):
                    raise BoggleOptError(f"verify: worker processes died {event.attempts} times re-solving class "
                                         f"{event.task.name} (out of memory?); try fewer --jobs")
                if isinstance(event, Done):
                    item = flight[event.task].popleft()
                    if not flight[event.task]:
                        del flight[event.task]
                    expected -= item.estimate
                    resolver.check(item, event.result, result)
                say(f"re-solving {of}: {len(result.resolved):,} done, {result.resolve_seconds:.0f} s", True)
            # the runner stops taking tasks once those out should use up the
            # budget; if they took less than their records said, what they
            # left goes to more records
            if handed == before or not todo:
                break
    finally:
        session.close()
