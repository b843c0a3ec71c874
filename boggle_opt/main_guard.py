"""Worker processes that cannot start because the main script has no guard.

Worker processes are spawned: each one re-runs the top level of the main
script (as ``__mp_main__``) before it works. A script that starts a run at
its top level, outside ``if __name__ == "__main__":``, would start that run
again in every worker, which multiprocessing refuses while the worker is
still starting; the worker dies and the pool never gets going. So before
starting worker processes the library looks at where the main script is
(``unguarded_call``) and refuses with one line naming the fix; a worker that
still finds itself starting a run while it starts (a case that look missed)
exits at once with ``EXIT_RUN_AT_IMPORT`` (``refuse_in_starting_worker``),
and the parent turns that into the same line (``start_failed``).
"""

from __future__ import annotations

import os
import pickle
import sys
import tempfile
import weakref
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any, Generic, TypeVar

from .core.errors import BoggleOptError

#: exit status of a worker process that found its main script starting a run
#: while the worker was still starting (chosen to be unlike Python's own 0, 1, 2)
EXIT_RUN_AT_IMPORT = 86

DOCS = "docs/usage.md#worker-processes-and-the-main-guard"

T = TypeVar("T")


def guard_message(script: str) -> str:
    return (
        f"worker processes could not start: the script {script!r} starts a run at import time; "
        f'put its top level under `if __name__ == "__main__":` (see {DOCS})'
    )


def _main_file() -> str | None:
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    return path if isinstance(path, str) else None


@lru_cache(maxsize=8)
def _guarded_lines(path: str, mtime: float) -> tuple[tuple[int, int], ...] | None:
    """The line spans of the script's top-level ``if`` blocks that test
    ``__name__`` (or the process, as ``current_process()`` does); None if the
    file cannot be read as Python."""
    import ast  # here: a pool's start, not every command's import of this module

    try:
        tree = ast.parse(Path(path).read_bytes(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    spans = []
    for node in tree.body:
        if isinstance(node, ast.If):
            names = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node.test) if isinstance(n, ast.Attribute)}
            if names & {"__name__", "current_process", "parent_process"}:
                spans.append((node.lineno, node.end_lineno or node.lineno))
    return tuple(spans)


def unguarded_call() -> str | None:
    """The main script's name if this call comes from its top level outside
    an ``if __name__ == "__main__":`` block (spawned workers would run it
    again), else None. Only a script run from a file can tell: an interactive
    session or ``python -c`` is never re-run by a worker."""
    path = _main_file()
    main = sys.modules.get("__main__")
    if path is None or main is None:
        return None
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "<module>" and frame.f_globals is vars(main):
            break
        frame = frame.f_back  # type: ignore[assignment]
    if frame is None:
        return None  # the script's top level has finished: called later (a callback, a thread)
    try:
        spans = _guarded_lines(path, Path(path).stat().st_mtime)
    except OSError:
        return None
    if spans is None:
        return None
    line = frame.f_lineno
    if any(first <= line <= last for first, last in spans):
        return None
    return Path(path).name


def refuse_unguarded() -> None:
    """Raise the one-line error before starting worker processes from the
    main script's unguarded top level."""
    script = unguarded_call()
    if script is not None:
        raise BoggleOptError(guard_message(script))


def _refusal_mark(pid: int) -> str:
    """The file a starting worker of process ``pid`` leaves as it refuses. Its
    exit status alone can be lost: a process pool that sees one worker end
    ends the others with SIGTERM, and a worker ended so while it was about to
    exit leaves only that status. (A parcel's name: ``sweep_parcels`` removes
    one whose process is gone.)"""
    return os.path.join(tempfile.gettempdir(), f"{PARCEL_PREFIX}{pid}-refused.pickle")


def refuse_in_starting_worker() -> None:
    """In a spawned worker that is still running its parent's main script: the
    run being started is the script's own, re-run because its top level has
    no guard. End the worker at once and quietly; the parent names the cause."""
    import multiprocessing as mp  # here: a pool's start, not every command's import of this module

    if getattr(mp.current_process(), "_inheriting", False):
        try:
            with open(_refusal_mark(os.getppid()), "wb"):
                pass
        except OSError:
            pass  # the exit status still tells the parent, as a rule
        raise SystemExit(EXIT_RUN_AT_IMPORT)


def start_failed(exitcodes: Iterable[int | None]) -> BoggleOptError:
    """The one-line error for worker processes that ended before they were ready."""
    codes = sorted({c for c in exitcodes if c is not None})
    mark = _refusal_mark(os.getpid())
    refused = os.path.exists(mark)
    if refused:
        try:
            os.unlink(mark)
        except OSError:
            pass
    if EXIT_RUN_AT_IMPORT in codes or refused:
        return BoggleOptError(guard_message(Path(_main_file() or "the main script").name))
    status = f" (exit status {', '.join(map(str, codes))})" if codes else ""
    return BoggleOptError(
        f"worker processes could not start{status}: they ended before they were ready; if the "
        f'main script starts the run at import time, put its top level under `if __name__ == "__main__":` '
        f"(see {DOCS})"
    )


class Parcel(Generic[T]):
    """A worker process's arguments, pickled to a temporary file; the process
    gets only the file's name. Spawn writes a new process's arguments into a
    pipe whose reading end the parent itself holds until the write is done,
    so arguments bigger than the pipe's buffer (64 KiB) block the parent for
    ever if the worker dies before reading them (as it does when it cannot
    start). The file goes when the parent's Parcel is collected."""

    def __init__(self, value: T) -> None:
        sweep_parcels(tempfile.gettempdir())
        fd, self.path = tempfile.mkstemp(prefix=f"{PARCEL_PREFIX}{os.getpid()}-", suffix=".pickle")
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        self._remove = weakref.finalize(self, _unlink, self.path)

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path}  # a worker's copy names the file and owns nothing

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.path = state["path"]

    def load(self) -> T:
        with open(self.path, "rb") as f:
            value: T = pickle.load(f)
        return value

    def remove(self) -> None:
        self._remove()


#: a parcel file's name: this prefix, the pid of the process that wrote it, a dash
PARCEL_PREFIX = "boggle-opt-worker-"


def sweep_parcels(folder: str) -> None:
    """Remove the parcel files of processes that are gone: a main process
    killed with SIGKILL cannot remove its own (megabytes each), so the next
    run does. A file whose writer's pid was reused is left until later."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not (name.startswith(PARCEL_PREFIX) and name.endswith(".pickle")):
            continue
        pid_text = name[len(PARCEL_PREFIX):].split("-", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:  # gone already, or not ours to remove
            pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
