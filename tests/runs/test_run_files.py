"""Run files that a crash, a hand edit or a second run left wrong: a junk
tail is cut before a resume appends, so the file stays readable; a file
that already holds a run is not appended to by ``--out``; records that
cannot be trusted (malformed splits, boards with a wrong score, another
run's records) are refused in one line, never a hang or a wrong proof.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.cli.app import main
from boggle_opt.runs.runfile import read_run_file
from boggle_opt.dictionary.wordlist import clean_words
from helpers import assert_one_line_error, exe, records as run_records

BUCKETS = "aeiou lnrst bcdfghjkmpqvwxyz"
PROOF = ["--searcher", "bnb", "--size", "2x3", "-o", "min-score", "60", "-o", "buckets", BUCKETS,
         "--progress", "none", "--top", "10000"]


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # a short timeout: a record that makes the reader spin fails the test, not the suite
    return subprocess.run([exe(), *args], capture_output=True, text=True, env=env, timeout=300)


def report_here(capsys: pytest.CaptureFixture[str], *args: str) -> subprocess.CompletedProcess[str]:
    """``boggle-opt report ARGS`` as ``main`` in this process: a refused file's
    message, without an interpreter's start and imports (``--resume`` keeps
    the real console script: it must leave the file as it was)."""
    capsys.readouterr()
    try:
        code = main(["report", *args])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out, err = capsys.readouterr()
    return subprocess.CompletedProcess(["boggle-opt", "report", *args], code, out, err)


def ranked(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line[:1].isdigit()]


@pytest.fixture(scope="module")
def proof(registries: Any, cli_env: dict[str, str],
          tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict[str, Any]], list[str], str]:
    """A whole 2x3 proof over a small list: its records, printed boards and the list."""
    folder = tmp_path_factory.mktemp("proof")
    words = [w for w in clean_words(registries.wordlists.get("default").load())
             if len(w) <= 6 and set(w) <= set("aelnrst")]
    wordlist = folder / "small.txt"
    wordlist.write_text("\n".join(words) + "\n")
    path = folder / "run.jsonl"
    result = cli(cli_env, "run", *PROOF, "--wordlist", str(wordlist), "--out", str(path))
    assert result.returncode == 0, result.stderr
    found = run_records(path)
    assert sum(1 for r in found if r["type"] == "checkpoint" and "class" in r["record"]) > 100
    return found, ranked(result.stdout), str(wordlist)


def write(path: Path, records: list[dict[str, Any]], tail: bytes = b"") -> str:
    path.write_bytes("".join(json.dumps(r) + "\n" for r in records).encode() + tail)
    return str(path)


def half(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The proof as a kill half-way leaves it: no finish record."""
    return records[: len(records) // 2]


@pytest.mark.parametrize("tail", [b"\0" * 100, b"garbage", b"[[[", b"garbage\n\0\0\n[[[\n"],
                         ids=["nul", "garbage", "brackets", "several-lines"])
def test_a_junk_tailed_run_file_survives_two_resumes_and_report(proof, cli_env, tmp_path, tail):
    """Every tail is cut by the first resume, which leaves a file that reads
    whole; the tail of several junk lines (each kind of the others on a line
    of its own) is then resumed again and reported, as a cut file of any of
    them would be: the same file once the tail is gone."""
    records, boards, _ = proof
    path = write(tmp_path / "run.jsonl", half(records), tail)
    again = b"\n" in tail
    for _ in range(2 if again else 1):
        result = cli(cli_env, "run", "--resume", path, "--progress", "none", "--top", "10000")
        assert result.returncode == 0, result.stderr
        assert ranked(result.stdout) == boards
    assert tail not in Path(path).read_bytes()
    assert read_run_file(path).segments == (3 if again else 2)
    if again:
        result = cli(cli_env, "report", path, "--out", str(tmp_path / "report.html"))
        assert result.returncode == 0, result.stderr


def improved_by_segment(path: str) -> list[list[str]]:
    """The boards of each segment's improved records, in order."""
    segments: list[list[str]] = []
    for r in run_records(Path(path)):
        if r["type"] == "start":
            segments.append([])
        elif r["type"] == "improved":
            segments[-1].append(r["board"])
    return segments


def test_a_resume_writes_only_boards_new_to_the_file(proof, cli_env, tmp_path):
    """A resumed proof reports its earlier classes' boards again; the file has
    them, so they are not written again (each --resume added all of them: a
    finished shard that a cluster requeued grew by its whole list each time)."""
    records, boards, _ = proof
    path = write(tmp_path / "run.jsonl", half(records))
    before = improved_by_segment(path)[0]
    assert before, "the half proof should hold boards already"
    for _ in range(2):  # the first finishes the proof, the second finds it complete
        result = cli(cli_env, "run", "--resume", path, "--progress", "none", "--top", "10000")
        assert result.returncode == 0, result.stderr
        assert ranked(result.stdout) == boards
    first, second, third = improved_by_segment(path)
    assert first == before
    assert not set(second) & set(first)
    assert third == []
    assert len(set(first) | set(second)) == len(first) + len(second)


def test_junk_before_the_last_record_is_an_error_naming_its_line(proof, cli_env, tmp_path, capsys):
    records, _, _ = proof
    lines = [json.dumps(r) for r in half(records)]
    lines.insert(5, "garbage")
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert_one_line_error(cli(cli_env, "run", "--resume", str(path)), "line 6 is not JSON")
    assert_one_line_error(report_here(capsys, str(path), "--out", str(tmp_path / "r.html")), "line 6 is not JSON")


def test_out_on_a_file_holding_a_run_is_refused(proof, cli_env, tmp_path):
    records, _, wordlist = proof
    path = write(tmp_path / "run.jsonl", half(records))
    before = Path(path).read_bytes()
    result = cli(cli_env, "run", *PROOF, "--wordlist", wordlist, "--out", path)
    assert_one_line_error(result, repr(path), "not empty", f"--resume {path}")
    assert Path(path).read_bytes() == before
    empty = tmp_path / "empty.jsonl"
    empty.touch()  # an empty file (mktemp's) is a new run's
    result = cli(cli_env, "run", *PROOF, "--wordlist", wordlist, "--out", str(empty))
    assert result.returncode == 0, result.stderr


def test_a_file_holding_two_runs_is_refused(proof, cli_env, tmp_path, capsys):
    records, _, _ = proof
    other = [{**records[0], "settings": {**records[0]["settings"], "searcher": "annealing", "size": "3x3"}},
             {"type": "improved", "board": "streaedlp", "score": 556, "elapsed": 1.0, "evaluations": 9}]
    path = write(tmp_path / "run.jsonl", other + half(records))
    assert_one_line_error(cli(cli_env, "run", "--resume", path), "line 3 starts another run", "one run")
    assert_one_line_error(report_here(capsys, path, "--out", str(tmp_path / "r.html")),
                          "line 3 starts another run", "one run")


def _split(records: list[dict[str, Any]], into: list[str]) -> tuple[list[dict[str, Any]], int]:
    """The proof's first class with an l-n-r-s-t first cell recorded as split instead of solved."""
    records = [json.loads(json.dumps(r)) for r in half(records)]
    for i, r in enumerate(records):
        rec = r.get("record", {})
        if "class" in rec and rec["class"][0] == "1":
            keep = {k: rec[k] for k in ("kind", "size", "buckets", "min_score")}
            r["record"] = {**keep, "split": rec["class"], "part": "", "into": into}
            return records, i + 1
    raise AssertionError("no class to split")


def test_a_well_formed_split_resumes_to_the_whole_proof(proof, cli_env, tmp_path):
    records, boards, _ = proof
    edited, _ = _split(records, ["0l", "0n", "0r", "0s", "0t"])
    path = write(tmp_path / "run.jsonl", edited)
    result = cli(cli_env, "run", "--resume", path, "--progress", "none", "--top", "10000")
    assert result.returncode == 0, result.stderr
    assert ranked(result.stdout) == boards


def _add_board(records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    records = [json.loads(json.dumps(r)) for r in half(records)]
    for i, r in enumerate(records):
        if "class" in r.get("record", {}):
            r["record"]["boards"].append(["zzzzzz", 999])
            return records, i + 1
    raise AssertionError("no class")


def _improved(records: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], int]:
    records = [json.loads(json.dumps(r)) for r in half(records)]
    records.append({"type": "improved", "board": "lasret", "score": 120, "elapsed": 1.0, "evaluations": 1})
    return records, len(records)


EDITS: dict[str, tuple[Callable[[list[dict[str, Any]]], tuple[list[dict[str, Any]], int]], str]] = {
    "split-into-whole-class": (lambda r: _split(r, [""]), "one more cell fixed"),
    "split-into-nonsense": (lambda r: _split(r, ["abc"]), "'abc'"),
    "split-into-nothing": (lambda r: _split(r, []), "not a non-empty list"),
    "split-missing-a-letter": (lambda r: _split(r, ["0l", "0n"]), "each of its letters once"),
    "split-letter-not-in-class": (lambda r: _split(r, ["0a", "0l", "0n", "0r", "0s", "0t"]), "'0a'"),
    "split-cell-past-the-board": (lambda r: _split(r, ["9l"]), "'9l'"),
    # accepted, its pieces were recorded as '0l' and so on, and every resume redid '00l'
    "split-piece-leading-zero": (lambda r: _split(r, ["00l", "0n", "0r", "0s", "0t"]), "'00l'"),
    "board-added-to-a-class": (_add_board, "'zzzzzz' scores 0, not the 999 recorded"),
    "improved-score-edited": (_improved, "'lasret' scores 119, not the 120 recorded"),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_record_that_cannot_be_trusted_is_refused_in_one_line(proof, cli_env, tmp_path, edit, capsys):
    """By --resume before the run starts (the file is left as it was) and by report."""
    records, _, _ = proof
    make, needle = EDITS[edit]
    edited, line = make(records)
    path = write(tmp_path / "run.jsonl", edited)
    before = Path(path).read_bytes()
    assert_one_line_error(cli(cli_env, "run", "--resume", path), f"line {line}", needle)
    assert Path(path).read_bytes() == before
    assert_one_line_error(report_here(capsys, path, "--out", str(tmp_path / "r.html")), f"line {line}", needle)


def test_resume_and_report_read_a_killed_segment_alike(tmp_path: Path) -> None:
    """One reader: a segment killed after a checkpoint counts up to that
    checkpoint, in the segment (what ``--resume`` has left) and in the total
    (what ``report`` shows); boards and checkpoints keep their lines."""
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"type": "start", "settings": {"searcher": "longword", "size": "3x3", "budget": {"seconds": 10}}},
        {"type": "improved", "board": "streaedlp", "score": 556, "elapsed": 1.0, "evaluations": 9},
        {"type": "checkpoint", "record": {"kind": "longword", "label": "x"}, "elapsed": 4.0,
         "evaluations": 20},
        {"type": "start", "settings": {"searcher": "longword", "size": "3x3"}},
        {"type": "improved", "board": "streaedlp", "score": 556, "elapsed": 0.5, "evaluations": 3},
    ]) + "\n")
    past = read_run_file(str(path))
    assert [(s.elapsed, s.evaluations) for s in past.history] == [(4.0, 20), (0.5, 3)]
    assert (past.elapsed, past.evaluations) == (4.5, 23)
    assert past.improved[1] == (4.5, 23, "streaedlp", 556)
    assert past.board_lines == [2, 5] and past.checkpoint_lines == [3]
    assert past.stop_reason is None and past.started == ""
