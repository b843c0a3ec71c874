"""Progress displays: consumers of a run's events (rich is imported only for the live panel).

``rich`` is a live panel for a terminal; it pulls the run state at its own
refresh rate, so a fast searcher is never slowed by drawing. ``plain`` prints
a short line every few seconds (pipes, CI logs: ``--progress-every``), with
only the figures that are known; ``jsonl`` prints events as JSON lines;
``none`` shows nothing.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ..boards import grid
from ..core.alphabet import Alphabet
from ..core.geometry import Geometry
from ..proofs import outcome as proof
from ..searching.driver import Consumer, RunState
from ..runs.events import event_record, finish_record, note_record, progress_record, start_record
from ..runs.records import describe_stop
from ..runs.written import written_record
from ..searching.interface import Event, Progress, Stat
from . import output
from .beat import Beat

if TYPE_CHECKING:
    from rich.console import Console
    from rich.panel import Panel

#: what make_display makes (the command line offers the same names)
STYLES = ("rich", "plain", "jsonl", "none")
BARS = "▁▂▃▄▅▆▇█"
#: seconds between plain progress lines, and between jsonl progress records
PLAIN_EVERY = 5.0
JSONL_EVERY = 0.5
#: the most columns of a plain progress line: a log a person reads, in an
#: 80-column terminal as everything else printed
PLAIN_WIDTH = 80
#: a plain line names its oldest task in flight once it has run this long
#: (seconds): a class that long is one a log reader may wonder about
OLDEST_SHOWN = 30.0
#: stats a plain line shows in its own words (or not at all)
_OWN_WORDS = frozenset({"best", "time left", "boards/s"})


def _plural(count: Stat, noun: str) -> str:
    return noun if count == 1 else noun + "s"


def _fmt(value: Stat) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def _oldest_age(stats: Mapping[str, Stat]) -> float | None:
    """Seconds the oldest task in flight has run (its submit time is the stat
    ``proof.OLDEST``, wall clock); None with no task in flight or no time."""
    since = stats.get(proof.OLDEST)
    if not stats.get(proof.IN_FLIGHT) or not isinstance(since, (int, float)) or since <= 0:
        return None
    return max(0.0, time.time() - since)


def _rate(state: RunState) -> float:
    elapsed = state.elapsed()
    return state.evaluations / elapsed if elapsed > 0 else 0.0


def _budget_left(state: RunState) -> str:
    b = state.budget
    parts = []
    if b.seconds is not None:
        parts.append(f"{max(0.0, b.seconds - state.elapsed()):.0f} s")
    if b.evaluations is not None:
        parts.append(f"{max(0, b.evaluations - state.evaluations):,} evals")
    if b.target is not None:
        parts.append(f"target {b.target:,}")
    return ", ".join(parts) if parts else "none (Ctrl-C stops and keeps the results)"


def sparkline(history: list[tuple[float, int]], elapsed: float, width: int = 40) -> str:
    """Best score over time as block characters, one per time slice."""
    if not history:
        return ""
    span = max(elapsed, history[-1][0], 1e-9)
    lo, hi = history[0][1], history[-1][1]
    out = []
    j = 0
    best = history[0][1]
    for i in range(width):
        t = span * (i + 1) / width
        while j < len(history) and history[j][0] <= t:
            best = history[j][1]
            j += 1
        level = 0 if hi == lo else math.floor((best - lo) / (hi - lo) * (len(BARS) - 1))
        out.append(BARS[level])
    return "".join(out)


def _stopped(state: RunState) -> str:
    """Why the run stopped, as the results say it (a budget reached named as one)."""
    return describe_stop(state.stop_reason, vars(state.budget), state.evaluations)


def _known(value: Stat) -> bool:
    """Whether a stat has a value yet (searchers report -1 or "" for none)."""
    return not (value == "" or (isinstance(value, int) and value < 0))


def _budget_short(state: RunState) -> str:
    """What is left of a time or evaluation budget, "" if there is none (in
    the words of a searcher's own time left: a line shows one or the other,
    and the short form leaves room for a 4x4 board within 80 columns)."""
    b = state.budget
    if b.seconds is not None:
        return f"left {max(0.0, b.seconds - state.elapsed()):,.0f} s"
    if b.evaluations is not None:
        return f"left {max(0, b.evaluations - state.evaluations):,} evals"
    return ""


def _proof_figures(state: RunState) -> list[str]:
    """A proof's few figures: classes done of the total, rate, time left,
    boards found at the min score and the best; during the warm-up climb,
    that it is choosing the min score."""
    stats = state.stats
    if proof.CLIMB_BEST in stats:
        best = stats[proof.CLIMB_BEST]
        so_far = f": best so far {best:,}" if isinstance(best, int) and best >= 0 else ""
        return [f"warm-up climb choosing the min score{so_far}"]
    done, total = stats.get(proof.DONE), stats.get(proof.TOTAL)
    parts = []
    if isinstance(done, int) and isinstance(total, int) and total > 0:
        parts.append(f"classes {done:,}/{total:,} ({100 * done / total:.1f}%)")
    rate = stats.get(proof.RATE)
    if isinstance(rate, (int, float)) and rate > 0:
        parts.append(f"{_fmt(rate)}/s")
    left = stats.get("time left")
    if left:
        parts.append(f"left {left}")
    min_score, found = stats.get(proof.MIN_SCORE), stats.get("boards >= min")
    if isinstance(min_score, int) and min_score > 0:
        count = found if isinstance(found, int) else len(state.boards)
        # the best of the boards found (not the warm-up climb's, which set the min score)
        best = f", best {state.best_score:,}" if count > 0 and state.best_score >= 0 else ""
        parts.append(f"boards >= {min_score:,}: {count:,}{best}")
    failed = stats.get(proof.FAILED)
    if isinstance(failed, int) and failed > 0:
        parts.append(f"failed {failed:,}")
    age = _oldest_age(stats)
    if age is not None and age >= OLDEST_SHOWN:
        parts.append(f"oldest task {proof.duration(age)}")
    return parts


def _search_figures(state: RunState) -> list[str]:
    """A local search's figures: best score, evaluations and their rate, the
    time left the searcher estimates or the budget left."""
    parts = []
    if state.best_score >= 0:
        parts.append(f"best {state.best_score:,}")
    parts.append(f"evals {state.evaluations:,} ({_rate(state):,.0f}/s)")
    left = state.stats.get("time left")
    budget = _budget_short(state)
    if left:
        parts.append(f"left {left}")
    elif budget:
        parts.append(budget)
    return parts


def _fit(line: str, parts: Sequence[str], width: int) -> str:
    """``line`` and then each of ``parts`` that still fits within ``width``
    (whole figures: a figure cut short would read as another number)."""
    for part in parts:
        if len(line) + 1 + len(part) <= width:
            line += " " + part
    return line


def status_line(state: RunState, shown: Callable[[str], str] = str, width: int = PLAIN_WIDTH) -> str:
    """One line of plain progress, at most ``width`` columns: the searcher's
    few figures that are known (the best board beside its score if it fits),
    then as many of its other stats as fit."""
    head = f"[{state.elapsed():7.1f}s]"
    if proof.is_proof(state.stats):
        return _fit(head, _proof_figures(state), width)
    figures = _search_figures(state)
    if state.best_score >= 0:
        board = shown(state.best_board)
        if len(" ".join([head, *figures, board])) <= width:
            figures.insert(1, board)
    own = [f"{key}={_fmt(value)}" for key, value in state.stats.items() if key not in _OWN_WORDS and _known(value)]
    return _fit(_fit(head, figures, width), own, width)


def _wrapped(text: str, width: int = PLAIN_WIDTH) -> str:
    """A plain line of words (why the run stopped, a note) within ``width``
    columns, its continuation indented."""
    return output.plain(text, width)


def panel_grid(geometry: Geometry, alphabet: Alphabet) -> Callable[[str], str]:
    """How the live panel draws a board: each cell as its die shows it
    (``Qu``, ``IJ``, ``ß``: never a private symbol, nor ``ß`` upper-cased to
    ``SS``), two columns wide, so a row is as wide whichever tiles it shows."""
    return lambda board: grid(geometry, board, alphabet, 2)


def _steady(grid: str) -> str:
    """A drawn board with each row as wide as two columns a cell: a row
    ending in ``Qu`` is one wider than one ending in a letter, and the
    panel's figures beside the board moved by a column when one came."""
    return "\n".join(line.ljust(3 * len(line.split()) - 1) for line in grid.splitlines())


class RichDisplay:
    """A live panel on the terminal (stderr), refreshed a few times a second."""

    def __init__(self, title: str, grid: Callable[[str], str], console: Console | None = None):
        # rich is imported here, not at the top: commands that draw nothing start sooner
        from rich.console import Console
        from rich.live import Live

        self.title = title
        self.grid = grid
        self.console = console or Console(stderr=True)
        self._state: RunState | None = None
        self._live = Live(
            get_renderable=self._render,
            console=self.console,
            refresh_per_second=4,
            transient=False,
        )

    def _render(self) -> Panel:
        from rich.console import Group
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text

        state = self._state
        if state is None:
            return Panel("starting…", title=self.title)
        if proof.is_proof(state.stats):
            return self._render_proof(state)
        figures = Table.grid(padding=(0, 2))
        figures.add_column(style="bold")
        figures.add_column()
        figures.add_row("best score", f"{state.best_score:,}" if state.best_score >= 0 else "-")
        figures.add_row("evaluations", f"{state.evaluations:,} ({_rate(state):,.0f}/s)")
        figures.add_row("elapsed", f"{state.elapsed():.1f} s")
        figures.add_row("budget left", _budget_left(state))
        for key, value in state.stats.items():
            if key != "best":  # the searcher's own best is the best score above
                figures.add_row(key, _fmt(value))
        board = Text(_steady(self.grid(state.best_board)) if state.best_board else "", style="bold cyan")
        top = Table.grid(padding=(0, 4))
        top.add_row(board, figures)
        history = sparkline(state.history, state.elapsed())
        parts: list[Any] = [top]
        if history:
            parts.append(Text(f"best over time  {history}", style="green"))
        parts.extend(Text(note, style="yellow") for note in state.notes[-3:])
        if state.stop_reason and not state.error:  # an error is the command's own line
            parts.append(Text(f"stopped: {_stopped(state)}", style="yellow"))
        return Panel(Group(*parts), title=self.title, expand=False)

    def _render_proof(self, state: RunState) -> Panel:
        """A proof's own numbers (classes, rate, time left, tasks, failures,
        largest tree, boards found), in a dozen lines: no evaluation rate or
        best-score history, which mean nothing to a proof."""
        from rich.console import Group
        from rich.panel import Panel
        from rich.table import Table
        from rich.text import Text

        stats = state.stats
        figures = Table.grid(padding=(0, 2))
        figures.add_column(style="bold", no_wrap=True)
        figures.add_column()
        total = stats.get(proof.TOTAL, 0)
        climbing = proof.CLIMB_BEST in stats
        if climbing:
            best = stats[proof.CLIMB_BEST]
            so_far = _fmt(best) if isinstance(best, int) and best >= 0 else "none yet"
            figures.add_row("warm-up climb", f"choosing the min score: best so far {so_far}")
            figures.add_row("classes", f"{_fmt(total)} to solve once it has chosen")
        else:
            done = stats.get(proof.DONE, 0)
            share = f" ({100 * done / total:.1f}%)" if isinstance(done, int) and isinstance(total, int) and total else ""
            figures.add_row("classes done", f"{_fmt(done)} / {_fmt(total)}{share}")
            figures.add_row("rate", f"{_fmt(stats.get(proof.RATE, 0.0))} classes/s")
            # no figure until the cost model is fitted to the first classes:
            # before, it was 2-3x the truth and fell by half as it was fitted
            figures.add_row("time left", str(stats.get("time left") or "estimating"))
        figures.add_row("elapsed", f"{state.elapsed():.1f} s")
        if not climbing:
            workers = stats.get("workers", 0)
            tasks = stats.get(proof.IN_FLIGHT, 0)
            # how long the oldest task has run: the panel is redrawn while a
            # one-job proof solves a class in this process, without new stats
            age = _oldest_age(stats)
            oldest = "" if age is None else f", oldest {proof.duration(age)}"
            # a few tasks more than workers are handed out, to keep them busy:
            # say how many run and how many wait (not "3 tasks on 2 workers")
            running = min(tasks, workers) if isinstance(tasks, int) and isinstance(workers, int) else tasks
            queued = tasks - running if isinstance(tasks, int) and isinstance(running, int) else 0
            waiting = f", {_fmt(queued)} {_plural(queued, 'task')} queued" if queued else ""
            figures.add_row("workers", f"{_fmt(running)} of {_fmt(workers)} busy{waiting}{oldest}")
            figures.add_row("failures", f"{_fmt(stats.get(proof.FAILED, 0))} "
                            f"({_fmt(stats.get('tasks split', 0))} split, {_fmt(stats.get('retries', 0))} retried)")
            figures.add_row("largest tree", f"{_fmt(stats.get('largest tree', 0))} nodes")
            min_score = stats.get(proof.MIN_SCORE)
            source = "warm-up climb" if stats.get(proof.MIN_FROM) == proof.CLIMB else "given"
            min_text = _fmt(min_score) if min_score is not None else "-"
            figures.add_row("min score", f"{min_text} ({source})")
            found = len(state.boards)
            top = f" (best {state.best_score:,})" if found else ""
            figures.add_row(f"boards >= {min_text}", f"{found:,}{top}")
        if state.budget.seconds is not None or state.budget.evaluations is not None:
            figures.add_row("budget left", _budget_left(state))
        board = Text(_steady(self.grid(state.best_board)) if state.best_board else "", style="bold cyan")
        top_row = Table.grid(padding=(0, 3))
        top_row.add_row(board, figures)
        parts: list[Any] = [top_row]
        parts.extend(Text(note, style="yellow") for note in state.notes[-3:])
        if state.stop_reason and not state.error:  # an error is the command's own line
            parts.append(Text(f"stopped: {_stopped(state)}", style="yellow"))
            result = proof.outcome(stats, state.settings, state.ranked(), state.stop_reason, state.write)
            if result is not None:
                parts.append(Text(result.statement, style="bold green" if result.complete else "bold red"))
        return Panel(Group(*parts), title=self.title, expand=False)

    def start(self, state: RunState) -> None:
        self._state = state
        self._live.start()

    def event(self, event: Event, state: RunState) -> None:
        pass  # Live pulls the state at its own refresh rate

    def finish(self, state: RunState) -> None:
        if state.error and not state.evaluations and not state.stats:
            self._live.transient = True  # refused as it began: the error line alone
        self._live.refresh()
        self._live.stop()


class PlainProgress:
    """A line every ``every`` seconds at most, and one as the run stops, for
    logs and pipes: improvements are in the next line, not lines of their own
    (a fast search finds dozens a second). Notes are printed as they come.

    A line is due even when no event comes: a one-job proof solves a class in
    this process for minutes without one, so a thread prints the line then
    (the kernel's poll between forcings lets it run), and a log shows the run
    is alive and how long its class has taken."""

    def __init__(self, out: TextIO, every: float = PLAIN_EVERY, shown: Callable[[str], str] = str) -> None:
        self.out = out
        self.every = every
        #: a board as the results list it (its canonical form)
        self.shown = shown
        self._last = 0.0
        self._notes = 0
        self._lines = 0
        #: the main thread's events and the heartbeat write one line at a time
        self._lock = threading.Lock()
        self._beat: Beat | None = None
        #: an event has come: before it the run has no figures to show
        self._seen = False
        #: the last line's figures (without its time)
        self._shown = ""

    def start(self, state: RunState) -> None:
        self._last = 0.0
        self._notes = 0
        self._lines = 0
        self._seen = False
        self._shown = ""
        # a quarter of the interval late at most; no busy loop for a tiny one
        self._beat = Beat(lambda: self._heartbeat(state), max(self.every / 4, 0.01), self._lock,
                          "plain-progress")
        self._beat.start()

    def _heartbeat(self, state: RunState) -> None:
        if self._seen and state.elapsed() - self._last >= self.every:
            self._print(state)

    def event(self, event: Event, state: RunState) -> None:
        with self._lock:
            self._seen = True
            self._new_notes(state)
            if state.elapsed() - self._last >= self.every:
                self._print(state)

    def _print(self, state: RunState, line: str = "") -> None:
        self._last = state.elapsed()
        self._lines += 1
        line = line or status_line(state, self.shown)
        self._shown = line[line.index("]") + 1:]
        self.out.write(line + "\n")
        self.out.flush()

    def _last_line(self, state: RunState) -> None:
        """The figures as the run stopped, unless the last line gave the same
        ones: a line printed just before may show another stage (the warm-up
        climb, where a proof's first class is done a moment later)."""
        line = status_line(state, self.shown)
        if not self._lines or line[line.index("]") + 1:] != self._shown:
            self._print(state, line)

    def _new_notes(self, state: RunState) -> None:
        for note in state.notes[self._notes:]:
            self.out.write(_wrapped(f"note: {note}") + "\n")  # a plugin's or an executor's: any length
        self._notes = len(state.notes)

    def finish(self, state: RunState) -> None:
        if self._beat is not None:
            self._beat.stop()
            self._beat = None
        self._new_notes(state)
        if state.error:
            # the command prints the error; a run refused as it began has no figures to show
            if state.evaluations or state.stats:
                self._last_line(state)
            return
        self._last_line(state)
        self.out.write(_wrapped(f"stopped: {_stopped(state)}") + "\n")
        self.out.flush()


class JsonlProgress:
    """The run file's records (``events``) as JSON lines; progress at most
    ``per_second`` times a second. Notes are ``note`` records: ``notes``, the
    command's own (said before the run starts), after ``start``, and the run's
    as they come, so a program reading the stream misses none of them."""

    def __init__(
        self,
        out: TextIO,
        per_second: float = 1 / JSONL_EVERY,
        word_count: Callable[[str], int] | None = None,
        top: int = 50,
        notes: Sequence[str] = (),
    ) -> None:
        self.out = out
        self.gap = 1.0 / per_second
        self.word_count = word_count
        self.top = top
        self.notes = tuple(notes)
        self._last = -1e9
        self._said = 0  # of the run's notes (state.notes)
        #: a board as people write it (the run's ``RunState.write``, known at start)
        self._board: Callable[[str], str] = str

    def _write(self, record: Mapping[str, Any]) -> None:
        self.out.write(json.dumps(written_record(record, self._board)) + "\n")
        self.out.flush()

    def start(self, state: RunState) -> None:
        self._board = state.write
        self._write(start_record(state, state.settings))
        for note in self.notes:
            self._write(note_record(note, state))
        self._said = 0
        self._new_notes(state)

    def _new_notes(self, state: RunState) -> None:
        for note in state.notes[self._said:]:
            self._write(note_record(note, state))
        self._said = len(state.notes)

    def event(self, event: Event, state: RunState) -> None:
        self._new_notes(state)
        record = event_record(event, state)
        if record is not None:
            self._write(record)
        elif isinstance(event, Progress) and state.elapsed() - self._last >= self.gap:
            self._last = state.elapsed()
            self._write(progress_record(state, event))

    def finish(self, state: RunState) -> None:
        self._new_notes(state)
        # without a word counter (a display made by hand), words are left at -1
        self._write(finish_record(state, self.word_count or (lambda board: -1), self.top))


def make_display(
    style: str,
    title: str,
    grid: Callable[[str], str],
    out: TextIO,
    word_count: Callable[[str], int] | None = None,
    every: float | None = None,
    form: Callable[[str], str] = str,
    notes: Sequence[str] = (),
    write: Callable[[str], str] = str,
) -> Consumer | None:
    """The consumer for ``--progress STYLE`` (None for ``none``); ``every``:
    seconds between plain lines or jsonl progress records (``--progress-every``);
    ``form``: a board as the results list it (its canonical form), so the
    panel draws the best board as the results' grid does, not a rotation of it;
    ``notes``: the command's notes, which jsonl writes as records (the other
    styles leave them to the command, which prints them before the run);
    ``write``: a board as people write it (``Alphabet.write``: ``[ij]``)."""
    if style == "rich":
        from rich.console import Console

        return RichDisplay(title, lambda board: grid(form(board)), Console(file=out))
    if style == "plain":
        return PlainProgress(out, PLAIN_EVERY if every is None else every, lambda board: write(form(board)))
    if style == "jsonl":
        return JsonlProgress(out, 1 / (JSONL_EVERY if every is None else every), word_count=word_count,
                             notes=notes)
    return None
