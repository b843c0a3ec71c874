"""What verify spends besides reading: the defaults of its re-solving (the
chance each class record has of being re-solved whole, and the CPU spent
first), the basin hops' share, and the one small task solved again without
the compiled kernel, by brute force or by the kernel's own source run as
plain Python. Every figure here is verify's own: none is read from a record.
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import random
import sys
import tempfile
import types
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from ..defaults import VERIFY_BUDGET, VERIFY_CHANCE
from ..proofs.board_classes import letter_mask
from ..proofs.class_tasks import written_part
from .proof_facts import Hole, ProofFacts, VerifyError
from .witness import Record, in_sets, narrowed

#: a task with at most this many boards is re-solved by scoring every one of them
BRUTE_MAX = 200_000
#: the re-solving methods, as the summary names them
BRUTE = "brute force"
PURE = "the kernel's source as plain Python"
#: by default each class record has at least this chance of being re-solved
#: whole, and the lowest draws are re-solved for this many CPU seconds first
DEFAULT_CHANCE = VERIFY_CHANCE
RECHECK_FLOOR = VERIFY_BUDGET
#: the kernel's plain-Python check gets this share of the re-solving's CPU (at least PURE_FLOOR s)
PURE_SHARE = 0.3
PURE_FLOOR = 1.0
#: plain Python runs the kernel about this many times slower than the compiled build
PURE_SLOWDOWN = 60.0
#: the basin hops get this share of the re-solving's budget, from HOP_FLOOR to HOP_MAX seconds ...
HOP_SHARE = 0.25
HOP_MAX = 60.0
HOP_FLOOR = 1.0
#: ... as a count of hops, not a time limit, so that a seed repeats them
#: exactly on any machine: about what one CPU second makes on a 4x4 proof
#: (ENABLE2K; a 3x4 hop costs about half as much, a 3x3 one a quarter)
HOPS_PER_SECOND = 40


def hop_seconds(resolving: float) -> float:
    """The basin hops' share of ``resolving`` seconds of re-solving."""
    return min(HOP_MAX, max(HOP_FLOOR, HOP_SHARE * resolving))


def hop_count(budget: float) -> int:
    """How many basin hops verify makes beside a re-solving budget of
    ``budget`` CPU seconds (``--budget``): fixed by the budget alone, never
    by the machine's speed (a catch by a hop repeats with the same seed)."""
    return round(HOPS_PER_SECOND * hop_seconds(budget))


def default_cost(cpu: float) -> tuple[float, float]:
    """What verify's default check costs, about, for a proof of ``cpu``
    seconds of classes: the re-solving's CPU and the basin hops' (at a 4x4
    proof's cost a hop)."""
    resolving = max(RECHECK_FLOOR, DEFAULT_CHANCE * cpu)
    return resolving, hop_count(RECHECK_FLOOR) / HOPS_PER_SECOND


def load_pure_core(tmp: Path) -> types.ModuleType | None:
    """The core's source (``boggle_opt/core/*.py``) loaded as plain Python under
    another package name, beside the compiled build; None if this install
    ships no sources."""
    sources = [f for f in resources.files("boggle_opt.core").iterdir() if f.name.endswith(".py")]
    if not any(f.name == "branch.py" for f in sources):
        return None
    dest = tmp / "boggle_opt_verify_core"
    dest.mkdir()
    for f in sources:
        (dest / f.name).write_bytes(f.read_bytes())
    name = "boggle_opt_verify_core"
    spec = importlib.util.spec_from_file_location(name, dest / "__init__.py", submodule_search_locations=[str(dest)])
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def kernel_check(proof: ProofFacts, solved: list[tuple[Record, float]], min_score: int, budget: float,
                 rng: random.Random) -> tuple[str, str]:
    """One small task solved again without the compiled kernel: a record
    drawn at random from those re-solved (``solved``: each with the CPU its
    re-solving took here), whole by scoring every board if it has few, else
    by the kernel's source as plain Python (a piece of it, drawn at random,
    cut down to about ``budget`` seconds); the method and what it solved."""
    geometry = proof.geometry
    # a record with boards if there is one: a check that finds nothing proves less
    pool = [item for item in solved if item[0].boards] or solved
    record, cpu = pool[rng.randrange(len(pool))]
    n_boards = 1
    for s in record.sets:
        n_boards *= len(s)
    if n_boards <= BRUTE_MAX:
        method = BRUTE
        sets, part = record.sets, record.part
        found = {geometry.canonical(b) for b in map("".join, itertools.product(*sets))
                 if proof.scorer.score(b) >= min_score}
    else:
        method = PURE
        factor = cpu * PURE_SLOWDOWN / budget
        part, sets = (record.part, record.sets) if factor <= 1 else narrowed(record, factor, geometry, rng,
                                                                            proof.symbols)
        with tempfile.TemporaryDirectory() as tmp:
            try:
                solve = _pure_solver(proof, Path(tmp), min_score)
                found = {geometry.canonical(b) for b in solve(sets)}
            finally:
                sys.modules.pop("boggle_opt_verify_core", None)
    want = {b for b in record.boards if in_sets(b, sets, geometry)}
    label = record.label if part == record.part else f"{record.label}, its piece {written_part(part, record.write)}"
    if found != want:
        missing = sorted(found - want)
        detail = (f"board {record.write(missing[0])} is not in the record" if missing
                  else f"the recorded board {record.write(sorted(want - found)[0])} is not found")
        raise Hole(f"recheck: {label} re-solved by {method} gives {len(found)} boards >= {min_score}, "
                   f"the record {len(want)}: {detail}")
    return method, label


def _pure_solver(proof: ProofFacts, tmp: Path, min_score: int) -> Callable[[list[str]], list[str]]:
    core = load_pure_core(tmp)
    if core is None:
        raise VerifyError(
            "--recheck: this install has no core sources to run as plain Python, and a sampled "
            "class is too big to brute force; use --recheck 0"
        )
    trie_mod = importlib.import_module(f"{core.__name__}.trie")
    branch = importlib.import_module(f"{core.__name__}.branch")
    geo = importlib.import_module(f"{core.__name__}.geometry")
    scorer_mod = importlib.import_module(f"{core.__name__}.scorer")
    d = proof.dictionary
    # the word list's alphabet, and its words that tiles spell in several ways, as the dictionary built them
    trie = trie_mod.PackedTrie(d.keys, d.points, symbols=d.trie.symbols, spellings=list(d.trie.spellings),
                               aliases=d.trie.aliases)
    g = geo.Geometry(proof.geometry.cols, proof.geometry.rows)
    solver = branch.ClassSolver(trie, g)
    scorer = scorer_mod.Scorer(trie, g)
    switch_pct, switch_score = proof.bnb.switch_settings(proof.geometry)

    def solve(sets: list[str]) -> list[str]:
        masks = [letter_mask(s, proof.symbols) for s in sets]
        candidates = solver.solve(masks, min_score, switch_pct, switch_score, 0.0)
        return [b for b in candidates if scorer.score(b) >= min_score]

    return solve
