"""benchmarks/bnb_draw.py and bnb_sample.py: a seeded draw, timed one class
a process, resumed without timing a class twice, and the estimate's figures;
cpp_anchor.py, shard_report.py and tail_memory.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.boards import size_geometry
from boggle_opt.proofs.board_classes import count_classes
from boggle_opt.proofs.class_tasks import label_buckets
from boggle_opt.runs.fingerprints import kernel_version

REPO = Path(__file__).resolve().parent.parent.parent
BENCH = REPO / "benchmarks"


def script(name: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BOGGLE_OPT_WORDLISTS"}
    return subprocess.run([sys.executable, str(BENCH / name), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=120)


def test_draw_time_and_resume(tmp_path: Path) -> None:
    """Two classes drawn: each is timed in a process of its own, and two show
    a lost one timed again and the other not."""
    drawn = script("bnb_draw.py", "--size", "3x3", "--sample", "2", "--seed", "5", "--wordlist", "default",
                   cwd=tmp_path)
    assert drawn.returncode == 0, drawn.stderr
    again = script("bnb_draw.py", "--size", "3x3", "--sample", "2", "--seed", "5", "--wordlist", "default",
                   cwd=tmp_path)
    assert again.stdout == drawn.stdout  # the seed fixes the sample
    rows = [line.split("\t") for line in drawn.stdout.splitlines() if not line.startswith("#")]
    assert len(rows) == 2 and all(len(r[0].split(" ")) == 9 and r[1] == "" for r in rows)
    assert all(0 < float(r[2]) <= 100 for r in rows)  # the cost model's percentile
    classes = tmp_path / "classes.tsv"
    classes.write_text(drawn.stdout)

    out = tmp_path / "results.tsv"
    args = (str(classes), "--out", str(out), "--size", "3x3", "--min-score", "400", "--wordlist", "default")
    first = script("bnb_sample.py", *args, "--total", "1000", "--jobs", "2", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    timed = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert sorted(int(line.split("\t")[0]) for line in timed) == [0, 1]
    assert "classes 2;" in first.stdout and "CPU-hours" in first.stdout and "peak RSS" in first.stdout

    # a class lost (a run stopped part way) is timed again; the others are not
    out.write_text("\n".join([line for line in out.read_text().splitlines() if not line.startswith("1\t")]) + "\n")
    resumed = script("bnb_sample.py", *args, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    new = [line for line in resumed.stdout.splitlines() if not line.startswith("#")]
    assert [line.split("\t")[0] for line in new] == ["1"]
    assert len([line for line in out.read_text().splitlines() if not line.startswith("#")]) == 2
    assert "against the class file" not in first.stdout  # the drawn file has no CPU column yet

    # a class file holding an earlier run's CPU seconds: the run is set against them
    timed_file = tmp_path / "timed.tsv"
    timed_file.write_text("".join(
        line + "\n" if line.startswith("#") else "\t".join([line.split("\t")[0], "0.5", *line.split("\t")[2:]]) + "\n"
        for line in drawn.stdout.splitlines()
    ))
    again_out = tmp_path / "again.tsv"
    vs = script("bnb_sample.py", str(timed_file), "--out", str(again_out), "--size", "3x3", "--min-score", "400",
                "--wordlist", "default", cwd=tmp_path)
    assert vs.returncode == 0, vs.stderr
    assert "against the class file's CPU (2 classes)" in vs.stdout, vs.stdout


def test_cpp_anchor_table(tmp_path: Path) -> None:
    """benchmarks/cpp_anchor.py table: the C++'s results (a class stopped at
    its CPU limit counted at the limit) beside bnb_sample.py's, written back
    as an anchor file (class, C++ CPU s, ours; a stopped class no C++ time)."""
    classes = tmp_path / "classes.tsv"
    classes.write_text("# drawn\nab c d e\t\nf g h i\t\nj k l m\t\n")
    cpp = tmp_path / "cpp.out"
    cpp.write_text("# header\n0\t2.00\t300\t0\t100\t4000\n1\t>10\t\t\t\t\n2\t1.00\t200\t1\t50\t3000\n")
    ours = tmp_path / "ours.out"
    cols = ["", "", "", "", "", "", "", "", "", "", ""]  # bnb_classes.py's columns 2-11
    ours.write_text("".join(f"{i}\t{cpu}\t" + "\t".join(cols[1:10]) + f"\t{mb}\t{mb}\n"
                            for i, cpu, mb in [(0, 1.0, 100), (1, 2.5, 150), (2, 1.0, 90)]))
    written = tmp_path / "anchor.tsv"
    out = script("cpp_anchor.py", "table", str(classes), "--cpp", str(cpp), "--ours", str(ours),
                 "--write", str(written), cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "3 of 3 classes" in out.stdout and "stopped at its CPU limit on 1" in out.stdout
    assert "C++ 13.0 s, ours 4.5 s, ratio 0.35" in out.stdout  # 10 s counted for the stopped class
    assert "per class median 0.50" in out.stdout
    assert "C++ largest 300 MB" in out.stdout and "ours largest 150 MB" in out.stdout
    rows = [line.split("\t") for line in written.read_text().splitlines() if not line.startswith("#")]
    assert rows == [["ab c d e", "2.00", "1.000"], ["f g h i", "", "2.500", "C++ stopped at 10 s CPU"],
                    ["j k l m", "1.00", "1.000"]]


def test_shard_report(tmp_path: Path, run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    """benchmarks/shard_report.py on a finished shard of a 2x3 proof: every
    class counted, per-class memory read from the records, the boards, the
    whole proof's estimate from the stride sample, and the class table."""
    out = tmp_path / "s1.jsonl"
    done = run_cli("run", "--searcher", "bnb", "--size", "2x3", "--min-score", "110", "--shard", "1/4",
                   "--jobs", "1", "--progress", "none", "--out", str(out))
    assert done.returncode == 0, done.stderr
    recs = [json.loads(line)["record"] for line in out.read_text().splitlines()
            if json.loads(line).get("type") == "checkpoint" and "class" in json.loads(line)["record"]]
    assert recs and all(r["arena_mb"] >= 0 and r["worker_peak_mb"] > 0 for r in recs)
    boards = {b for r in recs for b, _ in r["boards"]}
    table = tmp_path / "classes.tsv"
    report = script("shard_report.py", str(out), "--tsv", str(table), "--against", "a guess=1.0±0.5", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    text = report.stdout
    assert f"shard: 1/4; classes recorded {len(recs):,} of {len(recs):,}\n" in text, text
    assert f"boards >= 110: {len(boards):,}" in text
    assert "every class stayed under 1 GB" in text and f"per class ({len(recs):,} recorded)" in text
    # the estimate: the proof's classes (all shards) x this shard's mean class CPU
    setup = next(json.loads(line)["record"] for line in out.read_text().splitlines()
                 if json.loads(line).get("type") == "checkpoint" and json.loads(line)["record"].get("setup"))
    geometry = size_geometry("2x3")
    population = count_classes(geometry, [len(b) for b in label_buckets(setup["buckets"], geometry)])
    hours = population * sum(r["cpu"] for r in recs) / len(recs) / 3600
    assert f"whole proof (4 shards, {population:,} classes), from this stride sample: {hours:,.0f} ± " in text, text
    assert "against a guess 1 ± 0" in text
    rows = table.read_text().splitlines()
    assert rows[0].startswith("class\tcpu_s") and len(rows) == len(recs) + 1
    # a torn last line (a killed run) is left out, as resume leaves it
    torn = tmp_path / "torn.jsonl"
    torn.write_text(out.read_text() + '{"type": "checkpoint", "elap')
    cut = script("shard_report.py", str(torn), cwd=tmp_path)
    assert cut.returncode == 0, cut.stderr
    same = [line for line in text.splitlines() if line.startswith(("shard:", "class CPU:", "whole proof"))]
    assert len(same) == 3 and all(line in cut.stdout.splitlines() for line in same), cut.stdout
    # the table is never written over
    again = script("shard_report.py", str(out), "--tsv", str(table), cwd=tmp_path)
    assert again.returncode != 0 and len(table.read_text().splitlines()) == len(recs) + 1

    # published boards: each placed in its class and shard; one this shard
    # lists is found, one it does not list (a score it does not have) is named
    board, score = next((b, s) for r in recs for b, s in r["boards"])
    known = tmp_path / "known.txt"
    known.write_text(f"{board}: {score}\n")
    placed = script("shard_report.py", str(out), "--known", str(known), cwd=tmp_path)
    assert placed.returncode == 0 and f"{board} {score}  class " in placed.stdout, placed.stdout
    assert "shard 1/4  <- this shard: listed" in placed.stdout
    known.write_text(f"{board}: {score + 1}\n")
    missing = script("shard_report.py", str(out), "--known", str(known), cwd=tmp_path)
    assert missing.returncode == 2 and f"NOT LISTED (the shard has {score})" in missing.stdout, missing.stdout


@pytest.mark.slow  # six processes, each loading the kernel and a word list
def test_tail_memory(tmp_path: Path) -> None:
    """benchmarks/tail_memory.py on a 2x2 table of made-up times and a made-up
    word list: each picked class solved at each memory and way in a process
    of its own, the same boards at each, and the proof priced at each."""
    from boggle_opt.proofs.board_classes import ClassSpace, class_name

    words = tmp_path / "words.txt"
    words.write_text("ales\nalts\nanes\nants\nearl\nears\neast\nlane\nlast\nlens\nlent\nnest\nrate\nrest\n"
                     "sale\nsalt\nseal\nsent\nslat\nslen\nstar\ntale\ntarn\nteal\ntear\ntern\n")
    names = [class_name(c) for c in ClassSpace(size_geometry("2x2"), [3] * 4).iterate(shuffled=False)][:10]
    table = tmp_path / "classes.tsv"
    table.write_text("class\tcpu_s\n" + "".join(f"{n}\t{i + 1}\n" for i, n in enumerate(names)))
    r = script("tail_memory.py", str(table), "--size", "2x2", "--min-score", "1", "--wordlist", str(words),
               "--memory", "0.0001,2000", "--dedup", "auto", "--way", "share,split", "--tail", "0.2", "--slow", "0.4", "--stride", "2", "--total", "21",
               cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    lines = [line.split("\t") for line in r.stdout.splitlines() if not line.startswith("#")]
    runs = [line for line in lines if len(line) == 12]
    # the 2 slowest classes (the tail) and every 2nd of the next 2, at each memory
    settings = ["0.0001 MB", "0.0001 MB, split", "2000 MB", "2000 MB, split"]
    assert sorted((row[0], row[3]) for row in runs) == sorted(
        (n, m) for n in (names[9], names[8], names[7]) for m in settings)
    assert {row[2] for row in runs} == {"tail", "slow"}
    priced = [line[0] for line in lines if len(line) == 4]
    assert priced == [f"{s}, measured" for s in settings]
    assert all("proof" in line[2] and "±" in line[2] for line in lines if len(line) == 4)
    # the second setting against the first, class by class
    assert any(line[0].startswith("2000 MB against 0.0001 MB: ") and "over 3 classes" in line[0]
               for line in lines), r.stdout
    bad = script("tail_memory.py", str(table), "--size", "2x2", "--min-score", "1", "--way", "spill", cwd=tmp_path)
    assert bad.returncode != 0 and "--way 'spill': not share or split" in bad.stderr
    missing = script("tail_memory.py", str(table), "--size", "2x2", "--min-score", "1", "--baseline",
                     str(tmp_path / "no-python"), cwd=tmp_path)
    assert missing.returncode != 0 and "not a Python this user can run" in missing.stderr
    assert "Traceback" not in missing.stderr
    # --record: figures appended as they come; a second run solves nothing
    # again and prices the same; a file of another measurement is refused
    record = tmp_path / "tail.jsonl"
    again = [str(table), "--size", "2x2", "--min-score", "1", "--wordlist", str(words), "--memory", "0.0001,2000",
             "--tail", "0.2", "--slow", "0.4", "--stride", "2", "--total", "21", "--record", str(record)]
    first = script("tail_memory.py", *again, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert len(record.read_text().splitlines()) == 6 and "(recorded)" not in first.stdout
    # each figure names the kernel source it measured
    assert {json.loads(line)["kernel"] for line in record.read_text().splitlines()} == {kernel_version()}
    second = script("tail_memory.py", *again, cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert len(record.read_text().splitlines()) == 6 and second.stdout.count("(recorded)") == 6
    assert "6 figures recorded before" in second.stdout

    def prices(out: str) -> list[str]:
        return [line for line in out.splitlines() if "\tshard " in line]

    assert prices(second.stdout) == prices(first.stdout) and len(prices(first.stdout)) == 2
    # --recorded-only: the same prices from the file, nothing solved
    only = script("tail_memory.py", *again, "--recorded-only", cwd=tmp_path)
    assert only.returncode == 0 and prices(only.stdout) == prices(first.stdout), only.stderr
    other = script("tail_memory.py", *again[:4], "2", *again[5:], cwd=tmp_path)
    assert other.returncode != 0 and "of another measurement" in other.stderr
    assert len(record.read_text().splitlines()) == 6
    # --baseline: each class solved by the shard's kernel too (here this
    # install, through shard_kernel_one.py), and each setting read against it
    base = script("tail_memory.py", *again[:-2], "--memory", "2000", "--baseline", sys.executable, cwd=tmp_path)
    assert base.returncode == 0, base.stderr
    lines = [line.split("\t") for line in base.stdout.splitlines() if not line.startswith("#")]
    assert sorted(row[3] for row in lines if len(row) == 12) == ["2000 MB"] * 3 + ["the shard's kernel"] * 3
    assert [line[0] for line in lines if len(line) == 4] == [
        "the shard's kernel, measured", "2000 MB, measured", "2000 MB, against the shard's record"]
    assert any(line[0].startswith("2000 MB against the shard's kernel: ") and "over 3 classes" in line[0]
               for line in lines), base.stdout


@pytest.mark.slow  # two processes, each loading the kernel and the default list
def test_bnb_classes_worker_memory(tmp_path: Path) -> None:
    """benchmarks/bnb_classes.py --worker-memory: a class solved with a tiny
    worker's thresholds (split a letter at a time) finds what the default finds."""
    classes = tmp_path / "classes.txt"
    classes.write_text("aeiou rst lnd aeiou st e rst aeiou lnd\n")
    runs = [script("bnb_classes.py", str(classes), "--size", "3x3", "--min-score", "10", "--wordlist", "default",
                   "--no-huge-pages", *extra, cwd=tmp_path)
            for extra in ([], ["--worker-memory", "0.01"], ["--worker-memory", "0.01", "--memory-way", "split"])]
    for r in runs:
        assert r.returncode == 0, r.stderr
    assert "a 0.01 MB worker's thresholds" in runs[1].stdout and "worker's thresholds" not in runs[0].stdout
    rows = [[line.split("\t") for line in r.stdout.splitlines() if line.startswith("0\t")][0] for r in runs]
    assert rows[0][13:15] == rows[1][13:15]  # the same candidates and boards
    # the tiny worker split the class and shared its families; the default did neither
    assert "subclasses" in rows[1][15] and "shared" in rows[1][15], rows[1]
    assert "subclasses" not in rows[0][15] and "shared" not in rows[0][15], rows[0]
    # the split way: the same boards, split and never shared
    assert "the split way" in runs[2].stdout and rows[2][13:15] == rows[0][13:15]
    assert "subclasses" in rows[2][15] and "shared" not in rows[2][15], rows[2]
