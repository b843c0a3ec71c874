"""One run file from the verified shards of a proof (``boggle-opt merge``).

Nothing is merged that ``verify_runs`` did not pass: the files are verified
together first. The merged file is an ordinary run file of the whole proof:
the first shard's settings without its shard, one setup record, every class
and split record of every shard, an improvement for each board, and a
finish record stating the proof, so ``verify`` and ``report`` read it as they
read a single run. It is created new (never over an existing file), whole
or not at all, gzip-compressed if its name ends in ``.gz``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Sequence
from typing import Any

from ..core.errors import BoggleOptError
from ..proofs import outcome as proof
from ..registry.registries import Registries
from .events import SCHEMA
from .files import PathArg, check_paths, write_new
from ..core.alphabet import Alphabet
from .runfile import run_alphabet
from .verify import Say, Verified, _lines, _start, recorded_worker_memory, verify_runs
from .written import written_record


def _records(paths: Sequence[str], alphabet: Alphabet) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each file's records, their boards in ``alphabet``'s symbols (either written form)."""
    for path in paths:
        for _, rec in _lines(path, alphabet):
            yield path, rec


def merge_runs(paths: Sequence[str], out: str, registries: Registries, recheck: int | None = -1,
               seed: int | None = None, progress: Say | None = None, jobs: int = 1,
               chance: float | None = None) -> Verified:
    """Verify the run files ``paths`` together, then write them as one to
    ``out``; ``progress`` hears the verify's and ``jobs`` re-solve
    (``verify_runs``)."""
    # before the verify, which can take hours: a name that cannot be written is said now
    check_paths([*(PathArg("RUNFILE", p, run_file=True) for p in paths), PathArg("--out", out, written=True, new=True)])
    # all the shards: one file of some of them would read as a whole proof
    result = verify_runs(paths, registries, recheck=recheck, seed=seed, progress=progress, jobs=jobs,
                         chance=chance, whole=True)
    first: dict[str, Any] | None = None
    setup: dict[str, Any] | None = None
    body: list[dict[str, Any]] = []
    elapsed = 0.0
    alphabet = run_alphabet(_start(paths[0])["settings"], registries)
    for _, rec in _records(paths, alphabet):
        kind = rec.get("type")
        if kind == "start" and first is None:
            first = rec
        if isinstance(rec.get("elapsed"), (int, float)):
            elapsed = max(elapsed, float(rec["elapsed"]))
        if kind != "checkpoint" or rec["record"].get("kind") != "bnb":
            continue
        cp = dict(rec["record"])
        if cp.get("setup"):
            if setup is None:
                cp.pop("shard", None)
                setup = {**rec, "record": cp}
            continue
        body.append(rec)
    assert first is not None and setup is not None  # verified: each file starts so
    settings = dict(first["settings"])
    options = dict(settings.get("options") or {})
    merged_from = options.pop("shard", None)
    settings["options"] = options
    settings["merged_from"] = {"files": len(paths), "shards": result.shards or None,
                               "of": str(merged_from) if merged_from else None}
    # shards run at different worker memories: the merged file's options hold
    # the first's, so it says so (verify then compares no root bound of it)
    memories = sorted({recorded_worker_memory(_start(p)["settings"]) or 0.0 for p in paths})
    if len(memories) > 1:
        settings["merged_from"]["worker_memories"] = memories
    ranked = result.best
    stats: dict[str, int | float | str] = {proof.DONE: result.classes, proof.TOTAL: result.classes, proof.FAILED: 0, proof.IN_FLIGHT: 0,
             proof.MIN_SCORE: result.min_score,
             proof.MIN_FROM: proof.GIVEN if "option" in result.min_score_from else proof.CLIMB}
    made = proof.outcome(stats, settings, ranked, "merged from verified run files", result.written)
    assert made is not None
    lines: list[dict[str, Any]] = [
        {"type": "start", "elapsed": 0.0, "evaluations": 0, "schema": SCHEMA,
         "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "searcher": "bnb", "settings": settings},
        setup, *body,
        *({"type": "improved", "elapsed": elapsed, "evaluations": 0, "board": b, "score": s} for b, s in ranked),
        {"type": "finish", "elapsed": elapsed, "evaluations": 0, "proof": made.record(),
         "stop_reason": made.stop_reason, "best_score": ranked[0][1] if ranked else -1,
         "best_board": ranked[0][0] if ranked else "",
         "best": [{"board": b, "score": s, "tiles": alphabet.cells(b)} for b, s in ranked[:50]]},
    ]
    # boards, buckets and parts as people write them, as a run writes its file
    write = str if alphabet.plain else alphabet.write
    write_new(out, (json.dumps(written_record(line, write)) + "\n" for line in lines))
    return result
