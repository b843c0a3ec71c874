"""The slow tier (tests/conftest.py): a plain ``pytest`` leaves out the tests
marked ``slow`` and says in its last lines how many and how to run them,
with workers (-n, as the README's command runs) or without; ``-m slow`` runs
only them and ``--slow`` every test.

Each case runs pytest in a child process on a two-test suite (seconds).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

SUITE = '''
import pytest

def test_quick():
    pass

@pytest.mark.slow
def test_heavy():
    pass
'''
LEFT_OUT = "1 slow test not run (marked slow): `pytest -m slow` runs them (CI does), `pytest --slow` runs every test"


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("slow-tier")
    shutil.copy(TESTS / "conftest.py", folder / "conftest.py")
    (folder / "test_tiers.py").write_text(SUITE, encoding="ascii")
    return folder


def pytest_child(suite: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest in a child, started in the suite's folder (outside the checkout:
    ``-m`` puts the folder it starts in first on the path)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-rA", "-p", "no:cacheprovider", "--rootdir", str(suite), *args, str(suite)],
        capture_output=True, text=True, env=env, cwd=suite, timeout=300,
    )


@pytest.mark.parametrize("workers", ["0", "2"])
def test_a_plain_run_leaves_the_slow_tier_out_and_says_so(suite: Path, workers: str) -> None:
    r = pytest_child(suite, "-n", workers)
    assert r.returncode == 0, r.stdout[-3000:]
    assert "PASSED test_tiers.py::test_quick" in r.stdout and "test_heavy" not in r.stdout, r.stdout
    last = r.stdout.splitlines()[-2:]  # the line, then pytest's own last line
    assert last[0] == LEFT_OUT and " 1 passed" in last[1], r.stdout[-3000:]


@pytest.mark.parametrize(("args", "ran"), [(["-m", "slow"], ["test_heavy"]), (["--slow"], ["test_quick", "test_heavy"])],
                         ids=["m-slow", "slow"])
def test_the_slow_tier_runs_when_asked(suite: Path, args: list[str], ran: list[str]) -> None:
    r = pytest_child(suite, "-n", "0", *args)
    assert r.returncode == 0, r.stdout[-3000:]
    assert sorted(ln.split("::")[1] for ln in r.stdout.splitlines() if ln.startswith("PASSED ")) == sorted(ran)
    assert "slow test" not in r.stdout, r.stdout[-3000:]
