"""Forged run files: ``verify`` and ``--resume`` never accept a board set
that is not the truth.

Two small proofs are made once (2x3 on the embedded list; 3x3 on a word list
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
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.core.geometry import Geometry
from boggle_opt.registry.registries import Registries
from boggle_opt.runs.proof_facts import Hole, VerifyError
from boggle_opt.runs.verify import verify_runs
from helpers import records as run_records

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
    words = registries.wordlists.get("embedded").load()
    return _proof(tmp_path_factory.mktemp("p23"), run_cli, list(words), "2x3", "110")


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


def test_resume_drops_an_exact_duplicate_and_says_so(proof23: Path, tmp_path: Path, run_cli: Run) -> None:
    records = _unfinished(run_records(proof23))
    i = next(i for i, r in enumerate(records) if _cp(r).get("class") and _cp(r).get("boards"))
    records.append(copy.deepcopy(records[i]))
    path = _write(tmp_path / "f.jsonl", records)
    done = run_cli("run", "--resume", str(path), "--progress", "none")
    assert done.returncode == 0 and "proved:" in done.stdout, done.stdout + done.stderr
    assert "note: resume: dropped 1 exact repeat of class records" in done.stderr
    assert run_cli("verify", str(path)).returncode == 3  # the file still holds the repeat: verify names it


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


@pytest.mark.parametrize("size", ["2x3", "3x3"])
def test_no_forgery_is_accepted_as_another_truth(size: str, proof23: Path, proof33: Path, tmp_path: Path,
                                                 registries: Registries) -> None:
    """2x3 at verify's defaults (its budget re-solves every class); 3x3 with
    every class re-solved (--recheck all), as a proof's guarantee is stated."""
    source = proof23 if size == "2x3" else proof33
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
