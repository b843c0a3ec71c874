"""``verify`` of some of a proof's shards (issue 69, item 2).

A 2x3 proof (the embedded word list's words of up to 6 tiles, all a 2x3
board can spell: the whole list's proof, with a dictionary a sixth the size
for each verify to rebuild; min score 110) in 4 shards: any of
them verify as what they are, checked as a whole proof is, with exit
status 4 and a statement that is not a proof; all 4 are the proof (0); a
damaged record, a shard's mark that lies, a class of another shard and an
unfinished shard are caught in a partial set as in a whole one (3); merge,
which writes one file of a whole proof, still needs every shard.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.core.geometry import Geometry
from boggle_opt.proofs.board_classes import ClassSpace, class_name, count_classes
from boggle_opt.proofs.shards import shard_classes
from boggle_opt.registry.registries import Registries
from helpers import records, short_words, unwrapped

Run = Callable[..., subprocess.CompletedProcess[str]]
SHARDS = 4
#: verify's exit statuses: a proof, some of its shards, not verified
PROOF, PARTIAL, NOT_VERIFIED = 0, 4, 3


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory, registries: Registries, run_cli: Run) -> list[Path]:
    folder = tmp_path_factory.mktemp("shards")
    words = folder / "words.txt"
    words.write_text("\n".join(short_words(registries, 6)) + "\n", encoding="utf-8")
    outs = []
    for k in range(1, SHARDS + 1):
        out = folder / f"s{k}.jsonl"
        done = run_cli("run", "--searcher", "bnb", "--size", "2x3", "--wordlist", str(words), "--min-score", "110",
                       "--shard", f"{k}/{SHARDS}",
                       "--progress", "none", "--jobs", "1", "--out", str(out))
        assert done.returncode == 0, done.stdout + done.stderr
        outs.append(out)
    return outs


def _classes(k: int) -> list[str]:
    """The class names of shard ``k``, from the shards' own definition."""
    space = ClassSpace(Geometry(2, 3), 3)
    return [class_name(c) for c in shard_classes(space, k, SHARDS)]


def _write(path: Path, recs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def _verify(run_cli: Run, *files: Path) -> tuple[int, str]:
    done = run_cli("verify", *map(str, files), "--seed", "3")
    assert "Traceback" not in done.stderr, done.stderr
    return done.returncode, unwrapped(done.stdout)


def _cp(rec: dict[str, Any]) -> dict[str, Any]:
    return rec["record"] if rec.get("type") == "checkpoint" else {}


@pytest.mark.parametrize("given, said, missing", [
    ((1,), "verified shard 1 of 4", "not a proof: 3 shards missing (2-4)"),
    ((1, 3), "verified shards 1 and 3 of 4", "not a proof: 2 shards missing (2 and 4)"),
    ((1, 2, 3), "verified shards 1-3 of 4", "not a proof: shard 4 missing"),
])
@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_some_shards_verify_as_what_they_are(shards: list[Path], run_cli: Run, given: tuple[int, ...], said: str,
                                             missing: str) -> None:
    status, text = _verify(run_cli, *(shards[k - 1] for k in given))
    assert status == PARTIAL, text
    total = count_classes(Geometry(2, 3), [3] * 6)
    classes = sum(len(_classes(k)) for k in given)
    assert text.startswith(f"{said} ({classes:,} of {total:,} classes of 2x3, each exactly once"), text
    assert text.splitlines()[0].endswith(missing), text
    # the boards at or above the min score in those shards' classes, and none else
    found = {b: s for k in given for r in records(shards[k - 1]) for b, s in _cp(r).get("boards") or []}
    assert f"scores >= 110 for {shards[0].parent / 'words.txt'} (" in text, text  # the list, by its path
    assert f"except these {len(found):,}:" in text, text
    best = min(found.items(), key=lambda bs: (-bs[1], bs[0]))
    assert f"{best[0]} ({best[1]})" in text, text
    # checked as a whole proof is: records, coverage, scores, witnesses, re-solving
    assert f"the {classes:,} classes of {said[len('verified '):]} covered exactly once, and no other" in text, text
    assert "class records re-solved by the compiled kernel" in text and "all agree" in text, text
    assert "seeded climbs" in text and "lay in classes of the shards not given" in text, text
    assert "proved:" not in text


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_one_two_three_and_four_shards(shards: list[Path], run_cli: Run) -> None:
    """Exit status 4 for 1, 2 and 3 of the 4 shards, 0 for all 4: the proof."""
    statuses = [_verify(run_cli, *shards[:n])[0] for n in (1, 2, 3)]
    status, text = _verify(run_cli, *shards)
    assert statuses + [status] == [PARTIAL, PARTIAL, PARTIAL, PROOF], (statuses, text)
    assert text.startswith("verified: 216 of 216 classes of 2x3 exactly once in 4 run files (4 shards); proved:"), text
    assert "not a proof" not in text and "shards not given" not in text


def _forged(shards: list[Path], tmp_path: Path, edit: Callable[[list[dict[str, Any]]], None]) -> Path:
    recs = records(shards[0])
    edit(recs)
    return _write(tmp_path / "s1.jsonl", recs)


def _with_boards(recs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(_cp(r) for r in recs if _cp(r).get("boards"))


def test_a_tampered_record_in_a_partial_set_is_caught(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    def raise_a_score(recs: list[dict[str, Any]]) -> None:
        _with_boards(recs)["boards"][0][1] += 1

    forged = _forged(shards, tmp_path, raise_a_score)
    status, text = _verify(run_cli, forged, shards[1])
    assert status == NOT_VERIFIED, text
    assert text.startswith("NOT verified: ") and "scores" in text and "missing" not in text, text


def test_a_board_left_out_of_a_partial_set_is_caught(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    """A class record's board dropped, and every record that names it made to
    agree: the re-solving of every record (--recheck all) finds it."""
    recs = records(shards[0])
    cp = _with_boards(recs)
    dropped = cp["boards"].pop()[0]
    kept = [r for r in recs if r.get("board") != dropped]
    for r in kept:
        if r.get("type") == "finish":
            r.pop("proof", None)
            r["best"] = [b for b in r.get("best") or [] if b["board"] != dropped]
            if r.get("best_board") == dropped or not r["best"]:
                r.pop("best_board", None)
                r.pop("best_score", None)
            else:
                r["best_board"], r["best_score"] = r["best"][0]["board"], r["best"][0]["score"]
    forged = _write(tmp_path / "s1.jsonl", kept)
    done = run_cli("verify", str(forged), str(shards[2]), "--recheck", "all", "--seed", "3")
    assert done.returncode == NOT_VERIFIED, done.stdout
    assert done.stdout.startswith("NOT verified: ") and "missing" not in done.stdout, done.stdout


def test_a_shard_mark_that_lies_is_caught(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    """Shards 1 and 2 with their marks swapped hold the classes of shards 1
    and 2 between them, but each file's are not its own shard's."""
    def relabel(path: Path, k: int) -> Path:
        recs = records(path)
        for r in recs:
            if r.get("type") == "start":
                r["settings"]["options"]["shard"] = f"{k}/{SHARDS}"
            if _cp(r).get("shard"):
                _cp(r)["shard"] = f"{k}/{SHARDS}"
        return _write(tmp_path / f"as-{k}.jsonl", recs)

    status, text = _verify(run_cli, relabel(shards[0], 2), relabel(shards[1], 1))
    assert status == NOT_VERIFIED, text
    assert f"class {_classes(1)[0]} " in text and f"as-2.jsonl (shard 2/4) but is of shard 1/4" in text, text
    status, text = _verify(run_cli, relabel(shards[0], 2))
    assert status == NOT_VERIFIED, text
    assert f"class {_classes(1)[0]} " in text and "is of shard 1/4, which is not given" in text, text


def test_a_class_of_a_shard_not_given_is_caught(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    stray = next(r for r in records(shards[3]) if _cp(r).get("class"))
    forged = _forged(shards, tmp_path, lambda recs: recs.insert(3, stray))
    status, text = _verify(run_cli, forged)
    assert status == NOT_VERIFIED, text
    assert f"class {_cp(stray)['class']} " in text and "is of shard 4/4, which is not given" in text, text


def test_an_unfinished_shard_is_refused_with_how_far_it_got(shards: list[Path], tmp_path: Path,
                                                           run_cli: Run) -> None:
    recs = records(shards[1])
    solved = [i for i, r in enumerate(recs) if _cp(r).get("class")]
    cut = recs[:solved[10]]  # the first 10 classes of shard 2, then stopped
    status, text = _verify(run_cli, shards[0], _write(tmp_path / "s2.jsonl", cut))
    assert status == NOT_VERIFIED, text
    done = {_cp(r)["class"] for r in cut if _cp(r).get("class")} | {_cp(r)["split"] for r in cut if _cp(r).get("split")}
    first = next(n for n in _classes(2) if n not in done)
    both = len(_classes(1)) + len(_classes(2))
    assert text.startswith(f"NOT verified: class {first} "), text
    assert f"is missing: no record of it in any of the files; {len(_classes(2)) - len(done):,} of the {both:,} " \
           f"classes of shards 1 and 2 of 4 have none (a run not finished?)" in text, text


def test_merge_still_needs_every_shard(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    out = tmp_path / "merged.jsonl"
    done = run_cli("merge", *map(str, shards[:3]), "--out", str(out))
    assert done.returncode == NOT_VERIFIED, done.stdout + done.stderr
    assert done.stdout == ("NOT verified, nothing written: shard 4/4 missing: 3 of 4 shards given, and this needs "
                           "all of them (verify checks some shards of a proof)\n"), done.stdout
    assert not out.exists() and "Traceback" not in done.stderr
