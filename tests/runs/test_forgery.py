"""Forged run files: ``verify`` and ``--resume`` never accept a board set
that is not the truth.

Two small proofs are made once (2x3 on the embedded list's words of up to 6
tiles, all a 2x3 board can spell; 3x3 on a word list
of the embedded list's short words, so the whole space solves in seconds);
their honest boards are the truth. Each test forges a copy: a board dropped,
a score altered, a record duplicated, inserted or rewritten, consistently
across the records that mention it. The property tests draw forgeries at
random (``BOGGLE_OPT_FUZZ=ci`` or ``long`` draws more).
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.core.geometry import Geometry
from boggle_opt.registry.registries import Registries
from boggle_opt.runs.proof_facts import Hole, VerifyError
from boggle_opt.runs.verify import verify_runs
from helpers import records as run_records, short_words, unwrapped

Run = Callable[..., subprocess.CompletedProcess[str]]
Records = list[dict[str, Any]]
FUZZ = os.environ.get("BOGGLE_OPT_FUZZ", "")
#: forgeries drawn per space (a 3x3 one is re-solved whole: about 10 s each)
DRAWS = {"2x3": {"ci": 30, "long": 400}.get(FUZZ, 8), "3x3": {"ci": 4, "long": 100}.get(FUZZ, 2)}


def _proof(folder: Path, run_cli: Run, words: list[str], size: str, min_score: str) -> Path:
    path = folder / "words.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    out = folder / "proof.jsonl"
    done = run_cli("run", "--searcher", "bnb", "--size", size, "--wordlist", str(path),
                   "-o", "min-score", min_score, "--progress", "none", "--out", str(out))
    assert done.returncode == 0 and "proved:" in done.stdout, done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def proof23(tmp_path_factory: pytest.TempPathFactory, registries: Registries, run_cli: Run) -> Path:
    # the words a 2x3 board can spell: the whole list's proof, a sixth of the dictionary each verify rebuilds
    return _proof(tmp_path_factory.mktemp("p23"), run_cli, short_words(registries, 6), "2x3", "110")


@pytest.fixture(scope="module")
def proof33(tmp_path_factory: pytest.TempPathFactory, registries: Registries, run_cli: Run) -> Path:
    # every 40th short word: the whole space solves in seconds, 122 boards >= 18
    words = [w for w in registries.wordlists.get("embedded").load() if len(w) <= 5][::40]
    return _proof(tmp_path_factory.mktemp("p33"), run_cli, words, "3x3", "18")


def _write(path: Path, records: Records) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _cp(r: dict[str, Any]) -> dict[str, Any]:
    return r["record"] if r.get("type") == "checkpoint" else {}


def _truth(records: Records) -> dict[str, int]:
    return {b: s for r in records for b, s in _cp(r).get("boards", [])}


def _verified(path: Path, registries: Registries, recheck: int | None = -1) -> dict[str, int] | None:
    """The board set verify accepts, or None if it refuses the file."""
    try:
        result = verify_runs([str(path)], registries, recheck=recheck)
    except (Hole, VerifyError):
        return None
    return dict(result.best)


def _drop_board(records: Records, board: str, geometry: Geometry) -> None:
    """``board`` gone from every record that mentions it, the summaries made to agree."""
    for r in records:
        cp = _cp(r)
        if "boards" in cp:
            cp["boards"] = [p for p in cp["boards"] if p[0] != board]
    records[:] = [r for r in records if not (r["type"] == "improved" and geometry.canonical(r["board"]) == board)]
    for r in records:
        if r["type"] == "finish":
            r["best"] = [b for b in r["best"] if geometry.canonical(b["board"]) != board]
            if r["best"]:
                r["best_board"], r["best_score"] = r["best"][0]["board"], r["best"][0]["score"]
                r["proof"]["best_board"], r["proof"]["best_score"] = r["best_board"], r["best_score"]
            r["proof"]["boards"] = len(_truth(records))


# -- the forgeries the issue names, each one refused ---------------------------------


@pytest.mark.slow  # verifies of the 3x3 proof, each re-solving classes: CI's fuzz step runs it again
def test_the_best_board_removed_consistently_is_refused(proof33: Path, tmp_path: Path, registries: Registries,
                                                         run_cli: Run) -> None:
    records = run_records(proof33)
    truth = _truth(records)
    best = max(truth, key=lambda b: truth[b])
    _drop_board(records, best, Geometry(3, 3))
    path = _write(tmp_path / "f.jsonl", records)
    for args in ((), ("--recheck", "0")):
        done = run_cli("verify", str(path), *args)
        assert done.returncode == 3 and done.stdout.startswith("NOT verified: witness:"), done.stdout
        assert done.stdout.count("\n") == 1


def test_an_improved_record_with_a_changed_score_is_refused(proof23: Path, tmp_path: Path,
                                                            registries: Registries) -> None:
    records = run_records(proof23)
    i = next(i for i, r in enumerate(records) if r["type"] == "improved")
    forged = copy.deepcopy(records[i])
    forged["score"] += 7
    records.insert(i, forged)  # an earlier entry, which a later one used to overwrite
    with pytest.raises(Hole, match="is recorded as"):
        verify_runs([str(_write(tmp_path / "f.jsonl", records))], registries)


def test_a_finish_best_score_of_999_is_refused(proof23: Path, tmp_path: Path, registries: Registries) -> None:
    records = run_records(proof23)
    finish = next(r for r in records if r["type"] == "finish")
    finish["best_score"] = finish["proof"]["best_score"] = 999
    with pytest.raises(Hole, match="best score"):
        verify_runs([str(_write(tmp_path / "f.jsonl", records))], registries)


def test_a_pruned_record_above_the_min_score_is_refused(proof23: Path, tmp_path: Path,
                                                        registries: Registries) -> None:
    records = run_records(proof23)
    cp = next(_cp(r) for r in records if _cp(r).get("class") and not _cp(r).get("boards")
              and _cp(r).get("root_bound", 0) >= 110)
    cp["pruned"] = True
    with pytest.raises(Hole, match="pruned at the root but its root bound"):
        verify_runs([str(_write(tmp_path / "f.jsonl", records))], registries)


def test_a_class_record_without_boards_is_refused(proof23: Path, tmp_path: Path, registries: Registries) -> None:
    records = run_records(proof23)
    cp = next(_cp(r) for r in records if _cp(r).get("class") and not _cp(r).get("boards"))
    del cp["boards"]
    with pytest.raises(Hole, match="has no boards field"):
        verify_runs([str(_write(tmp_path / "f.jsonl", records))], registries)


# -- --resume checks records as verify does -------------------------------------------


def _unfinished(records: Records) -> Records:
    """The proof as if killed before its end: no finish record, a few classes short."""
    kept = [r for r in records if r["type"] != "finish"]
    solved = [i for i, r in enumerate(kept) if "class" in _cp(r) and "part" not in _cp(r)]
    drop = set(solved[-5:])
    return [r for i, r in enumerate(kept) if i not in drop]


def test_resume_refuses_an_exact_duplicate_as_verify_does(proof23: Path, tmp_path: Path, run_cli: Run) -> None:
    """Issue 67: resume dropped an exact repeat and went on to 'proved', while
    verify refused the file; now both refuse it, resume before it writes."""
    records = _unfinished(run_records(proof23))
    i = next(i for i, r in enumerate(records) if _cp(r).get("class") and _cp(r).get("boards"))
    records.append(copy.deepcopy(records[i]))
    path = _write(tmp_path / "f.jsonl", records)
    before = path.read_bytes()
    done = run_cli("run", "--resume", str(path), "--progress", "none")
    assert done.returncode == 1 and "recorded solved twice, the same way" in done.stderr, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and path.read_bytes() == before
    assert run_cli("verify", str(path)).returncode == 3


def test_resume_refuses_a_class_spelled_non_canonically(proof23: Path, tmp_path: Path, run_cli: Run) -> None:
    records = _unfinished(run_records(proof23))
    geometry = Geometry(2, 3)
    for r in records:
        name = _cp(r).get("class")
        if name and "part" not in _cp(r) and not _cp(r)["boards"]:
            images = {"".join(name[p] for p in perm) for perm in geometry.symmetries} - {name}
            if images:
                _cp(r)["class"] = sorted(images)[0]
                break
    path = _write(tmp_path / "f.jsonl", records)
    before = path.read_bytes()
    done = run_cli("run", "--resume", str(path), "--progress", "none")
    assert done.returncode != 0 and "is not written canonically" in done.stderr, done.stdout + done.stderr
    assert path.read_bytes() == before  # refused before anything was written


def test_resume_refuses_a_zero_point_board(proof23: Path, tmp_path: Path, run_cli: Run) -> None:
    records = _unfinished(run_records(proof23))
    cp = next(_cp(r) for r in records if _cp(r).get("class") and "part" not in _cp(r))
    cp["boards"] = sorted([*cp["boards"], ["aaaaaa", 0]])
    done = run_cli("run", "--resume", str(_write(tmp_path / "f.jsonl", records)), "--progress", "none")
    assert done.returncode != 0, done.stdout
    assert "below the min score" in done.stderr or "not in class" in done.stderr, done.stderr


# -- the property: no forgery is accepted as another truth ------------------------------


def _forge(records: Records, rng: random.Random, geometry: Geometry, registries: Registries,
           score: Callable[[str], int]) -> str:
    """One random forgery of ``records``, in place; what it did."""
    solved = [r for r in records if "class" in _cp(r)]
    with_boards = [r for r in solved if _cp(r)["boards"]]
    kind = rng.choice(["drop", "score", "duplicate", "insert", "prune", "remove", "rewrite"])
    if kind == "drop" and with_boards:
        board = rng.choice(_cp(rng.choice(with_boards))["boards"])[0]
        _drop_board(records, board, geometry)
        return f"dropped {board}"
    if kind == "score" and with_boards:
        pair = rng.choice(_cp(rng.choice(with_boards))["boards"])
        pair[1] += rng.choice([-3, -1, 1, 2])
        return f"scored {pair[0]} {pair[1]}"
    if kind == "duplicate":
        r = copy.deepcopy(rng.choice(solved))
        if _cp(r)["boards"] and rng.random() < 0.5:
            _cp(r)["boards"] = _cp(r)["boards"][1:]
        records.insert(rng.randrange(1, len(records)), r)
        return f"duplicated {_cp(r)['class']}"
    if kind == "insert":
        r = rng.choice(solved)
        board = "".join(rng.choice("aeilnrst") for _ in range(geometry.n))
        _cp(r)["boards"] = sorted([*_cp(r)["boards"], [geometry.canonical(board), score(board)]])
        return f"inserted {board}"
    if kind == "prune" and with_boards:
        cp = _cp(rng.choice(with_boards))
        for board, _ in list(cp["boards"]):
            _drop_board(records, board, geometry)
        cp["pruned"], cp["root_bound"] = True, int(cp["min_score"]) - 1
        return f"pruned {cp['class']}"
    if kind == "remove":
        r = rng.choice(solved)
        records.remove(r)
        return f"removed {_cp(r)['class']}"
    r = rng.choice(solved)
    cp = _cp(r)
    cp["root_bound"] = max(s for _, s in cp["boards"]) - 1 if cp["boards"] else int(cp["min_score"]) + 5
    return f"rewrote {cp['class']}'s bound"


# 3x3 (each draw re-solves the whole space) in the slow tier, with the other
# tests of the 3x3 proof: CI's fuzz step runs them all again with more draws
@pytest.mark.parametrize("size", ["2x3", pytest.param("3x3", marks=pytest.mark.slow)])
def test_no_forgery_is_accepted_as_another_truth(size: str, request: pytest.FixtureRequest, tmp_path: Path,
                                                 registries: Registries) -> None:
    """2x3 at verify's defaults (its budget re-solves every class); 3x3 with
    every class re-solved (--recheck all), as a proof's guarantee is stated."""
    source: Path = request.getfixturevalue("proof23" if size == "2x3" else "proof33")
    honest = run_records(source)
    truth = _truth(honest)
    geometry = Geometry(*map(int, size.split("x")))
    settings = honest[0]["settings"]
    from boggle_opt.registry.dictionaries import load_dictionary

    scorer = load_dictionary(settings["wordlist"], settings["rule"], registries).scorer(geometry)
    recheck = -1 if size == "2x3" else None
    rng = random.Random(f"forge {size}")
    for draw in range(DRAWS[size]):
        records = copy.deepcopy(honest)
        done = [_forge(records, rng, geometry, registries, scorer.score) for _ in range(rng.randint(1, 2))]
        accepted = _verified(_write(tmp_path / f"f{draw}.jsonl", records), registries, recheck)
        assert accepted is None or accepted == truth, f"draw {draw}: {done} accepted with {len(accepted)} boards"


def _forge_record(records: Records, rng: random.Random, geometry: Geometry,
                  score: Callable[[str], int]) -> str:
    """A forgery of one class record that a resume must see on its own."""
    solved = [r for r in records if "class" in _cp(r) and "part" not in _cp(r)]
    with_boards = [r for r in solved if _cp(r)["boards"]]
    kind = rng.choice(["score", "insert", "duplicate", "prune", "bound", "spelling"])
    cp = _cp(rng.choice(with_boards if kind in ("score", "bound", "prune") and with_boards else solved))
    if kind == "score" and cp["boards"]:
        cp["boards"][0][1] += rng.choice([-2, 1, 5])
    elif kind == "insert":
        while True:
            board = geometry.canonical("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(geometry.n)))
            if board not in {b for b, _ in cp["boards"]}:
                break
        cp["boards"] = sorted([*cp["boards"], [board, score(board)]])
    elif kind == "duplicate":
        twin = copy.deepcopy(cp)
        twin["boards"] = twin["boards"][:-1] if twin["boards"] else [["aaaaaa", 0]]
        records.append({"type": "checkpoint", "elapsed": 0.0, "evaluations": 0, "record": twin})
    elif kind == "prune":
        cp["pruned"] = True
    elif kind == "bound" and cp["boards"]:
        cp["root_bound"] = max(s for _, s in cp["boards"]) - 1
    else:
        name = cp["class"]
        images = sorted({"".join(name[p] for p in perm) for perm in geometry.symmetries} - {name})
        if not images:
            cp["boards"] = [["zzzzzz", 0]]
            return "a 0-point board"
        cp["class"] = images[0]
    return kind


def test_resume_never_continues_from_a_forged_record(proof23: Path, tmp_path: Path, registries: Registries,
                                                     run_cli: Run) -> None:
    """Forgeries a record shows on its own (a score, a board that is not in
    the class or below the min score, a second record that differs, pruned
    above its bound, a bound below a board, another spelling of the class):
    --resume refuses each, in one line, before it writes. (A board left out
    of a record that is otherwise consistent is not visible in the record:
    verify's witnesses find it, above.)"""
    honest = run_records(proof23)
    geometry = Geometry(2, 3)
    settings = honest[0]["settings"]
    from boggle_opt.registry.dictionaries import load_dictionary

    scorer = load_dictionary(settings["wordlist"], settings["rule"], registries).scorer(geometry)
    rng = random.Random("resume forgeries")
    for draw in range(DRAWS["2x3"] // 2):
        records = _unfinished(copy.deepcopy(honest))
        what = _forge_record(records, rng, geometry, scorer.score)
        path = _write(tmp_path / f"r{draw}.jsonl", records)
        before = path.read_bytes()
        done = run_cli("run", "--resume", str(path), "--progress", "none")
        # every one of these is visible in its own record: refused, in one line, before any write
        assert done.returncode != 0, f"draw {draw}: {what} was resumed: {done.stdout[-300:]}"
        assert done.stderr.count("\n") == 1 and "error:" in done.stderr, done.stderr
        assert path.read_bytes() == before, f"{what}: refused, but only after writing"


# -- issue 67: nothing a record claims steers the check; what it was worth is stated -----

#: verifies of the item-1 fuzz test (each about 1.5 s: its basin hops' floor is 1 s)
CATCH_SEEDS = {"ci": 40, "long": 200}.get(FUZZ, 10)


def _isolated(records: Records, geometry: Geometry, registries: Registries) -> list[str]:
    """Boards no one-letter change or swap of another recorded board reaches:
    the closure witness cannot find them once dropped."""
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.runs.witness import near

    settings = records[0]["settings"]
    scorer = load_dictionary(settings["wordlist"], settings["rule"], registries).scorer(geometry)
    truth = _truth(records)
    min_score = int(next(_cp(r)["min_score"] for r in records if _cp(r).get("setup")))
    reached = {geometry.canonical(o) for b in truth for o in near(b, scorer.score, scorer.neighbourhood,
                                                                  geometry.n, min_score)}
    return sorted(b for b in truth if b not in reached)


def _forge_isolated(records: Records, board: str, geometry: Geometry) -> str:
    """``board`` dropped consistently, and its class made to claim 20 s of CPU
    (what steered the old check to a piece that did not hold it); its class."""
    holder = next(_cp(r) for r in records if any(b == board for b, _ in _cp(r).get("boards", [])))
    _drop_board(records, board, geometry)
    holder["cpu"] = holder["seconds"] = 20.0
    holder["nodes"] *= 1000
    return str(holder["class"])


@pytest.mark.slow  # verifies of the 3x3 proof, each re-solving classes: CI's fuzz step runs it again
def test_what_verify_re_solves_depends_on_no_claim_of_a_record(proof33: Path, tmp_path: Path,
                                                               registries: Registries) -> None:
    """The same seed re-solves the same records however their cpu, seconds,
    nodes and candidates are rewritten; another seed, others."""
    honest = run_records(proof33)
    forged = copy.deepcopy(honest)
    rng = random.Random("claims")
    for r in forged:
        cp = _cp(r)
        if "class" in cp:
            cp["cpu"] = cp["seconds"] = rng.choice([0.0, 0.001, 20.0, 5000.0])
            cp["nodes"], cp["candidates"] = rng.randrange(10**9), rng.randrange(10**6)
    a, b = _write(tmp_path / "a.jsonl", honest), _write(tmp_path / "b.jsonl", forged)
    first = verify_runs([str(a)], registries, recheck=25, seed=7, chance=0.1)
    assert first.witness.resolved and len(first.witness.resolved) == 25
    second = verify_runs([str(b)], registries, recheck=25, seed=7, chance=0.1)
    # the labels name the lines, which are the same in both files
    assert [x.replace(str(b), str(a)) for x in second.witness.resolved] == first.witness.resolved
    assert verify_runs([str(a)], registries, recheck=25, seed=8).witness.resolved != first.witness.resolved
    # every record is re-solved whole: none is cut to a piece of the record's choosing
    assert all(", its piece" not in label for label in first.witness.resolved)
    total = first.witness.drawn_from
    assert first.witness.chance == pytest.approx(25 / total)
    # auto: every draw below the chance asked for is re-solved, whatever the budget
    from boggle_opt.runs.witness import draw, draw_key

    auto = verify_runs([str(b)], registries, seed=7, chance=0.2, budget=0.001)
    key = draw_key(7)
    below = {f"class {_cp(r)['class']}{' piece ' + _cp(r)['part'] if _cp(r).get('part') else ''}"
             for r in forged if "class" in _cp(r) and draw(key, _cp(r)["class"], _cp(r).get("part", "")) < 0.2}
    assert below <= {label.split(" (")[0] for label in auto.witness.resolved}
    assert auto.witness.chance >= 0.2


@pytest.mark.slow  # verifies of the 3x3 proof, each re-solving classes: CI's fuzz step runs it again
def test_verify_states_what_its_check_was_worth(proof33: Path, run_cli: Run) -> None:
    done = run_cli("verify", str(proof33), "--chance", "5%", "--budget", "0.001", "--seed", "11")
    assert done.returncode == 0, done.stdout + done.stderr
    text = unwrapped(done.stdout)
    assert "what the re-solving was worth: each class record had at least a" in text, text
    assert "(drawn with seed 11); a forgery confined to one class record escapes this check with " \
           "probability at most 0." in text, text
    assert "--recheck all re-solves every class record" in text
    # a fresh seed when none is given, printed so the check can be repeated
    seeds = {re.findall(r"--seed (\d+) repeats", unwrapped(run_cli("verify", str(proof33), "--recheck", "0").stdout))[0]
             for _ in range(2)}
    assert len(seeds) == 2


def test_class_hops_look_near_the_best_board_of_every_class(registries: Registries) -> None:
    """Hops from a class's best board find an optimum there that no record holds."""
    from boggle_opt.registry.dictionaries import load_dictionary
    from boggle_opt.runs.witness import Unrecorded, Witnessed, class_hops
    from boggle_opt.searching.interface import Problem

    geometry = Geometry(3, 3)
    problem = Problem(load_dictionary("default", "standard", registries), geometry)
    start = "sertanile"
    witnessed = Witnessed()
    with pytest.raises(Unrecorded, match="a hop from the best board sertanile of its class"):
        class_hops(problem, {geometry.canonical(start)}, 1, [start], seed=3, witnessed=witnessed)
    assert witnessed.class_hops >= 1


def _poisson_binomial_cdf(chances: list[float], k: int) -> float:
    """P(at most ``k`` successes) of independent trials with these chances."""
    dist = [1.0]
    for p in chances:
        dist = [a * (1 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist])]
    return sum(dist[:k + 1])


@pytest.mark.slow  # verifies of the 3x3 proof, each re-solving classes: CI's fuzz step runs it again
def test_a_dropped_isolated_board_is_caught_as_often_as_verify_says(
        proof33: Path, tmp_path: Path, registries: Registries) -> None:
    """The forgery of issue 67: a board that no other recorded board is one
    change from, dropped from every record consistently, and its class made
    to claim 20 s of CPU. Over many fresh seeds verify must catch it at least
    as often as the chance it states (hops may catch it more often); fails if
    the catches are fewer than that chance makes likelier than 1 in 1,000."""
    honest = run_records(proof33)
    geometry = Geometry(3, 3)
    isolated = _isolated(honest, geometry, registries)
    assert isolated, "the fixture should have a board with no one-change neighbour among the others"
    rng = random.Random("isolated")
    stated: list[float] = []
    caught = 0
    for n in range(CATCH_SEEDS):
        records = copy.deepcopy(honest)
        _forge_isolated(records, rng.choice(isolated), geometry)
        path = _write(tmp_path / f"i{n}.jsonl", records)
        seed = rng.randrange(2**32)
        try:
            # a budget that buys next to nothing: the stated chance is the chance asked for
            result = verify_runs([str(path)], registries, seed=seed, chance=0.3, budget=0.001)
        except Hole as hole:
            assert "witness:" in str(hole), hole
            caught += 1
            stated.append(0.3)
            continue
        stated.append(result.witness.chance)
        assert result.witness.chance >= 0.3
    tail = _poisson_binomial_cdf(stated, caught)
    assert tail > 1e-3, f"caught {caught} of {CATCH_SEEDS}; the stated chances make that {tail:.2g} likely"
