"""SIGTERM at random moments of a run's start-up: does it always stop?

    python benchmarks/signal_startup.py [--tries 50] [--seed 1] [--within 1.5]

Starts ``boggle-opt run --searcher annealing --jobs 2 --time 60 --out F``
(in its own session) ``--tries`` times and sends SIGTERM at a moment drawn
uniformly from 0 to ``--within`` seconds after the start (reproducible with
``--seed``). A try passes when the run ends within 2 s of the signal with
exit status 143 and a finish record saying ``terminated by SIGTERM``, no
traceback on stderr, and no process of the run left. A signal that lands
before Python has run any of boggle-opt's code (the interpreter's own start,
a few tens of milliseconds) kills the process as the shell would report it
(status 143 to a shell, -15 here) before any run file exists: counted apart.
Prints one line per failing try and a summary.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMAND = ["run", "--searcher", "annealing", "--size", "3x3", "--jobs", "2", "--time", "60",
           "--seed", "1", "--progress", "none"]
#: the promise: stopped this soon after the signal
WITHIN = 2.0


def exe() -> str:
    script = Path(sys.executable).with_name("boggle-opt")
    found = str(script) if script.exists() else shutil.which("boggle-opt")
    if not found:
        sys.exit("the boggle-opt console script is not installed")
    return found


def last_record(path: Path) -> dict[str, object] | None:
    if not path.exists():
        return None
    lines = path.read_text().splitlines()
    return json.loads(lines[-1]) if lines else None


def group_left(group: int, wait: float) -> str:
    """The processes of the run's group still alive after ``wait`` seconds."""
    import psutil

    deadline = time.monotonic() + wait
    while True:
        left = []
        for p in psutil.process_iter(["pid", "status", "cmdline"]):
            try:
                if os.getpgid(p.pid) == group and p.info["status"] != psutil.STATUS_ZOMBIE:
                    left.append(" ".join(p.info["cmdline"] or [])[-80:])
            except (ProcessLookupError, PermissionError):
                pass
        if not left or time.monotonic() > deadline:
            return "; ".join(left)
        time.sleep(0.1)


def one_try(moment: float, folder: Path) -> tuple[str, float, str]:
    """(outcome, seconds from signal to exit, detail)."""
    out = folder / "run.jsonl"
    proc = subprocess.Popen([exe(), *COMMAND, "--out", str(out)], cwd=folder, text=True,
                            start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(moment)
    sent = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    try:
        _, stderr = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "never stopped", 60.0, ""
    took = time.monotonic() - sent
    left = group_left(proc.pid, 2.0)  # workers end within a moment of their parent
    if left:
        os.killpg(proc.pid, signal.SIGKILL)
        return "left processes", took, left
    if "Traceback" in stderr or "Error" in stderr:
        return "traceback", took, stderr.strip().splitlines()[-1]
    record = last_record(out)
    if proc.returncode == -signal.SIGTERM and record is None:
        return "before start", took, ""
    if proc.returncode != 143:
        return f"exit {proc.returncode}", took, stderr.strip()
    if record is None or record.get("type") != "finish" or record.get("stop_reason") != "terminated by SIGTERM":
        return "no finish record", took, str(record)
    return ("ok" if took <= WITHIN else "slow"), took, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tries", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--within", type=float, default=1.5, help="latest moment, seconds after start")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    outcomes: dict[str, int] = {}
    times: list[float] = []
    for i in range(args.tries):
        moment = rng.uniform(0, args.within)
        with tempfile.TemporaryDirectory() as tmp:
            outcome, took, detail = one_try(moment, Path(tmp))
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        times.append(took)
        if outcome not in ("ok", "before start"):
            print(f"try {i}: SIGTERM at {moment:.3f} s: {outcome} after {took:.2f} s {detail}")
    load = os.getloadavg()[0]
    print(f"{args.tries} tries, SIGTERM uniformly in 0-{args.within:g} s after start (seed {args.seed}); "
          f"load average {load:.1f}")
    print("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())))
    print(f"signal to exit: median {statistics.median(times):.2f} s, max {max(times):.2f} s")
    sys.exit(0 if set(outcomes) <= {"ok", "before start"} else 1)


if __name__ == "__main__":
    main()
