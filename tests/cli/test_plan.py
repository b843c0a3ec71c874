"""``boggle-opt plan``: a proof's cost estimated from a seeded sample of its classes."""

from __future__ import annotations

import re
import time
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest


def fields(stdout: str) -> dict[str, str]:
    """``name<TAB>value`` lines, a value's continuation lines (a tab first) joined on."""
    out: dict[str, str] = {}
    name = ""
    for line in stdout.splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        key, value = line.split("\t", 1)
        if key:
            name, out[key] = key, value
        elif name:
            out[name] += " " + value
    return out


def test_plan_estimates_from_its_sample(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    args = ["plan", "--size", "2x3", "--min-score", "100", "--jobs", "4", "--worker-memory", "100000"]
    r = run_cli(*args, "--sample", "10", "--sample-out", str(tmp_path / "a.tsv"))
    assert r.returncode == 0, r.stderr
    assert all(len(line.expandtabs()) <= 80 for line in r.stdout.splitlines()), r.stdout
    f = fields(r.stdout)
    assert f["classes"] == "216"
    assert "min score 100;" in r.stdout.replace("\n# ", " ") and "min score" not in f  # given, not climbed
    assert f["sample"].startswith("10 classes (seed 1, by strata of the cost model)")
    # the whole: the sample scaled up, plus the set-up and the per-class work, each shown
    cpu = seconds(f["CPU"])
    solving = seconds(re.search(r"solving (.*?),", f["CPU"]).group(1))  # type: ignore[union-attr]
    extra = seconds(re.search(r"per-class\s+work (.*)", f["CPU"]).group(1))  # type: ignore[union-attr]
    assert abs(cpu - solving - extra) <= 0.1 + 0.01 * cpu
    assert abs(solving - 216 * seconds(f["per class"])) <= 0.1 + 0.01 * solving
    assert seconds(f["set-up"]) <= extra
    assert re.search(r"main process [\d.]+ m?s, 4 worker starts of", f["set-up"])
    assert seconds(f["wall time"]) == pytest.approx(cpu / 4, rel=0.05, abs=0.1)
    assert re.match(r"[\d,]+ MB tree arena \([\d,]+ nodes\)", f["largest task"])
    assert re.match(r"[\d,]+ MB a worker, [\d,]+ MB the main process", f["peak memory"])
    assert f["split"].startswith("none in the sample")
    # verify's default: each class record re-solved with a 5% chance (about 5% of the classes' CPU, at
    # least 30 s), and basin hops for a quarter of that
    assert re.fullmatch(r"by default about .* CPU re-solving class records \(each with a 5% chance; verify --jobs "
                        r"K: in K workers\) and .* of basin hops, beside reading the run file\(s\)",
                        f["verify"]), f["verify"]
    assert seconds(f["verify"].removeprefix("by default about ")) == pytest.approx(max(30.0, 0.05 * solving),
                                                                                  rel=0.05, abs=0.01)
    # the same seed draws the same sample; a tiny worker gets a node budget
    again = run_cli(*args[:-1], "1", "--sample", "10", "--sample-out", str(tmp_path / "b.tsv"))
    assert sorted(read_sample(tmp_path / "a.tsv")) == sorted(read_sample(tmp_path / "b.tsv"))
    assert "a 1 MB worker is smaller than its base" in fields(again.stdout)["split"]


def test_plan_climbs_for_a_missing_min_score(run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    # as the proof would: a short climb's best is the min score, and its CPU is counted
    r = run_cli("plan", "--size", "2x3", "--sample", "4", "--jobs", "1", "-o", "climb-seconds", "0.5")
    assert r.returncode == 0, r.stderr
    f = fields(r.stdout)
    assert re.match(r"\d+ \(the best of a 0.5 s climb", f["min score"]), f["min score"]
    assert "the climb" in f["set-up"]


def read_sample(path: Path) -> list[str]:
    return [line.split("\t")[0] for line in path.read_text().splitlines() if not line.startswith("#")]


def seconds(text: str) -> float:
    """``125 s``, ``2.4 s``, ``38.1 ms``, ``1.2 h`` at the start of ``text`` -> seconds."""
    found = re.match(r"([\d,.]+) (h|s|ms)\b", text)
    assert found, text
    return float(found.group(1).replace(",", "")) * {"h": 3600.0, "s": 1.0, "ms": 0.001}[found.group(2)]


def test_plan_writes_its_sample(run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    # the sampled classes as benchmarks/bnb_classes.py reads them, our CPU seconds beside each
    out = tmp_path / "sample.tsv"
    r = run_cli("plan", "--size", "2x3", "--min-score", "100", "--sample", "5", "--seed", "3",
                "--sample-out", str(out))
    assert r.returncode == 0, r.stderr
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == 5
    for line in lines:
        sets, cpu = line.split("\t")
        assert len(sets.split(" ")) == 6 and all(part.isalpha() for part in sets.split(" "))
        assert float(cpu) >= 0
    total = sum(float(line.split("\t")[1]) for line in lines)
    reported = seconds(re.search(r"\), (.*) CPU in", fields(r.stdout)["sample"]).group(1))  # type: ignore[union-attr]
    assert abs(total - reported) <= 0.005 + 0.01 * total  # each to 3 decimals, the sum to 3 digits
    # the file is not overwritten: a second plan names it and stops
    again = run_cli("plan", "--size", "2x3", "--min-score", "100", "--sample", "5", "--sample-out", str(out))
    assert again.returncode == 1 and "cannot write --sample-out" in again.stderr


def test_plan_bad_input_is_one_line(run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    for args, message in [
        (["--min-score", "0"], "must be >= 1"),
        (["--min-score", "10", "-o", "min-score", "5"], "disagree"),
        (["--min-score", "10", "-o", "colour", "red"], "no option 'colour'"),
        (["--min-score", "10", "--size", "0x3"], "size"),
    ]:
        r = run_cli("plan", "--size", "2x2", *args)
        assert r.returncode != 0 and r.stderr.count("\n") == 1 and message in r.stderr, (args, r.stderr)


def test_plain_progress_says_a_count_once_until_it_changes(capsys: pytest.CaptureFixture[str]) -> None:
    """Off a terminal, a line when the count has changed (every few seconds at
    most), the same line again only after a minute: a sample of slow 4x4
    classes once filled a log with one line every 5 s."""
    from boggle_opt.cli.plan import _Progress

    now = [0.0]
    progress = _Progress(3, clock=lambda: now[0])
    for t, done in [(1, 0), (6, 0), (11, 0), (12, 1), (13, 1), (71, 1), (72, 1), (73, 2), (74, 3)]:
        now[0] = float(t)
        progress.show(done)
    assert capsys.readouterr().err.splitlines() == [
        "plan: 0 of 3 classes solved",  # at 1 s: the solve has begun
        "plan: 1 of 3 classes solved",  # at 12 s: changed, 11 s since the last line
        "plan: 1 of 3 classes solved (unchanged for 60 s)",  # at 72 s: unchanged for a minute
        "plan: 3 of 3 classes solved",  # at 74 s: the last (73 s: changed, but 1 s after a line)
    ]


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_ctrl_c_keeps_the_running_estimate_with_its_error(cli_env: dict[str, str], tmp_path: Path) -> None:
    """An interrupt kept nothing (issue 70: the tour's 3x4 plan ran for 7
    minutes on a busy machine): it prints the estimate from the classes
    solved so far, its standard error and how many classes it rests on, and
    exits 130 as ``run`` does. Stopped once the status line shows two
    classes solved, however long that takes (a ceiling, not a speed)."""
    import signal
    import threading

    from helpers import start_cli

    proc = start_cli(["plan", "--size", "3x4", "-o", "min-score", "1500", "--sample", "200", "--jobs", "2"],
                     cli_env, tmp_path)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")))  # type: ignore[union-attr]
    reader.start()
    try:
        deadline = time.monotonic() + 900
        solved = re.compile(r"^plan: ([2-9]|\d\d+) of 200 classes solved; solving the proof: about .* so far")
        while not any(solved.match(line) for line in list(lines)):
            assert proc.poll() is None, (proc.returncode, lines)
            assert time.monotonic() < deadline, lines
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        stdout = proc.stdout.read()  # type: ignore[union-attr]
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(timeout=60)
    assert proc.returncode == 130, (proc.returncode, stdout, lines)
    kept = fields(stdout).get("interrupted", "")
    found = re.fullmatch(r"solving the proof: about \S+ \S+ of CPU \(standard error \S+ \S+\), from (\d+) of "
                         r"the sample's 200 classes; set-up and per-class work not measured", kept)
    assert found and 2 <= int(found.group(1)) < 200, stdout
    assert all(len(line.expandtabs()) <= 80 for line in stdout.splitlines()), stdout
    assert lines[-1] == "boggle-opt: interrupted\n", lines  # one line, no traceback
    assert not any("Traceback" in line for line in lines), lines


def test_the_header_keeps_a_figure_with_its_name(capsys: pytest.CaptureFixture[str]) -> None:
    """The tour's 3x4 plan began ``# ...; min score`` / ``# 1500; buckets
    ... / corners`` / ``# abcdefghijklmnopqrstuvwxyz``: a figure cut from its
    name and a bucket from its letters, continued on ``# `` lines where the
    other commands' comments continue on ``#   ``."""
    import sys

    from boggle_opt.cli.plan import _Out

    label = "aeijou bcdfgmpqvwxz hklnrsty / corners abcdefghijklmnopqrstuvwxyz"
    _Out(sys.stdout).comment("plan: bnb 3x4; word list embedded (188,208 words); rule standard; min score 1500; "
                             f"buckets {label}", whole=["min score 1500", f"buckets {label}"])
    lines = capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    assert lines[0].startswith("# plan: ") and all(line.startswith("#   ") for line in lines[1:]), lines
    assert any("min score 1500" in line for line in lines) and any(f"buckets {label}" in line for line in lines)
