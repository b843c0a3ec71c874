"""Independent copies of a searcher in worker processes (``--jobs N``).

Each copy talks to the main process through a pipe of its own, not one queue
shared by all: a worker killed in the middle of writing to a shared queue
leaves its lock held for good, and every other copy's events would then stay
stuck in their processes. With a pipe each, a dead worker closes only its own
(the main process reads end-of-file at once and knows which copy died), and a
killed copy starts again from its latest checkpoint with a fresh seed, so a
long run keeps its copies and loses at most a checkpoint interval of one of
them. A copy that dies again and again before it reports anything is given
up, and the run goes on with the others.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any

from ..main_guard import Parcel
from ..signals import worker_start
from .interface import Checkpoint, Event, Stopping

if TYPE_CHECKING:
    import numpy as np

#: a copy's first message: it started (one that ends before saying so could not start)
READY = "ready"
#: deaths in a row, with nothing reported between them, after which a copy is given up
MAX_DEATHS_IN_A_ROW = 3


@dataclass(frozen=True)
class Failed:
    """A copy's searcher raised: its message (the exception itself may not pickle)."""

    message: str


@dataclass
class Copy:
    """The main process's view of one copy."""

    index: int
    process: Any = None
    reader: Connection | None = None
    ready: bool = False  # it said it started, this time
    done: bool = False  # it finished, or was given up
    #: evaluations of its earlier processes (a restarted one counts from 0)
    base: int = 0
    evaluations: int = 0
    restarts: int = 0
    deaths_in_a_row: int = 0
    #: its checkpoints of this run, for a restart (the run file has them too)
    checkpoints: list[Mapping[str, Any]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.base + self.evaluations

    def recv(self) -> tuple[int, int, Any]:
        """Its next message; ``EOFError`` once its worker has ended."""
        if self.reader is None:
            raise EOFError
        message: tuple[int, int, Any] = self.reader.recv()
        return message


def death(exitcode: int | None) -> str:
    """How a worker ended, in words: ``killed by SIGKILL``, ``exit status 1``."""
    if exitcode is None:
        return "closed its pipe"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit status {exitcode}"


def copy_main(
    index: int,
    parcel: Parcel[tuple[Any, Any, Any]],
    seed: np.random.SeedSequence,
    channel: Connection,
    stop: Any,
    restored: tuple[Mapping[str, Any], ...],
) -> None:
    """One independently seeded copy of a searcher, in its own process;
    ``restored``: the checkpoints its earlier process sent in this run."""
    import numpy as np

    worker_start()
    try:
        channel.send((index, 0, READY))
        try:
            spec, searcher_cls, options = parcel.load()
            problem = spec.worker_problem()
            # its own checkpoints (and those of a run on one process): not its siblings'
            problem.resumed = tuple(r for r in problem.resumed if r.get("copy", index) == index) + restored
            searcher = searcher_cls(options)
            gen: Iterator[Event] = searcher.search(problem, np.random.default_rng(seed))
            for ev in gen:
                channel.send((index, problem.evaluations, ev))
                if stop.is_set():
                    last = stopped_event(gen)
                    close(gen)
                    if isinstance(last, Checkpoint):
                        channel.send((index, problem.evaluations, last))
                    break
        except KeyboardInterrupt:
            pass  # the parent saw Ctrl-C too and keeps what was reported
        except (BrokenPipeError, ConnectionResetError):
            return  # the main process is gone: nobody to tell
        except BaseException as exc:  # report, don't die silently
            channel.send((index, 0, Failed(f"{type(exc).__name__}: {exc}")))
        channel.send((index, 0, None))
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        channel.close()


def stopped_event(gen: Iterator[Event]) -> Event | None:
    """What a searcher yields when told it is stopping (``Stopping``): its
    last state, so a resumed run continues from there and not from its last
    periodic checkpoint; None from a searcher that keeps no state."""
    throw = getattr(gen, "throw", None)
    if throw is None:
        return None
    try:
        ev: Event = throw(Stopping())
        return ev
    except (Stopping, StopIteration):
        return None


def close(gen: Iterator[Event]) -> None:
    """Close a searcher's generator: its finally blocks run now, not whenever
    it is collected."""
    closer = getattr(gen, "close", None)
    if closer is not None:
        closer()
