"""Re-solving class records, the costliest witness of ``verify``: records
drawn at random (``witness.Draw``, lowest draw first) are solved again,
whole, with the compiled kernel, in this process or in worker processes
(``verify --jobs``).

Which records, and how: by verify's own draw and its own CPU figures only.
``Plan`` says how many: every record, the N lowest draws, or (auto) the
lowest draws while a budget of CPU seconds lasts (summed over every process,
as measured here: ``--jobs`` makes the same check sooner, not a bigger one),
then every other draw below a chance. What the check was worth is that
chance, which ``resolve`` works out: each record had it of being re-solved.
Nothing a record claims (its CPU, nodes, bounds) is read to decide.
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..core.trie import LATIN
from ..proofs.class_tasks import ClassContext, ClassResult, ClassTask, parse_class_name, parse_part
from ..proofs.executor import (
    WINDOW_PER_WORKER, Done, ExecutorSession, Failed, InlineSession, TaskRunner, WorkerSetup,
)
from .witness import Record, Unrecorded, Witnessed

#: seconds between progress reports while waiting on workers
COLLECT_SECONDS = 0.25


@dataclass(frozen=True)
class Plan:
    """How many records to re-solve: ``everything``; the ``count`` lowest
    draws; else (auto) the lowest draws while ``budget`` CPU seconds last,
    then every other draw below ``chance``."""

    everything: bool = False
    count: int | None = None
    budget: float = 0.0
    chance: float = 0.0


@dataclass
class Resolving:
    """A record to solve again, whole, and the task the kernel is given."""

    record: Record
    task: ClassTask

    @property
    def label(self) -> str:
        return self.record.label


class Resolver:
    """``piece`` gives the task of a record; ``check`` compares the kernel's
    answer with the record; parts are in the alphabet of ``symbols``."""

    def __init__(self, geometry: Geometry, symbols: str = LATIN) -> None:
        self.geometry = geometry
        self.symbols = symbols

    def piece(self, record: Record) -> Resolving:
        """The record's whole task (its class, or its recorded piece)."""
        return Resolving(record, ClassTask(parse_class_name(record.name), parse_part(record.part, self.symbols)))

    def check(self, resolving: Resolving, solved: ClassResult, result: Witnessed) -> None:
        """Compare a solved record with what it says; ``Unrecorded`` if they differ."""
        geometry, record, label = self.geometry, resolving.record, resolving.label
        # CPU, not wall time: verify's own measure of what it spends, whatever else the machine runs
        result.resolve_seconds += solved.cpu
        got = {geometry.canonical(b) for b, _ in solved.boards}
        want = record.boards
        if got != want:
            missing = sorted(got - want)
            detail = (f"board {record.write(missing[0])} is not in the record" if missing
                      else f"the recorded board {record.write(sorted(want - got)[0])} is not found")
            raise Unrecorded(
                f"witness: {label} solved again gives {len(got)} boards >= the min score, the record "
                f"{len(want)}: {detail}"
            )
        if record.part == "" and record.same_kernel and record.root_bound is not None \
                and solved.root_bound != record.root_bound:
            raise Unrecorded(
                f"witness: {label} solved again has root bound {solved.root_bound}, the record {record.root_bound}"
            )
        result.resolved.append(label)
        result.solved.append((record, solved.cpu))


def resolve(
    draws: Sequence[tuple[float, Record]], total: int, complete: bool, context_args: tuple[Any, ...],
    resolver: Resolver, result: Witnessed, plan: Plan, jobs: int, say: Callable[[str, bool], None],
) -> None:
    """Re-solve records of ``draws`` (the kept records, lowest draw first, of
    ``total`` records; ``complete``: all of them kept) as ``plan`` says, in
    ``jobs`` processes; ``result.chance`` is then the chance each of the
    ``total`` records had of being re-solved whole."""
    todo = deque(draws[:plan.count] if plan.count is not None else draws)
    auto = not plan.everything and plan.count is None
    threshold: float | None = None  # auto, once the budget is spent: every draw below this too
    of = (f"class records for {plan.budget:.0f} s of CPU" if auto
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
    handed = 0  # tasks handed out so far
    bought = 0  # tasks the budget handed out (auto)

    def more() -> bool:
        if not todo:
            return False
        if not auto:
            return True
        if threshold is not None:
            return todo[0][0] < threshold
        # the CPU the tasks out should take, by what this verify has measured
        done = len(result.solved)
        expected = sum(len(q) for q in flight.values()) * (result.resolve_seconds / done if done else 0.0)
        return not handed or result.resolve_seconds + expected < plan.budget

    def tasks() -> Iterator[ClassTask]:
        """The next task while the plan allows (the first always)."""
        nonlocal handed, bought
        while more():
            item = resolver.piece(todo.popleft()[1])
            flight.setdefault(item.task, deque()).append(item)
            handed += 1
            bought += threshold is None
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
                    resolver.check(item, event.result, result)
                say(f"re-solving {of}: {len(result.resolved):,} done, {result.resolve_seconds:.0f} s", True)
            if auto and threshold is None:
                # the budget is spent: every draw below the chance asked for is re-solved too
                threshold = plan.chance
                continue
            # the runner stops taking tasks once those out should use up the
            # budget; if they took less than measured so far, what they left
            # goes to more records
            if handed == before or not todo:
                break
    finally:
        session.close()
    if plan.everything:
        result.chance = 1.0 if complete else 0.0
    elif plan.count is not None:
        result.chance = min(plan.count, total) / total if total else 1.0
    else:
        # the budget re-solved the lowest ``bought`` draws (a record's own chance
        # of being among them, whatever the others cost, is at least bought/total);
        # every draw below plan.chance was re-solved too
        result.chance = max(plan.chance, bought / total if total else 1.0)
        if not complete and draws:
            # past the records kept, nothing was re-solved: below the highest kept draw only
            result.chance = min(result.chance, draws[-1][0])
        if not todo and complete:
            result.chance = 1.0
    result.drawn_from = total
