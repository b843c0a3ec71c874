"""``show`` and ``report`` on real runs (a local search and a small proof), through the CLI;
the report page rendered by a real headless browser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from boggle_opt import report
from boggle_opt.core.errors import BoggleOptError

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PROOF = ["--searcher", "bnb", "--size", "2x3", "--wordlist", "enable2k", "-o", "min-score", "100",
         "-o", "buckets", "aeiou bdfgjqvwxz lnrsy chkmpt"]


@pytest.fixture(scope="module")
def runs(run_cli, tmp_path_factory, enable2k_path) -> dict[str, Path]:
    """A local search and a small proof, each with a run file and the report `run --report` wrote."""
    folder = tmp_path_factory.mktemp("runs")
    made = {}
    for name, args in [
        ("search", ["--searcher", "annealing", "--wordlist", "enable2k", "--time", "2", "--seed", "5"]),
        ("proof", PROOF),
    ]:
        out, page = folder / f"{name}.jsonl", folder / f"{name}.html"
        result = run_cli("run", *args, "--progress", "none", "--out", str(out), "--report", str(page))
        assert result.returncode == 0, result.stderr
        assert f"# report: {page}" in result.stdout
        made[name], made[name + "-page"] = out, page
    return made


def test_report_of_a_local_search(runs, run_cli, tmp_path):
    page = tmp_path / "again.html"
    result = run_cli("report", str(runs["search"]), "--out", str(page))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert _undated(text) == _undated(runs["search-page"].read_text()), (
        "report and run --report make the same page")
    run = report.read_records(str(runs["search"]))
    best_score = run.best[0][1]
    assert "annealing" in text and f"{best_score:,} points" in text
    assert text.count('<table class="board">') == min(len(run.best), report.TOP)
    assert text.count("<svg") == 1, "one plot: the best score over time"
    assert "<h2>Proof</h2>" not in text
    _self_contained(text)


def test_report_of_a_proof(runs):
    text = runs["proof-page"].read_text()
    run = report.read_records(str(runs["proof"]))
    classes = [c for c in run.checkpoints if "class" in c]
    pruned = sum(c["pruned"] for c in classes)
    assert len(classes) == 1120
    assert f"<td>classes done</td><td>{len(classes):,}</td>" in text
    assert f"{pruned:,}</td>" in text and f"{len(classes) - pruned:,}</td>" in text
    assert text.count("<svg") == 2, "best score over time, and the time per class"
    found = {b for c in classes for b, _ in c["boards"]}
    assert found and all(f"<code>{b}</code>" in text for b in found)
    _self_contained(text)


def _undated(page: str) -> str:
    return re.sub(r"report made [^<]*", "", page)


def _self_contained(text: str) -> None:
    """Nothing to fetch: no scripts, no links or sources outside the page."""
    assert "<script" not in text
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#)""", text)
    assert "@import" not in text and not re.search(r"url\((?!#)", text)


def test_other_searchers_checkpoints_are_not_a_proof(tmp_path):
    """Only bnb's records make the proof section (longword checkpoints its tasks)."""
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"type": "start", "settings": {"searcher": "longword", "size": "3x3"}},
        {"type": "checkpoint", "record": {"kind": "longword", "setup": True, "label": "x"}},
        {"type": "checkpoint", "record": {"kind": "longword", "label": "x", "chunk": 1,
                                          "boards": [["streaedlp", 545]]}},
        {"type": "improved", "board": "streaedlp", "score": 545, "elapsed": 1.0, "evaluations": 9},
    ]) + "\n")
    text = report.render(report.read_records(str(path)))
    assert "<h2>Proof</h2>" not in text and "545 points" in text


def test_show_a_found_board(runs, run_cli, tmp_path):
    """The proof's best board drawn with a word's path, and the same picture as SVG."""
    run = report.read_records(str(runs["proof"]))
    board = run.best[0][0]
    svg = tmp_path / "board.svg"
    result = run_cli("show", board, "--size", "2x3", "--wordlist", "enable2k",
                     "--word", "pest", "--word", "tapes", "--svg", str(svg))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert f"{run.best[0][1]} points" in out and "PEST" in out and "TAPES" in out
    # the cells of PEST numbered 1-4 in order, the other cells of its grid not numbered
    pest = _panel(out, "PEST")
    assert sorted(re.findall(r"[A-Z]([1-9])", pest)) == ["1", "2", "3", "4"]
    text = svg.read_text()
    assert text.startswith("<svg") and "PEST" in text and "TAPES" in text


def _panel(out: str, title: str) -> str:
    """The text of the first word's panel (panels sit side by side, the first at the left)."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("╭") and title in ln)
    right = lines[start].index("╮") + 1
    body = []
    for ln in lines[start + 1:]:
        if ln.startswith("╰"):
            break
        body.append(ln[:right])
    return "\n".join(body)


def test_show_errors(run_cli):
    result = run_cli("show", "catsdogs", "--size", "2x4", "--word", "zebra")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "'zebra' cannot be spelled" in result.stderr
    result = run_cli("show", "cat1")
    assert result.returncode == 1 and "'1'" in result.stderr


def test_report_errors(run_cli, tmp_path):
    missing = run_cli("report", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "r.html"))
    assert missing.returncode == 1 and "cannot read run file" in missing.stderr
    other = tmp_path / "other.jsonl"
    other.write_text('{"type": "improved", "board": "abcd", "score": 3}\n')
    result = run_cli("report", str(other), "--out", str(tmp_path / "r.html"))
    assert result.returncode == 1 and "not a boggle-opt run file" in result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "r.html").exists()


def test_report_without_matplotlib_says_how_to_install(runs, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(BoggleOptError, match=r"pip install 'boggle-opt\[report\]'"):
        report.write_report(str(runs["search"]), str(tmp_path / "r.html"))


def test_report_renders_in_a_real_browser(runs, tmp_path):
    """Headless Chromium draws the proof's page: no console message, and a picture
    with real content (not blank)."""
    browser = next((b for b in map(shutil.which, BROWSERS) if b), None)
    if browser is None:
        pytest.skip("no Chromium or Chrome installed (.ci/run installs the system's chromium "
                    "package when it can)")
    from matplotlib.image import imread

    png = tmp_path / "page.png"
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1000,1800",
         "--enable-logging=stderr", "--v=0", f"--screenshot={png}",
         runs["proof-page"].resolve().as_uri()],
        capture_output=True, text=True, timeout=180,
    )
    assert png.exists(), done.stderr[-2000:]
    console = [ln for ln in done.stderr.splitlines() if ":CONSOLE" in ln]
    assert console == [], "the page wrote to the console"
    pixels = imread(str(png))[..., :3]
    assert pixels.shape[:2] == (1800, 1000)
    ink = (pixels.min(axis=2) < 0.85).mean()  # share of pixels that are not near-white
    colours = len({tuple(p) for p in (pixels[::7, ::7] * 255).astype(int).reshape(-1, 3)})
    assert ink > 0.03 and colours > 20, (ink, colours)
