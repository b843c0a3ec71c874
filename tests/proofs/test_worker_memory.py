"""A worker's memory (bnb's ``worker-memory``; ``run`` and ``plan``
``--worker-memory MB``): the kernel's sharing, splitting and building in
passes scale with it (``proofs/memory.py``), and at the default they are the
kernel's own. The boards never depend on it. A run file records it, a resume
keeps it and refuses another, shards and Dask workers solve at it, plan
samples at it and hands it to the shards, and verify may re-solve at
another."""

from __future__ import annotations

import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boggle_opt.core.branch import ClassSolver
from boggle_opt.core.geometry import Geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.proofs.class_tasks import ClassContext, ClassTask
from boggle_opt.proofs.memory import DEFAULT_WORKER_MB, fit_memory, MAX_WORDS, WAYS
from boggle_opt.registry.registries import Registries
from boggle_opt.runs.run import RunSpec

from helpers import assert_one_line_error, records, small  # noqa: F401  (small: a fixture)

Run = Callable[..., subprocess.CompletedProcess[str]]

#: a worker so small that 2x2 classes are built in passes, shared and split
TINY = "0.0001"


@pytest.fixture(scope="module")
def words(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A made-up word list: 116 strings of 3-4 letters of 7."""
    rng = random.Random(3)
    made = sorted({"".join(rng.choice("aelnrst") for _ in range(rng.randint(3, 4))) for _ in range(120)})
    path = tmp_path_factory.mktemp("words") / "made-up.txt"
    path.write_text("\n".join(made) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def proof(words: Path) -> list[str]:
    """A 2x2 proof of the made-up list: 21 classes, a few milliseconds of solving."""
    return ["run", "--searcher", "bnb", "--size", "2x2", "--wordlist", str(words), "--min-score", "1",
            "--progress", "none"]


def thresholds(solver: ClassSolver) -> tuple[int, ...]:
    b = solver.builder
    return (solver.split_words, solver.split_again_words, solver.split_deep_words, b.share_words,
            b.key_pass_words, b.pass_paths)


@pytest.mark.parametrize("size", [(3, 3), (4, 4)])
def test_the_default_memory_is_the_kernels_own_thresholds(
    small: tuple[dict[bytes, int], Dictionary], size: tuple[int, int]  # noqa: F811
) -> None:
    """At the default, every threshold is the one the kernel sets itself
    (so a default run decides as before), and they scale with the memory."""
    _, d = small
    own = ClassSolver(d.trie, Geometry(*size))
    fitted = ClassSolver(d.trie, Geometry(*size))
    fit_memory(fitted, DEFAULT_WORKER_MB)
    assert thresholds(fitted) == thresholds(own)
    fit_memory(fitted, 2 * DEFAULT_WORKER_MB)
    assert thresholds(fitted) == tuple(2 * t for t in thresholds(own))
    fit_memory(fitted, DEFAULT_WORKER_MB / 2)
    assert thresholds(fitted) == tuple(t // 2 for t in thresholds(own))
    fit_memory(fitted, 1e-9)  # never 0, which would mean "share every class" or "never split"
    assert thresholds(fitted) == tuple(min(t, 1) for t in thresholds(own))
    for huge in (2.0 ** 63, 1e300):  # the kernel's thresholds are 64-bit: at most MAX_WORDS, never an overflow
        for way in WAYS:
            fit_memory(fitted, huge, way)
            assert max(thresholds(fitted)) == MAX_WORDS



def test_memory_past_the_default_keeps_forced_builds_keys(
    small: tuple[dict[bytes, int], Dictionary]  # noqa: F811
) -> None:
    """A worker of the default memory or less gives a forced build's big key
    buffers back as the kernel does; past it, it keeps buffers of up to an
    eighth of the memory past the default each."""
    from boggle_opt.core.builder import KEEP_KEYS

    _, d = small
    fitted = ClassSolver(d.trie, Geometry(4, 4))
    assert fitted.builder.keep_forced == KEEP_KEYS
    fit_memory(fitted, 4000)
    assert fitted.builder.keep_forced == 3000 * 10**6 // 64
    for mb in (DEFAULT_WORKER_MB, DEFAULT_WORKER_MB / 2, 1e-9, 1001):
        fit_memory(fitted, mb)
        assert fitted.builder.keep_forced == KEEP_KEYS
    fit_memory(fitted, 2.0 ** 63)
    assert fitted.builder.keep_forced == MAX_WORDS

def test_more_than_a_petabyte_is_one_line_everywhere(run_cli: Run, tmp_path: Path, proof: list[str]) -> None:
    """Every --worker-memory, verify's too, takes at most MAX_WORKER_MB (a
    petabyte), as bnb's option does: verify once gave a traceback (the
    kernel's thresholds are 64-bit)."""
    out = tmp_path / "run.jsonl"
    r = run_cli(*proof, "--worker-memory", "1e9", "--out", str(out))
    assert r.returncode == 0, r.stderr
    v = run_cli("verify", str(out), "--recheck", "all", "--budget", "0.01", "--worker-memory", "1e9")
    assert v.returncode == 0, v.stdout + v.stderr
    huge = "9223372036854775807"
    for args in ([*proof, "--worker-memory", huge], [*proof, "-o", "worker-memory", huge],
                 ["verify", str(out), "--recheck", "all", "--worker-memory", huge],
                 ["plan", "--size", "2x2", "--wordlist", proof[proof.index("--wordlist") + 1], "--min-score", "1",
                  "--worker-memory", huge]):
        assert_one_line_error(run_cli(*args), "worker-memory", "at most 1,000,000,000 MB")


def test_a_tiny_worker_shares_and_splits_and_finds_the_same_boards(
    small: tuple[dict[bytes, int], Dictionary]  # noqa: F811
) -> None:
    _, d = small
    buckets = [["ae", "lnrq", "ist"]] * 6
    args: tuple[Any, ...] = (d.keys, d.points, 2, 3, buckets, 20, 150, 0)
    default = ClassContext(*args)
    tiny = ClassContext(*args, worker_mb=0.01)
    rng = random.Random(5)
    split = shared = boards = 0
    for _ in range(12):
        task = ClassTask(tuple(rng.randrange(3) for _ in range(6)))
        whole, small_worker = default.run(task), tiny.run(task)
        assert not whole.subclasses and not whole.shared  # the kernel's own: these classes are small
        assert sorted(small_worker.boards) == sorted(whole.boards), task
        split += small_worker.subclasses > 0
        shared += small_worker.shared
        boards += len(whole.boards)
    assert split and shared and boards


def test_the_split_way_never_shares_and_finds_the_same_boards(
    small: tuple[dict[bytes, int], Dictionary]  # noqa: F811
) -> None:
    """``split`` (issue 79, part 2): where a tiny worker's kernel shares, it
    splits instead, as deep as it takes, and the boards are the same."""
    _, d = small
    buckets = [["ae", "lnrq", "ist"]] * 6
    args: tuple[Any, ...] = (d.keys, d.points, 2, 3, buckets, 20, 150, 0)
    default = ClassContext(*args)
    tiny = ClassContext(*args, worker_mb=0.01)
    fit_memory(tiny.solver, 0.01, "split")
    assert tiny.solver.builder.share_words < 0 and not tiny.solver.share_parts
    rng = random.Random(5)
    split = deep = 0
    for _ in range(12):
        task = ClassTask(tuple(rng.randrange(3) for _ in range(6)))
        whole, small_worker = default.run(task), tiny.run(task)
        assert sorted(small_worker.boards) == sorted(whole.boards), task
        assert not small_worker.shared
        split += small_worker.subclasses > 0
        deep += small_worker.subclasses > 4  # more parts than the first branching cell has letters
    assert split and deep
    # and the kernel's own way again, as the same solver was before
    fit_memory(tiny.solver, DEFAULT_WORKER_MB, WAYS[0])
    assert thresholds(tiny.solver) == thresholds(default.solver) and tiny.solver.share_parts == default.solver.share_parts
    with pytest.raises(ValueError, match="not one of share, split"):
        fit_memory(tiny.solver, DEFAULT_WORKER_MB, "spill")


@pytest.fixture(scope="module")
def default_proof(run_cli: Run, tmp_path_factory: pytest.TempPathFactory, proof: list[str]) -> dict[str, Any]:
    """The 2x2 proof at the default memory: its run file's class records, by class."""
    out = tmp_path_factory.mktemp("default") / "run.jsonl"
    r = run_cli(*proof, "--out", str(out))
    assert r.returncode == 0, r.stderr
    return by_class(out)


def by_class(path: Path) -> dict[str, Any]:
    return {r["record"]["class"]: r["record"] for r in records(path)
            if r["type"] == "checkpoint" and "class" in r["record"]}


def options(path: Path) -> dict[str, Any]:
    [start] = [r for r in records(path) if r["type"] == "start"]
    return dict(start["settings"]["options"])


def assert_tiny_and_same_boards(path: Path, default_proof: dict[str, Any]) -> None:
    """The classes of ``path``, solved by a tiny worker, have the default
    run's boards; every class with a board was split, and some shared, where
    the default run split and shared none."""
    solved = by_class(path)
    assert solved
    for name, rec in solved.items():
        assert rec["boards"] == default_proof[name]["boards"]
        assert default_proof[name]["subclasses"] == 0 and not default_proof[name]["shared"]
        if rec["boards"]:
            assert rec["subclasses"] > 0, rec
    assert any(rec["shared"] for rec in solved.values())


def test_the_run_file_records_it_and_a_resume_keeps_it(
    run_cli: Run, tmp_path: Path, registries: Registries, default_proof: dict[str, Any], proof: list[str]
) -> None:
    out = tmp_path / "run.jsonl"
    r = run_cli(*proof, "--worker-memory", TINY, "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert options(out)["worker-memory"] == float(TINY)
    assert_tiny_and_same_boards(out, default_proof)
    # a resume of it solves at it
    assert RunSpec.resuming(str(out), registries).options.worker_memory == float(TINY)
    # a resume takes it from the file: another, either way given, is refused in one line
    for given in (["--worker-memory", "4000"], ["-o", "worker-memory", "4000"]):
        line = assert_one_line_error(run_cli("run", "--resume", str(out), *given), "--resume takes the run's settings")
        assert given[0] in line
    # and verify re-solves at the run's memory, or at another (the boards do not depend on it)
    for more in ([], ["--worker-memory", "2000"]):
        v = run_cli("verify", str(out), "--recheck", "all", "--budget", "0.01", *more)
        assert v.returncode == 0, v.stdout + v.stderr
        assert ("root bounds were not compared" in v.stdout) == bool(more)


def test_the_default_run_records_the_default(run_cli: Run, tmp_path: Path, proof: list[str]) -> None:
    out = tmp_path / "run.jsonl"
    r = run_cli(*proof, "--shard", "2/2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert options(out)["worker-memory"] == DEFAULT_WORKER_MB


def test_a_shard_solves_at_it(
    run_cli: Run, tmp_path: Path, default_proof: dict[str, Any], proof: list[str]
) -> None:
    shard = tmp_path / "shard.jsonl"
    r = run_cli(*proof, "--shard", "1/2", "--jobs", "2", "-o", "worker-memory", TINY, "--out", str(shard))
    assert r.returncode == 0, r.stderr
    assert_tiny_and_same_boards(shard, default_proof)
    assert options(shard)["worker-memory"] == float(TINY)


@pytest.mark.slow  # two shards, merge's verify and verify: half a minute on a busy machine
def test_shards_at_two_memories_are_one_proof(run_cli: Run, tmp_path: Path, proof: list[str]) -> None:
    """Shards at two memories merge and verify as one proof; the merged file
    says its shards ran at both, so verify compares their boards, not their
    root bounds (a class split at one memory may bound lower)."""
    shard = tmp_path / "shard.jsonl"
    assert run_cli(*proof, "--shard", "1/2", "--worker-memory", TINY, "--out", str(shard)).returncode == 0
    other = tmp_path / "other.jsonl"
    assert run_cli(*proof, "--shard", "2/2", "--out", str(other)).returncode == 0
    merged = tmp_path / "merged.jsonl"
    m = run_cli("merge", str(shard), str(other), "--out", str(merged), "--recheck", "all")
    assert m.returncode == 0, m.stdout + m.stderr
    [start] = [r for r in records(merged) if r["type"] == "start"]
    assert start["settings"]["merged_from"]["worker_memories"] == [float(TINY), DEFAULT_WORKER_MB]
    v = run_cli("verify", str(merged), "--recheck", "all", "--budget", "0.01")
    assert v.returncode == 0, v.stdout + v.stderr
    assert "several worker memories" in v.stdout.replace("\n#   ", " ")


@pytest.mark.slow  # a Dask LocalCluster started: seconds (tests/proofs/test_executors.py has a quick one)
def test_a_dask_run_solves_at_it(run_cli: Run, tmp_path: Path, default_proof: dict[str, Any], proof: list[str]) -> None:
    dask = tmp_path / "dask.jsonl"
    r = run_cli(*proof, "--executor", "dask", "--jobs", "1", "--worker-memory", TINY, "--out", str(dask))
    assert r.returncode == 0, r.stderr
    assert_tiny_and_same_boards(dask, default_proof)
    assert by_class(dask).keys() == default_proof.keys()


def test_plan_samples_at_it_and_gives_it_to_the_shards(run_cli: Run, words: Path) -> None:
    plan = ["plan", "--size", "2x2", "--wordlist", str(words), "--min-score", "1", "--sample", "6", "--jobs", "1",
            "--shards", "2"]
    r = run_cli(*plan, "--worker-memory", TINY)
    assert r.returncode == 0, r.stderr
    text = r.stdout.replace(" \\\n", " ")
    assert f"WORKER_MEMORY={TINY} " in text
    assert f"--worker-memory {TINY} --shard K/2" in text
    assert f"a {TINY} MB worker is smaller than its base" in text
    default = run_cli(*plan)
    assert default.returncode == 0, default.stderr
    assert "WORKER_MEMORY" not in default.stdout and "--worker-memory" not in default.stdout
    # the sample's largest tree: a tiny worker's is a subclass's
    assert nodes(r.stdout) < nodes(default.stdout)


def nodes(stdout: str) -> int:
    [line] = [line for line in stdout.splitlines() if line.startswith("largest task\t")]
    return int(line.split("(")[1].split(" nodes")[0].replace(",", ""))


def test_bad_worker_memory_is_one_line(run_cli: Run, proof: list[str]) -> None:
    assert_one_line_error(run_cli(*proof, "--worker-memory", "0"), "--worker-memory", "must be a number of MB > 0")
    assert_one_line_error(run_cli(*proof, "-o", "worker-memory", "-1"), "worker-memory", "must be > 0")
    assert_one_line_error(run_cli(*proof, "--worker-memory", "1000", "-o", "worker-memory", "2000"), "disagree")
