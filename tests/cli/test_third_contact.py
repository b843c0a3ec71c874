"""What a new user tripped on at third contact (issue 70), each through the
real command line: plain progress within 80 columns for a plugin's
searcher with figures of its own."""

from __future__ import annotations

import subprocess
import textwrap
from collections.abc import Callable
from pathlib import Path

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
