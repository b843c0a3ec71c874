"""``boggle-opt run`` and ``boggle-opt searchers`` through the real console script:
plain progress when piped, rich on a terminal, Ctrl-C and kills keep results,
``--out`` files are valid JSON lines and ``--resume`` continues them; what it
says of bad arguments through ``main`` in this process (``main_cli``)."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import SMALL, exe, on_a_terminal, records, start_cli, unwrapped

def wait_for(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def improved_written(path: Path) -> bool:
    return path.exists() and '"improved"' in path.read_text()


def test_searchers_lists_options_types_defaults_help(run_cli):
    r = run_cli("searchers")
    assert r.returncode == 0, r.stderr
    for name in ("hillclimb", "annealing", "genetic"):
        assert f"{name}: " in r.stdout
    assert "-o pool-size (int, default 500)" in r.stdout


@pytest.fixture(scope="module")
def piped(run_cli):
    """A small search with its progress piped (plain), run once for the tests that read it."""
    r = run_cli("run", *SMALL, "--evals", "20000")
    assert r.returncode == 0, r.stderr
    return r


def test_plain_progress_when_piped(piped):
    r = piped
    # plain progress: status lines and the stop line, nothing drawn, no terminal codes
    lines = unwrapped(r.stderr).splitlines()  # the stopped line wrapped to 80 columns
    assert lines and "\x1b[" not in r.stderr
    status = re.compile(r"^\[ *\d+\.\ds\] best \d[\d,]* [a-z]{9} evals [\d,]+ \([\d,]+/s\)")
    assert all(status.match(line) for line in lines[:-1]), r.stderr
    assert lines[-1].startswith("stopped: budget of 20,000 evaluations reached")
    assert "# rank\tboard\tscore\twords" in r.stdout
    assert "best board (" in r.stdout
    assert "seed 1" in r.stdout and "rule standard" in r.stdout
    first = r.stdout.split("# rank\tboard\tscore\twords\n")[1].splitlines()[0].split("\t")
    assert first[0] == "1" and len(first[1]) == 9 and int(first[2]) > 0 and int(first[3]) > 0


def test_same_seed_same_result(run_cli, piped):
    """Two runs of one seed (one showing its progress, one not) find the same boards."""
    a = piped
    b = run_cli("run", *SMALL, "--evals", "20000", "--progress", "none")
    assert a.returncode == b.returncode == 0
    strip = lambda out: [l for l in out.splitlines() if not l.startswith("# stopped")]  # noqa: E731
    assert strip(a.stdout) == strip(b.stdout)


def test_jsonl_progress(run_cli):
    r = run_cli("run", *SMALL, "--evals", "20000", "--progress", "jsonl")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(l) for l in r.stderr.splitlines()]
    assert lines[0]["type"] == "start" and lines[-1]["type"] == "finish"
    assert any(l["type"] == "improved" for l in lines)


def test_rich_display_on_a_terminal(cli_env, tmp_path):
    status, text = on_a_terminal(["run", *SMALL, "--time", "2"], {**cli_env, "COLUMNS": "120"}, tmp_path)
    assert status == 0
    # the live panel: its title, its figures and the searcher's own stats
    assert "hillclimb · standard · 3x3 · embedded" in text
    assert "best score" in text and "evaluations" in text and "elapsed" in text
    assert "budget left" in text and "pool" in text
    assert "# rank" in text


def test_ctrl_c_keeps_and_prints_results(cli_env, tmp_path):
    out = tmp_path / "run.jsonl"
    proc = start_cli(["run", *SMALL, "--time", "60", "--out", str(out), "--progress", "plain"], cli_env, tmp_path)
    wait_for(lambda: improved_written(out))
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "# stopped: interrupted" in stdout
    assert "best board (" in stdout
    recs = records(out)
    assert recs[0]["type"] == "start" and recs[-1]["type"] == "finish"
    assert recs[-1]["stop_reason"] == "interrupted"
    best = max(r["score"] for r in recs if r["type"] == "improved")
    assert recs[-1]["best"][0]["score"] == best


def test_killed_run_leaves_valid_jsonl_and_resumes(run_cli, cli_env, tmp_path):
    out = tmp_path / "run.jsonl"
    proc = subprocess.Popen(
        [exe(), "run", *SMALL, "--time", "60", "--out", str(out), "--progress", "none"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=cli_env, cwd=tmp_path,
    )
    wait_for(lambda: improved_written(out))
    time.sleep(0.5)
    proc.kill()
    proc.wait(timeout=10)
    recs = records(out)  # every line parses
    assert recs[0]["type"] == "start"
    assert all(r["type"] != "finish" for r in recs)
    found = {r["board"]: r["score"] for r in recs if r["type"] == "improved"}
    assert found

    r = run_cli("run", "--resume", str(out), "--evals", "5000", "--progress", "none")
    assert r.returncode == 0, r.stderr
    recs = records(out)
    assert [x["type"] for x in recs].count("start") == 2
    assert recs[-1]["type"] == "finish"
    assert recs[-1]["best"][0]["score"] >= max(found.values())
    assert "seed 1" in r.stdout and "hillclimb" in r.stdout


def test_resume_keeps_the_last_segments_jobs(run_cli, main_cli, tmp_path):
    """A resumed run runs on as many processes as its last segment (it once
    fell back to one, halving a long --jobs 2 pass), unless --jobs says."""
    out = tmp_path / "run.jsonl"
    r = run_cli("run", *SMALL, "--jobs", "2", "--evals", "2000", "--out", str(out), "--progress", "none")
    assert r.returncode == 0, r.stderr
    again = ["run", "--resume", str(out), "--evals", "2000", "--progress", "none"]
    for given, expected in [([], 2), (["--jobs", "1"], 1), ([], 1)]:
        r = run_cli(*again, *given)
        assert r.returncode == 0, r.stderr
        assert f"jobs {expected}" in r.stdout
        assert records(out)[-1]["type"] == "finish"
        assert [x["settings"]["jobs"] for x in records(out) if x["type"] == "start"][-1] == expected
    lines = out.read_text().splitlines()
    first = json.loads(lines[0])
    first["settings"]["jobs"] = "two"
    out.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    r = main_cli(*again)  # refused as the file is read: in this process
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "line 1: 'jobs' is not a whole number >= 1" in r.stderr


def test_jobs_two_merges_workers(run_cli):
    # one climb per worker: the run ends only when both have finished
    r = run_cli("run", *SMALL, "-o", "restarts", "1", "--jobs", "2", "--progress", "jsonl")
    assert r.returncode == 0, r.stderr
    assert "# stopped: searcher finished;" in r.stdout
    assert "jobs 2" in r.stdout and "# rank" in r.stdout
    records = [json.loads(line) for line in r.stderr.splitlines()]
    progress = [rec for rec in records if rec["type"] == "progress"]
    assert progress and all(rec["stats"]["worker"] in (0, 1) for rec in progress)
    finish = records[-1]
    assert finish["type"] == "finish" and finish["stop_reason"] == "searcher finished"


@pytest.mark.parametrize(
    "args, message",
    [
        (["run", "--searcher", "nope"], "unknown searcher 'nope'"),
        (["run", "--searcher", "hillclimb", "-o", "pool-size", "x"], "option 'pool-size'"),
        (["run", "--searcher", "hillclimb", "-o", "no-such", "1"], "no option 'no-such'"),
        (["run", "--searcher", "hillclimb", "--size", "0x3"], "size"),
        (["run", "--searcher", "hillclimb", "--time", "-1"], "--time"),
        (["run", "--searcher", "hillclimb", "--jobs", "0"], "--jobs"),
        (["run", "--searcher", "hillclimb", "--progress", "fancy"], "--progress"),
        (["run", "--resume", "/nonexistent/run.jsonl"], "cannot read run file"),
        (["run", "--resume", "x.jsonl", "--searcher", "hillclimb"], "drop --searcher"),
        (["run", "--searcher", "hillclimb", "--out", "/nonexistent/dir/f"], "cannot write run file"),
    ],
)
def test_bad_run_input_is_one_line(main_cli, args, message):
    r = main_cli(*args)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], r.stderr
    assert "Traceback" not in r.stderr
