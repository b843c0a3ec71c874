"""The command line's start-up: median wall and CPU seconds of short commands.

    python benchmarks/cli_startup.py [--repeats 9] [--exe PATH ...]

Runs each command of ``COMMANDS`` ``--repeats`` times through the installed
``boggle-opt`` console script (or each ``--exe`` given: two installs side by
side, e.g. main's and a branch's, interleaved run by run so a shared
machine's load falls on both alike) and prints the median wall-clock and the
median CPU (user + system of the process and its children) of each. The
suite runs hundreds of these commands, so their start-up is much of its cost.

Plugins of other distributions are not autoloaded
(``BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD=1``, as the suite runs them); the
dictionary cache is a fresh temporary folder, and the bytecode caches are
written (``PYTHONDONTWRITEBYTECODE`` is dropped), by one untimed run of each
command. CPU is the figure to compare on a busy machine: wall time
there is mostly waiting for a core.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS: list[list[str]] = [
    ["--version"],
    ["score", "abcdefghijklmnop"],
    ["show", "deslatper", "--top", "3"],
    ["searchers"],
    ["run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "10", "--progress", "none"],
]


def installed() -> str:
    script = Path(sys.executable).with_name("boggle-opt")
    found = str(script) if script.exists() else shutil.which("boggle-opt")
    if not found:
        raise SystemExit("the boggle-opt command is not installed in this environment")
    return found


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``cmd`` (which must succeed)."""
    cpu, start = _children_cpu(), time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, _children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=9, help="timed runs of each command (default 9)")
    parser.add_argument("--exe", action="append", metavar="PATH",
                        help="a boggle-opt console script to time (repeatable; default: this environment's)")
    args = parser.parse_args()
    exes = args.exe or [installed()]
    with tempfile.TemporaryDirectory(prefix="boggle-opt-startup-") as cache:
        env = dict(os.environ, BOGGLE_OPT_CACHE=cache, BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD="1")
        env.pop("BOGGLE_OPT_NO_CACHE", None)
        # as a user's shell: the warm-up run writes the bytecode caches, which
        # an install from source (pip install -e) has none of before its first run
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        print(f"# load average {os.getloadavg()[0]:.1f}; median of {args.repeats} runs each")
        print("# command\texe\twall s\tCPU s")
        for command in COMMANDS:
            walls: dict[str, list[float]] = {exe: [] for exe in exes}
            cpus: dict[str, list[float]] = {exe: [] for exe in exes}
            for exe in exes:
                timed([exe, *command], env)  # warms the dictionary cache and the disk
            for _ in range(args.repeats):
                for exe in exes:  # interleaved: the machine's load falls on each alike
                    wall, cpu = timed([exe, *command], env)
                    walls[exe].append(wall)
                    cpus[exe].append(cpu)
            for exe in exes:
                print(f"{' '.join(command)}\t{exe}\t{statistics.median(walls[exe]):.3f}\t"
                      f"{statistics.median(cpus[exe]):.3f}")


if __name__ == "__main__":
    main()
