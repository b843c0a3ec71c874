"""Issue 67, items 2-4: no user file lost or corrupted, no stall or traceback
on a hostile run file, and ``--resume`` refusing what ``verify`` refuses.

(Item 1, what verify re-solves and what that is worth, is in test_forgery.py,
where the CI's fuzz run picks up its catch-rate test.)
"""

from __future__ import annotations

import gzip
import json
import os
import resource
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.registry.registries import Registries
from helpers import assert_one_line_error, records, short_words

Run = Callable[..., subprocess.CompletedProcess[str]]


def _write(path: Path, recs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return path


def _cp(r: dict[str, Any]) -> dict[str, Any]:
    return r["record"] if r.get("type") == "checkpoint" else {}


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory, registries: Registries) -> Path:
    folder = tmp_path_factory.mktemp("words")
    path = folder / "my.txt"
    # the embedded list's words a 2x3 board can spell: its proof is the whole list's, and
    # each command that reads the run file rebuilds a dictionary a sixth the size
    path.write_text("\n".join(short_words(registries, 6)) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def proof(words: Path, run_cli: Run) -> Path:
    """A 2x3 proof at 110, with its word list given as a file."""
    out = words.parent / "w.jsonl"
    done = run_cli("run", "--searcher", "bnb", "--size", "2x3", "--wordlist", str(words), "-o", "min-score", "110",
                   "--progress", "none", "--out", str(out))
    assert done.returncode == 0 and "proved:" in done.stdout, done.stdout + done.stderr
    return out


@pytest.fixture(scope="module")
def shards(words: Path, run_cli: Run) -> list[Path]:
    """The same proof in 2 shards."""
    outs = []
    for k in (1, 2):
        out = words.parent / f"s{k}.jsonl"
        done = run_cli("run", "--searcher", "bnb", "--size", "2x3", "--wordlist", str(words), "--min-score", "110",
                       "--shard", f"{k}/2", "--progress", "none", "--out", str(out))
        assert done.returncode == 0, done.stdout + done.stderr
        outs.append(out)
    return outs


# -- 2. user files ------------------------------------------------------------------------


def test_no_command_writes_over_the_word_list_a_run_file_names(proof: Path, words: Path, run_cli: Run,
                                                               tmp_path: Path) -> None:
    before = words.read_bytes()
    for args in (("report", str(proof), "--out", str(words)),
                 ("run", "--resume", str(proof), "--report", str(words), "--progress", "none"),
                 ("merge", str(proof), "--out", str(words))):
        done = run_cli(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert_one_line_error(done, "word list")
        assert words.read_bytes() == before, args
    assert run_cli("verify", str(proof), "--recheck", "0").returncode == 0


@pytest.mark.slow  # big files written and read through whole commands: 15-20 s of CPU
def test_a_compressed_run_file_is_never_appended_to(proof: Path, run_cli: Run, tmp_path: Path) -> None:
    packed = tmp_path / "p.jsonl.gz"
    packed.write_bytes(gzip.compress(proof.read_bytes()))
    before = packed.read_bytes()
    for target in (packed, tmp_path / "hidden.jsonl"):  # by name, and by content
        if target != packed:
            target.write_bytes(before)
        done = run_cli("run", "--resume", str(target), "--progress", "none")
        assert_one_line_error(done, "gzip")
        assert target.read_bytes() == before
    done = run_cli("run", "--searcher", "bnb", "--size", "2x2", "--out", str(tmp_path / "x.jsonl.gz"),
                   "--progress", "none")
    assert_one_line_error(done, "--out", "uncompressed")
    assert not (tmp_path / "x.jsonl.gz").exists()
    # merge writes what its name says: gzip, which verify reads
    merged = tmp_path / "m.jsonl.gz"
    done = run_cli("merge", str(packed), "--out", str(merged), "--recheck", "0")
    assert done.returncode == 0, done.stdout + done.stderr
    assert merged.read_bytes()[:2] == b"\x1f\x8b"
    assert run_cli("verify", str(merged), "--recheck", "0").returncode == 0


def _file_size_limit(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


@pytest.mark.slow  # big files written and read through whole commands: 15-20 s of CPU
def test_merge_over_a_file_size_limit_leaves_nothing_and_a_retry_works(proof: Path, cli_env: dict[str, str],
                                                                       tmp_path: Path, run_cli: Run) -> None:
    from helpers import exe

    out = tmp_path / "m.jsonl"
    done = subprocess.run([exe(), "merge", str(proof), "--out", str(out), "--recheck", "0"], capture_output=True,
                          text=True, env=cli_env, preexec_fn=_file_size_limit(20 * 1024), timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "cannot write --out" in done.stderr, done.stderr
    assert not out.exists() and os.listdir(tmp_path) == [], os.listdir(tmp_path)
    again = run_cli("merge", str(proof), "--out", str(out), "--recheck", "0")
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize("command", ["merge", "report"])
def test_outputs_are_checked_before_any_work(command: str, proof: Path, tmp_path: Path, run_cli: Run) -> None:
    (tmp_path / "taken.jsonl").write_text("x\n")
    os.symlink(tmp_path / "nowhere" / "x", tmp_path / "dangling")
    bad = {"a missing folder": str(tmp_path / "no" / "such" / "file"), "an empty name": "",
           "a dangling symlink": str(tmp_path / "dangling")}
    if command == "merge":
        bad["an existing file"] = str(tmp_path / "taken.jsonl")
    for what, out in bad.items():
        done = run_cli(command, str(proof), "--out", out)
        assert done.returncode == 2, (what, done.stdout, done.stderr)
        # said in one line, before verify read anything
        assert_one_line_error(done)
        assert "verify:" not in done.stderr and "re-solving" not in done.stderr, (what, done.stderr)


# -- 3. stalls and tracebacks -----------------------------------------------------------------


def _start_line(proof: Path) -> bytes:
    return proof.read_bytes().split(b"\n", 1)[0] + b"\n"


@pytest.mark.slow  # 20-64 MiB unpacked and read: 20-25 s of CPU
@pytest.mark.parametrize("filler", [b"\n", b'{"type": "note"}\n'])
def test_a_small_gz_that_unpacks_to_much_is_refused_at_once(filler: bytes, proof: Path, tmp_path: Path,
                                                            run_cli: Run) -> None:
    """20 MiB of blank lines (a stall of 23 s of CPU), or 64 MiB of one short
    record, packed into kilobytes: refused in one line, the work bounded by the
    bytes on disk (no time limit here: the check is what the reader does)."""
    path = tmp_path / "bomb.jsonl.gz"
    size = 20 << 20 if filler == b"\n" else 64 << 20
    path.write_bytes(gzip.compress(_start_line(proof) + filler * (size // len(filler)), compresslevel=9))
    for command in ("verify", "report"):
        done = run_cli(command, str(path), *(["--out", str(tmp_path / "r.html")] if command == "report" else []))
        assert "Traceback" not in done.stderr
        assert done.returncode in (1, 3), done.stdout + done.stderr
        said = done.stdout + done.stderr
        assert "blank lines in a row" in said or "unpacks to more than" in said, said


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_shards_and_gz_files_that_broke_the_readers_are_one_line(shards: list[Path], tmp_path: Path,
                                                                  run_cli: Run) -> None:
    second = records(shards[1])
    for shard in ("\u00b2/2", "2/" + "9" * 5000):
        second[0]["settings"]["options"]["shard"] = shard
        forged = _write(tmp_path / "s2.jsonl", second)
        for command in ("verify", "merge", "report"):
            out = ["--out", str(tmp_path / f"o-{command}")] if command != "verify" else []
            done = run_cli(command, str(shards[0]), str(forged), "--recheck", "0", *out) if command != "report" \
                else run_cli(command, str(shards[0]), str(forged), *out)
            assert "Traceback" not in done.stderr, (shard[:5], command, done.stderr)
            assert done.returncode in (1, 2, 3)
            assert "shard" in done.stdout + done.stderr
    corrupt = tmp_path / "c.jsonl.gz"
    packed = gzip.compress(shards[0].read_bytes())
    corrupt.write_bytes(packed[:40] + bytes(b ^ 0x55 for b in packed[40:200]) + packed[200:])
    for command in ("verify", "report"):
        done = run_cli(command, str(corrupt), *(["--out", str(tmp_path / "r.html")] if command == "report" else []))
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode in (1, 3), done.stdout + done.stderr


# -- 4. resume and verify agree ------------------------------------------------------------------


def _unfinished(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    kept = [r for r in recs if r["type"] != "finish"]
    solved = [i for i, r in enumerate(kept) if "class" in _cp(r) and "part" not in _cp(r)]
    return [r for i, r in enumerate(kept) if i not in set(solved[-3:])]


def _refused(run_cli: Run, path: Path, *needles: str) -> None:
    before = path.read_bytes()
    done = run_cli("run", "--resume", str(path), "--progress", "none")
    assert_one_line_error(done, *needles)
    assert path.read_bytes() == before  # refused before anything was written


def test_resume_refuses_what_verify_refuses(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    mine, other = _unfinished(records(shards[0])), records(shards[1])
    stray = next(r for r in other if "class" in _cp(r))
    _refused(run_cli, _write(tmp_path / "a.jsonl", [*mine, stray]), "not a class of this shard")
    edited = [dict(r) for r in mine]
    edited[0] = json.loads(json.dumps(mine[0]))
    edited[0]["settings"]["options"]["shard"] = "2/2"
    _refused(run_cli, _write(tmp_path / "b.jsonl", edited), "shard")
    other_min = json.loads(json.dumps(next(r for r in mine if "class" in _cp(r))))
    other_min["record"]["min_score"] = 111
    _refused(run_cli, _write(tmp_path / "c.jsonl", [*mine, other_min]), "min score 111")
    repeat = next(r for r in mine if "class" in _cp(r))
    path = _write(tmp_path / "d.jsonl", [*mine, repeat])
    _refused(run_cli, path, "recorded solved twice")
    assert run_cli("verify", str(path), "--recheck", "0").returncode == 3  # and verify refuses it too


def test_a_shard_with_no_classes_is_done(tmp_path: Path, words: Path, run_cli: Run) -> None:
    out = tmp_path / "s25.jsonl"
    done = run_cli("run", "--searcher", "bnb", "--size", "2x2", "--wordlist", str(words), "--min-score", "3",
                   "--shard", "25/25",
                   "--progress", "none", "--out", str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "INCOMPLETE" not in done.stdout
    again = run_cli("run", "--resume", str(out), "--progress", "none")
    assert again.returncode == 0, again.stdout + again.stderr


def test_a_second_shard_of_another_kernel_gets_its_note(shards: list[Path], tmp_path: Path, run_cli: Run) -> None:
    second = records(shards[1])
    for r in second:
        if r["type"] == "start":
            r["settings"]["fingerprint"]["kernel"] = "0123456789ab"
    forged = _write(tmp_path / "s2.jsonl", second)
    # every record re-solved, the other kernel's too; a small budget: the note is not bought by it
    done = run_cli("verify", str(shards[0]), str(forged), "--recheck", "all", "--budget", "0.01")
    assert done.returncode == 0, done.stdout + done.stderr
    text = " ".join(done.stdout.split())
    assert "note:" in text and "came from another kernel version than this install's" in text and "s2.jsonl" in text, text


def test_shard_given_twice_two_ways_is_a_clash(tmp_path: Path, run_cli: Run) -> None:
    done = run_cli("run", "--searcher", "bnb", "--size", "2x2", "--min-score", "3", "--shard", "1/2",
                   "-o", "shard", "2/2", "--progress", "none", "--out", str(tmp_path / "x.jsonl"))
    assert_one_line_error(done, "--shard 1/2 and -o shard 2/2 disagree")


def test_a_second_input_that_is_no_run_file_is_said_so(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    other = tmp_path / "secret"
    other.write_text("root:x:0:0\nuser:x:1:1\n")
    done = run_cli("verify", str(proof), str(other))
    assert done.returncode == 1, done.stdout + done.stderr
    assert_one_line_error(done, "is not a boggle-opt run file")
