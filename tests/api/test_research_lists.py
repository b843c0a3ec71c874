"""The suite without the research word lists, as on a fresh clone: tests that
need ENABLE2K or YAWL skip and say how to get them (or fail under CI), and a
test that names a list without asking for it fails even where it is present.

Each case runs pytest in a child process on a few tests (seconds).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"

#: tests that name a research list through the command line (one is a
#: published figure chosen by parameter)
SELECTED = "multi_plain_columns or rule_aliases or published_board or removed_run_file"


def pytest_child(args: list[str], wordlists: Path, ci: bool, cwd: Path) -> subprocess.CompletedProcess[str]:
    """pytest on ``args`` in a child, started outside the checkout (``-m`` puts
    the folder it starts in first on the path, and the checkout's boggle_opt
    is not the installed package)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_") and k != "CI"}
    env["BOGGLE_OPT_WORDLISTS"] = str(wordlists)
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        # -n 0: one process, so the summary counts the deselected tests
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider", "-n", "0", *args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=300,
    )


def test_without_the_lists_the_tests_skip_saying_how_to_get_them(tmp_path: Path) -> None:
    r = pytest_child([str(TESTS / "cli" / "test_cli.py"), str(TESTS / "runs" / "test_run_stress.py"), "-k", SELECTED],
                     tmp_path, ci=False, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:]
    assert re.search(r"\b12 skipped, \d+ deselected in", r.stdout), r.stdout[-3000:]
    skips = [ln for ln in r.stdout.splitlines() if ln.startswith("SKIPPED")]
    named = set()
    for line in skips:
        name = re.search(r"needs the research word list (\w+)\.txt", line)
        assert name, line
        named.add(name[1])
        assert "public domain" in line and "https://github.com/" in line, line
        assert "BOGGLE_OPT_WORDLISTS" in line and "--wordlist PATH" in line, line
    assert named == {"enable2k", "yawl"}


def test_under_ci_a_missing_list_fails(tmp_path: Path) -> None:
    r = pytest_child([str(TESTS / "cli" / "test_cli.py"), "-k", "multi_plain_columns"], tmp_path, ci=True,
                     cwd=tmp_path)
    assert r.returncode == 1, r.stdout[-3000:]
    assert "CI must have the research word lists: needs the research word list enable2k.txt" in r.stdout


UNASKED = '''
import pytest

def test_unasked(run_cli):
    r = run_cli("score", "tacx", "--size", "2x2", "--wordlist", "enable2k")
    assert r.returncode == 0, r.stderr

@pytest.mark.research_lists("enable2k")
def test_asked(run_cli):
    r = run_cli("score", "tacx", "--size", "2x2", "--wordlist", "enable2k")
    assert r.returncode == 0, r.stderr
'''


def test_a_test_sees_only_the_lists_it_asked_for(tmp_path: Path) -> None:
    """Present (a stand-in file here), ENABLE2K reaches only the test that
    asked for it: forgetting fails every run, not just a fresh clone's."""
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "enable2k.txt").write_text("cat\nact\n", encoding="ascii")
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(TESTS / "conftest.py", suite / "conftest.py")
    (suite / "test_asking.py").write_text(UNASKED, encoding="ascii")
    r = pytest_child([str(suite), "--rootdir", str(suite)], lists, ci=True, cwd=suite)
    assert r.returncode == 1, r.stdout[-3000:]
    assert re.search(r"FAILED .*test_unasked .*word list 'enable2k' not found", r.stdout), r.stdout[-3000:]
    assert "1 failed, 1 passed" in r.stdout, r.stdout[-3000:]
