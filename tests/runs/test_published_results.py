"""The proofs published in results/: each folder verifies as one proof, and
what its README states is what verify proves. Re-solving is left out
(``--recheck 0``, a 4 s budget, a quarter of it for the hops: seconds, not minutes); every
record is still checked in full."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.wordlists import system

RESULTS = Path(__file__).resolve().parents[2] / "results"
FOLDERS = sorted(p for p in RESULTS.glob("*/") if p.is_dir()) if RESULTS.is_dir() else []
#: results/ stays small (issue 44: about 5 MB in all)
MAX_BYTES = 5_000_000
#: verify's exit status for some of a proof's shards, all they hold verified
PARTIAL = 4


def test_results_are_small() -> None:
    total = sum(f.stat().st_size for f in RESULTS.rglob("*") if f.is_file())
    assert total <= MAX_BYTES, f"results/ holds {total:,} bytes"


#: the system word lists (/usr/share/dict) by name: a proof in another language
SYSTEM = {entry.name: entry for entry in system.LISTS}
#: a folder named by its language (results/3x3-standard-german) where the
#: language's list has another name
LIST_OF = {"german": "ngerman"}


def _list(folder: Path) -> str:
    """The word list a folder's name (size-rule-list or size-rule-language) names."""
    name = folder.name.rsplit("-", 1)[1]
    return LIST_OF.get(name, name)


def _needs(folder: Path) -> list[pytest.MarkDecorator]:
    """A research list by marker; a system list is looked for in the test."""
    name = _list(folder)
    return [] if name in SYSTEM else [pytest.mark.research_lists(name)]


def _system_list(name: str) -> None:
    """Skip without the system list, naming its package (fail under CI, as
    without a research list)."""
    path = system.path_of(SYSTEM[name])
    if not path.is_file():
        reason = f"needs the system word list {name} ({path}); {system.how_to_get(SYSTEM[name])}"
        if os.environ.get("CI"):
            pytest.fail(f"CI must have the system word lists (.ci/run installs them): {reason}")
        pytest.skip(reason)


@pytest.mark.slow  # every record of every published proof checked (minutes of CPU in all)
@pytest.mark.parametrize("folder", [pytest.param(f, marks=_needs(f), id=f.name) for f in FOLDERS])
def test_each_folder_verifies_as_one_proof(
    folder: Path, run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    if _list(folder) in SYSTEM:
        _system_list(_list(folder))
    files = sorted(folder.glob("*.jsonl.gz"))
    assert files, f"{folder.name} holds no run file"
    result = run_cli("verify", "--recheck", "0", "--budget", "4", *map(str, files))
    summary = " ".join(result.stdout.split())
    readme = " ".join((folder / "README.md").read_text(encoding="utf-8").split())
    if "Result (not a proof):" in readme:
        # some shards of a proof (results/4x4-standard-enable2k, the first
        # hundredth): verified as what they are, with the partial status
        assert result.returncode == PARTIAL, result.stdout + result.stderr
        stated = re.search(r"Result \(not a proof\): `([^`]+)`", readme)
        assert stated, "the README states no result"
        assert summary.startswith(stated[1]), summary
        assert "; not a proof: " in stated[1]
        return
    assert result.returncode == 0, result.stdout + result.stderr
    assert summary.startswith("verified:"), summary
    # the folder's README states the best board and the count that verify proves
    stated = re.search(r"Result: (\w+) \(([\d,]+)\) is the best", readme)
    assert stated, "the README states no result"
    assert f"proved: {stated[1]} ({stated[2]}) is the best" in summary, summary
    # and the folder's name (size-rule-list) is what the files prove
    size, rule, _ = folder.name.split("-")
    words = _list(folder)
    assert f"best {size} board for {words} (" in summary and f"under the {rule} rule" in summary, summary
