"""``--resume`` is refused, with the field named, when anything that decides
the answer changed since the run file was started: the word list's content,
the rule's points, the size, the buckets, the min score, the kernel, the
constraints (a dice set's faces included)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

WORDS = ["tea", "eat", "ate", "sea", "set", "rat", "tar", "art", "star", "rate", "tear", "stare",
         "seat", "east", "eats", "teas", "rats", "arts", "tars", "ears", "sear", "rest"]
RULE_PLUGIN = '''
from boggle_opt import ScoringRule, hookimpl

@hookimpl
def register_scoring_rules(register):
    register(ScoringRule.by_length("flat", "test rule", [{points}]))
'''


def _edit_start(path: Path, edit: Callable[[dict[str, object]], None]) -> None:
    lines = path.read_text().splitlines()
    start = json.loads(lines[0])
    edit(start["settings"])
    path.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")


@pytest.fixture(scope="module")
def proof_folder(tmp_path_factory: pytest.TempPathFactory,
                 run_cli: Callable[..., subprocess.CompletedProcess[str]]) -> Path:
    """A folder holding a finished 2x2 proof's run file, its word list and its
    rule plugin: made once, copied by each test (``started``)."""
    folder = tmp_path_factory.mktemp("proof")
    words = folder / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    plugin = folder / "flatrule.py"
    plugin.write_text(RULE_PLUGIN.format(points=1))
    out = folder / "run.jsonl"
    r = run_cli("run", "--plugin", str(plugin), "--searcher", "bnb", "--size", "2x2", "--rule", "flat",
                "--wordlist", str(words), "-o", "min-score", "5", "--progress", "none", "--out", str(out))
    assert r.returncode == 0, r.stderr
    return folder


@pytest.fixture
def started(proof_folder: Path, tmp_path: Path) -> tuple[Path, Path, Path]:
    """A copy of the proof's run file, word list and rule plugin, for this test
    to change: the run file names the copied list (as if it had been run here)."""
    for name in ("words.txt", "flatrule.py"):
        (tmp_path / name).write_bytes((proof_folder / name).read_bytes())
    out = tmp_path / "run.jsonl"
    text = (proof_folder / "run.jsonl").read_text()
    assert str(proof_folder / "words.txt") in text
    out.write_text(text.replace(json.dumps(str(proof_folder))[1:-1], json.dumps(str(tmp_path))[1:-1]))
    return out, tmp_path / "words.txt", tmp_path / "flatrule.py"


CHANGES: dict[str, Callable[[Path, Path, Path], None]] = {
    "wordlist": lambda out, words, plugin: words.write_text("\n".join([*WORDS, "stet"]) + "\n"),
    "rule": lambda out, words, plugin: plugin.write_text(RULE_PLUGIN.format(points=2)),
    "size": lambda out, words, plugin: _edit_start(out, lambda s: s.update(size="1x4")),
    "buckets": lambda out, words, plugin: _edit_start(
        out, lambda s: s["options"].update(buckets="aeiou bcdfghjklmnpqrstvwxyz")),  # type: ignore[attr-defined]
    "min_score": lambda out, words, plugin: _edit_start(
        out, lambda s: s["options"].update({"min-score": 6})),  # type: ignore[attr-defined]
    "kernel": lambda out, words, plugin: _edit_start(
        out, lambda s: s["fingerprint"].update(kernel="0123456789abcdef")),  # type: ignore[attr-defined]
}
NAMED = {
    "wordlist": "the word list's content", "rule": "the scoring rule's points", "size": "the board size",
    "buckets": "the letter buckets", "min_score": "the min score", "kernel": "the branch-and-bound kernel",
}


@pytest.mark.parametrize("field", list(CHANGES))
def test_resume_with_a_changed_field_is_refused(
    field: str, started: tuple[Path, Path, Path], run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    out, words, plugin = started
    CHANGES[field](out, words, plugin)
    before = out.read_bytes()
    r = run_cli("run", "--plugin", str(plugin), "--resume", str(out), "--progress", "none")
    assert r.returncode == 1
    assert r.stderr.count("\n") == 1, r.stderr
    assert "--resume refused" in r.stderr and NAMED[field] in r.stderr and f"({field}: " in r.stderr
    assert out.read_bytes() == before  # refused before anything is appended


def test_resume_unchanged_is_accepted(
    started: tuple[Path, Path, Path], run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    out, _, plugin = started
    r = run_cli("run", "--plugin", str(plugin), "--resume", str(out), "--progress", "none")
    assert r.returncode == 0, r.stderr
    starts = [json.loads(line) for line in out.read_text().splitlines() if '"type": "start"' in line]
    assert len(starts) == 2 and starts[0]["settings"]["fingerprint"] == starts[1]["settings"]["fingerprint"]
    assert set(starts[0]["settings"]["fingerprint"]) == set(NAMED)


DICE_PLUGIN = '''
from boggle_opt import hookimpl
from boggle_opt.constraints.dice import DiceSet

@hookimpl
def register_dice_sets(register):
    register(DiceSet("six", "test dice", ("{faces}",) * 6))
'''


@pytest.mark.parametrize("change", ["dice faces", "fix"])
def test_resume_with_changed_constraints_is_refused(
    change: str, tmp_path: Path, run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("\n".join([*WORDS, "taster", "tetras", "treats", "stater", "raters"]) + "\n")
    plugin = tmp_path / "sixdice.py"
    plugin.write_text(DICE_PLUGIN.format(faces="aerstx"))
    out = tmp_path / "run.jsonl"
    r = run_cli("run", "--plugin", str(plugin), "--searcher", "longword", "--size", "2x3",
                "--wordlist", str(words), "--dice", "six", "--fix", "t.....", "--progress", "none",
                "--out", str(out))
    assert r.returncode == 0, r.stderr
    start = json.loads(out.read_text().splitlines()[0])
    assert start["settings"]["fingerprint"]["constraints"].startswith("--fix t..... --dice six ")
    if change == "fix":
        _edit_start(out, lambda s: s["constraints"].update(fix="s....."))  # type: ignore[attr-defined]
    else:
        plugin.write_text(DICE_PLUGIN.format(faces="aerstz"))
    before = out.read_bytes()
    r = run_cli("run", "--plugin", str(plugin), "--resume", str(out), "--progress", "none")
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "--resume refused: the constraints" in r.stderr and "(constraints: " in r.stderr
    assert out.read_bytes() == before


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_a_run_left_to_older_default_buckets_resumes_and_verifies_with_them(
    tmp_path: Path, run_cli: Callable[..., subprocess.CompletedProcess[str]]
) -> None:
    """A run file whose options left the buckets to the defaults of its day
    (3x4 and 4x4 corners had 2 buckets until they got 1) keeps the buckets
    its fingerprint records: --resume and verify use them, not today's."""
    words = tmp_path / "words.txt"
    words.write_text("\n".join(WORDS) + "\n")
    out = tmp_path / "run.jsonl"
    r = run_cli("run", "--searcher", "bnb", "--size", "2x3", "--wordlist", str(words),
                "-o", "min-score", "6", "-o", "buckets", "aeiosuy bcdfghjklmnpqrtvwxz",
                "-o", "corner-buckets", "abcdefghijklmnopqrstuvwxyz", "--progress", "none", "--out", str(out))
    assert r.returncode == 0, r.stderr
    label = json.loads(out.read_text().splitlines()[0])["settings"]["fingerprint"]["buckets"]
    assert label == "aeiosuy bcdfghjklmnpqrtvwxz / corners abcdefghijklmnopqrstuvwxyz"
    # as if both had been the defaults when it ran
    _edit_start(out, lambda s: s["options"].update({"buckets": "", "corner-buckets": ""}))  # type: ignore[attr-defined]
    r = run_cli("run", "--resume", str(out), "--progress", "none")
    assert r.returncode == 0, r.stderr
    starts = [json.loads(line) for line in out.read_text().splitlines() if '"type": "start"' in line]
    assert [s["settings"]["fingerprint"]["buckets"] for s in starts] == [label, label]
    r = run_cli("verify", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "corners abcdefghijklmnopqrstuvwxyz" in r.stdout
