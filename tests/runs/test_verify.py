"""``boggle-opt verify``: a complete proof passes; each kind of hole is named.

One small proof (2x3, the embedded word list's words of up to 6 tiles written
to a file: what a 2x3 board can spell, so the proof finds what the whole
list's does, and each verify builds a dictionary a sixth the size; a min score
a few boards reach, a node budget that splits some classes: 32 of the 216,
477 records to re-solve, where 20,000 split 130 into 1,273 records) is made
once;
each test edits a copy of its run file.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psutil
import pytest

from boggle_opt.proofs.board_classes import enumerate_classes
from boggle_opt.core.geometry import Geometry
from boggle_opt.registry.registries import Registries
from boggle_opt.runs.verify import Reservoir, verify_runs
from helpers import assert_one_line_error, exe, records as run_records, short_words

Run = Callable[..., subprocess.CompletedProcess[str]]
MIN_SCORE = "110"


@pytest.fixture(scope="session")
def proof(tmp_path_factory: pytest.TempPathFactory, registries: Registries, run_cli: Run) -> Path:
    folder = tmp_path_factory.mktemp("proof")
    words = folder / "words.txt"
    words.write_text("\n".join(short_words(registries, 6)) + "\n", encoding="utf-8")
    out = folder / "proof.jsonl"
    done = run_cli("run", "--searcher", "bnb", "--size", "2x3", "--wordlist", str(words),
                   "-o", "min-score", MIN_SCORE, "-o", "node-budget", "40000",
                   "--progress", "none", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _bnb(rec: dict[str, Any]) -> dict[str, Any]:
    return rec["record"] if rec.get("type") == "checkpoint" else {}


def _verify(run_cli: Run, path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli("verify", str(path), *args)


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_a_complete_proof_verifies(proof: Path, run_cli: Run) -> None:
    records = run_records(proof)
    assert any("split" in _bnb(r) for r in records), "the fixture should split some classes"
    assert any(_bnb(r).get("boards") for r in records), "the fixture should find some boards"
    done = _verify(run_cli, proof)
    assert done.returncode == 0, done.stdout + done.stderr
    total = len(enumerate_classes(Geometry(2, 3), 3))
    assert done.stdout.startswith(f"verified: {total:,} of {total:,} classes of 2x3"), done.stdout
    text = _unwrapped(done.stdout)
    assert "proved: baslet, batles and 6 more (134) are the 8 best 2x3 boards" in text, text
    assert "checked in full:" in text and "witnesses (sampled):" in text
    assert "class records re-solved by the compiled kernel" in text and "all agree" in text
    assert all(len(line) <= 80 for line in done.stdout.splitlines() if "/" not in line), done.stdout
    done = _verify(run_cli, proof, "--recheck", "3")
    assert "3 class records re-solved" in _unwrapped(done.stdout), done.stdout


def _workers() -> list[psutil.Process]:
    """This process's worker processes (multiprocessing's resource tracker
    serves the process, not a verify, and stays until it ends)."""
    return [p for p in psutil.Process().children(recursive=True)
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE
            and "resource_tracker" not in " ".join(p.cmdline())]


def _unwrapped(text: str) -> str:
    """verify's report with its wrapped lines joined again."""
    return text.replace("\n#   ", " ").replace("\n  ", " ")


def _first(records: list[dict[str, Any]], test: Callable[[dict[str, Any]], bool]) -> int:
    return next(i for i, r in enumerate(records) if test(_bnb(r)))


def _hole(run_cli: Run, path: Path, *args: str) -> str:
    done = _verify(run_cli, path, *args)
    assert done.returncode == 3, done.stdout + done.stderr
    assert done.stdout.startswith("NOT verified: ") and done.stdout.count("\n") == 1, done.stdout
    return done.stdout


def test_a_removed_class_is_named(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    records = run_records(proof)
    i = _first(records, lambda r: "class" in r and "part" not in r)
    name = records.pop(i)["record"]["class"]
    out = _hole(run_cli, _write(tmp_path / "f.jsonl", records))
    assert f"class {name} " in out and "is missing: no record of it" in out


def test_a_duplicated_class_is_named(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    records = run_records(proof)
    i = _first(records, lambda r: "class" in r and "part" not in r)
    records.append(records[i])
    out = _hole(run_cli, _write(tmp_path / "f.jsonl", records))
    assert f"class {records[i]['record']['class']} recorded twice" in out


@pytest.mark.parametrize("command", ["verify", "merge"])
def test_a_file_given_twice_is_named(proof: Path, tmp_path: Path, run_cli: Run, command: str) -> None:
    """Read twice, a file's classes were reported as recorded twice, as if the
    proof were wrong: the file is named instead, by its path or another name."""
    link = tmp_path / "link.jsonl"
    link.symlink_to(proof)
    out = ["--out", str(tmp_path / "merged.jsonl")] if command == "merge" else []
    assert_one_line_error(run_cli(command, str(proof), str(proof), *out), repr(str(proof)), "given twice")
    assert_one_line_error(run_cli(command, str(proof), str(link), *out),
                          repr(str(link)), f"the same file as {str(proof)!r}")
    assert not (tmp_path / "merged.jsonl").exists()


def test_a_missing_split_piece_is_named(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    records = run_records(proof)
    i = _first(records, lambda r: "class" in r and "part" in r)
    piece = records.pop(i)["record"]
    out = _hole(run_cli, _write(tmp_path / "f.jsonl", records))
    assert f"class {piece['class']} piece {piece['part']} is missing" in out


def test_a_changed_score_is_named(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    records = run_records(proof)
    i = _first(records, lambda r: bool(r.get("boards")))
    board, score = records[i]["record"]["boards"][0]
    records[i]["record"]["boards"][0][1] = score + 1
    out = _hole(run_cli, _write(tmp_path / "f.jsonl", records))
    assert f"board {board} is recorded as {score + 1} points but scores {score}" in out


def test_an_edited_word_list_is_named(proof: Path, run_cli: Run) -> None:
    """The run's word list, read from the path it recorded, lost a word since."""
    words = proof.parent / "words.txt"
    original = words.read_text(encoding="utf-8")
    lines = original.splitlines()
    gone = next(w for w in lines if len(w) >= 4 and w.isalpha())
    try:
        words.write_text("\n".join(w for w in lines if w != gone) + "\n", encoding="utf-8")
        out = _hole(run_cli, proof)
    finally:
        words.write_text(original, encoding="utf-8")
    assert "fingerprint: the word list's content does not match" in out


def test_an_edited_fingerprint_is_named(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    records = run_records(proof)
    records[0]["settings"]["fingerprint"]["rule"] = "standard:0000000000000000"
    out = _hole(run_cli, _write(tmp_path / "f.jsonl", records))
    assert "fingerprint: the scoring rule's points does not match" in out


def test_recheck_catches_boards_removed_from_a_record(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    """A record whose boards were dropped, with every other mention of them
    gone too, is consistent on its face: the witnesses show it (at the
    defaults, and by re-solving every record with --recheck all)."""
    records = run_records(proof)
    i = _first(records, lambda r: bool(r.get("boards")))
    dropped = {b for b, _ in records[i]["record"]["boards"]}
    records[i]["record"]["boards"] = []
    geometry = Geometry(2, 3)
    kept = [r for r in records
            if not (r["type"] == "improved" and geometry.canonical(r["board"]) in dropped)]
    for r in kept:
        if r["type"] == "finish":
            r["best"] = [b for b in r["best"] if geometry.canonical(b["board"]) not in dropped]
            r.pop("proof", None)
            r.pop("best_board", None)
            r.pop("best_score", None)
    path = _write(tmp_path / "f.jsonl", kept)
    assert "NOT verified: witness:" in _hole(run_cli, path)
    name = records[i]["record"]["class"]
    for jobs in ("1", "2"):  # in this process, and in worker processes
        out = _hole(run_cli, path, "--recheck", "all", "--jobs", jobs)
        assert out.startswith("NOT verified: witness:") and ("no class record holds" in out or (
            f"class {name}" in out and "is not in the record" in out)), out


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_records_are_re_solved_in_worker_processes(proof: Path, run_cli: Run) -> None:
    """``--jobs 2`` re-solves the same records as one job, in two workers,
    and counts their CPU in what verify spent."""
    one = _verify(run_cli, proof, "--recheck", "all")
    two = _verify(run_cli, proof, "--recheck", "all", "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stdout + two.stdout + two.stderr
    first, second = _unwrapped(one.stdout), _unwrapped(two.stdout)
    count = re.search(r"([0-9,]+) class records re-solved", first)
    assert count is not None, first
    assert f"{count.group(1)} class records re-solved" in second, second
    assert "of CPU in 2 worker processes" in second and "worker processes" not in first, second
    resolved = float(re.search(r"re-solved by the compiled kernel \(.*?\) in ([0-9.]+) s", second).group(1))
    spent = float(re.search(r"checked in ([0-9.]+) s of CPU", second).group(1))
    assert spent >= resolved, second


def _drawn(n: int, k: int, seed: int) -> list[int]:
    sampler: Reservoir[int] = Reservoir(k, seed)
    for item in range(n):
        sampler.offer(item)
    return sampler.items


def test_an_incomplete_proof_names_its_first_missing_class(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    records = run_records(proof)
    head = records[: len(records) // 2]
    recorded = {_bnb(r).get("class", _bnb(r).get("split")) for r in head}
    first = next(n for n in ("".join(map(str, c)) for c in enumerate_classes(Geometry(2, 3), 3))
                 if n not in recorded)
    out = _hole(run_cli, _write(tmp_path / "f.jsonl", head))
    assert f"class {first} " in out and "is missing" in out


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_verify_says_what_it_checks_on_stderr(proof: Path, run_cli: Run) -> None:
    """A big proof's verify takes minutes: each step gets a line on stderr
    (off a terminal, at once), the results stay on stdout."""
    done = _verify(run_cli, proof)
    assert done.returncode == 0 and done.stdout.startswith("verified:"), done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert all(line.startswith("verify: ") for line in lines), done.stderr
    steps = ["verify: reading and re-scoring proof.jsonl", "verify: checking that every class is recorded once",
             "verify: witnesses: 40 seeded climbs", "verify: witnesses: the one-change neighbours of",
             "verify: witnesses: hops from the best boards of", "verify: re-solving class records for",
             "verify: witnesses: basin hops, ", "verify: one task solved again without the compiled kernel"]
    at = [next(i for i, line in enumerate(lines) if line.startswith(step)) for step in steps]
    assert at == sorted(at), done.stderr


def test_an_interrupted_verify_leaves_no_worker(proof: Path, registries: Registries) -> None:
    """Ctrl-C while workers re-solve: the workers are ended and waited for
    before the interrupt reaches the caller."""
    seen: list[str] = []

    def say(text: str, update: bool) -> None:
        if text.startswith("re-solving"):
            seen.append(text)
            if len(seen) == 2:  # tasks in flight in both workers
                assert len(_workers()) == 2
                raise KeyboardInterrupt

    try:
        verify_runs([str(proof)], registries, recheck=None, progress=say, jobs=2)
    except KeyboardInterrupt:
        left = _workers()  # at once: no grace period
    else:
        pytest.fail("the interrupt never reached the caller")
    assert len(seen) == 2, seen
    assert not left, [p.cmdline() for p in left]


def test_verify_never_holds_every_file_open(tmp_path: Path, cli_env: dict[str, str], run_cli: Run) -> None:
    """A campaign's thousands of shards under a process's limit of open files
    (1,024 is common): verify read every file's start record and kept all of
    them open, and failed with "Too many open files". Here 80 copies of one
    shard under a limit of 64 reach the check that names the second copy."""
    import resource
    import shutil

    shard = tmp_path / "s1.jsonl"
    words = tmp_path / "words.txt"  # a few words: the test is about files, not the proof
    words.write_text("tale\nlate\nteal\nseat\neats\nrest\n", encoding="utf-8")
    done = run_cli("run", "--searcher", "bnb", "--size", "2x2", "--wordlist", str(words), "-o", "min-score", "1",
                   "--shard", "1/2", "--progress", "none", "--out", str(shard))
    assert done.returncode == 0, done.stderr
    copies = [tmp_path / f"copy{i:02d}.jsonl" for i in range(80)]
    for copy in copies:
        shutil.copyfile(shard, copy)

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    out = subprocess.run([exe(), "verify", *map(str, copies)], capture_output=True, text=True, env=cli_env,
                         timeout=120, preexec_fn=few_files)
    assert out.returncode == 3, out.stdout + out.stderr
    assert out.stdout == f"NOT verified: shard 1/2 is given twice: {copies[0]} and {copies[1]}\n", out.stdout


def test_a_task_whose_workers_keep_dying_ends_verify_in_one_line(
    proof: Path, registries: Registries, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record whose re-solving kills its worker every time (out of memory on
    each try): sent again MAX_RETRIES times, then verify stops with an error
    naming the class and what to try, and no worker is left."""
    import dying_tasks

    from boggle_opt.core.errors import BoggleOptError
    from boggle_opt.proofs.executor import MAX_RETRIES
    from boggle_opt.runs import resolving

    monkeypatch.setattr(resolving, "ClassContext", dying_tasks.DyingClassContext)
    with pytest.raises(BoggleOptError) as caught:
        verify_runs([str(proof)], registries, recheck=None, jobs=2)
    message = str(caught.value)
    assert re.fullmatch(rf"verify: worker processes died {MAX_RETRIES + 1} times re-solving class \S+ "
                        r"\(out of memory\?\); try fewer --jobs", message), message
    assert not _workers()


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_workers_use_the_budget_their_records_overstated(
    proof: Path, tmp_path: Path, registries: Registries
) -> None:
    """Records that say they took far more CPU than solving them again does
    (another machine, another kernel): re-solving in workers stops handing
    out tasks while those out should use up the budget, and then hands out
    more with what they left, as one job does, instead of stopping there."""
    records = run_records(proof)
    for rec in records:
        if _bnb(rec).get("boards") is not None:
            rec["record"]["cpu"] = rec["record"]["seconds"] = 0.5
    slow = _write(tmp_path / "slow.jsonl", records)
    one = verify_runs([str(slow)], registries, budget=4.0)
    # 4 workers keep 8 tasks out: by their estimates (an eighth of the
    # re-solving share each, 2.1 s) the whole budget
    four = verify_runs([str(slow)], registries, budget=4.0, jobs=4)
    assert len(one.witness.resolved) > 12  # every record, by what they really take
    assert len(four.witness.resolved) == len(one.witness.resolved), (four.witness.resolved, one.witness.resolved)


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_a_proof_of_another_kernel_verifies_with_a_note(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    """A proof made by another release's kernel is checked as any other; the
    records re-solved here are solved by this kernel, so their root bounds
    (which another kernel may compute differently) are not compared, and a
    note says so within 80 columns."""
    records = run_records(proof)
    for rec in records:
        if rec.get("type") == "start":
            rec["settings"]["fingerprint"]["kernel"] = "0123456789abcdef"
    other = _write(tmp_path / "other.jsonl", records)
    done = _verify(run_cli, other)
    assert done.returncode == 0, done.stdout + done.stderr
    text = _unwrapped(done.stdout)
    assert "# note: the run's kernel version '0123456789abcdef' is not this install's" in text, text
    assert "so their root bounds were not compared" in text, text
    assert all(len(line) <= 80 for line in done.stdout.splitlines() if "/" not in line), done.stdout


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_a_worker_killed_while_verify_re_solves_is_replaced(proof: Path, registries: Registries) -> None:
    """``kill -9`` of a worker in the middle of ``--recheck all --jobs 2``: its
    tasks go to a fresh worker (the proofs' runner), and every record is
    re-solved and agrees, as without the kill."""
    killed: list[int] = []

    def say(text: str, update: bool) -> None:
        if not killed and re.search(r"re-solving .*: [1-9][0-9,]* done", text):
            worker = _workers()[0]
            worker.kill()
            killed.append(worker.pid)

    whole = verify_runs([str(proof)], registries, recheck=None)
    result = verify_runs([str(proof)], registries, recheck=None, progress=say, jobs=2)
    assert killed, "no worker was killed"
    assert len(result.witness.resolved) == len(whole.witness.resolved) and result.best == whole.best


def test_a_re_solve_hole_names_the_seed_that_repeats_it(proof: Path, tmp_path: Path, run_cli: Run) -> None:
    """Issue 76, defect 7: a hole found by a witness (here the re-solving: a
    pruned class's root bound raised by 1, which nothing else checks) names the
    seed, fresh or given, so the check can be repeated: the fresh seed, given,
    is named and gives the same line (one fresh run, then the seed it named)."""
    records = run_records(proof)
    # a whole class pruned below the min score, and still below it
    i = _first(records, lambda r: r.get("class") is not None and not r.get("part") and r.get("pruned")
               and isinstance(r.get("root_bound"), int) and r["root_bound"] + 1 < int(MIN_SCORE))
    records[i]["record"]["root_bound"] += 1
    path = _write(tmp_path / "f.jsonl", records)
    out = _hole(run_cli, path, "--recheck", "all")
    found = re.search(r"\(seed (\d+): --seed \1 repeats this check\)$", out.strip())
    assert out.startswith("NOT verified: witness:") and "root bound" in out and found, out
    again = _hole(run_cli, path, "--recheck", "all", "--seed", found.group(1))
    assert again == out, (again, out)  # names the seed given, and finds the same hole


def test_the_basin_hops_are_a_count_set_by_the_budget(proof: Path, registries: Registries) -> None:
    """Issue 76, defect 7: the hops were made for a share of the CPU, so a
    seed repeated them only as far as the machine was as fast (958 hops
    against 966): now their number is set by the budget alone, and a seed
    repeats them exactly; the summary says how many there were."""
    from boggle_opt.runs.recheck import HOPS_PER_SECOND, hop_count

    assert hop_count(0.001) == HOPS_PER_SECOND  # a second's worth at the least
    assert hop_count(30.0) == round(HOPS_PER_SECOND * 7.5) and hop_count(1e9) == 60 * HOPS_PER_SECOND
    assert hop_count(8.0) == 2 * HOPS_PER_SECOND
    made = [verify_runs([str(proof)], registries, recheck=0, seed=9, budget=0.001).witness for _ in range(2)]
    assert made[0].hops == made[1].hops == hop_count(0.001) and made[0].hop_hits == made[1].hop_hits
