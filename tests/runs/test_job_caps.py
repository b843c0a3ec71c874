"""One cap on a run's processes (``boggle_opt.defaults.MAX_JOBS``), wherever the number
comes from: ``--jobs``, a run file that ``--resume`` reads, ``search(jobs=...)``
or a ``Driver`` made by hand. Each is refused before any process starts."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from boggle_opt.core.errors import BoggleOptError
from boggle_opt.registry.loader import Registries
from boggle_opt.runs.run import RunSpec, search
from boggle_opt.searching.driver import Budget, Driver
from helpers import SMALL, assert_one_line_error, exe, records

TOO_MANY = 100_000
#: the documented cap (``defaults.MAX_JOBS``)
MAX_JOBS = 256


#: a small word list, so the runs take no time
WORDS = "".join(f"{w}\n" for w in ("tea", "eat", "ate", "tee", "sea", "set", "tes", "eta", "seat", "east", "teas"))


def _run_file_asking_for(jobs: int, tmp_path: Path, cli_env: dict[str, str]) -> tuple[Path, Path]:
    """A run file whose start record asks for ``jobs``, and its word list."""
    words = tmp_path / "words.txt"
    words.write_text(WORDS, encoding="ascii")
    out = tmp_path / "run.jsonl"
    made = subprocess.run([exe(), "run", *SMALL, "--size", "2x2", "--wordlist", str(words), "--evals", "200",
                           "--progress", "none", "--out", str(out)], capture_output=True, text=True, env=cli_env,
                          timeout=300)
    assert made.returncode == 0, made.stderr
    lines = records(out)
    lines[0]["settings"]["jobs"] = jobs
    out.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")
    return out, words


def test_a_run_file_asking_for_too_many_jobs_is_refused(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """Refused before any work: with its word list gone, the cap is still what
    is said (and a run that ignored the cap fails on the word list instead of
    starting 100,000 processes)."""
    out, words = _run_file_asking_for(TOO_MANY, tmp_path, cli_env)
    words.unlink()
    before = out.read_bytes()
    result = subprocess.run([exe(), "run", "--resume", str(out), "--evals", "200", "--progress", "none"],
                            capture_output=True, text=True, env=cli_env, timeout=300)
    assert_one_line_error(result, str(out), f"jobs must be 1 to {MAX_JOBS}", str(TOO_MANY), "--jobs N")
    assert out.read_bytes() == before  # refused before the run file was touched
    # --jobs given again is within the cap: the run goes on
    words.write_text(WORDS, encoding="ascii")
    again = subprocess.run([exe(), "run", "--resume", str(out), "--evals", "200", "--jobs", "1",
                            "--progress", "none"], capture_output=True, text=True, env=cli_env, timeout=300)
    assert again.returncode == 0, again.stderr


def test_resuming_checks_the_cap_in_process(tmp_path: Path, cli_env: dict[str, str],
                                            registries: Registries) -> None:
    out, _ = _run_file_asking_for(TOO_MANY, tmp_path, cli_env)
    with pytest.raises(BoggleOptError, match=f"jobs must be 1 to {MAX_JOBS}, got {TOO_MANY}"):
        RunSpec.resuming(str(out), registries, budget=Budget(evaluations=200))


@pytest.mark.parametrize("jobs", [0, MAX_JOBS + 1, 10**6])
def test_search_and_build_refuse_jobs_past_the_cap(jobs: int, registries: Registries) -> None:
    match = f"jobs must be 1 to {MAX_JOBS}, got {jobs}"
    with pytest.raises(BoggleOptError, match=match):
        RunSpec.build("hillclimb", registries, size="2x2", budget=Budget(evaluations=10), jobs=jobs)
    with pytest.raises(BoggleOptError, match=match):
        search("hillclimb", size="2x2", evals=10, jobs=jobs, registries=registries)


def test_a_driver_made_by_hand_has_the_same_cap(registries: Registries) -> None:
    run = RunSpec.build("hillclimb", registries, size="2x2", budget=Budget(evaluations=10)).prepare(registries)
    with pytest.raises(BoggleOptError, match=f"jobs must be 1 to {MAX_JOBS}"):
        Driver(run.searcher, run.problem, Budget(evaluations=10), 1, jobs=10**6)
