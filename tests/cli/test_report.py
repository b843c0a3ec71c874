"""``show`` and ``report`` on real runs (a local search and a small proof), through the CLI;
the report page rendered by a real headless browser."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boggle_opt.cli import report
from boggle_opt.runs.runfile import read_run_file
from boggle_opt.boards import size_geometry
from boggle_opt.core.errors import BoggleOptError
from boggle_opt.registry.dictionaries import load_dictionary

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
PROOF = ["--searcher", "bnb", "--size", "2x3", "--wordlist", "enable2k", "-o", "min-score", "100",
         "-o", "buckets", "aeiou bdfgjqvwxz lnrsy chkmpt"]


@pytest.fixture(scope="module")
def runs(run_cli, tmp_path_factory, enable2k_path) -> dict[str, Path]:
    """A local search and a small proof, each with a run file and the report `run --report` wrote."""
    folder = tmp_path_factory.mktemp("runs")
    made = {}
    for name, args in [
        # 3000 evaluations: 35 best boards, more than the page draws (report.TOP)
        ("search", ["--searcher", "annealing", "--wordlist", "enable2k", "--evals", "3000", "--seed", "5"]),
        ("proof", PROOF),
    ]:
        out, page = folder / f"{name}.jsonl", folder / f"{name}.html"
        result = run_cli("run", *args, "--progress", "none", "--out", str(out), "--report", str(page))
        assert result.returncode == 0, result.stderr
        assert f"wrote {page}\n" in result.stderr and f"wrote {out}\n" in result.stderr
        made[name], made[name + "-page"] = out, page
    return made


def test_report_of_a_local_search(runs, run_cli, tmp_path):
    page = tmp_path / "again.html"
    result = run_cli("report", str(runs["search"]), "--out", str(page))
    assert result.returncode == 0, result.stderr
    text = page.read_text()
    assert _undated(text) == _undated(runs["search-page"].read_text()), (
        "report and run --report make the same page")
    run = read_run_file(str(runs["search"]))
    best_score = run.best[0][1]
    assert "annealing" in text and f"{best_score:,} points" in text
    drawn = min(len(run.best), report.TOP)
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" class="board"') == drawn
    assert text.count("<svg") == 1 + drawn, "one plot: the best score over time"
    assert "<h2>Proof</h2>" not in text
    _self_contained(text)


def test_report_lists_the_words_of_each_best_board(runs, enable2k_path):
    """Each best board's words with their points, longest first, and its longest word drawn."""
    text = runs["search-page"].read_text()
    run = read_run_file(str(runs["search"]))
    geometry = size_geometry("4x4")
    scorer = load_dictionary(str(enable2k_path), "standard").scorer(geometry)
    cards = text.split('<div class="best">')[1:]
    assert len(cards) == min(len(run.best), report.TOP)
    for (board, score, _), card in zip(run.best, cards):
        assert f"{score:,} points" in card and f"<code>{board}</code>" in card
        listed = re.findall(r'<li><span class="w">([a-z]+)</span> <span class="p">(\d+)</span></li>', card)
        found = {w.word: w.points for w in scorer.words(board)}
        assert {w: int(p) for w, p in listed} == found and len(listed) == len(found)
        lengths = [len(w) for w, _ in listed]
        assert lengths == sorted(lengths, reverse=True), "longest first"
        assert f"<text class=\"caption\"" in card and f">{listed[0][0].upper()}</text>" in card
        svg = ET.fromstring(card[card.index("<svg"):card.index("</svg>") + 6])
        assert _spelled(svg) == listed[0][0], "the longest word's path is drawn"


def test_report_of_a_proof(runs):
    text = runs["proof-page"].read_text()
    run = read_run_file(str(runs["proof"]))
    classes = [c for c in run.checkpoints if "class" in c]
    pruned = sum(c["pruned"] for c in classes)
    assert len(classes) == 1120
    assert f"<td>complete</td><td>{len(classes):,} of {len(classes):,} classes done" in text
    assert f"{pruned:,}</td>" in text and f"{len(classes) - pruned:,}</td>" in text
    found_boards = {b for c in classes for b, _ in c["boards"]}
    drawn = min(len(found_boards), report.TOP)
    assert text.count('<svg xmlns="http://www.w3.org/2000/svg" class="board"') == drawn
    assert text.count("<svg") == 2 + drawn, "classes over time, and the cost per class (no best score plot)"
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
                                          "boards": [["streaedlp", 556]]}},
        {"type": "improved", "board": "streaedlp", "score": 556, "elapsed": 1.0, "evaluations": 9},
    ]) + "\n")
    text = report.render(read_run_file(str(path)))
    assert "<h2>Proof</h2>" not in text and "556 points" in text


def test_report_when_the_word_list_is_gone(tmp_path):
    """The boards are still drawn (no path), with a note why their words are not listed."""
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"type": "start", "settings": {"searcher": "hillclimb", "size": "3x3",
                                       "wordlist": str(tmp_path / "gone.txt")}},
        {"type": "improved", "board": "streaedlp", "score": 545, "elapsed": 1.0, "evaluations": 9},
    ]) + "\n")
    text = report.render(read_run_file(str(path)))
    assert "Words not listed:" in text and "gone.txt" in text
    assert "545 points" in text and text.count('class="board"') == 1
    assert "<polyline" not in text and '<li><span class="w">' not in text


def test_show_a_found_board(runs, run_cli, tmp_path):
    """The proof's best board drawn with a word's path, and the same picture as SVG."""
    run = read_run_file(str(runs["proof"]))
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
    root = ET.fromstring(text)  # well-formed
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "@import" not in text and "url(" not in text and "href" not in text
    captions = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "caption"]
    assert captions == ["PEST", "1 point", "TAPES", "2 points"]
    panels = [g for g in root.iter(f"{SVG}g") if g.get("class") == "panel"]
    assert [_spelled(p) for p in panels] == ["pest", "tapes"]


SVG = "{http://www.w3.org/2000/svg}"


def _spelled(drawing: ET.Element) -> str:
    """The letters under the drawn path's points, in order (the cells found by their centres);
    the cells must be adjacent on the board."""
    rects = {(float(r.get("x", "")) + float(r.get("width", "")) / 2,
              float(r.get("y", "")) + float(r.get("height", "")) / 2): int(r.get("data-cell", ""))
             for r in drawing.iter(f"{SVG}rect") if r.get("data-cell")}
    letters = {int(t.get("data-cell", "")): (t.text or "").lower()
               for t in drawing.iter(f"{SVG}text") if t.get("data-cell")}
    (line,) = drawing.iter(f"{SVG}polyline")
    path = [rects[tuple(map(float, p.split(",")))] for p in line.get("points", "").split()]
    columns = {x for x, _ in rects}
    rows = len(rects) // len(columns)
    for a, b in zip(path, path[1:]):
        assert a != b and abs(a // rows - b // rows) <= 1 and abs(a % rows - b % rows) <= 1
    return "".join(letters[c] for c in path)


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


def test_show_errors(main_cli):
    result = main_cli("show", "catsdogs", "--size", "2x4", "--word", "zebra")
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert "'zebra' cannot be spelled" in result.stderr
    result = main_cli("show", "cat1")
    assert result.returncode == 1 and "'1'" in result.stderr


def test_show_svg_to_a_missing_folder_fails_before_drawing(run_cli, tmp_path):
    target = tmp_path / "missing" / "x.svg"
    result = run_cli("show", "catsdogs", "--size", "2x4", "--svg", str(target))
    # a bad argument, said before anything is drawn (issue 67: every output checked first)
    assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
    assert "cannot write" in result.stderr and "missing" in result.stderr
    assert result.stdout == "", "nothing drawn"
    assert list(tmp_path.iterdir()) == []


def test_report_errors(main_cli, tmp_path):
    missing = main_cli("report", str(tmp_path / "nope.jsonl"), "--out", str(tmp_path / "r.html"))
    assert missing.returncode == 1 and "cannot read run file" in missing.stderr
    other = tmp_path / "other.jsonl"
    other.write_text('{"type": "improved", "board": "abcd", "score": 3}\n')
    result = main_cli("report", str(other), "--out", str(tmp_path / "r.html"))
    assert result.returncode == 1 and "not a boggle-opt run file" in result.stderr
    assert result.stderr.count("\n") == 1 and not (tmp_path / "r.html").exists()


def test_report_without_matplotlib_says_how_to_install(runs, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(BoggleOptError, match=r"pip install 'boggle-opt\[report\]'"):
        report.write_report(str(runs["search"]), str(tmp_path / "r.html"))


def test_report_renders_in_a_real_browser(runs, tmp_path):
    """Headless Chromium draws the proof's page: no console message, and a picture
    with real content (not blank)."""
    pixels = _screenshot(runs["proof-page"], tmp_path, 1000, 1800)
    ink = (pixels.min(axis=2) < 0.85).mean()  # share of pixels that are not near-white
    colours = len({tuple(p) for p in (pixels[::7, ::7] * 255).astype(int).reshape(-1, 3)})
    assert ink > 0.03 and colours > 20, (ink, colours)


def test_board_svg_renders_in_a_real_browser(tmp_path):
    """Headless Chromium draws a board with a path from its SVG file alone: the path's
    blue is there, and the picture is light (a paper's page, not a dark terminal)."""
    from boggle_opt.cli.board_svg import board_svg

    svg = tmp_path / "board.svg"
    svg.write_text(board_svg(size_geometry("4x4"), "qaicdrneetasnnil", [0, 1, 5],
                             caption="QUAD", note="1 point"))
    pixels = _screenshot(svg, tmp_path, 400, 400)
    light = (pixels.min(axis=2) > 0.85).mean()
    blue = ((pixels[..., 2] - pixels[..., 0] > 0.3) & (pixels[..., 2] > 0.5)).mean()
    dark = (pixels.max(axis=2) < 0.3).mean()  # the letters
    assert light > 0.6 and 0.001 < blue < 0.05 and dark > 0.005, (light, blue, dark)


def _screenshot(page: Path, tmp_path: Path, width: int, height: int):
    """``page`` as headless Chromium draws it, as an RGB array; no console message allowed."""
    browser = next((b for b in map(shutil.which, BROWSERS) if b), None)
    if browser is None:
        pytest.skip("no Chromium or Chrome installed (.ci/run installs the system's chromium "
                    "package when it can)")
    from matplotlib.image import imread

    png = tmp_path / "page.png"
    done = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},{height}",
         "--enable-logging=stderr", "--v=0", f"--screenshot={png}",
         page.resolve().as_uri()],
        capture_output=True, text=True, timeout=180,
    )
    assert png.exists(), done.stderr[-2000:]
    console = [ln for ln in done.stderr.splitlines() if ":CONSOLE" in ln]
    assert console == [], "the page wrote to the console"
    pixels = imread(str(png))[..., :3]
    assert pixels.shape[:2] == (height, width)
    return pixels


def test_report_leaves_empty_options_out(tmp_path):
    """As the run's header and usage.md do: the page listed "buckets=,
    corner-buckets=, ..., shard=" for a proof's options left empty."""
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"type": "start", "settings": {"searcher": "bnb", "size": "2x2", "options": {
            "min-score": 20, "buckets": "", "corner-buckets": "", "switch": None, "shard": ""}}},
        {"type": "improved", "board": "tsea", "score": 22, "elapsed": 1.0, "evaluations": 9},
    ]) + "\n")
    text = report.render(read_run_file(str(path)))
    shown = re.search(r"<td>options</td><td>([^<]*)</td>", text)
    assert shown and shown.group(1) == "min-score=20", shown and shown.group(1)
