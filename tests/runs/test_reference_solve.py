"""verify's check that shares no code with the kernel but the scorer
(``runs.reference_solve``): the max/no-mark bound's branch and bound finds
what brute force finds in every alphabet, passes correct proofs, and catches
a kernel that lost a word from its trees, which the kernel's own re-solving
agrees with (issue 76).
"""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path
from typing import Any

import pytest

import boggle_opt.runs.reference_solve as reference_solve
from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary, to_key
from boggle_opt.proofs.class_tasks import ClassContext
from boggle_opt.registry.registries import Registries
from boggle_opt.runs.runfile import run_alphabet
from boggle_opt.runs.written import stored_record
from boggle_opt.runs.lock import run_lock
from boggle_opt.runs.proof_facts import Hole
from boggle_opt.runs.proof_facts import ProofFacts
from boggle_opt.runs.reference_solve import Drawn, MaxNoMark, ReferenceChecked, reference_check
from boggle_opt.runs.run import RunSpec
from boggle_opt.runs.runfile import RunFileWriter
from boggle_opt.runs.verify import verify_runs
from helpers import records as run_records

#: made-up lists: English, english-dl's ``inerts`` (6 letters, 4 tiles), Dutch's [ij] beside i-j
ENGLISH = ["tea", "eat", "ate", "seat", "east", "eats", "sate", "teas", "rest", "tears", "stare", "rates",
           "aster", "star", "rats", "tsar", "arts"]
ENGLISH_DL = ["inerts", "insert", "inters", "sinter", "inert", "inter", "serin", "ers", "erst", "ins", "ser",
              "sin", "tin", "tins", "nest", "rent", "stern"]
DUTCH = ["blije", "bijl", "lijst", "ijs", "wijs", "rijst", "bij", "lij", "ijl", "lijn", "wijn", "stijl", "blij",
         "teil", "lente", "beste", "best", "lest"]


def _dictionary(registries: Registries, words: list[str], language: str) -> Dictionary:
    return Dictionary("made-up", words, registries.rules.get("standard"),
                      language=registries.languages.get(language))


@pytest.mark.parametrize(("language", "words", "size"), [
    ("english", ENGLISH, (2, 2)), ("english-dl", ENGLISH_DL, (2, 2)), ("dutch", DUTCH, (2, 2)),
    ("english", ENGLISH, (3, 2)), ("english-dl", ENGLISH_DL, (3, 2)), ("dutch", DUTCH, (3, 2)),
])
def test_max_no_mark_finds_what_brute_force_finds(registries: Registries, language: str, words: list[str],
                                                 size: tuple[int, int]) -> None:
    """Random small classes (each cell a few tiles of the words' own, multi-letter
    tiles among them) and min scores: the boards >= the min score are those that
    scoring every board finds."""
    d = _dictionary(registries, words, language)
    geometry = Geometry(*size)
    scorer = d.scorer(geometry)
    symbols = d.alphabet.symbols
    # the tiles the words are spelled with, every way (a key's byte is its tile's code + 97)
    used = sorted({symbols[b - 97] for keys in d.language.keyed(words).values() for key in keys for b in key})
    rng = random.Random(f"{language}{size}")
    for _ in range(12):
        sets = ["".join(rng.sample(used, rng.randint(1, min(3, len(used))))) for _ in range(geometry.n)]
        brute = {b: scorer.score(b) for b in map("".join, itertools.product(*sets))}
        for min_score in sorted({max(1, s) for s in brute.values()})[-3:]:
            solver = MaxNoMark(d.trie, geometry, scorer, min_score)
            for board, score in brute.items():  # the bound of a single board is at least its score
                if score >= min_score:
                    assert solver.bound([(solver.code[c],) for c in board]) >= score
            found = solver.solve([tuple(solver.code[c] for c in s) for s in sets], [0])
            assert found == {geometry.canonical(b) for b, s in brute.items() if s >= min_score}, (sets, min_score)


def test_it_imports_nothing_of_the_kernel() -> None:
    """Only the trie's layout and the geometry from the package: not the tree
    builder, the branch and bound or the trees (nor what imports them)."""
    tree = ast.parse(Path(reference_solve.__file__).read_text(encoding="utf-8"))
    ours = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.level}
    assert ours == {"core.geometry", "core.trie"}, ours
    assert not any(isinstance(node, ast.Import) and any(a.name.startswith("boggle_opt") for a in node.names)
                   for node in ast.walk(tree))


def _prove(tmp_path: Path, registries: Registries, words: list[str], language: str, size: str,
           min_score: int) -> Path:
    """A bnb proof of ``words`` made in this process (one job: the tasks run here)."""
    wordlist = tmp_path / "words.txt"
    wordlist.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = tmp_path / "proof.jsonl"
    spec = RunSpec.build("bnb", registries, options={"min-score": min_score}, size=size, wordlist=str(wordlist),
                         seed=1, jobs=1, language=language)
    run = spec.prepare(registries)
    with run_lock(str(out)):
        run.driver([RunFileWriter(str(out), run.record, run.word_count)]).run()
    return out


def _solve_records(proof: Path, registries: Registries, seed: int, budget: float) -> ReferenceChecked:
    """The proof's solved class records, in file order, checked without the kernel."""
    # a run file writes tiles as people do ([ij]); the check works in symbols, as verify reads them
    written = run_records(proof)
    alphabet = run_alphabet(written[0]["settings"], registries)
    records = [dict(stored_record(r, alphabet)) for r in written]
    facts = ProofFacts(records[0]["settings"], registries, None, str(proof))
    cps = [r["record"] for r in records if r.get("type") == "checkpoint"]
    (min_score,) = {cp["min_score"] for cp in cps}
    drawn = [Drawn(f"class {cp['class']}", facts.letters(cp["class"], cp.get("part", ""), str(proof)),
                   frozenset(b for b, _ in cp["boards"])) for cp in cps if "class" in cp and "boards" in cp]
    return reference_check(facts.dictionary.trie, facts.geometry, facts.scorer, min_score, drawn, len(drawn),
                           budget, seed, facts.dictionary.alphabet.write)


@pytest.mark.parametrize(("language", "words", "size", "min_score", "finds"), [
    ("english", ENGLISH, "2x2", 6, True), ("english-dl", ENGLISH_DL, "2x2", 23, True),
    ("dutch", DUTCH, "2x2", 6, True), ("dutch", DUTCH, "2x3", 10, False),
])
def test_a_correct_proof_passes_in_every_alphabet(
        tmp_path: Path, registries: Registries, language: str, words: list[str], size: str, min_score: int,
        finds: bool) -> None:
    """English, english-dl's ``inerts`` (6 letters in 4 tiles) and Dutch's
    ``[ij]``: the records solved without the kernel agree with the kernel's
    (whole, or in pieces on 2x3; boards found on 2x2); the same seed solves
    the same pieces."""
    proof = _prove(tmp_path, registries, words, language, size, min_score)
    checked = _solve_records(proof, registries, 3, 0.5)
    assert checked.records >= reference_solve.RECORDS and checked.seed == 3
    assert checked.pieces >= checked.records and checked.scored >= checked.found
    assert checked.found >= 1 if finds else checked.least_share < 1
    again = _solve_records(proof, registries, 3, 0.5)
    assert (again.records, again.pieces, again.boards, again.steps, again.least_share) == (
        checked.records, checked.pieces, checked.boards, checked.steps, checked.least_share)


def test_verify_says_what_was_solved_without_the_kernel_and_what_it_was_worth(
        tmp_path: Path, registries: Registries) -> None:
    proof = _prove(tmp_path, registries, ENGLISH_DL, "english-dl", "2x2", 23)
    result = verify_runs([str(proof)], registries, recheck=4, seed=3, budget=0.5)
    checked = result.reference
    assert checked.records == 4 and checked.drawn_from == result.records and checked.chance == 4 / result.records
    details = result.details()
    assert details[-2] == checked.details() and details[-1] == f"what the kernel-independent solve was worth: " \
        f"{checked.worth()}"
    assert details[-2].startswith(
        "solved without the kernel (the paper's max/no-mark bound, split cell by cell, every board left scored by "
        f"the scorer; nothing of the kernel but the scorer): 4 of the {result.records:,} class records, drawn at "
        "random (seed 3)"), details[-2]
    assert details[-1].startswith(
        "what the kernel-independent solve was worth: each class record had at least a "
        f"{reference_solve.percent(4 / result.records)} chance of being solved without the kernel (seed 3)"), \
        details[-1]
    # without re-solving (--recheck 0), nothing: and said so
    assert ReferenceChecked().details() == "no class record solved without the kernel (--recheck 0)"
    assert ReferenceChecked().worth().startswith("nothing: no class record was solved without the kernel")


#: a word on every board at or above the min score (6 letters, 3 points; the others give a 2x3 board 2 at most)
LOST = "planet"
FAULT_WORDS = [LOST, "mud", "fig"]


def _lose_a_word(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel's trees built from a trie without ``LOST`` (the scorer keeps it)."""
    real = ClassContext.__init__
    lost = to_key(LOST)

    def without(self: ClassContext, keys: list[bytes], points: list[int], *args: Any, **kwargs: Any) -> None:
        kept = [(k, p) for k, p in zip(keys, points) if k != lost]
        assert len(kept) == len(keys) - 1
        real(self, [k for k, _ in kept], [p for _, p in kept], *args, **kwargs)

    monkeypatch.setattr(ClassContext, "__init__", without)


def test_a_word_lost_from_the_kernels_trees_is_caught(
        tmp_path: Path, registries: Registries, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel fault: its trees lost ``planet``, so the proof at 3 records no
    board, consistently. Every class re-solved by the same kernel (--recheck
    all) agrees, and the climbs and the closure find nothing; the solve
    without the kernel names a board of ``planet`` and its seed."""
    _lose_a_word(monkeypatch)
    proof = _prove(tmp_path, registries, FAULT_WORDS, "english", "2x3", 3)
    assert not any(r["record"].get("boards") for r in run_records(proof) if r.get("type") == "checkpoint")
    with pytest.raises(Hole) as hole:  # steps for every class record (each a few hundred)
        verify_runs([str(proof)], registries, recheck=None, seed=7, budget=30)
    text = str(hole.value)
    # raised after every class record was re-solved by the kernel, all agreeing
    assert "solved without the kernel (max/no-mark bound, seed 7; --seed 7 repeats it)" in text, text
    board = text.split(": board ")[1].split(" ")[0]
    assert sorted(board) == sorted(LOST) and "(3 points, >= the min score 3), which the record does not hold" in text
    monkeypatch.undo()  # the kernel mended: its own re-solving sees the fault too
    with pytest.raises(Hole, match="solved again gives"):
        verify_runs([str(proof)], registries, recheck=None, seed=7, budget=0.5)
