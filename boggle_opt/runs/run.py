"""A run of a searcher: its specification, built once, and ``search()`` for Python callers.

``RunSpec`` holds every fact of a run (searcher and options, rule, word list,
size, seed, budget, jobs, and the run file it resumes). ``boggle-opt run``,
``search()`` below and the driver's worker processes all take it:
``spec.prepare()`` builds the dictionary, the problem and the searcher, and
``PreparedRun.driver()`` the ``Driver`` that runs it. ``spec.record()`` is the
same facts as the run file writes them (and ``--resume`` reads them back).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .. import defaults
from ..boards import size_geometry
from ..constraints.fixed import NONE, ConstraintError, Constraints, require_support
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry
from ..dictionary.dictionary import Dictionary
from ..dictionary.language import ENGLISH
from ..registry.dictionaries import check_min_letters, default_wordlist, language_of, load_dictionary, wordlist_source
from ..searching.driver import Budget, Consumer, Driver, RunState, check_jobs
from ..proofs.executor import Executor, ExecutorSettings
from .fingerprints import check_resume, fingerprint, recorded_options
from ..main_guard import refuse_in_starting_worker, refuse_unguarded
from ..searching.options import as_dict, make_options
from ..registry.loader import load_plugins
from ..registry.registries import Registries
from .runfile import PastRun, RunFileWriter, read_run_file
from .lock import run_lock
from .records import check_boards, check_registered, check_scores, check_settings, describe_budget
from ..searching.interface import Event, Problem, Searcher
from ..signals import check as check_signals

__all__ = ["PreparedRun", "RunSpec", "SearchResult", "default_budget", "search"]


def default_budget(cls: type[Searcher]) -> Budget:
    """A run given no budget: to the end if exhaustive, else ``defaults.SECONDS``."""
    return Budget() if getattr(cls, "exhaustive", False) else Budget(seconds=defaults.SECONDS)


def remaining_budget(past: PastRun) -> Budget:
    """What a resumed local search given no budget runs for: what its last
    segment's budget had left. A budget that is used up (or a target reached)
    is a one-line error naming the flags that give the new segment one. (A
    resumed proof given none runs to its end, as a new one does.)"""
    if not past.history:
        return Budget()
    last = past.history[-1]
    old = last.budget
    seconds, evals, target = old["seconds"], old["evaluations"], old["target"]
    left_seconds = None if seconds is None else seconds - last.elapsed
    left_evals = None if evals is None else int(evals) - last.evaluations
    if ((left_seconds is not None and left_seconds <= 0) or (left_evals is not None and left_evals < 1)
            or (target is not None and last.best >= target)):
        raise BoggleOptError(
            f"run file {past.path!r}: its last segment used its whole budget ({describe_budget(old)}); "
            "give the resumed run one: --time SECONDS, --evals N or --target SCORE (or --no-limit)"
        )
    return Budget(left_seconds, left_evals, None if target is None else int(target))


def _text(value: object) -> str | None:
    return None if value is None or value == "" else str(value)


def _recorded_options(value: object, path: str) -> dict[str, object]:
    """A run file's options, typed as it recorded them (``make_options`` checks them)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BoggleOptError(f"run file {path!r} settings: 'options' is not an object")
    return {str(key): item for key, item in value.items()}


@dataclass(frozen=True)
class RunSpec:
    """Every setting of one run, checked: build one with ``RunSpec.build``."""

    #: the searcher class and the name it runs under
    searcher: type[Searcher]
    name: str
    #: an instance of ``searcher.Options``
    options: Any
    #: board size ``CxR``
    size: str
    rule: str
    wordlist: str
    seed: int
    budget: Budget
    #: worker processes (independent copies, or the searcher's own if ``parallel``)
    jobs: int = 1
    #: the run file's account of the run this one continues
    resume: PastRun | None = None
    #: ``--fix``, ``--word`` and ``--dice``: what every reported board must meet
    constraints: Constraints = NONE
    #: where a searcher that hands out tasks runs them (``--executor``), and
    #: an existing cluster's address (``--scheduler``)
    executor: str = "local"
    executor_class: type[Executor] | None = None
    scheduler: str | None = None
    #: plugin modules or ``.py`` files loaded beyond the installed ones
    #: (``--plugin``): worker processes that rebuild the problem load them too
    plugins: tuple[str, ...] = ()
    #: whether the word list is read from the dictionary cache (``--no-cache``:
    #: False); None follows ``$BOGGLE_OPT_NO_CACHE``
    cache: bool | None = None
    #: the language named (``--language``); None: the word list's own
    language: str | None = None
    #: the fewest letters a word has (``--min-letters``); None: the rule's own
    min_letters: int | None = None

    @classmethod
    def build(
        cls,
        searcher: str | type[Searcher],
        registries: Registries,
        *,
        options: Mapping[str, object] | Sequence[tuple[str, object]] = (),
        size: str | None = None,
        rule: str | None = None,
        wordlist: str | None = None,
        seed: int | None = None,
        budget: Budget | None = None,
        jobs: int = 1,
        resume: PastRun | None = None,
        fix: str | None = None,
        word: str | None = None,
        dice: str | None = None,
        executor: str | None = None,
        scheduler: str | None = None,
        plugins: Sequence[str] = (),
        cache: bool | None = None,
        no_limit: bool = False,
        language: str | None = None,
        min_letters: int | None = None,
        stored: bool = False,
    ) -> RunSpec:
        """Look the searcher up, check its options (``-o`` strings, parsed, or
        typed values, checked as they are) and constraints (``fix`` pattern,
        ``word``, ``dice`` set name), and fill the gaps: the defaults of
        ``boggle_opt.defaults`` (here only: callers pass None for "not given"),
        a fresh seed, and with no budget ``default_budget`` (a proof: to its
        end), or for a resumed local search what its last segment had left.
        ``no_limit`` (``--no-limit``): no budget at all, whatever the searcher.
        ``stored``: the settings come from a run file (whose ``fix`` may hold
        the private symbols older files wrote). A dice set whose tiles are a
        language's own (``big-dl``: ``english-dl``) plays that language when
        neither a language nor a word list is given."""
        if isinstance(searcher, str):
            entry = registries.searchers.entry(searcher)
            name, found = entry.name, entry.item
        else:
            name, found = getattr(searcher, "name", "") or searcher.__name__, searcher
        opts = make_options(name, found.Options, options)
        if no_limit:
            if budget is not None and not budget.unlimited:
                raise BoggleOptError(f"no limit and a budget ({describe_budget(vars(budget))}) disagree; give one")
            budget = Budget()
        elif budget is None or budget.unlimited:
            # a proof resumed runs to its end: the command that finishes it needs no flag
            exhaustive = getattr(found, "exhaustive", False)
            budget = remaining_budget(resume) if resume is not None and not exhaustive else default_budget(found)
        # a resumed run without --jobs takes its file's number: say so if it is too many
        if resume is not None and jobs == resume.jobs:
            check_jobs(jobs, f"run file {resume.path!r} settings: ", "; give --jobs N to resume it")
        check_jobs(jobs)
        if seed is not None and not 0 <= seed < 2**64:  # numpy's seeds
            raise BoggleOptError(f"seed must be a whole number from 0 to 2**64 - 1, got {seed}")
        geometry = size_geometry(size or defaults.SIZE)
        check_min_letters(min_letters)
        dice_set = registries.dice.get(dice) if dice else None
        if (dice_set is not None and language is None and wordlist is None
                and dice_set.alphabet.name in registries.languages):
            language = dice_set.alphabet.name  # English's sets name English: no change
        # no list named: the language's own (--language german plays ngerman)
        wordlist = wordlist or default_wordlist(language, registries)
        lang = language_of(wordlist_source(wordlist, registries), language, registries)
        if word and word.strip():
            # as the player types it (été), in the language's spelling (ete)
            spelled, why = lang.typed(word)
            if not spelled:
                raise ConstraintError(f"--word {word.strip()!r} is no word of {lang.name}: {why}")
            word = spelled
        constraints = Constraints.build(geometry, fix, word, dice_set, lang.alphabet, stored)
        typed = getattr(found, "check_typed", None)
        if callable(typed) and not stored:
            # options as a person gave them (bnb's buckets): as --fix, no private symbol
            typed(opts, lang.alphabet)
        require_support(found, constraints)
        chosen = executor or ("dask" if scheduler else "local")
        if (executor is not None or scheduler is not None) and not getattr(found, "parallel", False):
            raise BoggleOptError(
                f"searcher {name!r} runs --jobs independent copies itself; --executor and "
                "--scheduler serve searchers that hand out tasks (bnb)"
            )
        executor_class = None
        if chosen in registries.executors or executor is not None or scheduler is not None:
            executor_class = registries.executors.get(chosen)  # unknown: lists the available
            check = getattr(executor_class, "check_available", None)
            if callable(check):  # a missing extra: said now, not after the warm-up or an hour's work
                check()
        if chosen == "local" and jobs == 1 and scheduler is None:
            executor_class = None  # one job on this machine: the searcher runs its tasks itself
        return cls(
            searcher=found,
            name=name,
            options=opts,
            size=geometry.size,
            rule=rule or defaults.RULE,
            wordlist=wordlist,
            seed=secrets.randbits(32) if seed is None else seed,
            budget=budget,
            jobs=jobs,
            resume=resume,
            constraints=constraints,
            executor=chosen,
            executor_class=executor_class,
            scheduler=scheduler,
            plugins=tuple(plugins),
            cache=cache,
            language=None if lang is ENGLISH and not language else lang.name,
            min_letters=min_letters,
        )

    @classmethod
    def resuming(
        cls, path: str, registries: Registries, *, budget: Budget | None = None, jobs: int | None = None,
        executor: str | None = None, scheduler: str | None = None, plugins: Sequence[str] = (),
        cache: bool | None = None, no_limit: bool = False,
    ) -> RunSpec:
        """The run recorded in the run file ``path``, to continue it (with a new
        ``budget``, or none with ``no_limit``, else as ``build`` says: a proof
        to its end, a local search for what its own budget had left; on
        ``jobs`` processes, or as many as its last segment)."""
        past = read_run_file(path, registries)
        settings = past.settings
        check_settings(settings, path)
        if settings.get("searcher") is None:
            raise BoggleOptError(f"run file {path!r} does not name its searcher")
        # an executor given now replaces the recorded one, which need not be here
        recorded_executor = ("executor",) if executor is None and scheduler is None else ()
        check_registered(settings, registries, path, ("searcher", "rule", "wordlist", *recorded_executor))
        limits = settings.get("constraints") or {}
        if not isinstance(limits, dict) or not all(isinstance(v, str) for v in limits.values()):
            raise BoggleOptError(f"run file {path!r} settings: 'constraints' is not an object of strings")
        if executor is None and scheduler is None:  # where the run's tasks ran before
            executor, scheduler = settings.get("executor"), settings.get("scheduler")
            if executor == "local":
                executor = None  # the default, which a searcher that runs no tasks refuses by name
        name = str(settings["searcher"])
        options = recorded_options(registries.searchers.entry(name).item,
                                   _recorded_options(settings.get("options"), path), settings.get("fingerprint"))
        spec = cls.build(
            name, registries,
            options=options,
            size=_text(settings.get("size")),
            rule=_text(settings.get("rule")),
            wordlist=_text(settings.get("wordlist")),
            seed=int(settings["seed"]) if settings.get("seed") is not None else None,
            budget=budget, jobs=jobs or past.jobs, resume=past,
            fix=limits.get("fix"), word=limits.get("word"), dice=limits.get("dice"),
            executor=executor, scheduler=scheduler, plugins=plugins, cache=cache, no_limit=no_limit,
            language=_text(settings.get("language")),
            min_letters=settings.get("min_letters"),  # check_settings: None or a whole number >= 1
            stored=True,
        )
        check_boards(past.boards, spec.geometry, f"run file {path!r}")
        return spec

    @property
    def geometry(self) -> Geometry:
        return size_geometry(self.size)

    @property
    def segment(self) -> int:
        """0 for a fresh run; for a resumed one, how many segments came before."""
        return self.resume.segments if self.resume is not None else 0

    def problem(self, dictionary: Dictionary | None = None,
                registries: Registries | None = None) -> Problem:
        """The problem to search (``dictionary`` must be for this word list and rule)."""
        if dictionary is None:
            if registries is None:  # a worker process: the plugins its run loaded
                registries = load_plugins(extra=self.plugins)
            dictionary = load_dictionary(self.wordlist, self.rule, registries, cache=self.cache,
                                         language=self.language, min_letters=self.min_letters)
        resumed = tuple(self.resume.checkpoints) if self.resume is not None else ()
        known = tuple(self.resume.boards) if self.resume is not None else ()
        executor = None
        if self.executor_class is not None:
            executor = self.executor_class(ExecutorSettings(self.jobs, self.scheduler))
        return Problem(dictionary, self.geometry, jobs=self.jobs, resumed=resumed,
                       constraints=self.constraints, executor=executor, known=known)

    def worker_problem(self) -> Problem:
        """The problem as one of ``jobs`` independent copies rebuilds it, in its own
        process (with the run it resumes: each copy continues from a checkpoint)."""
        return dataclasses.replace(self, jobs=1).problem()

    def record(self, wordlist_label: str) -> dict[str, Any]:
        """The run's settings as the run file records them."""
        record: dict[str, Any] = {
            "searcher": self.name,
            "options": as_dict(self.options),
            "size": self.size,
            "rule": self.rule,
            "wordlist": self.wordlist,
            "seed": self.seed,
            "jobs": self.jobs,
            "budget": {"seconds": self.budget.seconds, "evaluations": self.budget.evaluations,
                       "target": self.budget.target},
            "wordlist_label": wordlist_label,
        }
        if self.language is not None:  # (English's run files stay as they were)
            record["language"] = self.language
        if self.min_letters is not None:  # (a run at the rule's own minimum: as it was)
            record["min_letters"] = self.min_letters
        if self.constraints.active:
            record["constraints"] = self.constraints.record()
        if getattr(self.searcher, "parallel", False) and (self.executor_class is not None
                                                          or self.executor == "local"):
            # where its tasks ran, which --resume keeps (a cluster's run does
            # not quietly go on in one local process)
            record["executor"] = self.executor
            if self.scheduler is not None:
                record["scheduler"] = self.scheduler
        return record

    def _recorded_fingerprint(self) -> Any:
        """The resumed file's fingerprint, its ``--fix`` as people write it: a
        file written before boards were written in brackets recorded private
        symbols (``--fix 0........`` for ``--fix [ij]........``)."""
        assert self.resume is not None
        recorded = self.resume.settings.get("fingerprint")
        limits = self.resume.settings.get("constraints") or {}
        old, new = limits.get("fix"), self.constraints.written_fix
        if isinstance(recorded, dict) and isinstance(recorded.get("constraints"), str) and old and old != new:
            recorded = {**recorded, "constraints": recorded["constraints"].replace(f"--fix {old}", f"--fix {new}", 1)}
        return recorded

    def prepare(self, registries: Registries | None = None,
                dictionary: Dictionary | None = None) -> PreparedRun:
        """Build the dictionary (unless given), the problem and the searcher."""
        problem = self.problem(dictionary, registries)
        scorer = problem.dictionary.scorer(problem.geometry)
        searcher = self.searcher(self.options)
        record = self.record(problem.dictionary.label)
        record["fingerprint"] = fingerprint(problem, searcher)
        if self.resume is not None:
            check_resume(self._recorded_fingerprint(), record["fingerprint"])
            check_scores(self.resume.recorded_boards(), scorer.score, problem.geometry, self.resume.path)
            # a searcher's own checks of its records (bnb: each class as verify checks it)
            check = getattr(searcher, "check_resumed", None)
            notes = tuple(str(n) for n in check(problem)) if callable(check) else ()
        else:
            # a searcher's word before a new run starts (bnb: a big proof's scale)
            start = getattr(searcher, "start_notes", None)
            notes = tuple(str(n) for n in start(problem)) if callable(start) else ()
        if problem.dictionary.note:  # what a list given by path lost
            notes = (problem.dictionary.note, *notes)
        return PreparedRun(
            spec=self,
            searcher=searcher,
            problem=problem,
            record=record,
            word_count=lambda board: len(scorer.words(board)),
            notes=notes,
        )


@dataclass(frozen=True)
class PreparedRun:
    """A run spec with its searcher and problem built, ready for a Driver."""

    spec: RunSpec
    searcher: Searcher
    problem: Problem
    #: ``spec.record(...)``: the settings a run file records
    record: dict[str, Any]
    word_count: Callable[[str], int]
    #: what preparing it repaired in the run file it resumes, for the user
    notes: tuple[str, ...] = ()

    def driver(self, consumers: Sequence[Consumer] = ()) -> Driver:
        """The driver of this run: budget, seed and jobs from the spec, and the
        boards of the run it resumes already known."""
        spec = self.spec
        driver = Driver(self.searcher, self.problem, spec.budget, spec.seed, consumers,
                        jobs=spec.jobs, settings=self.record, resume_segment=spec.segment)
        driver.spec = spec
        if spec.resume is not None:
            for board, score in spec.resume.boards:
                driver.add_known(board, score)
        return driver


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
    searcher: str | type[Searcher] = "annealing",
    *,
    size: str | None = None,
    rule: str | None = None,
    wordlist: str | None = None,
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
    fix: str | None = None,
    word: str | None = None,
    dice: str | None = None,
    min_letters: int | None = None,
) -> SearchResult:
    """Run one searcher and return what it found: ``boggle-opt run`` in one call.

    ``size``, ``rule`` and ``wordlist`` left at None are ``boggle_opt.defaults``'
    (4x4, standard, the embedded list), as on the command line.

    ``searcher`` is a registered name or a searcher class (one of your own,
    not registered anywhere). ``options`` are the searcher's options, written
    as on the command line (``{"pool-size": 100}`` or ``{"pool_size": 100}``);
    each value goes through the same check as ``-o name value``. With no
    ``seconds``, ``evals`` or ``target``, a searcher that is not exhaustive
    runs for ``defaults.SECONDS``. A ``seed`` of None draws a fresh one, given
    back in the result. ``dictionary`` skips building one (it must be for
    ``wordlist`` and ``rule``, which worker processes rebuild with ``jobs``).
    ``out`` writes the run file of ``--out``, which ``boggle-opt run --resume``
    continues; it is locked while the run writes it (``RunFileLocked`` if
    another run holds it), and a write that fails ends the run with
    ``stop_reason == "run file write failed"``. Ctrl-C ends the run early; the
    result then has ``stop_reason == "interrupted"``. ``fix``, ``word`` and
    ``dice`` are the constraints of ``--fix``, ``--word`` and ``--dice``;
    ``min_letters`` is ``--min-letters`` (None: the rule's own minimum).
    """
    refuse_in_starting_worker()
    if jobs > 1:  # said at once, not after building the word list
        refuse_unguarded()
    regs = registries if registries is not None else load_plugins()
    spec = RunSpec.build(
        searcher, regs, options=options or (), size=size, rule=rule, wordlist=wordlist,
        seed=seed, budget=Budget(seconds, evals, target), jobs=jobs,
        fix=fix, word=word, dice=dice, min_letters=min_letters,
    )
    run = spec.prepare(regs, dictionary)
    everyone: list[Consumer] = list(consumers)
    if on_event is not None:
        everyone.append(_Callback(on_event))
    with run_lock(out):
        if out is not None:
            everyone.append(RunFileWriter(out, run.record, run.word_count))
        state = run.driver(everyone).run()
    # a search inside a command that stops at once (plan's climb and replay):
    # the signal that stopped this run, which stops cleanly, stops the command
    # too; after a run's own command (its state final) or with no handlers of
    # ours (a library call) this does nothing
    check_signals()
    return SearchResult(
        searcher=spec.name,
        options=run.record["options"],
        seed=spec.seed,
        stop_reason=state.stop_reason,
        evaluations=state.evaluations,
        seconds=state.elapsed(),
        boards=state.ranked(),
        state=state,
    )
