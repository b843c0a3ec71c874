"""``boggle-opt report``: one self-contained HTML page about a run, from its run file.

The page has the run's settings, how it ended, the best boards drawn as
grids (``board_svg``, with the longest word's path) and their words with
their points, longest first, the best score over time, and for a proof (``bnb``) the classes done,
pruned at the root and split, a histogram of the time per class and the
boards found. Plots are matplotlib figures written as inline SVG (text as
paths), the styles are inline: no script, no font, nothing fetched, so the
page opens offline in any browser and can be mailed as one file.
matplotlib is an optional extra: ``pip install 'boggle-opt[report]'``.
"""

from __future__ import annotations

import argparse
import html
import io
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .. import defaults
from ..runs import records as runrecords
from .board_svg import board_svg
from ..boards import size_geometry
from .args import deprecated_alias
from ..proofs.class_tasks import Ledger
from ..core.errors import BoggleOptError
from ..core.geometry import Geometry

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..core.scorer import FoundWord
    from ..registry.registries import Registries

TOP = 12  # best boards drawn


class ReportError(BoggleOptError):
    """A run file that cannot be read, or a report that cannot be written."""


@dataclass
class RunRecord:
    """What a run file says, in the order it happened, times across segments added up."""

    path: str
    settings: dict[str, Any]
    segments: int = 0
    started: str = ""
    #: (elapsed seconds, evaluations, board, score) of every improvement
    improved: list[tuple[float, int, str, int]] = field(default_factory=list)
    checkpoints: list[Mapping[str, Any]] = field(default_factory=list)
    best: list[tuple[str, int, int | None]] = field(default_factory=list)  # board, score, words
    stop_reason: str = "no finish record (killed, or still running)"
    elapsed: float = 0.0
    evaluations: int = 0
    stats: Mapping[str, Any] = field(default_factory=dict)
    #: (line, board, score) of every board recorded, to re-score before reporting
    recorded: list[tuple[int, str, int]] = field(default_factory=list)
    #: each segment's budget, use and stop reason, oldest first
    history: list[runrecords.Segment] = field(default_factory=list)


def read_records(path: str) -> RunRecord:
    """Parse a run file (``runrecords.read_records`` checks every line)."""
    numbered = runrecords.read_numbered(path)
    records = [r for _, r in numbered]
    starts = [r for r in records if r.get("type") == "start"]
    run = RunRecord(path, dict(starts[0]["settings"]), started=str(starts[0].get("time", "")))
    improved = [(line, r) for line, r in numbered if r.get("type") == "improved"]
    checkpoints = [(line, r["record"]) for line, r in numbered if r.get("type") == "checkpoint"]
    run.recorded = runrecords.recorded_boards(
        [(r["board"], r["score"]) for _, r in improved], [line for line, _ in improved],
        [c for _, c in checkpoints], [line for line, _ in checkpoints], path)
    offset_s, offset_e = 0.0, 0
    seg_s, seg_e = 0.0, 0
    try:
        for r in records:
            kind = r.get("type")
            if kind == "start":
                run.segments += 1
                offset_s, offset_e = offset_s + seg_s, offset_e + seg_e
                seg_s, seg_e = 0.0, 0
                continue
            if "elapsed" in r:
                seg_s = max(seg_s, float(r["elapsed"]))
                seg_e = max(seg_e, int(r.get("evaluations", 0)))
            if kind == "improved":
                run.improved.append((
                    offset_s + float(r["elapsed"]), offset_e + int(r.get("evaluations", 0)),
                    str(r["board"]), int(r["score"]),
                ))
            elif kind == "checkpoint" and isinstance(r.get("record"), dict):
                run.checkpoints.append(r["record"])
            elif kind == "progress" and isinstance(r.get("stats"), dict):
                run.stats = r["stats"]
            elif kind == "finish":
                run.stop_reason = str(r.get("stop_reason", ""))
                run.best = [
                    (str(b["board"]), int(b["score"]),
                     int(b["words"]) if b.get("words") is not None else None)
                    for b in r.get("best", [])
                ]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReportError(f"run file {path!r} has a malformed record: {exc}") from None
    run.elapsed, run.evaluations = offset_s + seg_s, offset_e + seg_e
    run.history = runrecords.segments_of(records)
    # how the run ended is how its last segment did (a killed one has no finish)
    last = run.history[-1].stop_reason
    run.stop_reason = last if last is not None else RunRecord.stop_reason
    return run


def _matplotlib_figure(width: float, height: float) -> Figure:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ReportError(
            "reports need matplotlib: pip install 'boggle-opt[report]'"
        ) from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _svg(fig: Figure) -> str:
    from matplotlib import rc_context

    buf = io.StringIO()
    # text as paths (no font needed to view it); fixed ids, so a page is reproducible
    with rc_context({"svg.fonttype": "path", "svg.hashsalt": "boggle-opt"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg") :]  # inline: no XML prologue or doctype


def best_over_time_svg(improved: Sequence[tuple[float, int, str, int]], elapsed: float) -> str:
    """The best score so far against time, as a step plot."""
    fig = _matplotlib_figure(7.5, 3.2)
    ax = fig.add_subplot()
    times, best = [], []
    top = -1
    for t, _, _, score in improved:
        if score > top:
            top = score
            times.append(t)
            best.append(score)
    if times:
        times.append(max(elapsed, times[-1]))
        best.append(best[-1])
        ax.step(times, best, where="post", color="#1f6fb2", linewidth=2)
        ax.plot(times[:-1], best[:-1], "o", color="#1f6fb2", markersize=3)
    ax.set_xlabel("seconds since the run started")
    ax.set_ylabel("best score")
    ax.grid(True, alpha=0.3)
    return _svg(fig)


def class_time_svg(seconds: Sequence[float]) -> str:
    """A histogram of the seconds each class took."""
    fig = _matplotlib_figure(7.5, 3.2)
    ax = fig.add_subplot()
    ax.hist(seconds, bins=min(40, max(5, len(seconds) // 3)), color="#3a8f5c")
    ax.set_xlabel("seconds per class")
    ax.set_ylabel("classes")
    if seconds and max(seconds) > 50 * max(min(seconds), 1e-3):
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    return _svg(fig)


def board_words(
    settings: Mapping[str, Any], registries: Registries | None, run: RunRecord | None = None,
) -> tuple[Callable[[str], list[FoundWord]] | None, str]:
    """A function board -> its words (longest first), from the run's word list and rule;
    else None and why not (the list may be absent where the report is made). With
    ``run``, its recorded boards are re-scored first: a wrong score is refused."""
    from ..registry.dictionaries import load_dictionary

    try:
        dictionary = load_dictionary(
            str(settings.get("wordlist") or defaults.WORDLIST),
            str(settings.get("rule") or defaults.RULE),
            registries,
        )
        scorer = dictionary.scorer(size_geometry(str(settings.get("size", "4x4"))))
    except BoggleOptError as exc:
        return None, str(exc)
    if run is not None:
        runrecords.check_scores(run.recorded, scorer.score, size_geometry(str(settings.get("size", "4x4"))),
                                run.path)

    def words(board: str) -> list[FoundWord]:
        return sorted(scorer.words(board), key=lambda w: (-len(w.word), -w.points, w.word))

    return words, ""


def board_card(
    geometry: Geometry, rank: int, board: str, score: int, count: int | None,
    words: list[FoundWord] | None,
) -> str:
    """One best board: drawn with its longest word's path, then all its words with their points."""
    longest = words[0] if words else None
    if longest is not None:
        pts = f"{longest.points} point{'s' * (longest.points != 1)}"
        picture = board_svg(geometry, board, longest.path, caption=longest.word.upper(),
                            note=f"longest word, {pts}")
    else:
        picture = board_svg(geometry, board)
    if count is None and words is not None:
        count = len(words)
    counted = f", {count:,} words" if count is not None else ""
    head = (f'<div class="score">#{rank}: {score:,} points{counted}</div>'
            f"<code>{html.escape(board)}</code>")
    listing = ""
    if words:
        items = "".join(
            f'<li><span class="w">{html.escape(w.word)}</span> <span class="p">{w.points}</span></li>'
            for w in words
        )
        listing = (f'<details{" open" * (rank == 1)}><summary>{len(words):,} words, longest first, '
                   f'with their points</summary><ol class="words">{items}</ol></details>')
    return f'<div class="best"><div class="pic">{picture}</div><div class="info">{head}{listing}</div></div>'


def ranked_boards(run: RunRecord, geometry: Geometry) -> list[tuple[str, int, int | None]]:
    """The best boards: from the finish record, else every improvement, one per symmetry class."""
    if run.best:
        return run.best
    best: dict[str, int] = {}
    for _, _, board, score in run.improved:
        key = geometry.canonical(board)
        best[key] = max(score, best.get(key, score))
    return [(b, s, None) for b, s in sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))]


STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:62em;
padding:0 1em;color:#1d1d1f;background:#fff}
h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #ddd}
.sub{color:#666}table.kv td{padding:.1em 1.2em .1em 0;vertical-align:top}
table.kv td:first-child{color:#555}
.best{display:flex;gap:1.4em;align-items:flex-start;margin:1em 0 1.6em}.pic{flex:none}
.best .score{font-weight:700;font-size:1.1em}.best code{font-size:.9em}.info{flex:1;min-width:0}
.info summary{cursor:pointer;color:#444;margin:.4em 0}
ol.words{list-style:none;padding:0;margin:0;columns:10em;column-gap:1.5em;font-size:.9em}
ol.words li{break-inside:avoid;display:flex;justify-content:space-between;border-bottom:1px solid #f0f0f0}
ol.words .p{color:#666;font-variant-numeric:tabular-nums}
@media screen{ol.words{max-height:26em;overflow:auto}}
.fig svg{max-width:100%;height:auto}
table.list{border-collapse:collapse}table.list td,table.list th{padding:.15em .8em;
border-bottom:1px solid #eee;text-align:left}
"""


def _kv(rows: Sequence[tuple[str, object]]) -> str:
    body = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{html.escape(str(v))}</td></tr>" for k, v in rows
    )
    return f'<table class="kv">{body}</table>'


def _proof_section(run: RunRecord) -> str:
    # bnb's records (other searchers checkpoint too, e.g. longword's tasks)
    ours = [c for c in run.checkpoints if c.get("kind") == "bnb"]
    classes = [c for c in ours if "class" in c]
    setups = [c for c in ours if c.get("setup")]
    if not classes and not setups:
        return ""
    pruned = sum(1 for c in classes if c.get("pruned") is True)
    timed = [float(c["seconds"]) for c in classes if isinstance(c.get("seconds"), (int, float))]
    has_pruned = any("pruned" in c for c in classes)
    total = run.stats.get("classes", "")
    ledger = Ledger()  # a class split into pieces is done when all of them are
    for c in ours:
        ledger.add(c)
    rows: list[tuple[str, object]] = [("classes done", f"{len(ledger.state()[0]):,}")]
    if any(c.get("part") for c in classes):
        rows.append(("tasks done (classes and pieces of split classes)", f"{len(classes):,}"))
    if total:
        rows.append(("classes done / in the proof (last progress record)", total))
    if has_pruned:
        rows.append(("pruned at the root (bound below the min score)", f"{pruned:,}"))
        rows.append(("split (forced cell by cell until the bounds fell)", f"{len(classes) - pruned:,}"))
    if setups:
        s = setups[-1]
        rows.append(("min score", s.get("min_score", "")))
        rows.append(("letter buckets", s.get("buckets", "")))
    if timed:
        rows.append(("time in classes", f"{sum(timed):,.1f} s (longest {max(timed):.2f} s)"))
    found: dict[str, int] = {}
    for c in classes:
        for board, score in c.get("boards", []):
            found[str(board)] = int(score)
    parts = ["<h2>Proof</h2>", _kv(rows)]
    if timed:
        parts.append("<h3>Time per class</h3>")
        parts.append(f'<div class="fig">{class_time_svg(timed)}</div>')
    else:
        parts.append('<p class="sub">This run file does not record the time per class.</p>')
    parts.append(f"<h3>Boards found ({len(found):,})</h3>")
    if found:
        items = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
        body = "".join(
            f"<tr><td><code>{html.escape(b)}</code></td><td>{s:,}</td></tr>" for b, s in items[:500]
        )
        more = f"<p class='sub'>... and {len(items) - 500:,} more</p>" if len(items) > 500 else ""
        parts.append(f'<table class="list"><tr><th>board</th><th>score</th></tr>{body}</table>{more}')
    else:
        parts.append("<p>No board reached the min score.</p>")
    return "\n".join(parts)


def _segments_table(run: RunRecord) -> str:
    """Each segment's budget and use, and the run's total."""
    rows = []
    for i, seg in enumerate(run.history, 1):
        stop = seg.stop_reason if seg.stop_reason is not None else "no finish record (killed, or still running)"
        cells = (str(i), seg.started, runrecords.describe_budget(seg.budget), stop,
                 f"{seg.evaluations:,}", f"{seg.elapsed:,.1f} s", f"{seg.best:,}" if seg.best >= 0 else "")
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    total = (f"<tr><th>total</th><th></th><th></th><th></th><th>{run.evaluations:,}</th>"
             f"<th>{run.elapsed:,.1f} s</th><th></th></tr>")
    head = ("<tr><th>segment</th><th>started</th><th>budget</th><th>stopped</th>"
            "<th>evaluations</th><th>time</th><th>best by its end</th></tr>")
    return f'<h3>Segments</h3><table class="list segments">{head}{"".join(rows)}{total}</table>'


def render(run: RunRecord, registries: Registries | None = None) -> str:
    """The report page for a parsed run file (``registries`` to find its word list and rule;
    without them the plugins are loaded)."""
    s = run.settings
    try:
        geometry = size_geometry(str(s.get("size", "4x4")))
    except BoggleOptError as exc:
        raise ReportError(f"run file {run.path!r}: {exc}") from None
    options = s.get("options") or {}
    opts = ", ".join(f"{k}={v}" for k, v in options.items() if v is not None) or "defaults"
    settings = [
        ("searcher", s.get("searcher", "?")),
        ("options", opts),
        ("rule", s.get("rule", "?")),
        ("word list", s.get("wordlist_label") or s.get("wordlist", "?")),
        ("size", geometry.size),
        ("seed", s.get("seed", "")),
        ("jobs", s.get("jobs", 1)),
        ("budget", runrecords.describe_budget(runrecords.segment_budget(s)) if run.segments < 2
         else "per segment (below)"),
    ]
    ending = [
        ("stopped" if run.segments < 2 else "stopped (last segment)", run.stop_reason),
        ("time", f"{run.elapsed:,.1f} s over {run.segments} segment{'s' * (run.segments != 1)}"),
        ("evaluations", f"{run.evaluations:,}"),
        ("improvements recorded", f"{len(run.improved):,}"),
    ]
    boards = ranked_boards(run, geometry)
    find_words, why = board_words(s, registries, run) if boards or run.recorded else (None, "")
    cards = [
        board_card(geometry, rank, board, score, words,
                   find_words(board) if find_words is not None else None)
        for rank, (board, score, words) in enumerate(boards[:TOP], 1)
    ]
    missing = f'<p class="sub">Words not listed: {html.escape(why)}</p>' if why else ""
    best_html = missing + "".join(cards) if cards else "<p>No boards found.</p>"
    plot = (
        f'<div class="fig">{best_over_time_svg(run.improved, run.elapsed)}</div>'
        if run.improved else "<p>No improvements recorded.</p>"
    )
    title = f"boggle-opt run: {s.get('searcher', '?')} · {s.get('rule', '?')} · {geometry.size}"
    made = time.strftime("%Y-%m-%d %H:%M")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title><style>{STYLE}</style></head>
<body>
<h1>{html.escape(title)}</h1>
<p class="sub">from <code>{html.escape(run.path)}</code>, started {html.escape(run.started)};
report made {made}</p>
<h2>Settings</h2>
{_kv(settings)}
<h2>Outcome</h2>
{_kv(ending)}
{_segments_table(run)}
<h2>Best boards</h2>
{best_html}
<h2>Best score over time</h2>
{plot}
{_proof_section(run)}
</body></html>
"""


def write_report(run_file: str, out: str, registries: Registries | None = None) -> None:
    """Read ``run_file`` and write its report to ``out``."""
    page = render(read_records(run_file), registries)
    try:
        Path(out).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot write report {out!r}: {exc.strerror}") from None


def add_parser(sub: Any) -> None:
    report = sub.add_parser(
        "report",
        help="write an HTML report of a run file",
        description="Write one self-contained HTML page about a run (needs boggle-opt[report]).",
    )
    report.add_argument("run_file", metavar="RUNFILE", help="a run file written by run --out")
    page = report.add_argument(
        "--out", metavar="FILE", default="report.html", help="the page to write (default report.html)"
    )
    deprecated_alias(report, page, "-o", "--output")  # until 0.2: -o is a searcher option elsewhere
    report.set_defaults(run=cmd_report)


def cmd_report(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    write_report(ns.run_file, ns.out, regs)
    out.write(f"wrote {ns.out}\n")
    return 0
