"""The SLURM array recipe (examples/campaigns/slurm-array.sh) run as SLURM
runs it: one task per shard, a killed task run again as a requeue resumes
its file, and the files verify as one proof."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from boggle_opt.registry.registries import Registries
from helpers import records

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "campaigns" / "slurm-array.sh"


def _task(k: int, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(["bash", str(SCRIPT)], env={**env, "SLURM_ARRAY_TASK_ID": str(k)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_the_slurm_array_recipe_runs_resumes_and_verifies(tmp_path: Path, registries: Registries,
                                                          cli_env: dict[str, str]) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(registries.wordlists.get("embedded").load()) + "\n", encoding="utf-8")
    out = tmp_path / "proof"
    env = {**cli_env, "SHARDS": "3", "SIZE": "2x3", "WORDLIST": str(words), "MIN_SCORE": "110",
           "OUT": str(out), "SLURM_CPUS_PER_TASK": "1"}
    # task 2 is preempted once it has written some classes, then requeued
    first = _task(2, env)
    shard = out / "shard-2.jsonl"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and first.poll() is None:
        if shard.exists() and sum(1 for r in records(shard) if "class" in r.get("record", {})) >= 3:
            break
        time.sleep(0.05)
    if first.poll() is None:
        os.killpg(first.pid, signal.SIGTERM)
    first.communicate(timeout=300)
    for k in (1, 2, 3):
        done = _task(k, env)
        stdout, stderr = done.communicate(timeout=120)
        assert done.returncode == 0, stdout + stderr
        assert f"shard {k}/3 done" in stdout, stdout
    assert sum(r["type"] == "start" for r in records(shard)) == 2  # the requeue resumed it
    check = subprocess.run(["boggle-opt", "verify", *sorted(map(str, out.glob("shard-*.jsonl")))],
                           env=cli_env, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "in 3 run files (3 shards)" in check.stdout and "proved:" in check.stdout


def test_a_shard_without_a_min_score_is_refused(tmp_path: Path, run_cli) -> None:  # type: ignore[no-untyped-def]
    """Each shard's warm-up climb could set its own min score, and shards of
    two min scores are not one proof: one line, before any work or file."""
    out = tmp_path / "s1.jsonl"
    done = run_cli("run", "--searcher", "bnb", "--size", "2x2", "--shard", "1/4", "--out", str(out))
    assert done.returncode != 0 and not out.exists()
    assert done.stderr.count("\n") == 1 and "needs --min-score" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
