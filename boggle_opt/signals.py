"""Signals: SIGINT, SIGTERM and SIGHUP stop a run cleanly, at any moment.

``docker stop``, cluster schedulers and preempted cloud machines send
SIGTERM; a closed terminal sends SIGHUP; Ctrl-C sends SIGINT. Any of them
stops the run: the driver keeps its results and writes the finish record, and
the exit status is 128 + the signal's number (130, 143, 129), as a shell
reports it.

The handler only notes the first signal until the run starts (an exception
raised in the middle of an import can be lost, and a run file must get its
finish record): the driver finds it at its first step and stops at once.
While the run goes, the handler also raises ``Terminated`` (a
``KeyboardInterrupt``) to cut short a long step, and the driver checks the
note at every event in case an exception was swallowed on its way. A second
signal while the run stops ends the process at once (as many tools do); the
run file keeps every record written so far and ``--resume`` carries on.

Worker processes leave all this to the main process: they are started with
SIGINT and SIGHUP blocked, ignore them (which a terminal sends to its
whole process group), and end on their own within a second when the main
process is gone, whatever killed it (``worker_start``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: the signals handled like Ctrl-C (SIGHUP is POSIX only)
SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name)
)
#: every signal that stops a run
STOPPING: tuple[signal.Signals, ...] = (signal.SIGINT, *SIGNALS)
#: what a worker ignores: what a terminal sends to its whole process group
#: (SIGTERM stays: the main process ends its workers with it)
GROUP_SIGNALS: tuple[signal.Signals, ...] = tuple(s for s in STOPPING if s != getattr(signal, "SIGTERM", None))
#: seconds between a worker's looks at whether its parent is still there
ORPHAN_POLL = 0.5
#: exit status of a worker that found its main process gone
EXIT_ORPHANED = 1

_CAN_MASK = hasattr(signal, "pthread_sigmask")


def reason(signum: int) -> str:
    """A run's stop reason for a signal (Ctrl-C keeps its old wording)."""
    return "interrupted" if signum == signal.SIGINT else f"terminated by {signal.Signals(signum).name}"


def status_for(stop_reason: str) -> int | None:
    """The exit status a stop reason calls for, if a signal stopped the run."""
    for sig in STOPPING:
        if stop_reason == reason(sig):
            return 128 + sig
    return None


class Terminated(KeyboardInterrupt):
    """A stopping signal arrived; the message is the run's stop reason."""

    def __init__(self, signum: int) -> None:
        super().__init__(reason(signum))
        self.signum = signum


class Termination:
    """The signals seen while ``on_termination`` is in force."""

    def __init__(self) -> None:
        #: the first signal (the run stops for it)
        self.received: int | None = None
        #: raise ``Terminated`` from the handler (while a run or a command goes)
        self.raising = False
        #: the run is over: a signal now does not change how it ended
        self.done = False
        self.late: int | None = None

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.received is not None or self.late is not None:
            _force_exit(signum)
        if self.done:
            self.late = signum
            return
        self.received = signum
        if self.raising and not _importing(frame):
            raise Terminated(signum)

    def check(self) -> None:
        """Raise ``Terminated`` if a signal arrived (it may not have raised, or
        its exception may have been lost)."""
        if self.received is not None and not self.done:
            raise Terminated(self.received)

    def hold(self) -> None:
        """The run's result is final (a proof that covered every class): a signal
        from now on changes neither its output nor its exit status, and one that
        stopped the run as it ended is forgotten (the finish record says the
        proof is complete); a second one still forces the exit."""
        self.done = True
        self.received = None

    def status(self, code: int) -> int:
        """The exit status: 128 + the signal's number if one arrived, else ``code``."""
        return 128 + self.received if self.received is not None else code


#: the handlers' state while ours are installed (None: Python's own)
_current: Termination | None = None


def _importing(frame: FrameType | None) -> bool:
    """Whether the signal interrupted the import system's own code. An
    exception raised there can be swallowed: in a weakref callback of a
    module lock Python printed it as "Exception ignored in ... Traceback"
    and went on. The signal is then only noted; the driver finds the note
    at its next step (``check``), and the kernel's ``poll`` at its next call."""
    return frame is not None and frame.f_code.co_filename.startswith("<frozen importlib")


def hold_signals() -> None:
    """``Termination.hold`` for the signals' current state, if ours are installed."""
    if _current is not None:
        _current.hold()


def _force_exit(signum: int) -> None:
    # a second signal: the user (or docker, systemd) will not wait for the clean stop
    name = signal.Signals(signum).name
    os.write(2, f"boggle-opt: second signal ({name}): stopping at once\n".encode())
    os._exit(128 + signum)


def exit_status(exc: KeyboardInterrupt) -> int:
    """The exit status for a run ended by ``exc`` (Ctrl-C: 130)."""
    return 128 + (exc.signum if isinstance(exc, Terminated) else signal.SIGINT)


def _install(seen: Termination) -> dict[signal.Signals, Any]:
    saved: dict[signal.Signals, Any] = {}
    for sig in STOPPING:
        if signal.getsignal(sig) is not signal.SIG_IGN:  # nohup's SIGHUP stays ignored
            saved[sig] = signal.signal(sig, seen._handle)
    return saved


def catch_early() -> None:
    """For the ``boggle-opt`` program, before its modules are imported: note a
    stopping signal from then on (the run it interrupts stops as it starts)."""
    global _current
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    # the console script itself (not a worker re-running it, nor a library user)
    if getattr(main, "__name__", "") != "__main__" or not isinstance(path, str) \
            or not os.path.basename(path).startswith("boggle-opt"):
        return
    if _current is None and threading.current_thread() is threading.main_thread():
        _current = Termination()
        _install(_current)


@contextmanager
def on_termination(raising: bool = True) -> Iterator[Termination]:
    """Our handlers for the block. ``raising``: a signal raises ``Terminated``
    at once (as Ctrl-C does), also one that came before the block; else it is
    only noted until a driver's ``stopping`` block. A signal the process was
    told to ignore (``nohup``) stays ignored."""
    global _current
    if threading.current_thread() is not threading.main_thread():
        yield Termination()  # only the main thread may set handlers
        return
    previous = _current
    # keep what catch_early saw while the modules were imported
    seen = previous if previous is not None and signal.getsignal(signal.SIGINT) == previous._handle \
        else Termination()
    _current = seen
    saved = _install(seen)
    try:
        seen.raising = raising
        if raising:
            seen.check()
        yield seen
    finally:
        seen.raising = False
        for sig, handler in saved.items():
            signal.signal(sig, handler)
        _current = previous


@contextmanager
def stopping() -> Iterator[None]:
    """A run's own block: a signal that came before it stops the run as it
    starts, one during it raises ``Terminated`` at once, and one after it
    does not change how the run ended. Without our handlers (a library
    call), Python's own Ctrl-C stands. A run inside a command that stops at
    once (``plan`` climbs and replays through runs) leaves that command as
    it was: a later signal raises, and ``search`` raises for one that
    stopped the run (``check``)."""
    seen = _current
    if seen is None:
        yield
        return
    # a run inside a command that stops at once (plan's climb and replay):
    # after it the command must still stop at a signal, including one that
    # stopped this run, so neither is the signal forgotten nor the state final
    inside_command = seen.raising and not seen.done
    try:
        seen.raising = True
        seen.check()
        yield
    finally:
        seen.raising = inside_command
        seen.done = not inside_command


class deferred:
    """For the block, a stopping signal is noted, not raised; it raises as the
    block ends. For work that must not be cut in the middle: an event taken
    into the run's state and then written to the run file (cut between the
    two, the finish record named a best board that no record of the file
    held). Without our handlers (a library call) nothing changes."""

    def __enter__(self) -> None:
        self.seen = _current if _current is not None and _current.raising else None
        if self.seen is not None:
            self.seen.raising = False
            self.before = self.seen.received

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        if self.seen is not None:
            self.seen.raising = True
            # only a signal that came during the block: one the run is already
            # stopping for has raised once (its last events are delivered here)
            if kind is None and self.before is None:
                self.seen.check()


def check() -> None:
    """Raise ``Terminated`` if a stopping signal arrived (see ``Termination.check``)."""
    if _current is not None:
        _current.check()


@contextmanager
def held() -> Iterator[None]:
    """For the block, this thread holds back the terminal's group signals, so
    that the worker processes it starts begin with them blocked: a Ctrl-C to
    the whole process group cannot hit a worker's interpreter while it starts
    (a fatal error); ``worker_start`` then ignores them. SIGTERM stays: the
    main process ends a worker with it at any moment, even one still starting.
    A stopping signal meanwhile is noted, not raised, and stops the run when
    the block ends: raised in the middle of starting a worker, it would cut
    the start-up data spawn writes to it (the worker prints ``EOFError``)."""
    seen = _current
    raising = seen is not None and seen.raising
    if seen is not None:
        seen.raising = False
    try:
        with _group_signals_blocked():
            yield
    finally:
        if seen is not None:
            seen.raising = raising
    if seen is not None and raising:
        seen.check()


#: the warnings filter the resource tracker starts with: its own warnings off
TRACKER_QUIET = "ignore:resource_tracker:UserWarning"


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker, if it is not running yet,
    with its own warnings off. A main process killed with SIGKILL cannot
    release its worker pool's semaphores: the tracker then unlinks them,
    which is its job, and also warned in two lines on stderr of "leaked
    semaphore objects", which were no leak of ours and alarm a user. The
    tracker takes its warnings filters from ``sys.warnoptions`` (as ``-W``)
    when it starts: the filter is there for that moment only, so nothing
    else in this process or its workers is silenced, and the cleanup stays."""
    from multiprocessing import resource_tracker

    sys.warnoptions.append(TRACKER_QUIET)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions.remove(TRACKER_QUIET)


@contextmanager
def _group_signals_blocked() -> Iterator[None]:
    if not _CAN_MASK:
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, GROUP_SIGNALS)
    try:
        # multiprocessing's resource tracker, started now if not yet, keeps
        # SIGHUP blocked (it ignores SIGINT and SIGTERM itself): a closed
        # terminal does not kill it mid-run. Starting it unblocks SIGINT:
        # block it again.
        start_resource_tracker()
        signal.pthread_sigmask(signal.SIG_BLOCK, GROUP_SIGNALS)
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def worker_start() -> None:
    """First thing in a worker process: leave Ctrl-C and a closed terminal to
    the main process, which stops the workers itself (a terminal signals its
    whole process group; a worker would print a traceback, or die mid-write),
    and end this process when the main process is gone, whatever killed it."""
    import multiprocessing as mp

    parent = mp.parent_process()
    if parent is None or parent.pid is None:
        return
    _die_with(parent.pid)
    for sig in GROUP_SIGNALS:
        signal.signal(sig, signal.SIG_IGN)  # also drops one that came while blocked
    if _CAN_MASK:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
    threading.Thread(target=_watch_parent, args=(parent.pid,), name="boggle-opt parent watch",
                     daemon=True).start()


def _die_with(parent: int) -> None:
    """Linux: the kernel kills this process when its parent ends (no Python
    code needs to run: a worker deep in compiled code holds the GIL)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass  # the watch thread still does it
    if os.getppid() != parent:  # the parent died before that took effect
        os._exit(EXIT_ORPHANED)


def _watch_parent(parent: int) -> None:
    # elsewhere than Linux (and for a parent thread that ended: the kernel's
    # death signal follows the thread that started the process)
    while True:
        time.sleep(ORPHAN_POLL)
        if os.getppid() != parent:
            os._exit(EXIT_ORPHANED)


def quiet_worker() -> None:
    """Kept for plugins that start their own workers: ``worker_start``."""
    worker_start()


def let_signals_in() -> None:
    """Called now and then by compiled code that runs for minutes (the
    branch-and-bound kernel, ``ClassSolver.poll``). Compiled code never gives
    the interpreter a chance to run a signal's Python handler, so Ctrl-C or
    SIGTERM waited for the whole class; entering this plain-Python function
    does (the interpreter checks for pending signals as a function starts),
    and what the handler raises comes out of the kernel's call."""


class TimeUp(Exception):
    """The time budget of the run in this process ran out while compiled code
    ran (``poll``): the run stops as at its budget, the task out abandoned."""


#: ``time.monotonic()`` at which the run in this process ends, if it has a
#: time budget (``time_limit``)
_deadline: float | None = None


@contextmanager
def time_limit(deadline: float | None) -> Iterator[None]:
    """For the block, ``poll`` raises ``TimeUp`` from ``deadline`` on (a
    ``time.monotonic()`` value; None: no limit)."""
    global _deadline
    saved = _deadline
    _deadline = deadline
    try:
        yield
    finally:
        _deadline = saved


def poll() -> None:
    """The poll of a proof's class solver (``ClassSolver.poll``): signals get
    in as with ``let_signals_in``, and a run of one job, whose classes are
    solved in this process, stops at its time budget in the middle of a
    class, as a run of several stops with its classes in flight: a class
    of a 4x4 proof can take minutes, and ``--time`` was passed by as much."""
    let_signals_in()
    check()  # a signal only noted (it came in the middle of an import)
    if _deadline is not None and time.monotonic() >= _deadline:
        raise TimeUp
