"""``boggle-opt plan``: a proof's cost estimated from a seeded sample of its classes."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path


def fields(stdout: str) -> dict[str, str]:
    return dict(line.split("\t", 1) for line in stdout.splitlines() if "\t" in line and not line.startswith("#"))


def test_plan_estimates_from_its_sample(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], enable2k_path: Path
) -> None:
    args = ["plan", "--size", "2x3", "--wordlist", "enable2k", "--min-score", "100", "--jobs", "4",
            "--worker-memory", "100000"]
    r = run_cli(*args, "--sample", "10")
    assert r.returncode == 0, r.stderr
    f = fields(r.stdout)
    assert f["classes"] == "216"
    assert f["sample"].startswith("10 classes (seed 1)")
    mean = float(re.match(r"([\d.]+) s CPU mean", f["per class"]).group(1))  # type: ignore[union-attr]
    cpu = float(re.match(r"([\d,.]+) s", f["CPU"]).group(1).replace(",", ""))  # type: ignore[union-attr]
    # CPU is printed in whole seconds, the mean to 3 decimals (x 216 classes)
    assert abs(cpu - mean * 216) <= 0.5 + 0.0005 * 216 + 0.01 * cpu
    wall = float(re.match(r"([\d,.]+) s on 4 worker", f["wall time"]).group(1))  # type: ignore[union-attr]
    assert abs(wall - cpu / 4) <= 1
    assert re.match(r"[\d,]+ MB tree arena \([\d,]+ nodes\)", f["largest task"])
    assert f["split"].startswith("none in the sample")
    # the same seed draws the same sample; a tiny worker gets a node budget
    again = fields(run_cli(*args[:-1], "1", "--sample", "10").stdout)
    assert again["sample"].split(",")[0] == f["sample"].split(",")[0]
    assert "a 1 MB worker is smaller than its base" in again["split"]



def test_plan_writes_its_sample(run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    # the sampled classes as benchmarks/bnb_classes.py reads them, our CPU seconds beside each
    out = tmp_path / "sample.tsv"
    r = run_cli("plan", "--size", "2x3", "--min-score", "100", "--sample", "5", "--seed", "3",
                "--sample-out", str(out))
    assert r.returncode == 0, r.stderr
    lines = [line for line in out.read_text().splitlines() if not line.startswith("#")]
    assert len(lines) == 5
    for line in lines:
        sets, seconds = line.split("\t")
        assert len(sets.split(" ")) == 6 and all(part.isalpha() for part in sets.split(" "))
        assert float(seconds) >= 0
    total = sum(float(line.split("\t")[1]) for line in lines)
    reported = float(re.search(r"([\d.]+) s CPU;", fields(r.stdout)["sample"]).group(1))  # type: ignore[union-attr]
    assert abs(total - reported) <= 0.1
    # the file is not overwritten: a second plan names it and stops
    again = run_cli("plan", "--size", "2x3", "--min-score", "100", "--sample", "5", "--sample-out", str(out))
    assert again.returncode == 1 and "cannot write --sample-out" in again.stderr


def test_plan_bad_input_is_one_line(run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    for args, message in [
        (["--min-score", "0"], "must be >= 1"),
        (["--min-score", "10", "-o", "min-score", "5"], "disagree"),
        ([], "plan needs the proof's min score: --min-score N"),
        (["--min-score", "10", "-o", "colour", "red"], "no option 'colour'"),
        (["--min-score", "10", "--size", "0x3"], "size"),
    ]:
        r = run_cli("plan", "--size", "2x2", *args)
        assert r.returncode != 0 and r.stderr.count("\n") == 1 and message in r.stderr, (args, r.stderr)
