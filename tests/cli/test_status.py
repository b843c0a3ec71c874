"""The progress line of plan, verify, merge and report (``cli/status.py``)."""

from __future__ import annotations

import io
import sys
import time
from collections.abc import Callable

import pytest

from boggle_opt.cli.status import StatusLine


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_line_is_rewritten_in_place_and_taken_away(monkeypatch: pytest.MonkeyPatch) -> None:
    tty = _Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    monkeypatch.setenv("COLUMNS", "30")
    status = StatusLine("verify", clock=lambda: 0.0)
    status.show("reading shard-1.jsonl.gz (1 of 4 files)")  # cut to the terminal: a wrapped line stays
    status.show("reading shard-1.jsonl.gz (1 of 4 files)", True)  # the same: nothing written
    status.show("climbs")
    status.show("climbs", True)  # the same: nothing written
    status.clear()
    first = "verify: reading shard-1.jsonl"  # 29 columns
    assert tty.getvalue() == ("\r" + first + "\rverify: climbs" + " " * (len(first) - len("verify: climbs"))
                              + "\r" + " " * len("verify: climbs") + "\r")


def test_off_a_terminal_steps_at_once_updates_every_few_seconds(capsys: pytest.CaptureFixture[str]) -> None:
    now = [0.0]
    status = StatusLine("merge", clock=lambda: now[0])
    for t, text, update in [(0, "a", False), (1, "a 1", True), (2, "b", False), (3, "b 1", True),
                            (7, "b 2", True), (8, "b 3", True), (67, "b 3", True), (68, "c", False)]:
        now[0] = float(t)
        status.show(text, update)
    status.clear()  # off a terminal the lines stay
    assert capsys.readouterr().err.splitlines() == ["merge: a", "merge: b", "merge: b 2",
                                                      "merge: b 3 (unchanged for 59 s)", "merge: c"]


def _until(done: Callable[[], bool]) -> bool:
    """Wait for the status line's thread to do it: a generous ceiling, as a
    busy machine may leave the thread waiting for its turn for seconds."""
    stop = time.monotonic() + 300
    while not done():
        if time.monotonic() > stop:
            return False
        time.sleep(0.005)
    return True


def test_a_line_that_stands_still_says_for_how_long_off_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    """A one-job plan solves a class in its own process for minutes: a log
    still gets a line a minute, which says how long the count has stood."""
    now = [0.0]
    status = StatusLine("plan", clock=lambda: now[0], tick=0.005)
    status.show("3 of 40 classes solved")
    now[0] = 30.0  # under a minute since the last line: nothing yet
    time.sleep(0.05)
    assert capsys.readouterr().err == "plan: 3 of 40 classes solved\n"
    now[0] = 75.0
    assert _until(lambda: capsys.readouterr().err == "plan: 3 of 40 classes solved (unchanged for 75 s)\n")
    now[0] = 200.0
    status.keep()
    time.sleep(0.05)
    assert capsys.readouterr().err == ""  # nothing once the line is left standing
    now[0] = 201.0
    status.show("4 of 40 classes solved")  # the count moved: a new line, no age
    status.keep()
    assert capsys.readouterr().err == "plan: 4 of 40 classes solved\n"


def test_a_line_that_stands_still_counts_its_age_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    tty = _Terminal()
    monkeypatch.setattr(sys, "stderr", tty)
    monkeypatch.setenv("COLUMNS", "80")
    now = [0.0]
    status = StatusLine("verify", clock=lambda: now[0], tick=0.005)
    status.show("re-solving 12 classes: 3 done, 40 s")
    now[0] = 9.0
    time.sleep(0.05)
    assert "unchanged" not in tty.getvalue()  # under STILL seconds: no age
    now[0] = 12.0
    assert _until(lambda: tty.getvalue().endswith("(unchanged for 12 s)"))
    now[0] = 13.0
    assert _until(lambda: tty.getvalue().endswith("(unchanged for 13 s)"))
    status.clear()
    written = tty.getvalue()
    now[0] = 20.0
    time.sleep(0.05)
    assert tty.getvalue() == written  # taken away: nothing written after
    assert written.endswith("\r" + " " * len("verify: re-solving 12 classes: 3 done, 40 s (unchanged for 13 s)") + "\r")
