"""A script without ``if __name__ == "__main__":`` that starts a run with
``jobs=2`` fails at once in one line naming the guard, never hangs (each
script runs in a subprocess with a timeout, so a regression fails instead of
hanging the suite); with the guard the same run works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: the runs of issue 23: a proof, a long-word pass and a local search, on two processes
CALLS = {
    "bnb": 'search("bnb", size="3x3", options={"min-score": 540}, jobs=2, seed=1)',
    # one word that fills the board: the pass starts its workers at once (the
    # letter bounds of every 9-letter word take seconds before it, minutes on a busy machine)
    "longword": 'search("longword", size="3x3", word="varieties", jobs=2, seed=1)',
    "annealing": 'search("annealing", size="3x3", evals=2000, jobs=2, seed=1)',
}

# the script reports a library error as its one line (as a CLI would): stderr
# then holds nothing else, so a worker's bootstrapping traceback would show
SCRIPT = """\
import sys
{patch}from boggle_opt.core.errors import BoggleOptError
from boggle_opt.runs.run import search
try:
    r = {call}
except BoggleOptError as exc:
    sys.exit(f"error: {{exc}}")
print(r.stop_reason, r.best_score)
"""

#: turns off the look at the script's source, so the workers start and find
#: themselves re-running the script: the second line of defence
NO_LOOK = "import boggle_opt.main_guard as g\ng.unguarded_call = lambda: None\n"


def run(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    script = tmp_path / f"{name}.py"
    script.write_text(text)
    # cwd away from the repository: its boggle_opt/ would shadow the compiled install
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)


def assert_guard_error(result: subprocess.CompletedProcess[str], script: str) -> None:
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(
        f"error: worker processes could not start: the script '{script}' starts a run at import time; "
        'put its top level under `if __name__ == "__main__":`'
    ), result.stderr


@pytest.mark.parametrize("searcher", sorted(CALLS))
def test_unguarded_script_fails_in_one_line(tmp_path: Path, searcher: str) -> None:
    result = run(tmp_path, f"run_{searcher}", SCRIPT.format(patch="", call=CALLS[searcher]))
    assert_guard_error(result, f"run_{searcher}.py")


@pytest.mark.parametrize("searcher", sorted(CALLS))
def test_workers_that_cannot_start_are_reported(tmp_path: Path, searcher: str) -> None:
    """The workers start, re-run the script, end at once; the parent says why."""
    result = run(tmp_path, f"late_{searcher}", SCRIPT.format(patch=NO_LOOK, call=CALLS[searcher]))
    assert_guard_error(result, f"late_{searcher}.py")


@pytest.mark.parametrize("call", [
    CALLS["annealing"],
    # a short warm-up climb: its default 1.5 s is wall time the guard has no part in
    'search("bnb", size="2x3", options={"min-score": 60, "climb-seconds": 0.1}, jobs=2, seed=1)',
], ids=["annealing", "bnb"])
def test_guarded_script_runs_on_two_processes(tmp_path: Path, call: str) -> None:
    text = "from boggle_opt.runs.run import search\n\nif __name__ == \"__main__\":\n" + "".join(
        f"    {line}\n" for line in f"r = {call}\nprint(r.stop_reason, r.best_score)".splitlines()
    )
    result = run(tmp_path, "guarded", text)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1].isdigit() and int(result.stdout.split()[-1]) > 0, result.stdout


def test_a_call_under_the_guard_is_not_refused(tmp_path: Path) -> None:
    """The look at the source: a call under the guard, or in a function the
    guard calls, is the script's own; one at the top level is not."""
    script = tmp_path / "look.py"
    script.write_text(
        "from boggle_opt.main_guard import unguarded_call\n"
        "top = unguarded_call()\n"
        "def main():\n"
        "    return unguarded_call()\n"
        "called = main()\n"
        "if __name__ == '__main__':\n"
        "    print(top, called, unguarded_call(), main())\n"
    )
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                            text=True, timeout=300)
    assert result.stdout.split() == ["look.py", "look.py", "None", "None"], result.stderr


def test_parcels_of_dead_processes_are_swept(tmp_path, monkeypatch):
    # a main process killed with SIGKILL leaves its worker arguments behind; the next run removes them
    import tempfile

    from boggle_opt.main_guard import PARCEL_PREFIX, Parcel

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = tmp_path / f"{PARCEL_PREFIX}{gone.stdout.strip()}-abc.pickle"
    live = tmp_path / f"{PARCEL_PREFIX}{os.getpid()}-abc.pickle"
    other = tmp_path / "boggle-opt-worker-notapid.pickle"
    for path in (dead, live, other):
        path.write_bytes(b"x")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    parcel = Parcel({"a": 1})
    assert not dead.exists()
    assert live.exists() and other.exists()
    assert parcel.path.startswith(str(tmp_path / f"{PARCEL_PREFIX}{os.getpid()}-"))
    assert parcel.load() == {"a": 1}
    parcel.remove()
    assert not os.path.exists(parcel.path)


def test_a_refusal_is_named_when_its_exit_status_is_lost(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool that sees one worker end ends the others with SIGTERM; a
    refusing worker ended so leaves only -15 (a CI run caught it once). Its
    mark still names the guard, and is used up."""
    import tempfile

    from boggle_opt.main_guard import EXIT_RUN_AT_IMPORT, start_failed

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert "starts a run at import time" not in str(start_failed([-15, -15]))
    assert "starts a run at import time" in str(start_failed([-15, EXIT_RUN_AT_IMPORT]))
    script = tmp_path / "mark.py"
    script.write_text(
        "import multiprocessing as mp\n"
        "from boggle_opt.main_guard import refuse_in_starting_worker\n"
        "mp.current_process()._inheriting = True  # as in a spawned worker re-running the main script\n"
        "refuse_in_starting_worker()\n"
    )
    # the worker is this child: its parent is this process, whose mark it leaves
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300, env={**os.environ, "TMPDIR": str(tmp_path)})
    assert result.returncode == EXIT_RUN_AT_IMPORT, result.stderr
    assert [p.name for p in tmp_path.glob("*-refused.pickle")] == [f"boggle-opt-worker-{os.getpid()}-refused.pickle"]
    assert "starts a run at import time" in str(start_failed([-15, -15]))
    assert not list(tmp_path.glob("*-refused.pickle"))
    assert "starts a run at import time" not in str(start_failed([-15]))
