"""The one record schema of a run's events: the ``--out`` run file and ``--progress jsonl``.

Every record is a JSON object with ``type``, ``elapsed`` (seconds since the
segment started) and ``evaluations`` (boards scored in the segment), plus:

- ``start``: ``schema`` (this module's ``SCHEMA``), ``time`` (local ISO 8601),
  ``searcher``, ``settings`` (the run's settings; ``--resume`` reads them);
- ``improved``: ``board``, ``score``;
- ``checkpoint``: ``record`` (the searcher's own JSON state; bnb's names a class);
- ``progress``: ``stats`` (the searcher's latest figures, may be empty);
- ``note``: ``text``, what the command line prints as a note (a big proof's
  scale, what a resume repaired, a lost worker); ``--progress jsonl`` only,
  the run file keeps none (its ``finish`` record lists the run's own);
- ``finish``: ``stop_reason``, ``best_score``, ``best_board``, ``best`` (the
  best boards, canonical, as ``{board, score, words, tiles}``: ``tiles`` each
  cell's letters, ``["ij", "s", ...]``, as ``run --json`` and ``score --json``
  give them; files written before have no ``tiles``), and for a proof
  first ``proof`` (``boggle_opt.proofs.outcome.ProofOutcome``: complete or not, the
  class counts, the min score and where it came from, the statement).

Boards, buckets and part keys are written as people write them (``[ij]``,
never a tile's private symbol; the boards of the built-in local searchers'
checkpoint states too): each consumer passes its records through
``runs.written.written_record`` as it writes them.

The two consumers differ only in how often they write ``progress``: the run
file every few seconds (so a killed run knows how much budget it used),
``--progress jsonl`` a few times a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from ..searching.driver import RunState
from ..proofs.outcome import outcome
from ..searching.interface import Checkpoint, Event, Improved, Progress

SCHEMA = 1


def _base(kind: str, state: RunState) -> dict[str, Any]:
    return {"type": kind, "elapsed": round(state.elapsed(), 3), "evaluations": state.evaluations}


def start_record(state: RunState, settings: Mapping[str, Any]) -> dict[str, Any]:
    return {
        **_base("start", state),
        "schema": SCHEMA,
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "searcher": state.searcher,
        "settings": dict(settings),
    }


def event_record(event: Event, state: RunState) -> dict[str, Any] | None:
    """The record of an improvement or checkpoint (None for other events)."""
    if isinstance(event, Improved):
        return {**_base("improved", state), "board": event.board, "score": event.score}
    if isinstance(event, Checkpoint):
        return {**_base("checkpoint", state), "record": dict(event.record)}
    return None


def note_record(text: str, state: RunState) -> dict[str, Any]:
    return {**_base("note", state), "text": text}


def progress_record(state: RunState, event: Event | None = None) -> dict[str, Any]:
    stats = event.stats if isinstance(event, Progress) else state.stats
    return {**_base("progress", state), "stats": dict(stats)}


def finish_record(state: RunState, word_count: Callable[[str], int], top: int) -> dict[str, Any]:
    proof = outcome(state.stats, state.settings, state.ranked(), state.stop_reason, state.write)
    return {
        **_base("finish", state),
        # first: what a proof proved (complete or not), as the command line states it
        **({"proof": proof.record()} if proof is not None else {}),
        "stop_reason": state.stop_reason,
        "best_score": state.best_score,
        "best_board": state.best_board,
        "best": [
            {"board": b, "score": s, "words": word_count(b), "tiles": state.cells(b)}
            for b, s in state.ranked()[:top]
        ],
        **({"notes": list(state.notes)} if state.notes else {}),
    }
