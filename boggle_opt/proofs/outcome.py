"""What a proof (``bnb``) proved, however it stopped: the statement a run ends with.

``bnb`` puts its counts in its ``Progress`` stats (the keys below) and yields a
fresh set as it stops; ``outcome`` reads them with the run's settings and the
boards found, and says whether the proof is complete and, if it is, the one
line a researcher can quote. The command line prints it, the run file's and
``--progress jsonl``'s finish record carry it (``proof``), the report leads
its proof section with it and the live panel shows the same counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Union

from ..dictionary.rules import letters_note

#: a ``Progress`` stat's value (``searching.interface.Stat``; proofs/ lies below searching/)
Stat = Union[int, float, str]

#: exit status of a proof that stopped before it covered every class (budget,
#: failed tasks): not 1 (an error), 2 (bad usage) or 128 + a signal
INCOMPLETE = 3

#: the stats keys bnb reports its counts under (``Progress.stats``)
DONE = "classes done"
TOTAL = "classes total"
RATE = "classes/s"
IN_FLIGHT = "tasks in flight"
#: when the oldest task in flight was submitted (``time.time()``; 0.0: none)
OLDEST = "oldest task since"
FAILED = "failed"
MIN_SCORE = "min score"
#: "given" (``-o min-score``) or "climb" (the warm-up climb's best board)
MIN_FROM = "min score from"
#: while the warm-up climb chooses the min score: its best so far (-1: none yet)
CLIMB_BEST = "warm-up climb best"
GIVEN, CLIMB = "given", "climb"


def duration(seconds: float) -> str:
    """A proof's time (its time left, a task's age) at an ETA's useful
    precision: ``42 s``, ``17 min``, ``5.3 h``, ``331 days``."""
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:,.0f} days"


def is_proof(stats: Mapping[str, Stat]) -> bool:
    """Whether a searcher's stats are a proof's counts."""
    return TOTAL in stats


def _int(stats: Mapping[str, Stat], key: str, default: int = 0) -> int:
    value = stats.get(key, default)
    return value if isinstance(value, int) else default


@dataclass(frozen=True)
class ProofOutcome:
    """A proof's result, as the finish record's ``proof`` object holds it."""

    complete: bool
    classes_done: int
    classes_total: int
    failed: int
    in_flight: int
    #: None: stopped before the warm-up climb chose it
    min_score: int | None
    min_score_from: str
    #: distinct boards (up to symmetry) found scoring >= the min score
    boards: int
    best_board: str
    best_score: int
    stop_reason: str
    statement: str

    def record(self) -> dict[str, Any]:
        return asdict(self)

    def min_score_text(self) -> str:
        if self.min_score is None:
            return "min score not chosen yet (stopped during the warm-up climb)"
        source = ("chosen by the warm-up climb: its best board's score" if self.min_score_from == CLIMB
                  else "given as the min-score option")
        return f"min score {self.min_score:,} ({source})"

    def counts_text(self) -> str:
        return (f"{self.classes_done:,} of {self.classes_total:,} classes done, "
                f"{self.failed:,} failed, {self.in_flight:,} in flight")

    def lines(self) -> list[str]:
        """The proof's lines for the results: how far it got, then the statement."""
        state = "complete" if self.complete else "INCOMPLETE"
        return [f"# proof {state}: {self.counts_text()}; {self.min_score_text()}", self.statement]


def outcome(
    stats: Mapping[str, Stat], settings: Mapping[str, Any], ranked: list[tuple[str, int]],
    stop_reason: str, write: Callable[[str], str] = str,
) -> ProofOutcome | None:
    """The outcome of a proof from its last stats, the run's settings and the
    boards found (best first); None if ``stats`` are not a proof's. ``write``:
    a board as people write it (``Alphabet.write``: ``[ij]``), as the
    statement and ``best_board`` name it."""
    if not is_proof(stats):
        return None
    done, total, failed = _int(stats, DONE), _int(stats, TOTAL), _int(stats, FAILED)
    min_score: int | None = _int(stats, MIN_SCORE, -1)
    if min_score is not None and min_score < 1:
        min_score = None
    options = settings.get("options")
    shard = options.get("shard") if isinstance(options, Mapping) else None
    # a shard with no classes (more shards than classes: a job array's spare tasks) is done
    complete = min_score is not None and (total > 0 or bool(shard)) and done == total and failed == 0
    at_least = [(b, s) for b, s in ranked if min_score is not None and s >= min_score]
    at_least = [(write(b), s) for b, s in at_least]
    best_board, best_score = at_least[0] if at_least else ("", -1)
    size = settings.get("size", "?")
    wordlist = settings.get("wordlist_label") or settings.get("wordlist", "?")
    rule = f"{settings.get('rule', '?')} rule{letters_note(settings.get('min_letters'))}"
    if not complete:
        what = f"shard {shard} of the proof" if shard else "the proof"
        statement = (f"not proved: {what} stopped ({stop_reason}) with "
                     f"{total - done:,} of {total:,} classes not done")
    elif shard:
        # one shard proves nothing alone: what it did, and what the proof needs
        n = len(at_least)
        best = f"; its best {best_board} ({best_score:,})" if at_least else ""
        statement = (f"shard {shard} done: {total:,} of its {total:,} classes, {n:,} board{'s' * (n != 1)} "
                     f">= {min_score:,}{best}; the proof needs all {str(shard).split('/')[-1]} shards: "
                     f"`boggle-opt verify` their run files together")
    elif at_least:
        n = len(at_least)
        tied = [b for b, s in at_least if s == best_score]
        if len(tied) == 1:
            best = f"{best_board} ({best_score:,}) is the best {size} board"
        else:  # boards different up to symmetry with the same top score
            named = ", ".join(tied[:2]) + (f" and {len(tied) - 2:,} more" if len(tied) > 2 else "")
            best = f"{named} ({best_score:,}) are the {len(tied):,} best {size} boards"
        statement = (f"proved: {best} for {wordlist} under the {rule}; "
                     f"{n:,} board{'s' * (n != 1)} score{'s' * (n == 1)} >= {min_score:,}")
    else:
        statement = f"proved: no {size} board scores >= {min_score:,} for {wordlist} under the {rule}"
    return ProofOutcome(
        complete=complete, classes_done=done, classes_total=total, failed=failed,
        in_flight=_int(stats, IN_FLIGHT), min_score=min_score,
        min_score_from=str(stats.get(MIN_FROM, GIVEN)), boards=len(at_least),
        best_board=best_board, best_score=best_score, stop_reason=stop_reason, statement=statement,
    )


def resume_command(path: str) -> str:
    """The command that finishes the proof recorded in ``path``."""
    import shlex

    return f"boggle-opt run --resume {shlex.quote(path)}"
