"""``boggle-opt plan``'s estimate against a real proof's CPU measured in the
same test, and ``plan --shards N``: each shard's figures and the lines that
run them (run here, and verified as one proof)."""

from __future__ import annotations

import re
import resource
import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.registry.registries import Registries
from helpers import exe

Run = Callable[..., subprocess.CompletedProcess[str]]


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


def seconds(text: str) -> float:
    """``125 s``, ``2.4 s``, ``38.1 ms``, ``1.2 h`` -> seconds."""
    found = re.match(r"([\d,.]+) (h|s|ms)\b", text)
    assert found, text
    return float(found.group(1).replace(",", "")) * {"h": 3600.0, "s": 1.0, "ms": 0.001}[found.group(2)]


def commands(stdout: str) -> list[str]:
    """The shell commands plan prints (lines cut with backslashes joined)."""
    joined = re.sub(r" \\\n\s*", " ", stdout)
    return [line for line in joined.splitlines() if line.startswith(("boggle-opt ", "SHARDS="))]


def proof_cpu(args: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    """CPU seconds (user + system) of a run and all its worker processes: the
    children's rusage grows by the run's own and by its reaped workers'."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([exe(), *args], env=env, capture_output=True, text=True, timeout=900)  # a hang's ceiling
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


@pytest.fixture(scope="module")
def small_list(registries: Registries, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every 8th word of at most 5 letters of the embedded list (1,866 words):
    a 3x3 proof whose classes cost milliseconds, so plan's counting of the
    set-up and the per-class work matters as much as its sample."""
    words = [w for w in registries.wordlists.get("embedded").load() if len(w) <= 5][::8]
    path = tmp_path_factory.mktemp("plan") / "small.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


# the 3x3 case (about 40 s of CPU: the plan and the whole proof) in the slow tier
@pytest.mark.parametrize("case", [pytest.param("3x3-small-list", marks=pytest.mark.slow), "2x3-embedded"])
def test_the_estimate_holds_against_the_proof(
    case: str, small_list: Path, run_cli: Run, cli_env: dict[str, str], tmp_path: Path
) -> None:
    # 3x3 on the small list: about 20 s of CPU, mostly solving; 2x3 on the
    # embedded list: about 2 s, mostly set-up (the interpreters, the word list)
    size, wordlist, min_score, sample = (
        ("3x3", str(small_list), "45", "200") if case == "3x3-small-list" else ("2x3", "embedded", "110", "40")
    )
    common = ["--size", size, "--wordlist", wordlist, "--min-score", min_score, "--jobs", "2"]
    plan = run_cli("plan", *common, "--sample", sample)
    assert plan.returncode == 0, plan.stderr
    assert f"plan: {sample} of {sample} classes solved" in plan.stderr  # progress while it solves
    estimate = seconds(fields(plan.stdout)["CPU"])
    measured, proof = proof_cpu(["run", "--searcher", "bnb", *common, "--out", str(tmp_path / "proof.jsonl"),
                                 "--progress", "none"], cli_env)
    assert proof.returncode == 0, proof.stderr
    print(f"{case}: plan {estimate:.1f} s CPU, the proof {measured:.1f} s, ratio {estimate / measured:.2f}")
    assert 0.65 <= estimate / measured <= 1.5, (estimate, measured, plan.stdout)


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_plan_for_shards_prints_each_shards_figures_and_lines_that_run(
    run_cli: Run, cli_env: dict[str, str], tmp_path: Path
) -> None:
    r = run_cli("plan", "--size", "2x3", "--min-score", "110", "--sample", "20", "--jobs", "1",
                "--shards", "3")
    assert r.returncode == 0, r.stderr
    assert all(len(line.expandtabs()) <= 80 for line in r.stdout.splitlines()), r.stdout
    f = fields(r.stdout)
    assert f["shards"].startswith("3: 72 classes each (one class in 3: run --shard K/3), each with --jobs 1")
    mean = seconds(f["shard CPU"])
    slowest = seconds(re.search(r"the slowest of 3 about (.*)", f["shard CPU"]).group(1))  # type: ignore[union-attr]
    assert 0 < mean <= slowest
    assert "a class slower than the sample's slowest" in f["shard CPU"]  # the tail's limit, said
    assert re.match(r"[\d,]+ MB at the sample's peak", f["shard memory"])
    # a shard's set-up is paid once per shard: the shards together cost more than one run
    together = seconds(f["all shards"])
    one_run = seconds(re.search(r"one run: ([^)]*)", f["all shards"]).group(1))  # type: ignore[union-attr]
    assert together >= one_run
    sbatch, plain = commands(r.stdout)
    assert sbatch.startswith("SHARDS=3 SIZE=2x3 WORDLIST=default RULE=standard MIN_SCORE=110 OUT=proof sbatch "
                             "--array=1-3 --cpus-per-task=1 --mem-per-cpu=")
    assert sbatch.endswith(" --export=ALL examples/campaigns/slurm-array.sh")
    assert "boggle-opt verify --jobs 1 proof/shard-*.jsonl" in r.stdout  # the shards' --jobs
    # the plain line, run for each K, is a proof that verifies whole
    for k in (1, 2, 3):
        words = shlex.split(plain.replace("K/3", f"{k}/3").replace("shard-K", str(tmp_path / f"shard-{k}")))
        done = subprocess.run([exe(), *words[1:], "--progress", "none"], env=cli_env, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert f"shard {k}/3 done" in done.stdout
    check = run_cli("verify", *(str(tmp_path / f"shard-{k}.jsonl") for k in (1, 2, 3)), "--budget", "1")
    assert check.returncode == 0, check.stdout + check.stderr
    assert "in 3 run files (3 shards)" in check.stdout


def test_plan_for_shards_carries_options_and_a_word_list_file(run_cli: Run, small_list: Path) -> None:
    r = run_cli("plan", "--size", "2x3", "--wordlist", str(small_list), "--min-score", "20", "--sample", "6",
                "--jobs", "1", "--shards", "2", "-o", "switch", "1.2")
    assert r.returncode == 0, r.stderr
    sbatch, plain = commands(r.stdout)
    assert f"WORDLIST={small_list}" in sbatch  # an absolute path: shards run elsewhere
    assert "-o switch 1.2 --shard K/2" in plain
    assert "the script runs bnb's default buckets and switch" in r.stdout


def test_plan_for_shards_bad_input_is_one_line(run_cli: Run) -> None:
    for args, message in [
        (["--shards", "217"], "--shards 217: at most one shard per class (216 classes)"),
        (["--shards", "0"], "--shards"),
        (["-o", "shard", "1/2"], "use --shards N, not -o shard"),
        (["--shards", "x"], "--shards"),
    ]:
        r = run_cli("plan", "--size", "2x3", "--min-score", "110", "--sample", "2", *args)
        assert r.returncode != 0 and r.stderr.count("\n") == 1 and message in r.stderr, (args, r.stderr)
