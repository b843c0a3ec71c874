"""What a new user tripped on at second contact (issue 43), each through the
real command line: optional extras checked before any work, longword's
message and estimate, a proof's finish hint, plain progress, 80 columns,
one orientation of boards, one convention for written files, and the
``# stopped:`` line."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from helpers import assert_one_line_error, records, run_until, unwrapped

Cli = Callable[..., subprocess.CompletedProcess[str]]
REPO = Path(__file__).resolve().parents[2]

#: a small proof: the 2x2 boards on the embedded list, in a second or two
PROOF_2X2 = ["run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "5", "--seed", "1"]
#: a proof's warm-up climb of a minute: a run refused at once is far from it
# a warm-up climb far longer than run_cli's ceiling (600 s): a run that
# started before it was refused would not come back in time
CLIMB_60 = ["-o", "climb-seconds", "100000"]


# -- 1. optional extras, checked before any work ---------------------------------


@pytest.fixture()
def without_extras(tmp_path: Path, cli_env: dict[str, str]) -> dict[str, str]:
    """The CLI's environment with Dask, distributed and matplotlib hidden:
    packages of those names earlier on the path that fail to import."""
    hidden = tmp_path / "hidden"
    for name in ("dask", "distributed", "matplotlib"):
        (hidden / name).mkdir(parents=True)
        (hidden / name / "__init__.py").write_text(f"raise ImportError('No module named {name} (hidden)')\n")
    env = dict(cli_env)
    env["PYTHONPATH"] = str(hidden) + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def _refused_at_once(result: subprocess.CompletedProcess[str], took: float, extra: str) -> None:
    line = assert_one_line_error(result, f"pip install 'boggle-opt[{extra}]'")
    assert result.returncode == 2, line
    assert result.stdout == ""
    # the warm-up climb alone takes 100,000 s (CLIMB_60): the command came back
    # within run_cli's ceiling (600 s, else TimeoutExpired), so it was refused
    # before the climb; no assertion on the wall clock, which a busy machine
    # stretches ("took" is shown when another assertion fails)
    assert took < 100_000, f"{took:.1f} s: the run started before it was refused"


@pytest.mark.parametrize("args", [
    ["--jobs", "2", "--executor", "dask"],
    ["--executor", "dask"],
    ["--scheduler", "tcp://127.0.0.1:1"],
], ids=["executor-dask", "one-job", "scheduler"])
def test_a_proof_without_dask_is_refused_before_any_work(
    args: list[str], run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    out = tmp_path / "p.jsonl"
    start = time.monotonic()
    r = run_cli("run", "--searcher", "bnb", "--size", "3x3", *CLIMB_60, *args, "--out", str(out),
                env=without_extras)
    _refused_at_once(r, time.monotonic() - start, "dask")
    assert "Dask" in r.stderr
    assert not out.exists() or out.read_text() == ""  # no run file to resume


def test_resuming_a_dask_run_without_dask_is_refused(
    run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    """The executor a run file records counts as asked for."""
    out = tmp_path / "p.jsonl"
    # one job: the executor is recorded all the same, without two workers' start
    r = run_cli(*PROOF_2X2, "--evals", "1", "--out", str(out), "--progress", "none")
    assert r.returncode == 3, r.stderr
    lines = out.read_text().splitlines()
    start = json.loads(lines[0])
    assert start["settings"]["executor"] == "local"
    start["settings"]["executor"] = "dask"
    out.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n")
    before = out.read_text()
    began = time.monotonic()
    again = run_cli("run", "--resume", str(out), "--time", "30", env=without_extras)
    _refused_at_once(again, time.monotonic() - began, "dask")
    assert out.read_text() == before


def test_run_report_without_matplotlib_is_refused_before_the_run(
    run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    out, page = tmp_path / "p.jsonl", tmp_path / "p.html"
    began = time.monotonic()
    r = run_cli("run", "--searcher", "bnb", "--size", "3x3", *CLIMB_60, "--out", str(out), "--report", str(page),
                env=without_extras)
    _refused_at_once(r, time.monotonic() - began, "report")
    assert "matplotlib" in r.stderr
    assert not page.exists() and (not out.exists() or out.read_text() == "")


def test_report_without_matplotlib_is_refused_before_reading(
    run_cli: Cli, without_extras: dict[str, str], tmp_path: Path
) -> None:
    out, page = tmp_path / "p.jsonl", tmp_path / "p.html"
    assert run_cli(*PROOF_2X2, "--out", str(out), "--progress", "none").returncode == 0
    began = time.monotonic()
    r = run_cli("report", str(out), "--out", str(page), env=without_extras)
    _refused_at_once(r, time.monotonic() - began, "report")
    assert not page.exists()


# -- 2. longword: why nothing is found, and an estimate that holds ----------------


def test_longword_on_the_embedded_list_says_why_and_what_to_do(run_cli: Cli) -> None:
    """The embedded list's longest words fill 15 cells: a 4x4 board's 16 are
    one too many, and the run says so instead of finding nothing."""
    r = run_cli("run", "--searcher", "longword", "--time", "30", "--progress", "none")
    line = assert_one_line_error(r, "longword:", "4x4", "its longest fill 15 cells", "-o length 15",
                                 "--wordlist enable2k")
    assert r.returncode == 1 and "# no boards found" not in r.stdout, line
    r = run_cli("run", "--searcher", "longword", "--size", "3x3", "-o", "letters", "12", "--progress", "none")
    assert_one_line_error(r, "no word of 9 cells", "12 letters", "-o letters")


def _seconds(text: str) -> float:
    number, unit = text.split()
    return float(number.replace(",", "")) * {"s": 1, "min": 60, "h": 3600, "days": 86400}[unit]


def test_longword_time_left_counts_placements_not_boards() -> None:
    """Below the board's size every placement is a climb that scores many
    boards: the time left comes from the placements done, not the boards
    scored (it once read 75 min where 50 days were left)."""
    from boggle_opt.boards import size_geometry
    from boggle_opt.constraints.fixed import Constraints
    from boggle_opt.plugins.longword import CHUNK_CLIMBS, _paths, _Setup, _Stats

    words = [b"tabs", b"stab", b"bats", b"last"]
    n_paths = len(_paths(3, 3, 4)) // 4
    setup = _Setup([*words], [1] * len(words), 3, 3, 4, words, None, CHUNK_CLIMBS, 1,
                   Constraints.build(size_geometry("3x3")), [1 / 26] * 26, 1)
    stats = _Stats(setup, n_paths, set())
    assert stats.snapshot(-1)["time left"] == ""  # nothing done: nothing to say
    stats.add(0, 1_000 * CHUNK_CLIMBS, 0)  # one task: 8 climbs of a thousand boards each
    stats.started -= 10  # ... that took 10 s
    left = stats.boards_left(-1)
    assert left == n_paths * len(words) - CHUNK_CLIMBS
    expected = 10 * left / CHUNK_CLIMBS
    shown = _seconds(str(stats.snapshot(-1)["time left"]))
    assert abs(shown - expected) <= 0.06 * expected, (shown, expected)


# -- 3. the finish hint finishes the proof ---------------------------------------


@pytest.mark.parametrize("budget", [["--evals", "1"], ["--time", "0.01"]], ids=["evals", "time"])
def test_the_printed_hint_runs_the_proof_to_its_end(budget: list[str], run_cli: Cli, tmp_path: Path) -> None:
    """The command an interrupted proof prints, run as printed, finishes it:
    a proof resumed without a budget runs to its end. A time budget spent
    before the first class (here always: the setup takes longer) still ends
    the proof incomplete, not as a search that found nothing: with 0.2 s the
    proof sometimes stopped at its setup and said only "no boards found",
    with exit status 0."""
    import shlex

    out = tmp_path / "p.jsonl"
    first = run_cli(*PROOF_2X2, *budget, "--out", str(out), "--progress", "none")
    assert first.returncode == 3, first.stderr
    assert "# proof INCOMPLETE: " in first.stdout and "not proved: " in first.stdout
    hint = unwrapped(first.stdout).rstrip().splitlines()[-1]  # a long path puts the command on a line of its own
    prefix = "# to finish the proof: "
    assert hint.startswith(prefix) and hint.endswith(f"--resume {out}"), hint
    words = shlex.split(hint[len(prefix):])
    assert words[:3] == ["boggle-opt", "run", "--resume"] and "--time" not in words and "--evals" not in words
    done = run_cli(*words[1:], "--progress", "none")
    assert done.returncode == 0, done.stderr
    assert "# proof complete" in done.stdout and "proved: " in done.stdout
    assert "--resume" not in done.stdout
    finish = records(out)[-1]
    assert finish["type"] == "finish" and finish["proof"]["complete"] is True


@pytest.mark.parametrize("value", ["0", "inf", "1e400"])
def test_time_zero_or_infinite_points_to_no_limit(value: str, run_cli: Cli) -> None:
    r = run_cli("run", "--searcher", "hillclimb", "--time", value)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.count("\n") == 1 and "--no-limit" in r.stderr, r.stderr


def test_no_limit_lifts_a_used_budget(run_cli: Cli, main_cli: Cli, tmp_path: Path) -> None:
    """A local search resumed after its budget ran out: --no-limit runs it on
    (until it ends on its own, or Ctrl-C); it may not come with a budget."""
    out = tmp_path / "h.jsonl"
    first = run_cli("run", "--searcher", "hillclimb", "--size", "3x3", "-o", "restarts", "2", "-o", "pool-size",
                    "20", "--seed", "1", "--evals", "50", "--out", str(out), "--progress", "none")
    assert first.returncode == 0, first.stderr
    # the two refusals come before any search: in this process
    bare = main_cli("run", "--resume", str(out), "--progress", "none")
    assert_one_line_error(bare, "used its whole budget", "--no-limit")
    both = main_cli("run", "--resume", str(out), "--no-limit", "--time", "5")
    assert_one_line_error(both, "--no-limit", "--time")
    on = run_cli("run", "--resume", str(out), "--no-limit", "--progress", "none")
    assert on.returncode == 0, on.stderr
    assert "searcher finished" in on.stdout and "no limit" in on.stdout
    assert records(out)[-1]["stop_reason"] == "searcher finished"


# -- 4. plain progress: a log a person can read ------------------------------------


def _status_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("[")]


def _check_plain(stderr: str) -> list[float]:
    """Every plain line short, with no value that is not known yet; the times
    of the status lines."""
    for line in stderr.splitlines():
        assert len(line) <= 80 or line.startswith("wrote "), line  # a path is as long as it is
        assert "best -1" not in line and "=-1" not in line, line
        assert not re.search(r"\w=(\s|$)", line), line  # `time left=` with nothing after
    return [float(line[1:line.index("s]")]) for line in _status_lines(stderr)]


def test_plain_progress_is_a_line_every_few_seconds(run_cli: Cli) -> None:
    # evaluations, not seconds (a busy machine's seconds do less): the lines
    # counted against how long the run took; half the evaluations of old at
    # half the interval, so as many lines
    r = run_cli("run", "--searcher", "annealing", "--rule", "pow2", "--seed", "1", "--evals", "20000",
                "--progress", "plain", "--progress-every", "0.25")
    assert r.returncode == 0, r.stderr
    times = _check_plain(r.stderr)
    assert 3 <= len(times) <= times[-1] / 0.25 + 2, r.stderr
    # a line each 0.25 s at most, as shown to 0.1 s (the last, as the run
    # stops, may follow its neighbour closer)
    assert all(b - a >= 0.14 for a, b in zip(times[:-2], times[1:-1])), times
    assert unwrapped(r.stderr).rstrip().splitlines()[-1].startswith("stopped: ")


def test_plain_progress_defaults_to_a_few_seconds(quick_start_plain: subprocess.CompletedProcess[str]) -> None:
    """Dozens of improvements in the first second are not dozens of lines
    (the README's quick start with plain progress, run once for this file)."""
    r = quick_start_plain
    times = _check_plain(r.stderr)
    # a line each 5 s at most, and one as it stops (the run takes 2 to 3 s
    # here, longer on a busy machine)
    assert len(times) <= times[-1] / 5 + 1, r.stderr
    assert all(b - a >= 4.95 for a, b in zip(times[:-2], times[1:-1])), times


def test_plain_progress_of_a_proof_and_of_longword(run_cli: Cli, cli_env: dict[str, str], tmp_path: Path) -> None:
    # stopped as Ctrl-C stops it once a class is done, not after 4 s, which a
    # busy machine could spend on the warm-up climb and the setup alone
    out = tmp_path / "p.jsonl"
    proof = run_until(["run", "--searcher", "bnb", "--size", "3x3", "-o", "climb-seconds", "1.5", "--out", str(out),
                       "--progress", "plain", "--progress-every", "0.25"], cli_env, tmp_path,
                      lambda: out.exists() and '"class": ' in out.read_text())
    assert proof.returncode == 130, proof.stderr
    _check_plain(proof.stderr)
    lines = _status_lines(proof.stderr)
    assert any("warm-up climb choosing the min score" in line for line in lines), proof.stderr
    assert any(" classes " in line and "/2,862 (" in line for line in lines), proof.stderr
    # 5-cell words, for evaluations: 9-cell ones take its setup 8 s of CPU,
    # which a 4 s time budget does not cut short (120 s and more on a busy machine)
    longword = run_cli("run", "--searcher", "longword", "--size", "3x3", "-o", "length", "5", "--evals", "20000",
                       "--progress", "plain", "--progress-every", "0.2")
    assert longword.returncode == 0, longword.stderr
    _check_plain(longword.stderr)


@pytest.mark.parametrize("value", ["0", "-1", "inf", "soon"])
def test_progress_every_takes_seconds(value: str, run_cli: Cli) -> None:
    r = run_cli("run", "--searcher", "hillclimb", "--progress-every", value)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--progress-every" in r.stderr, r.stderr


# -- 5. 80 columns ------------------------------------------------------------------


def _widths_ok(text: str, width: int = 80) -> None:
    for line in text.splitlines():
        assert len(line.expandtabs()) <= width, f"{len(line.expandtabs())} columns: {line}"


@pytest.fixture()
def at_80(cli_env: dict[str, str]) -> dict[str, str]:
    return {**cli_env, "COLUMNS": "80"}


@pytest.mark.parametrize("command", [["searchers"], ["plugins"], ["--help"], ["run", "--help"]])
def test_listings_fit_80_columns(command: list[str], main_cli: Cli, at_80: dict[str, str]) -> None:
    r = main_cli(*command, env=at_80)
    assert r.returncode == 0, r.stderr
    _widths_ok(r.stdout)


def _commands() -> list[str]:
    from boggle_opt.cli.app import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return sorted(sub.choices)


@pytest.mark.parametrize("command", _commands())
def test_every_commands_help_prints_and_fits_80_columns(command: str, main_cli: Cli, at_80: dict[str, str]) -> None:
    """argparse expands %-formats in help texts: a bare "5%;" was a traceback."""
    r = main_cli(command, "--help", env=at_80)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.startswith("usage:")
    _widths_ok(r.stdout)


def test_plugins_names_never_run_into_their_text(main_cli: Cli, at_80: dict[str, str]) -> None:
    """A name as wide as its column ("embedded (default, kjxqz)") gets a line
    of its own; every entry's text starts in the same column."""
    from boggle_opt.cli.app import NAME_COLUMN

    r = main_cli("plugins", env=at_80)
    section = ""
    lines = r.stdout.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith(" "):
            section = line
            continue
        if section == "plugins:" or len(line) <= NAME_COLUMN:
            continue
        if line[NAME_COLUMN - 1] == " " and line[NAME_COLUMN] != " " or line[:NAME_COLUMN].isspace():
            continue
        # a name wider than its column ("italian-4x4 (italian, paroliere)"):
        # alone on its line, its text on the next, in the text's column
        following = lines[i + 1] if i + 1 < len(lines) else ""
        assert following[:NAME_COLUMN].isspace() and following[NAME_COLUMN] != " ", (line, following)
    assert "  embedded (default, kjxqz)\n" in r.stdout
    assert "[boggle-opt " in r.stdout and "[boggle-opt\n" not in r.stdout  # a tag is never broken


def test_a_runs_results_fit_80_columns_without_empty_options(run_cli: Cli) -> None:
    search = run_cli("run", "--searcher", "hillclimb", "--evals", "2000", "--seed", "1", "--progress", "none")
    assert search.returncode == 0, search.stderr
    _widths_ok(search.stdout)
    header = search.stdout.split("# stopped")[0]
    assert "exclude=" not in header and "canonical=true" in header and "canonical=True" not in header
    proof = run_cli(*PROOF_2X2, "--progress", "none")
    assert proof.returncode == 0, proof.stderr
    _widths_ok(proof.stdout)
    header = proof.stdout.split("# stopped")[0]
    assert "buckets=" not in header and "corner-buckets=" not in header and "shard=" not in header, header
    assert "min-score=5" in header


def test_the_finish_hint_keeps_its_command_whole(run_cli: Cli, tmp_path: Path) -> None:
    deep = tmp_path / ("a-folder-with-a-long-name-" * 3)
    deep.mkdir()
    out = deep / "proof.jsonl"
    r = run_cli(*PROOF_2X2, "--evals", "1", "--out", str(out), "--progress", "none")
    assert r.returncode == 3, r.stderr
    lines = r.stdout.rstrip().splitlines()
    assert lines[-2:] == ["# to finish the proof:", f"#   boggle-opt run --resume {out}"]


# -- 6. one orientation: the panel draws the board the results list --------------

QUICK_START = ["run", "--searcher", "annealing", "--rule", "pow2", "--evals", "30000", "--seed", "1"]


@pytest.fixture(scope="module")
def quick_start_plain(run_cli: Cli) -> subprocess.CompletedProcess[str]:
    """The README's quick start with plain progress, run once for the tests that read it."""
    r = run_cli(*QUICK_START, "--progress", "plain")
    assert r.returncode == 0, r.stderr
    return r


def test_the_live_panel_draws_the_board_as_the_results_do(
    run_cli: Cli, quick_start_plain: subprocess.CompletedProcess[str]
) -> None:
    """The panel once drew the board as found, the results its canonical form:
    the same board flipped (README's quick start: M Y T H on top, then D Z I G)."""
    r = run_cli(*QUICK_START, "--progress", "rich")
    assert r.returncode == 0, r.stderr
    grid = r.stdout.rstrip().split("points):\n")[1].splitlines()
    assert grid[0] == "D  Z  I  G"  # drsmzeeyidltgooh, column by column
    panel = [line.strip("│ ") for line in r.stderr.splitlines()[1:5]]
    assert [line[:len(row)] for line, row in zip(panel, grid)] == grid, r.stderr
    plain = quick_start_plain
    assert "best 21,410 drsmzeeyidltgooh " in plain.stderr, plain.stderr


def test_the_docs_draw_how_a_board_string_maps_to_the_grid() -> None:
    usage = (REPO / "docs" / "usage.md").read_text(encoding="utf-8")
    picture = usage[usage.index("How a board string maps to the grid"):][:1500]
    for row in ("D  Z  I  G", "R  E  D  O", "S  E  L  O", "M  Y  T  H"):
        assert row in picture
    assert "drsmzeeyidltgooh" in picture and "column" in picture


# -- 8. written files: one convention -----------------------------------------------


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_every_written_file_is_said_alike_on_stderr(run_cli: Cli, tmp_path: Path) -> None:
    """`wrote FILE` on stderr (stdout is the results) for a picture, a report,
    a run file and a merged run file; a picture or a report replaces an
    earlier one and says so; a run file is never written over."""
    svg = tmp_path / "b.svg"
    first = run_cli("show", "deslatper", "--svg", str(svg))
    assert first.returncode == 0 and first.stderr == f"wrote {svg}\n", first.stderr
    again = run_cli("show", "deslatper", "--svg", str(svg))
    assert again.stderr == f"wrote {svg} (replaced the file that was there)\n"
    assert again.stdout == first.stdout and "wrote" not in first.stdout

    out, page = tmp_path / "p.jsonl", tmp_path / "p.html"
    run = run_cli(*PROOF_2X2, "--progress", "none", "--out", str(out), "--report", str(page))
    assert run.returncode == 0, run.stderr
    assert run.stderr == f"wrote {out}\nwrote {page}\n", run.stderr
    assert "report" not in run.stdout and "wrote" not in run.stdout
    report = run_cli("report", str(out), "--out", str(page))
    assert report.returncode == 0 and report.stdout == ""
    assert report.stderr == f"wrote {page} (replaced the file that was there)\n"

    refused = run_cli(*PROOF_2X2, "--progress", "none", "--out", str(out))
    assert_one_line_error(refused, "not empty", "--resume")
    assert_one_line_error(run_cli("show", "deslatper", "--svg", str(out)), "is a run file")

    shards = [tmp_path / f"s{k}.jsonl" for k in (1, 2)]
    for k, shard in enumerate(shards, 1):
        r = run_cli(*PROOF_2X2, "--shard", f"{k}/2", "--progress", "none", "--out", str(shard))
        assert r.returncode == 0, r.stderr
    merged = tmp_path / "m.jsonl"
    m = run_cli("merge", *map(str, shards), "--out", str(merged), "--jobs", "2")  # re-solving in workers
    assert m.returncode == 0, m.stderr
    *steps, said = m.stderr.splitlines()  # the verify's steps first (cli/status.py), then the file
    assert said.startswith(f"wrote {merged} (") and "wrote" not in m.stdout
    assert steps and all(step.startswith("merge: ") for step in steps), m.stderr
    # the files are read in one step: a campaign's thousands of shards are not a line each
    assert [step for step in steps if "reading" in step] == [
        f"merge: reading and re-scoring {shards[0].name} (1 of 2 files)"], m.stderr
    assert_one_line_error(run_cli("merge", *map(str, shards), "--out", str(merged)), str(merged))
    # a report of the shards verifies them first, as merge does
    shard_page = tmp_path / "shards.html"
    r = run_cli("report", *map(str, shards), "--out", str(shard_page), "--jobs", "2")
    assert r.returncode == 0 and r.stdout == "", r.stdout + r.stderr
    assert r.stderr.splitlines()[-1] == f"wrote {shard_page}", r.stderr
    assert "merged from verified run files" in shard_page.read_text(encoding="utf-8")


# -- 9. small things: the stopped line, show's note, README in step -------------------


def test_the_stopped_line_says_the_budget_and_what_was_done(
    run_cli: Cli, quick_start_plain: subprocess.CompletedProcess[str]
) -> None:
    r = quick_start_plain
    stopped = [line for line in r.stdout.splitlines() if line.startswith("# stopped:")]
    assert len(stopped) == 1 and re.fullmatch(
        r"# stopped: budget of 30,000 evaluations reached; 30,085 done in \d+\.\d s", stopped[0]), stopped
    assert "used 30,000" not in r.stdout + r.stderr
    assert unwrapped(r.stderr).rstrip().endswith(  # wrapped to 80 columns
        "stopped: budget of 30,000 evaluations reached (30,085 done: the last batch finishes)")
    timed = run_cli("run", "--searcher", "hillclimb", "--size", "3x3", "--time", "1", "--progress", "none")
    assert re.search(r"^# stopped: time budget of 1 s reached; [\d,]+ evaluations in \d+\.\d s$",
                     timed.stdout, re.M), timed.stdout


def test_show_says_in_canonical_form(main_cli: Cli) -> None:
    r = main_cli("show", "deslatper", "--top", "0")
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip().splitlines()[-1] == "in canonical form"


def test_the_readme_quick_start_output_is_what_the_command_prints(
    quick_start_plain: subprocess.CompletedProcess[str]
) -> None:
    """The README's quick start shows the run with --evals 30000 --seed 1 in
    place of --time 60: line for line, but the seconds (and the rows it
    elides with "..."). Its results are stdout, the same under any
    --progress (plain's goes to stderr)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"```text\n(# searcher annealing.*?)```", readme, re.S)
    assert shown, "README's quick start output block"
    expected = shown.group(1).splitlines()
    cut = expected.index("...")
    actual = quick_start_plain.stdout.splitlines()

    def timeless(lines: list[str]) -> list[str]:
        return [re.sub(r" in \d+\.\d s", " in T s", line) for line in lines]

    assert timeless(actual[:cut]) == timeless(expected[:cut])
    assert actual[-len(expected[cut + 1:]):] == expected[cut + 1:]


def test_help_placeholders_say_what_goes_there(main_cli: Cli, at_80: dict[str, str]) -> None:
    """`--out FILE` and `--top N`, as `--report FILE` beside them, not `--out OUT`."""
    text = main_cli("run", "--help", env=at_80).stdout
    for vague in ("--out OUT", "--top TOP", "--time TIME", "--evals EVALS", "--target TARGET",
                  "--seed SEED", "--size SIZE", "--rule RULE", "--wordlist WORDLIST", "--jobs JOBS"):
        assert vague not in text, vague
    for said in ("--out FILE", "--top N", "--time SECONDS", "--size CxR", "--wordlist NAME|PATH"):
        assert said in text, said


def test_a_one_point_best_board_says_point(run_cli: Cli) -> None:
    # zzaq holds one word (qua, 1 point) and every cell is fixed
    r = run_cli("run", "--fix", "zzaq", "--size", "2x2", "--evals", "1", "--progress", "none")
    assert r.returncode == 0, r.stderr
    assert "\nbest board (1 point):\n" in r.stdout, r.stdout


# -- a big proof says its scale before it starts ----------------------------------


def test_a_4x4_proof_says_its_scale_before_it_starts(run_cli: Cli, tmp_path: Path) -> None:
    """A user trying `--size 4x4` learnt that it takes hundreds of CPU-hours
    only from the ETA, once the first class (minutes) had finished."""
    # a budget spent in the set-up: the note comes before the first class, and the proof ends incomplete
    args = ["run", "--searcher", "bnb", "--size", "4x4", "--time", "0.01", "-o", "climb-seconds", "0.1",
            "--progress", "none"]
    result = run_cli(*args, "--out", str(tmp_path / "p.jsonl"))
    assert result.returncode == 3, result.stderr  # stopped by its budget, the proof incomplete
    # wrapped within 80 columns, continued two spaces in: read joined
    notes = [line for line in unwrapped(result.stderr).splitlines() if line.startswith("boggle-opt: note:")]
    assert len(notes) == 1, result.stderr
    # (the run file's path, which 'wrote' names whole, may be longer)
    assert all(len(line) <= 80 for line in result.stderr.splitlines() if not line.startswith("wrote ")), result.stderr
    assert "hundreds of CPU-hours (67,257 classes)" in notes[0]
    assert "`boggle-opt plan --size 4x4`" in notes[0] and "--shard K/N" in notes[0]
    # said once, when the proof starts: not again on --resume, nor for a shard
    again = run_cli("run", "--resume", str(tmp_path / "p.jsonl"), "--time", "0.01", "--progress", "none")
    assert "note: a 4x4 proof" not in again.stderr
    shard = run_cli(*args, "--shard", "1/400", "--out", str(tmp_path / "s.jsonl"))
    assert "note: a 4x4 proof" not in shard.stderr
    # under --progress jsonl stderr is JSON lines for a program: the note is a
    # record there, after the start record, and nothing else is printed
    jsonl = run_cli(*args[:-1], "jsonl")
    assert jsonl.returncode == 3, jsonl.stderr
    records = [json.loads(line) for line in jsonl.stderr.splitlines()]
    assert records[0]["type"] == "start"
    said = [r for r in records if r["type"] == "note"]
    assert len(said) == 1 and said[0] == records[1], records[:3]
    assert "hundreds of CPU-hours (67,257 classes)" in said[0]["text"]
    assert {"elapsed", "evaluations"} <= said[0].keys()


def test_a_small_proof_starts_without_a_note(run_cli: Cli) -> None:
    result = run_cli(*PROOF_2X2, "--progress", "none")
    assert result.returncode == 0, result.stderr
    assert "note:" not in result.stderr
