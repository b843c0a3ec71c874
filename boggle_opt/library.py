"""Run a searcher from Python in one call: ``search("annealing", seconds=5)``.

The same wiring as ``boggle-opt run`` (``boggle_opt.run_command``): plugins,
dictionary, ``Problem``, ``Budget`` and ``Driver``, with the events handed to
an ``on_event`` callback and to any other consumers. ``out=`` writes the same
run file as ``--out``, so ``boggle-opt run --resume FILE`` can continue it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .api import DEFAULT_RULE, DEFAULT_WORDLIST, load_dictionary, make_geometry
from .core.geometry import parse_size
from .dictionary import Dictionary
from .driver import Budget, Consumer, Driver, RunState
from .options import as_dict, make_options
from .plugin_loader import Registries, load_plugins
from .runfile import RunFileWriter
from .search import Event, Problem, ProblemSpec, Searcher

__all__ = ["DEFAULT_SECONDS", "PreparedRun", "SearchResult", "default_budget", "prepare_run", "search"]

#: the time budget of a run given none (as on the command line)
DEFAULT_SECONDS = 60.0


@dataclass(frozen=True)
class SearchResult:
    """What a run found. ``boards`` is best first, symmetric copies counted once."""

    searcher: str
    options: dict[str, Any]
    seed: int
    stop_reason: str
    evaluations: int
    seconds: float
    boards: list[tuple[str, int]]
    #: the driver's final state (history of best scores, last Progress stats, ...)
    state: RunState

    @property
    def best_board(self) -> str:
        return self.state.best_board

    @property
    def best_score(self) -> int:
        return self.state.best_score


class _Callback:
    """A consumer that hands each event to a function."""

    def __init__(self, on_event: Callable[[Event, RunState], None]) -> None:
        self.on_event = on_event

    def start(self, state: RunState) -> None:
        pass

    def event(self, event: Event, state: RunState) -> None:
        self.on_event(event, state)

    def finish(self, state: RunState) -> None:
        pass


def search(
    searcher: str | type = "annealing",
    *,
    size: str = "4x4",
    rule: str = DEFAULT_RULE,
    wordlist: str = DEFAULT_WORDLIST,
    seconds: float | None = None,
    evals: int | None = None,
    target: int | None = None,
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
    on_event: Callable[[Event, RunState], None] | None = None,
    consumers: Sequence[Consumer] = (),
    out: str | None = None,
    jobs: int = 1,
    dictionary: Dictionary | None = None,
    registries: Registries | None = None,
) -> SearchResult:
    """Run one searcher and return what it found.

    ``searcher`` is a registered name or a searcher class (one of your own,
    not registered anywhere). ``options`` are the searcher's options, written
    as on the command line (``{"pool-size": 100}`` or ``{"pool_size": 100}``);
    each value goes through the same check as ``-o name value``. With no
    ``seconds``, ``evals`` or ``target``, a searcher that is not exhaustive
    runs for ``DEFAULT_SECONDS``. A ``seed`` of None draws a fresh one, given
    back in the result. ``dictionary`` skips building one (it must be for
    ``wordlist`` and ``rule``, which worker processes rebuild with ``jobs``).
    Ctrl-C ends the run early; the result then has ``stop_reason ==
    "interrupted"``.
    """
    regs = registries if registries is not None else load_plugins()
    cls = searcher_class(searcher, regs)
    budget = Budget(seconds, evals, target)
    if budget.unlimited:
        budget = default_budget(cls)
    if seed is None:
        seed = secrets.randbits(32)
    run = prepare_run(
        searcher, regs, size=size, rule=rule, wordlist=wordlist, options=options or {},
        seed=seed, budget=budget, jobs=jobs, dictionary=dictionary,
    )
    everyone: list[Consumer] = list(consumers)
    if on_event is not None:
        everyone.append(_Callback(on_event))
    if out is not None:
        everyone.append(RunFileWriter(out, run.record, run.word_count))
    driver = Driver(run.searcher, run.problem, budget, seed, everyone, jobs=jobs,
                    settings=run.record)
    state = driver.run()
    return SearchResult(
        searcher=run.record["searcher"],
        options=run.record["options"],
        seed=seed,
        stop_reason=state.stop_reason,
        evaluations=state.evaluations,
        seconds=state.elapsed(),
        boards=state.ranked(),
        state=state,
    )


@dataclass(frozen=True)
class PreparedRun:
    """A searcher and its problem, ready for a Driver; shared with ``boggle-opt run``."""

    searcher: Searcher
    problem: Problem
    #: the settings a run file records (and ``--resume`` reads back)
    record: dict[str, Any]
    word_count: Callable[[str], int]


def searcher_class(searcher: str | type, regs: Registries) -> Any:
    return regs.searchers.get(searcher) if isinstance(searcher, str) else searcher


def default_budget(cls: Any) -> Budget:
    """A run given no budget: to the end if exhaustive, else DEFAULT_SECONDS."""
    return Budget() if getattr(cls, "exhaustive", False) else Budget(seconds=DEFAULT_SECONDS)


def prepare_run(
    searcher: str | type,
    regs: Registries,
    *,
    size: str,
    rule: str,
    wordlist: str,
    options: Mapping[str, object],
    seed: int,
    budget: Budget,
    jobs: int = 1,
    dictionary: Dictionary | None = None,
    resumed: Sequence[Mapping[str, Any]] = (),
) -> PreparedRun:
    """Check the options, build the dictionary and the problem, and the run's record."""
    if isinstance(searcher, str):
        entry = regs.searchers.entry(searcher)
        name, cls = entry.name, entry.item
    else:
        name, cls = getattr(searcher, "name", "") or searcher.__name__, searcher
    pairs = [(str(key), str(value)) for key, value in options.items()]
    opts = make_options(name, cls.Options, pairs)
    if dictionary is None:
        dictionary = load_dictionary(wordlist, rule, regs)
    cols, rows = parse_size(size)
    geometry = make_geometry(cols, rows)
    spec = ProblemSpec(wordlist, rule, cols, rows, budget.target)
    problem = Problem(dictionary, geometry, jobs=jobs, resumed=tuple(resumed),
                      target=budget.target, spec=spec)
    record: dict[str, Any] = {
        "searcher": name,
        "options": as_dict(opts),
        "size": geometry.size,
        "rule": rule,
        "wordlist": wordlist,
        "seed": seed,
        "jobs": jobs,
        "budget": {"seconds": budget.seconds, "evaluations": budget.evaluations,
                   "target": budget.target},
        "wordlist_label": dictionary.label,
    }
    scorer = dictionary.scorer(geometry)
    return PreparedRun(cls(opts), problem, record, lambda board: len(scorer.words(board)))
