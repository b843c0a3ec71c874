"""The progress line of plan, verify, merge and report (``cli/status.py``)."""

from __future__ import annotations

import io
import sys

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
    assert capsys.readouterr().err.splitlines() == ["merge: a", "merge: b", "merge: b 2", "merge: b 3", "merge: c"]
