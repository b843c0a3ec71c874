"""Bulk scoring and start-up through the real command line, against a plain C scorer.

    python benchmarks/score_cli.py [--boards 100000] [--repeats 3] [--seed 2026]

1. Bulk: ``boggle-opt score --wordlist enable2k - < boards.txt`` on seeded
   uniformly random 4x4 boards, against ``score_boards.c`` (beside this file,
   compiled here with the system's C compiler, ``$CC`` or cc/gcc/clang, at
   -O2) reading the same file, with its own dictionary load. Both outputs must
   agree line for line. Without a compiler the reference is the core's own
   throughput in this process (``Scorer.score_count`` over the same boards,
   plus the dictionary build). Target: the CLI in at most 1.5x the reference.
2. Start-up: ``boggle-opt score BOARD`` on the embedded list with the
   dictionary cache warm, and with ``--no-cache``. Target: at most 0.3 s warm.

Every figure is the median of ``--repeats`` wall-clock runs, taken in the same
sitting, with the load average (the machine may be shared). The dictionary
cache is a fresh temporary folder, warmed by one untimed run. Word lists are
found as the CLI finds them (``BOGGLE_OPT_WORDLISTS``, default
``../shared/wordlists``).
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

import numpy as np

from boggle_opt.core.errors import WordListError
from boggle_opt.wordlists.research import ENV, find_wordlist

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
BOARD = "perslatgsineters"


def find_enable2k() -> Path:
    """Where the CLI finds it, or beside the repository in ``../shared``."""
    os.environ.setdefault(ENV, str(REPO.parent / "shared" / "wordlists"))
    try:
        return find_wordlist("enable2k")
    except WordListError as exc:
        raise SystemExit(str(exc)) from None


def cli() -> str:
    script = Path(sys.executable).with_name("boggle-opt")
    found = str(script) if script.exists() else shutil.which("boggle-opt")
    if not found:
        raise SystemExit("the boggle-opt command is not installed in this environment")
    return found


def compile_reference(workdir: Path) -> Path | None:
    """score_boards.c built with the system compiler, or None if there is none."""
    for cc in [os.environ.get("CC", ""), "cc", "gcc", "clang"]:
        if cc and shutil.which(cc):
            exe = workdir / "score_boards"
            subprocess.run([cc, "-O2", "-o", str(exe), str(HERE / "score_boards.c")], check=True)
            return exe
    return None


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


CPU: list[float] = []  # CPU seconds of each timed command, in order


def timed(cmd: list[str], stdin_path: Path | None, env: dict[str, str]) -> tuple[float, bytes]:
    with open(stdin_path or os.devnull, "rb") as stdin:
        cpu = _child_cpu()
        start = time.perf_counter()
        done = subprocess.run(cmd, stdin=stdin, capture_output=True, env=env, check=False)
        seconds = time.perf_counter() - start
        CPU.append(_child_cpu() - cpu)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[0]} failed: {done.stderr.decode(errors='replace').strip()}")
    return seconds, done.stdout


def core_reference(wordlist: Path, boards: list[str]) -> float:
    """Seconds for the core alone: build the dictionary, then score and count every board."""
    from boggle_opt.boards import make_geometry
    from boggle_opt.dictionary.dictionary import Dictionary
    from boggle_opt.registry.loader import load_plugins
    from boggle_opt.dictionary.wordlist import read_word_file

    start = time.perf_counter()
    d = Dictionary("enable2k", read_word_file(wordlist), load_plugins().rules.get("standard"))
    scorer = d.scorer(make_geometry(4, 4))
    for b in boards:
        scorer.score_count(b)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    import boggle_opt

    wordlist = find_enable2k()
    exe = cli()
    core = "compiled with mypyc" if boggle_opt.COMPILED else "PURE PYTHON"
    print(f"boggle-opt {boggle_opt.__version__}, core {core}; word list {wordlist}")

    with tempfile.TemporaryDirectory(prefix="score-cli-") as tmp:
        work = Path(tmp)
        env = dict(os.environ, BOGGLE_OPT_CACHE=str(work / "cache"))
        # as installed for a user: compiled bytecode is written once and reused
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["BOGGLE_OPT_WORDLISTS"] = str(wordlist.parent)
        rng = np.random.default_rng(args.seed)
        letters = rng.integers(0, 26, size=(args.boards, 16), dtype=np.uint8) + ord("a")
        boards = [row.tobytes().decode("ascii") for row in letters]
        board_file = work / "boards.txt"
        board_file.write_text("\n".join(boards) + "\n")

        command = [exe, "score", "--wordlist", "enable2k", "-"]
        timed(command, board_file, env)  # warms the dictionary cache (and the page cache)
        reference = compile_reference(work)
        ref_times, cli_times = [], []
        for _ in range(args.repeats):
            if reference is not None:
                seconds, ref_out = timed([str(reference), str(wordlist), str(board_file)], None, env)
                ref_times.append(seconds)
            else:
                ref_times.append(core_reference(wordlist, boards))
            seconds, cli_out = timed(command, board_file, env)
            cli_times.append(seconds)
            if reference is not None:
                rows = b"".join(ln for ln in cli_out.splitlines(True) if not ln.startswith(b"#"))
                if rows != ref_out:
                    raise SystemExit("the CLI and the C scorer disagree")
        ref, mine = statistics.median(ref_times), statistics.median(cli_times)
        label = "C scorer (score_boards.c, -O2)" if reference else "core alone (no C compiler)"
        print(f"\nbulk: {args.boards:,} random 4x4 boards, ENABLE2K, standard rule; "
              f"median of {args.repeats}, load average {os.getloadavg()[0]:.1f}")
        print(f"  {label:<34}{ref:8.2f} s  ({args.boards / ref:,.0f} boards/s)")
        print(f"  {'boggle-opt score -':<34}{mine:8.2f} s  ({args.boards / mine:,.0f} boards/s)")
        verdict = "ok" if mine <= 1.5 * ref else "MISSED"
        print(f"  ratio {mine / ref:.2f} (target <= 1.5: {verdict})"
              + ("; outputs identical" if reference else ""))

        one = [exe, "score", BOARD]
        timed(one, None, env)  # the embedded list's cache entry

        def startup(cmd: list[str]) -> tuple[float, float]:
            """Median wall and CPU seconds of ``cmd``."""
            walls, cpus = [], []
            for _ in range(args.repeats):
                walls.append(timed(cmd, None, env)[0])
                cpus.append(CPU[-1])
            return statistics.median(walls), statistics.median(cpus)

        warm, warm_cpu = startup(one)
        cold, cold_cpu = startup([exe, "--no-cache", "score", BOARD])
        bare, bare_cpu = startup([sys.executable, "-c", "pass"])
        print(f"\nstart-up: boggle-opt score {BOARD} (embedded list), median of {args.repeats}, "
              f"load average {os.getloadavg()[0]:.1f}; wall (CPU) seconds")
        print(f"  cache warm {warm:.3f} ({warm_cpu:.3f}) (target <= 0.3: "
              f"{'ok' if warm <= 0.3 else 'MISSED'}); --no-cache {cold:.3f} ({cold_cpu:.3f}); "
              f"python -c pass {bare:.3f} ({bare_cpu:.3f})")

if __name__ == "__main__":
    main()
