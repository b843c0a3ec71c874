"""What a new user tripped on at third contact (issue 70), each through the
real command line: plain progress within 80 columns for a plugin's
searcher with figures of its own, and a live panel that says each figure
once, holds still when a Qu comes, and says what runs and what waits."""

from __future__ import annotations

import re
import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers import unwrapped

Cli = Callable[..., subprocess.CompletedProcess[str]]
REPO = Path(__file__).resolve().parents[2]

#: a plugin searcher with figures of its own, as plugins.md's greedy climber
#: (climb=, score=), scoring boards in batches so a budget is overrun a little
CLIMBER = """
    from dataclasses import dataclass

    from boggle_opt import Improved, Progress, SearcherBase, hookimpl


    class Climber(SearcherBase):
        \"\"\"Random batches: the best of many random boards.\"\"\"

        name = "batches"

        @dataclass(frozen=True)
        class Options:
            pass

        def search(self, problem, rng):
            best, climb = -1, 0
            while True:
                climb += 1
                for _ in range(37):
                    board = "".join(rng.choice(list("aeinrst"), size=problem.n_cells))
                    score = problem.score(board)
                    if score > best:
                        best = score
                        yield Improved(board, score)
                yield Progress({"climb": climb, "score": score, "best": best})


    @hookimpl
    def register_searchers(register):
        register(Climber)
"""


def test_plain_progress_of_a_plugin_searcher_fits_80_columns(run_cli: Cli, tmp_path: Path) -> None:
    """``[    0.7s] best 505 erstepsal evals 20,038 (28,455/s) budget left 0
    evals climb=13 score=250`` was 92 columns, and the ``stopped:`` line 84."""
    plugin = tmp_path / "batches.py"
    plugin.write_text(textwrap.dedent(CLIMBER), encoding="utf-8")
    r = run_cli("run", "--plugin", str(plugin), "--searcher", "batches", "--size", "3x3", "--seed", "1",
                "--evals", "20000", "--progress", "plain", "--progress-every", "0.01")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    status = [line for line in lines if line.startswith("[")]
    assert status and all(" evals " in line and " left " in line for line in status), r.stderr
    assert any("climb=" in line for line in status), r.stderr  # own figures, where they fit
    assert all(len(line) <= 80 for line in lines), "\n".join(line for line in lines if len(line) > 80)
    # the stopped line wrapped, not cut: it reads whole once joined
    assert unwrapped(r.stderr).rstrip().splitlines()[-1].startswith("stopped: budget of 20,000 evaluations "
                                                                    "reached (20,")
    assert unwrapped(r.stderr).rstrip().endswith(" done: the last batch finishes)")


#: the same searcher with long notes: one before the run (``start_notes``,
#: as bnb's on 4x4) and one as it goes (an ``ExecutorWarning``, as an
#: executor's or a worker's death becomes a note of the run)
NOTED = CLIMBER.replace("""        def search(self, problem, rng):
""", """        def start_notes(self, problem):
            return ["a long note before the run starts, longer than a line: it names a command to copy, "
                    "`boggle-opt plan --size 3x3 --sample 40`, and goes on past the eightieth column"]

        def search(self, problem, rng):
            import warnings
            from boggle_opt.proofs.executor import ExecutorWarning

            warnings.warn(ExecutorWarning("a long note as the run goes, as an executor gives one when no "
                                          "worker has connected after a while, past the eightieth column"))
""")


def test_plain_notes_of_a_plugin_searcher_fit_80_columns(run_cli: Cli, tmp_path: Path) -> None:
    """The status lines kept within 80 columns, but a note (``boggle-opt:
    note:`` before the run, ``note:`` as it went) was printed whole on one
    line: bnb's own 4x4 note is 187 columns. Wrapped, a quoted command whole."""
    plugin = tmp_path / "noted.py"
    plugin.write_text(textwrap.dedent(NOTED), encoding="utf-8")
    r = run_cli("run", "--plugin", str(plugin), "--searcher", "batches", "--size", "3x3", "--seed", "1",
                "--evals", "2000", "--progress", "plain")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert all(len(line) <= 80 for line in lines), "\n".join(line for line in lines if len(line) > 80)
    joined = unwrapped(r.stderr)
    assert "boggle-opt: note: a long note before the run starts, longer than a line: it names" in joined, r.stderr
    assert "`boggle-opt plan --size 3x3 --sample 40`" in r.stderr, r.stderr  # not broken across lines
    assert "note: a long note as the run goes, as an executor gives one when no worker" in joined, r.stderr
    assert re.search(r"^note: a long note as the run goes", r.stderr, re.M), r.stderr


# -- the live panel ------------------------------------------------------------------


def _panel(stats: dict[str, Any], board: str, searcher: str = "annealing") -> list[str]:
    from rich.console import Console

    from boggle_opt.boards import size_geometry
    from boggle_opt.cli.display import RichDisplay
    from boggle_opt.searching.driver import Budget, RunState

    state = RunState(searcher, {}, Budget(seconds=60))
    state.stats = dict(stats)
    state.best_board, state.best_score = board, 17_626
    state.boards = {board: 17_626}
    console = Console(width=80, record=True, color_system=None)
    display = RichDisplay(f"{searcher} · pow2 · 4x4 · embedded", size_geometry("4x4").grid, console)
    display._state = state
    console.print(display._render())
    return console.export_text().rstrip("\n").splitlines()


def test_the_panel_says_the_best_score_once() -> None:
    """Annealing's panel showed ``best score 17,626`` and then ``best 17,626``
    again among its own figures."""
    text = "\n".join(_panel({"temperature": 120.0, "best": 17_626}, "drsmzeeyidltgooh"))
    assert text.count("17,626") == 1, text
    assert "temperature" in text


def test_the_panel_holds_still_when_a_qu_comes() -> None:
    """A row ending in ``Qu`` is a column wider than one ending in a letter:
    the figures beside the board moved by one when one appeared."""
    plain = _panel({"temperature": 120.0}, "drsmzeeyidltgooh")
    with_qu = _panel({"temperature": 120.0}, "drsmzeeyidltgooq")  # Qu at the end of the last row
    assert any("Qu" in line for line in with_qu)
    column = [line.index("temperature") for line in plain if "temperature" in line]
    assert column == [line.index("temperature") for line in with_qu if "temperature" in line]


def test_a_proofs_panel_says_what_runs_and_waits_for_its_estimate() -> None:
    """``3 tasks on 2 workers`` most of the time (a task more than workers is
    handed out to keep them busy); the time left fell from 13 min to 7 as the
    cost model was fitted: no figure until it is."""
    stats = {"classes done": 12, "classes total": 2862, "classes/s": 4.0, "workers": 2, "tasks in flight": 3,
             "min score": 500, "min score from": "given", "time left": ""}
    text = "\n".join(_panel(stats, "perslatgsineters", "bnb"))
    assert re.search(r"workers\s+2 of 2 busy, 1 task queued", text), text
    assert re.search(r"time left\s+estimating", text), text


def test_a_proofs_time_left_waits_for_the_fitted_cost_model() -> None:
    from boggle_opt.proofs.board_classes import FIT_AFTER, Calibration

    calibration = Calibration([1.0] * 100)
    for i in range(FIT_AFTER - 1):
        calibration.add(1.0 + i, 0.1 * (1 + i) ** 2)
    assert not calibration.fitted
    calibration.add(float(FIT_AFTER), 0.1 * FIT_AFTER ** 2)
    assert calibration.fitted and calibration.time_left(10.0) is not None


def test_verify_says_its_hops_are_cpu_seconds(run_cli: Cli, tmp_path: Path) -> None:
    """``witnesses: basin hops for 28 s (unchanged for 2 min)``: the 28 s was
    CPU, and the status line's own count is the wall clock. Since issue 76
    (defect 7) the hops are a count set by the budget, which the line says."""
    out = tmp_path / "p.jsonl"
    made = run_cli("run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "5", "--out", str(out),
                   "--progress", "none")
    assert made.returncode == 0, made.stderr
    checked = run_cli("verify", str(out), "--budget", "1")  # 40 hops, not the default 300: the line is the same
    assert checked.returncode == 0, checked.stderr
    assert re.search(r"^verify: witnesses: basin hops, [\d,]+ of them$", checked.stderr, re.M), checked.stderr


def test_verify_counts_its_basin_hops_and_says_cpu_beside_wall(run_cli: Cli, tmp_path: Path,
                                                               registries: Any) -> None:
    """The hops' line said only their budget, ``basin hops for 28 s``, for
    minutes: no count of hops, and CPU not told from the wall clock. Their
    progress counts them, with the CPU used of the budget beside the wall
    time, as they go and once at their end (so on any machine's speed)."""
    from boggle_opt.runs.verify import verify_runs

    out = tmp_path / "p.jsonl"
    made = run_cli("run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "5", "--out", str(out),
                   "--progress", "none")
    assert made.returncode == 0, made.stderr
    said: list[tuple[str, bool]] = []
    result = verify_runs([str(out)], registries, budget=1.0,  # 40 hops: enough to count them as they go
                         progress=lambda text, update: said.append((text, update)))
    counts = [re.fullmatch(r"witnesses: basin hops, ([\d,]+) of ([\d,]+), (\d+) s CPU \((\d+) s wall\)", text)
              for text, _ in said]
    hops = [m for m in counts if m]
    assert hops, said
    assert int(hops[-1].group(1).replace(",", "")) == result.witness.hops > 0, (said, result.witness.hops)
    assert hops[-1].group(1) == hops[-1].group(2), said  # all of them, a count set by the budget
    assert all(update for (text, update) in said if text.endswith(" s wall)")), said  # one phase, updated
    assert all(len(f"verify: {m.group(0)}") <= 80 for m in hops), said


def test_plan_says_how_many_workers_solve_its_sample(run_cli: Cli) -> None:
    """``--jobs 64`` on 2 cores runs 2 workers: nothing said so; and while it
    solves, a running figure (it printed only its header for 7 minutes)."""
    import os

    r = run_cli("plan", "--size", "3x3", "--sample", "4", "--jobs", "64", "-o", "min-score", "500")
    assert r.returncode == 0, r.stderr
    cores = os.cpu_count() or 1
    where = f"on {min(4, cores)} worker process" if cores > 1 else "on 1 worker process"
    said = " ".join(r.stdout.replace("\n\t", " ").split())
    assert f"solving the sample's 4 classes {where}" in said, r.stdout
    assert f"(--jobs 64: {cores} cores here)" in said, r.stdout
    final = re.search(r"^plan: 4 of 4 classes solved; solving the proof: about (.*) of CPU so far$", r.stderr, re.M)
    assert final, r.stderr
    assert re.search(rf"CPU\t.*solving {re.escape(final.group(1))}", r.stdout), r.stdout  # the same figure
