"""A short command imports only what it uses (issue 77): the proof machinery,
the run's modules, process pools, numpy and the live display are imported by
the commands that need them, not by ``score`` or ``--version``, whose start-up
the suite (hundreds of commands) and every user pays. Checked from the
modules the real console script has imported as it ends, not from a clock."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: imported by a run, a proof, plan, report or bound: never by the commands below
HEAVY = (
    "numpy", "rich", "dask", "distributed", "matplotlib", "multiprocessing", "concurrent.futures", "uuid",
    "boggle_opt.proofs.class_tasks", "boggle_opt.proofs.estimate",
    "boggle_opt.core.branch", "boggle_opt.runs.records", "boggle_opt.runs.run", "boggle_opt.searching.driver",
    "boggle_opt.cli.display",
)


#: runs the console script as itself (``__main__``), then writes the names in
#: ``sys.modules`` as the process exits
SHOW_MODULES = """
import atexit, json, runpy, sys
out, sys.argv = sys.argv[1], sys.argv[2:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def imported(args: list[str], env: dict[str, str], tmp_path: Path) -> set[str]:
    """The modules the console script has imported when it ends, running ``args`` (which must succeed)."""
    script = Path(sys.executable).with_name("boggle-opt")
    exe = str(script) if script.exists() else shutil.which("boggle-opt")
    assert exe, "the boggle-opt console script is not installed"
    out = tmp_path / "modules.json"
    # from a folder of its own: ``python -c`` puts the working folder first on
    # the path, and the checkout's boggle_opt (no plugins mapped) would shadow the install
    r = subprocess.run([sys.executable, "-c", SHOW_MODULES, str(out), exe, *args], capture_output=True, text=True,
                       env=env, timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    return set(json.loads(out.read_text()))


@pytest.mark.parametrize("args", [["score", "abcdefghijklmnop"], ["--version"]], ids=["score", "version"])
def test_a_short_command_imports_no_machinery_it_does_not_use(
    args: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    modules = imported(args, cli_env, tmp_path)
    assert "boggle_opt.cli.app" in modules and "argparse" in modules  # the check sees the imports
    if args[0] == "score":
        # the plugins were loaded (bnb, the local executor) and the list scored
        assert {"boggle_opt.plugins.bnb", "boggle_opt.proofs.local", "boggle_opt.core.scorer"} <= modules
    loaded = sorted(m for m in modules if m.split(".")[0] in HEAVY or m in HEAVY
                    or any(m.startswith(h + ".") for h in HEAVY))
    assert not loaded, f"`boggle-opt {' '.join(args)}` imports {loaded}"
