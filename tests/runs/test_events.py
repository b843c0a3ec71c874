"""``--progress jsonl`` and the ``--out`` run file write one record schema (boggle_opt.runs.events)."""

from __future__ import annotations

import io
import json

from boggle_opt.cli.display import JsonlProgress
from boggle_opt.runs import events
from boggle_opt.searching.driver import Budget, RunState
from boggle_opt.searching.interface import Progress

from helpers import SMALL, records as run_records

FIELDS = {
    "start": {"schema", "time", "searcher", "settings"},
    "improved": {"board", "score"},
    "checkpoint": {"record"},
    "progress": {"stats"},
    "finish": {"stop_reason", "best_score", "best_board", "best"},
    "note": {"text"},  # --progress jsonl only
}


def test_progress_jsonl_and_run_file_share_the_schema(run_cli, tmp_path):
    out = tmp_path / "run.jsonl"
    result = run_cli("run", *SMALL, "--evals", "3000", "--progress", "jsonl", "--out", str(out))
    assert result.returncode == 0, result.stderr
    streamed = [json.loads(ln) for ln in result.stderr.splitlines()]
    filed = run_records(out)
    for records in (streamed, filed):
        assert records[0]["type"] == "start" and records[-1]["type"] == "finish"
        for r in records:
            assert set(r) == {"type", "elapsed", "evaluations"} | FIELDS[r["type"]], r
        assert records[0]["schema"] == events.SCHEMA
    # the same run seen twice: the same improvements, ending and settings
    improved = [[(r["board"], r["score"]) for r in recs if r["type"] == "improved"]
                for recs in (streamed, filed)]
    assert improved[0] == improved[1] and improved[0]
    assert streamed[-1] == filed[-1] or (
        {k: v for k, v in streamed[-1].items() if k != "elapsed"}
        == {k: v for k, v in filed[-1].items() if k != "elapsed"}
    )
    assert streamed[0]["settings"] == filed[0]["settings"]
    assert all(b["words"] > 0 for b in filed[-1]["best"])


def test_jsonl_writes_every_note_as_a_record_once():
    """A program reading ``--progress jsonl`` gets the notes the other styles
    print: the command's after ``start``, the run's as they come, each once."""
    out = io.StringIO()
    state = RunState("annealing", {}, Budget())
    # no gap between progress records: both are written, however close in time
    stream = JsonlProgress(out, per_second=float("inf"), notes=["a big proof"])
    stream.start(state)
    state.notes.append("worker 1 died; its task runs again")
    stream.event(Progress({}), state)
    stream.event(Progress({}), state)
    state.notes.append("a second note")
    stream.finish(state)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = [r["type"] for r in records]
    assert kinds == ["start", "note", "note", "progress", "progress", "note", "finish"], kinds
    texts = [r["text"] for r in records if r["type"] == "note"]
    assert texts == ["a big proof", "worker 1 died; its task runs again", "a second note"]
    assert all(set(r) == {"type", "elapsed", "evaluations"} | FIELDS[r["type"]] for r in records[:-1])
    assert records[-1]["notes"] == texts[1:]  # the finish record lists the run's own
