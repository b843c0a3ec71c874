"""The SLURM array recipe (examples/campaigns/slurm-array.sh) on a real SLURM:
a single-node cluster (Debian's slurm-wlm and munge) started here for the
test (tests/slurm_cluster.py), the recipe submitted with ``sbatch --array=1-3``,
one task requeued with ``scontrol requeue`` as a preemption does (it resumes its
run file), and the three files verified as one proof.

Without SLURM and munge installed, or not as root, the test skips and says
why; under CI it fails instead (.ci/run installs them)."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from boggle_opt.registry.registries import Registries
from helpers import exe, records
from slurm_cluster import SlurmCluster, why_not_available

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "campaigns" / "slurm-array.sh"
#: how long the array may take (it takes about 20 s on 2 busy cores)
TIMEOUT = 240


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SlurmCluster]:
    """A single-node SLURM for this module's tests, stopped after them with
    every process it started."""
    reason = why_not_available()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"CI must test the SLURM recipe on a real SLURM (.ci/run installs it): {reason}")
        pytest.skip(reason)
    cluster = SlurmCluster(tmp_path_factory.mktemp("slurm", numbered=True))
    try:
        cluster.start()
        yield cluster
    finally:
        left = cluster.stop()
    assert not left, f"processes of the test's SLURM outlived its daemons (killed): {left}"


#: states a task does not come back from
FAILED = ("FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE")


def wait_until(done: Callable[[], bool], what: str, cluster: SlurmCluster, job: str, every: float,
               logs: Path) -> None:
    """Wait for ``done()``; fail at once, with the task's output, if a task fails."""
    deadline = time.monotonic() + TIMEOUT
    looked = 0.0
    while time.monotonic() < deadline:
        if done():
            return
        if time.monotonic() - looked > 1:
            looked = time.monotonic()
            for task, fields in cluster.tasks(job).items():
                out = logs / f"slurm-{job}_{task}.out"
                assert fields["JobState"] not in FAILED, (
                    f"task {task} {fields['JobState']} (reason {fields.get('Reason')}) while waiting for {what}\n"
                    + (out.read_text(encoding="utf-8") if out.exists() else f"(no {out.name})")
                    + "\n" + cluster.logs())
        time.sleep(every)
    shown = cluster.run("scontrol", "show", "job", job).stdout
    raise AssertionError(f"timed out after {TIMEOUT} s waiting for {what}\n{shown}\n{cluster.logs()}")


@pytest.mark.slow  # a real SLURM started, an array run, a task requeued
def test_the_slurm_array_recipe_on_a_real_slurm(slurm: SlurmCluster, tmp_path: Path, registries: Registries,
                                                cli_env: dict[str, str]) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join(registries.wordlists.get("embedded").load()) + "\n", encoding="utf-8")
    out = tmp_path / "proof"
    # the compute node is this machine: the job runs this environment's
    # boggle-opt; --export=ALL hands it the whole environment (PATH too)
    exports = f"ALL,SHARDS=3,SIZE=2x3,WORDLIST={words},MIN_SCORE=110,OUT={out},BOGGLE_OPT={exe()}"
    # the recipe asks for 2 CPUs and 2 GB a CPU (on 2 CPUs the tasks take
    # turns); a smaller machine gives what it has
    cpus = min(2, slurm.cpus)
    fit = ([] if cpus == 2 and slurm.memory_mb >= 4096 else
           [f"--cpus-per-task={cpus}", f"--mem-per-cpu={min(2048, slurm.memory_mb // cpus)}M"])
    submit = slurm.run("sbatch", "--parsable", "--array=1-3", f"--export={exports}", f"--chdir={tmp_path}",
                       f"--output={tmp_path}/slurm-%A_%a.out", *fit, str(SCRIPT), env=cli_env)
    assert submit.returncode == 0, submit.stdout + submit.stderr
    job = submit.stdout.strip().split(";")[0]

    # task 2 is preempted once its run file holds a class (while it runs, or on
    # a fast machine just after it finished): SLURM stops it with SIGTERM and
    # requeues it (#SBATCH --requeue), and the recipe resumes its file (a done
    # one as well: either way the file gets a second start record)
    shard = out / "shard-2.jsonl"

    def classes() -> int:
        """Class records in task 2's file so far (a line being written is not one yet)."""
        text = shard.read_text(encoding="utf-8") if shard.exists() else ""
        return sum('"class"' in line for line in text.splitlines(keepends=True) if line.endswith("\n"))

    wait_until(lambda: classes() > 0, "task 2 to record a class", slurm, job, every=0.05, logs=tmp_path)
    requeue = slurm.run("scontrol", "requeue", f"{job}_2")
    assert requeue.returncode == 0, requeue.stdout + requeue.stderr
    before = classes()

    def finished() -> bool:
        tasks = slurm.tasks(job)
        return (sorted(tasks) == ["1", "2", "3"] and all(f["JobState"] == "COMPLETED" for f in tasks.values())
                and tasks["2"]["Restarts"] == "1")

    wait_until(finished, "the three tasks to complete, task 2 after its requeue", slurm, job, every=0.5,
               logs=tmp_path)
    for k in (1, 2, 3):
        log = (tmp_path / f"slurm-{job}_{k}.out").read_text(encoding="utf-8")
        assert f"shard {k}/3 done" in log, log
    starts = [r for r in records(shard) if r["type"] == "start"]
    assert len(starts) == 2, f"task 2 (requeued with {before} of its 72 classes) did not resume its file: {starts}"
    check = subprocess.run([exe(), "verify", *sorted(map(str, out.glob("shard-*.jsonl")))],
                           env=cli_env, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "in 3 run files (3 shards)" in check.stdout and "proved:" in check.stdout, check.stdout
