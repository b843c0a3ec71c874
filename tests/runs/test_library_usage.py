"""examples/library_usage.py runs, and ``boggle_opt.runs.run.search`` does what it says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import RandomBoards, exe

from boggle_opt import defaults
from boggle_opt.runs import run as runs
from boggle_opt.analysis import analyse
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.dictionaries import load_dictionary
from boggle_opt.core.errors import PluginError
from boggle_opt.searching.options import OptionError
from boggle_opt.registry.loader import Registries
from boggle_opt.runs.runfile import read_run_file
from boggle_opt.searching.interface import Event, Improved, Progress

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "examples" / "library_usage.py"


def run_script(tmp_path: Path, *args: str) -> str:
    # cwd away from the repository: its boggle_opt/ would shadow the compiled install
    result = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


# -- the example script ----------------------------------------------------------------


def test_script_default_list(tmp_path: Path) -> None:
    out = run_script(tmp_path, "--evals", "3000", "--seed", "1")
    lines = out.splitlines()
    assert lines[0] == "word list embedded (188,208 words), rule standard"
    assert lines[1].startswith("perslatgsineters 4x4: 3882 points, 1109 words, longest ")
    assert "searching with annealing" in out
    assert "stopped: used 3,000 evaluations; events seen: {'Improved': " in out
    summary = next(line for line in lines if line.startswith("annealing seed 1: "))
    evals = int(summary.split(": ")[1].split()[0].replace(",", ""))
    assert evals >= 3000
    best = next(line for line in lines if line.startswith("best "))
    board, points = best.split()[1].rstrip(":"), int(best.split()[2])
    assert analyse(load_dictionary(), board).score == points
    assert f"best {points}, {evals:,} evaluations, settings [" in lines[-1]
    # the same seed and evaluation budget give the same boards
    again = run_script(tmp_path, "--evals", "3000", "--seed", "1")
    # (timings differ: drop "0.07 s" columns and the "in 0.2 s" of the summary)
    def untimed(text_lines: list[str]) -> list[str]:
        return [re.sub(r"\d+\.\d+ s\b", "T s", x) for x in text_lines]

    assert untimed(again.splitlines()) == untimed(lines)


def test_script_own_wordlist_rule_and_searcher(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("perse\nslate\nrates\nstare\ntears\nnester\nsteer\nreset\ntrees\n")
    out = run_script(
        tmp_path, "--wordlist", str(words), "--rule", "pow2", "--searcher", "hillclimb",
        "--evals", "2000",
    )
    assert out.splitlines()[0] == f"word list {words} (9 words), rule pow2"
    assert "searching with hillclimb" in out
    assert "hillclimb seed 1: " in out


# -- boggle_opt.runs.run.search ----------------------------------------------------------------


@pytest.fixture(scope="module")
def default_dictionary(registries: Registries) -> Dictionary:
    return load_dictionary("default", "standard", registries)


def small_search(registries: Registries, dictionary: Dictionary, **kw: object) -> runs.SearchResult:
    args: dict[str, object] = dict(
        size="3x3", evals=5_000, seed=3, registries=registries, dictionary=dictionary
    )
    args.update(kw)
    return runs.search("hillclimb", **args)  # type: ignore[arg-type]


def test_search_result(registries: Registries, default_dictionary: Dictionary) -> None:
    events: list[Event] = []
    result = small_search(
        registries, default_dictionary, on_event=lambda ev, state: events.append(ev)
    )
    assert result.searcher == "hillclimb" and result.seed == 3
    assert result.stop_reason == "used 5,000 evaluations"
    assert result.evaluations >= 5_000 == result.state.budget.evaluations
    assert result.boards[0] == (result.state.ranked()[0][0], result.best_score)
    assert [s for _, s in result.boards] == sorted((s for _, s in result.boards), reverse=True)
    improved = [e for e in events if isinstance(e, Improved)]
    assert improved and max(e.score for e in improved) == result.best_score
    assert analyse(default_dictionary, result.best_board).score == result.best_score
    assert result.options["pool-size"] == 500
    # a seed repeats a run
    again = small_search(registries, default_dictionary)
    assert again.boards == result.boards and again.evaluations == result.evaluations


def test_search_options_as_on_the_command_line(
    registries: Registries, default_dictionary: Dictionary
) -> None:
    dashes = small_search(registries, default_dictionary, options={"pool-size": 20})
    underscores = small_search(registries, default_dictionary, options={"pool_size": "20"})
    assert dashes.options["pool-size"] == underscores.options["pool-size"] == 20
    assert dashes.boards == underscores.boards
    with pytest.raises(OptionError, match="no option 'pool'"):
        small_search(registries, default_dictionary, options={"pool": 20})
    with pytest.raises(OptionError, match="pool-size"):
        small_search(registries, default_dictionary, options={"pool-size": "many"})


def test_search_unknown_searcher(registries: Registries) -> None:
    with pytest.raises(PluginError, match=r"unknown searcher 'nope' \(available: .*annealing"):
        runs.search("nope", registries=registries)


def test_search_target_and_default_budget(
    registries: Registries, default_dictionary: Dictionary, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = small_search(registries, default_dictionary, evals=None, target=100)
    assert result.stop_reason == "reached target 100" and result.best_score >= 100
    monkeypatch.setattr(defaults, "SECONDS", 0.5)
    result = small_search(registries, default_dictionary, evals=None)
    assert result.state.budget.seconds == 0.5 and result.stop_reason == "used 0.5 s"


def test_search_with_an_unregistered_class(
    registries: Registries, default_dictionary: Dictionary
) -> None:
    result = runs.search(
        RandomBoards, size="3x3", evals=300, seed=1, options={"letters": "st"},
        registries=registries, dictionary=default_dictionary,
    )
    assert result.searcher == "random-boards" and result.evaluations == 300
    assert set(result.best_board) <= {"s", "t"}


def test_search_run_file_resumes_on_the_command_line(
    registries: Registries, default_dictionary: Dictionary, tmp_path: Path
) -> None:
    path = tmp_path / "run.jsonl"
    result = small_search(registries, default_dictionary, out=str(path))
    past = read_run_file(str(path))
    assert past.segments == 1 and past.evaluations == result.evaluations
    assert max(s for _, s in past.boards) == result.best_score
    assert {"searcher", "options", "size", "rule", "wordlist", "seed", "budget"} <= set(
        past.settings
    )
    resumed = subprocess.run(
        [exe(), "run", "--resume", str(path), "--evals", "2000", "--progress", "none"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "# searcher hillclimb" in resumed.stdout and "seed 3" in resumed.stdout
    assert read_run_file(str(path)).segments == 2


def test_search_jobs(registries: Registries) -> None:
    # one climb per worker, so the run ends when both have finished: the merge must
    # hand on the events of both
    workers: set[object] = set()
    result = runs.search(
        "hillclimb", size="3x3", seed=5, jobs=2, registries=registries,
        options={"restarts": 1, "pool-size": 20},
        on_event=lambda ev, state: workers.add(ev.stats.get("worker"))
        if isinstance(ev, Progress) else None,
    )
    assert result.stop_reason == "searcher finished"
    assert workers == {0, 1}
    assert result.evaluations > 0 and result.best_score > 0


def test_script_is_importable_without_running(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import runpy; runpy.run_path({str(SCRIPT)!r}, run_name='x')"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0 and result.stdout == "", result.stderr


# -- the library walkthrough in docs/usage.md ------------------------------------------------


def _walkthrough() -> list[tuple[str, list[str]]]:
    """(code, output it shows) of each python block in docs/usage.md's library section.

    The output is a ```text block right after the code, else the comment lines
    ending the code.
    """
    text = (REPO / "docs" / "usage.md").read_text(encoding="utf-8")
    start = text.index("\n## Using boggle-opt as a library\n")
    end = text.find("\n## ", start + 1)
    section = text[start : end if end != -1 else len(text)]
    blocks = []
    for m in re.finditer(r"```python\n(.*?)```\n(```text\n(.*?)```\n)?", section, re.S):
        code, shown = m.group(1), m.group(3)
        if shown is not None:
            expected = shown.splitlines()
        else:
            lines = code.rstrip("\n").splitlines()
            expected = []
            while lines and lines[-1].startswith("# "):
                expected.insert(0, lines.pop()[2:])
        blocks.append((code, expected))
    return blocks


# heavy: every block of the docs' walkthrough at its own budgets (a 20,000-evaluation anneal, a two-job search): 9 s (docs/testing.md)
@pytest.mark.slow
def test_usage_walkthrough_output_is_real(tmp_path: Path) -> None:
    blocks = _walkthrough()
    assert len(blocks) >= 3, "the library section of docs/usage.md lost its examples"
    for code, expected in blocks:  # in order, in one folder: a later block reads run.jsonl
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
            timeout=300,
        )
        assert result.returncode == 0, f"docs/usage.md block failed:\n{code}\n{result.stderr}"
        assert expected, f"docs/usage.md block shows no output:\n{code}"
        got = result.stdout.splitlines()
        assert got[-len(expected):] == expected, (
            f"docs/usage.md block\n{code}\nprinted\n{result.stdout}but the docs show\n"
            + "\n".join(expected)
        )
