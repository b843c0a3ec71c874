"""The searcher interface: events a searcher yields and the problem it is given.

A searcher is a class with a ``name``, a one-line ``summary`` (or a docstring
whose first line is one), a frozen dataclass ``Options`` and a method
``search(problem, rng)`` that yields events. It never prints, sleeps or uses
global random state: the driver (``boggle_opt.searching.driver``) owns the run, the
budget and the random generator, and hands every event to its consumers.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, Union, cast

if TYPE_CHECKING:
    import numpy as np
else:  # imported on first use (boggle_opt.lazy)
    from ..lazy import numpy as np

from ..constraints.fixed import NONE, Constraints
from ..core.geometry import Geometry
from ..core.scorer import FoundWord, Scorer
from ..core.trie import KEY_BASE
from ..dictionary.dictionary import Dictionary

if TYPE_CHECKING:
    from typing_extensions import TypeVar

    from ..proofs.executor import Executor
else:
    from typing import TypeVar as _TypeVar

    def TypeVar(name: str, default: object = None) -> object:  # noqa: N802
        return _TypeVar(name)  # Python 3.11's TypeVar takes no default

Stat = Union[int, float, str]


@dataclass(frozen=True)
class Improved:
    """A board worth reporting: a new best of the searcher's own, or (for an
    exhaustive searcher) a board that meets its target. ``score`` must be what
    ``problem.score(board)`` gives."""

    board: str
    score: int


@dataclass(frozen=True)
class Progress:
    """Searcher-specific figures for displays (temperature, generation, ...).

    Yield one every so often (a few times a second at most matters): the
    driver checks the budget on every event, so a searcher that never yields
    cannot be stopped.
    """

    stats: Mapping[str, Stat] = field(default_factory=dict)


@dataclass(frozen=True)
class Checkpoint:
    """JSON-serialisable state written to the run file as it happens; a
    resumed run hands every earlier checkpoint back in ``problem.resumed``."""

    record: Mapping[str, Any]


Event = Union[Improved, Progress, Checkpoint]

#: seconds between the checkpoints of a local search's state (a run killed
#: outright loses at most this much of its work; a run stopped any other way
#: checkpoints as it stops, see ``Stopping``)
CHECKPOINT_SECONDS = 30.0


class Stopping(Exception):
    """Thrown into a searcher's generator when the driver stops it (budget,
    target, Ctrl-C, a consumer's ``StopRun``). A searcher may catch it and
    yield one last ``Checkpoint`` (its state, for ``--resume``) or
    ``Progress`` (its figures as it stops, e.g. a proof's counts); anything
    else it yields then is ignored. A searcher that does not catch it needs
    nothing more: the driver expects it back."""


class Problem:
    """What a searcher works on: a board size and a scored dictionary.

    ``score`` and ``neighbourhood`` count evaluations (boards scored), which
    the driver compares against the ``--evals`` budget.
    """

    def __init__(
        self,
        dictionary: Dictionary,
        geometry: Geometry,
        jobs: int = 1,
        resumed: tuple[Mapping[str, Any], ...] = (),
        constraints: Constraints | None = None,
        executor: Executor | None = None,
        known: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.dictionary = dictionary
        self.geometry = geometry
        #: worker processes a searcher with ``parallel = True`` may use itself
        self.jobs = jobs
        #: checkpoint records of the run being resumed, oldest first
        self.resumed = resumed
        #: boards (and scores) the earlier segments of a resumed run reported
        self.known = known
        #: what every reported board must satisfy (``--fix``, ``--word``, ``--dice``)
        self.constraints = constraints if constraints is not None else NONE
        #: where a searcher that hands out tasks runs them (``--executor``);
        #: None: worker processes on this machine
        self.executor = executor
        self.evaluations = 0
        self._scorer: Scorer = dictionary.scorer(geometry)
        self._freqs: np.ndarray | None = None

    @property
    def n_cells(self) -> int:
        return self.geometry.n

    @property
    def symbols(self) -> str:
        """The tiles' symbols in code order: a board holds these (English: a-z)."""
        return self.dictionary.alphabet.symbols

    @property
    def n_tiles(self) -> int:
        """How many tiles a cell can hold (English: 26)."""
        return len(self.dictionary.alphabet)

    def score(self, board: str) -> int:
        """Points of one board (``len(board) == n_cells``, one symbol a cell:
        for English letters a-z)."""
        self.evaluations += 1
        return self._scorer.score(board)

    def neighbourhood(self, board: str) -> list[int]:
        """Scores of every board one tile away: ``out[cell * n_tiles + tile]``
        (``cell * 26 + letter`` for English).

        About twice as fast as scoring the (n_tiles - 1) * n_cells boards one by one.
        """
        self.evaluations += (self.n_tiles - 1) * self.geometry.n
        return self._scorer.neighbourhood(board)

    def known_best(self) -> tuple[str, int] | None:
        """The best board an earlier segment of a resumed run reported, if any:
        a local search resumes from at least that (ties: the first reported)."""
        best: tuple[str, int] | None = None
        for board, score in self.known:
            if best is None or score > best[1]:
                best = (board, score)
        return best

    def allowed(self, board: str) -> bool:
        """True if ``board`` meets the constraints (not counted as an evaluation)."""
        return self.constraints.satisfied(board)

    def words(self, board: str) -> list[FoundWord]:
        """The words of a board with one path each (not counted)."""
        return self._scorer.words(board)

    def letter_frequencies(self) -> np.ndarray:
        """Probability of each tile among the dictionary's words' tiles, by
        code (English: a-z, ``qu`` counting once, as ``q``)."""
        if self._freqs is None:
            self._freqs = letter_frequencies(self.dictionary)
        return self._freqs


def letter_frequencies(dictionary: Dictionary) -> np.ndarray:
    """Tile frequencies of a dictionary's keys, one probability a tile (26 for English)."""
    letters = np.frombuffer(b"".join(dictionary.keys), dtype=np.uint8) - KEY_BASE
    counts = np.bincount(letters, minlength=len(dictionary.alphabet)).astype(np.float64)
    freqs: np.ndarray = counts / counts.sum()
    return freqs


#: a default type argument (PEP 696): a bare ``SearcherBase`` is ``SearcherBase[Any]``
OptionsT = TypeVar("OptionsT", default=Any)


class SearcherBase(Generic[OptionsT]):
    """Optional base class: keeps the options, declares the usual defaults.

    ``class MySearcher(SearcherBase["MySearcher.Options"])`` types
    ``self.options``; ``MySearcher()`` uses the default ``Options()``.
    """

    name: ClassVar[str] = ""
    parallel: ClassVar[bool] = False
    exhaustive: ClassVar[bool] = False
    #: True if every board it reports meets ``problem.constraints``; a searcher
    #: without it refuses to run when constraints are set
    honours_constraints: ClassVar[bool] = False
    Options: ClassVar[type[Any]]
    options: OptionsT

    def __init__(self, options: OptionsT | None = None) -> None:
        if options is None:  # the defaults (a class without Options keeps None)
            make = getattr(type(self), "Options", None)
            options = make() if make is not None else None
        self.options = cast(OptionsT, options)

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]:
        raise NotImplementedError


class Searcher(Protocol):
    """What the driver needs of a searcher class (see the module docstring)."""

    name: ClassVar[str]
    #: True if the searcher uses ``problem.jobs`` processes itself; otherwise
    #: ``--jobs N`` runs N independently seeded copies and merges their events.
    parallel: ClassVar[bool]
    #: True if the searcher ends on its own (an exhaustive proof): no default
    #: time budget is applied to it.
    exhaustive: ClassVar[bool]
    #: the frozen dataclass of its options
    Options: ClassVar[type[Any]]
    options: Any

    def __init__(self, options: Any) -> None: ...

    def search(self, problem: Problem, rng: np.random.Generator) -> Iterator[Event]: ...


def summary_of(cls: type) -> str:
    """A searcher's one-line summary: its ``summary``, else its docstring's first line."""
    text = getattr(cls, "summary", None)
    if not isinstance(text, str) or not text.strip():
        text = (cls.__doc__ or "").strip()
    return text.strip().splitlines()[0] if text.strip() else ""
