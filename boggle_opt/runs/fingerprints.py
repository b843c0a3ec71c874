"""The fingerprint of a run: everything that decides its answer, so a resumed
run can be refused when any of it changed (one proof must not mix two
dictionaries).

A run file's start record keeps it under ``settings["fingerprint"]``: the
word list's content, the rule's points, the size, the constraints if any
(with the dice set's faces), and a searcher's own fields (``bnb``: its buckets, min score and the kernel version), each a
short string. ``check_resume`` compares the recorded one with the current.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from importlib import resources
from typing import Any

from ..core.errors import BoggleOptError
from ..dictionary.dictionary import Dictionary
from ..searching.interface import Problem

#: what each field is, for the refusal's message
FIELDS: dict[str, str] = {
    "wordlist": "the word list's content",
    "rule": "the scoring rule's points",
    "size": "the board size",
    "buckets": "the letter buckets",
    "min_score": "the min score",
    "kernel": "the branch-and-bound kernel version",
    "constraints": "the constraints (--fix, --word, --dice and the dice's faces)",
}


class FingerprintError(BoggleOptError):
    """A resumed run whose answer-deciding settings differ from the run file's."""


def _digest(*parts: bytes) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:16]


def dictionary_fields(dictionary: Dictionary) -> dict[str, str]:
    """The word list by content (its playable words, whatever the file's name,
    order or comments) and the rule by the points it gives those words."""
    return {
        "wordlist": _digest(*dictionary.keys),
        "rule": f"{dictionary.rule.name}:" + _digest(b",".join(b"%d" % p for p in dictionary.points)),
    }


def kernel_version() -> str:
    """A digest of the compiled core's source (every module of
    ``boggle_opt.core``): any change to it may change which boards a class
    yields, so a proof is not continued across one."""
    sources = sorted((f for f in resources.files("boggle_opt.core").iterdir() if f.name.endswith(".py")),
                     key=lambda f: f.name)
    if not any(f.name == "branch.py" for f in sources):  # an install without sources: its version stands in
        from .._version import __version__

        return f"boggle-opt {__version__}"
    return _digest(*(f.name.encode() + b"\0" + f.read_bytes() for f in sources))


def fingerprint(problem: Problem, searcher: Any) -> dict[str, str]:
    """The run's fingerprint: the dictionary's and size's fields, and the
    searcher's own (its ``fingerprint(problem)`` method, if it has one)."""
    fields = {**dictionary_fields(problem.dictionary), "size": problem.geometry.size}
    constraints = problem.constraints
    if constraints.active:
        # a resumed run reads them back from its file; the dice set's faces
        # come from a plugin and may have changed under the same name
        dice = constraints.dice
        fields["constraints"] = constraints.describe() + (f" {_digest(*(d.encode() for d in dice.dice))}" if dice else "")
    own = getattr(searcher, "fingerprint", None)
    if callable(own):
        fields.update({str(k): str(v) for k, v in own(problem).items()})
    return fields


def recorded_options(searcher: Any, options: Mapping[str, object], recorded: object) -> dict[str, object]:
    """A run file's options as the run used them: a searcher whose defaults
    have changed since (its ``options_from_fingerprint`` class method, if it
    has one) fills in from the recorded fingerprint what an older run left to
    the defaults, so resuming or verifying that run does not use new ones."""
    own = getattr(searcher, "options_from_fingerprint", None)
    if callable(own) and isinstance(recorded, Mapping):
        return dict(own(options, recorded))
    return dict(options)


def check_resume(recorded: Mapping[str, Any] | None, current: Mapping[str, str]) -> None:
    """Refuse (one line, naming the field) a resume whose fingerprint differs."""
    if not isinstance(recorded, Mapping):
        raise FingerprintError(
            "--resume refused: the run file records no fingerprint of what decides its answer "
            "(written by an older boggle-opt); start a new run"
        )
    order = list(FIELDS)
    for key in sorted(set(recorded) | set(current), key=lambda k: (order.index(k) if k in FIELDS else len(order), k)):
        then, now = recorded.get(key), current.get(key)
        if then != now:
            what = FIELDS.get(key, key)
            raise FingerprintError(
                f"--resume refused: {what} changed since the run file was started "
                f"({key}: {then!r} then, {now!r} now); one proof must not mix two; "
                "restore it or start a new run"
            )
