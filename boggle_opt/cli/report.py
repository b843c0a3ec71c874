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
import os
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from .. import defaults
from ..boards import size_geometry
from .args import add_verify_jobs, deprecated_alias
from .status import StatusLine
from ..core.errors import BoggleOptError
from ..core.alphabet import ENGLISH, Alphabet, capitals
from ..dictionary.rules import letters_note
from ..core.geometry import Geometry
from ..core.trie import LATIN

if TYPE_CHECKING:
    from ..proofs.class_tasks import Ledger
    from matplotlib.figure import Figure

    from ..core.scorer import FoundWord
    from ..runs.runfile import PastRun
    from ..registry.registries import Registries

TOP = 12  # best boards drawn
NO_FINISH = "no finish record (killed, or still running)"


class ReportError(BoggleOptError):
    """A run file that cannot be read, or a report that cannot be written."""


def _stopped(run: PastRun) -> str:
    """How the run ended: as its last segment did (a killed one has no finish)."""
    return run.stop_reason if run.stop_reason is not None else NO_FINISH


def check_matplotlib() -> None:
    """matplotlib importable: checked before a report's run or run files are
    read (``run --report`` checks it before the run starts)."""
    from ..lazy import require

    require(("matplotlib.figure",), "report", "reports need matplotlib")


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


def board_words(
    settings: Mapping[str, Any], registries: Registries | None, run: PastRun | None = None,
) -> tuple[Callable[[str], list[FoundWord]] | None, str]:
    """A function board -> its words (longest first), from the run's word list and rule;
    else None and why not (the list may be absent where the report is made). With
    ``run``, its recorded boards are re-scored first: a wrong score is refused."""
    from ..registry.dictionaries import load_dictionary
    from ..runs import records as runrecords

    try:
        if registries is not None and run is not None:  # a plugin's rule or list: say which, and how to load it
            runrecords.check_registered(settings, registries, run.path, ("rule", "wordlist"))
        dictionary = load_dictionary(
            str(settings.get("wordlist") or defaults.WORDLIST),
            str(settings.get("rule") or defaults.RULE),
            registries,
            language=str(settings["language"]) if settings.get("language") else None,
            min_letters=settings.get("min_letters"),  # load_dictionary checks it
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
    words: list[FoundWord] | None, alphabet: Alphabet = ENGLISH,
) -> str:
    """One best board: drawn with its longest word's path, then all its words with their points."""
    from .board_svg import board_svg

    longest = words[0] if words else None
    faces = () if alphabet.symbols == LATIN else tuple(alphabet.faces(board))
    if longest is not None:
        pts = f"{longest.points} point{'s' * (longest.points != 1)}"
        picture = board_svg(geometry, board, longest.path, caption=capitals(longest.word),
                            note=f"longest word, {pts}", faces=faces)
    else:
        picture = board_svg(geometry, board, faces=faces)
    if count is None and words is not None:
        count = len(words)
    counted = f", {count:,} words" if count is not None else ""
    head = (f'<div class="score">#{rank}: {score:,} points{counted}</div>'
            f"<code>{html.escape(alphabet.write(board))}</code>")
    listing = ""
    if words:
        items = "".join(
            f'<li><span class="w">{html.escape(w.word)}</span> <span class="p">{w.points}</span></li>'
            for w in words
        )
        listing = (f'<details{" open" * (rank == 1)}><summary>{len(words):,} words, longest first, '
                   f'with their points</summary><ol class="words">{items}</ol></details>')
    return f'<div class="best"><div class="pic">{picture}</div><div class="info">{head}{listing}</div></div>'


def ranked_boards(run: PastRun, geometry: Geometry) -> list[tuple[str, int, int | None]]:
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


def classes_over_time_svg(times: Sequence[float], total: int, elapsed: float) -> str:
    """Classes finished against time, with the total the proof needs."""
    fig = _matplotlib_figure(7.5, 3.2)
    ax = fig.add_subplot()
    ordered = sorted(times)
    xs = [0.0, *ordered, max(elapsed, ordered[-1] if ordered else 0.0)]
    ys = [0, *range(1, len(ordered) + 1), len(ordered)]
    ax.step(xs, ys, where="post", color="#1f6fb2", linewidth=2)
    if total:
        ax.axhline(total, color="#888", linestyle="--", linewidth=1)
        ax.annotate(f"all {total:,} classes", (0, total), xytext=(4, -12),
                    textcoords="offset points", color="#555")
    ax.set_xlabel("seconds since the run started")
    ax.set_ylabel("classes done")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    return _svg(fig)


def class_cost_svg(seconds: Sequence[float], nodes: Sequence[int]) -> str:
    """Histograms of what each task (a class, or a piece of a split one) cost:
    its seconds and its tree's nodes."""
    panels = [(seconds, "seconds per task", "#3a8f5c")] + ([(nodes, "tree nodes per task", "#b2651f")]
                                                             if nodes else [])
    fig = _matplotlib_figure(7.5, 3.2 * len(panels))
    for i, (values, label, colour) in enumerate(panels, 1):
        ax = fig.add_subplot(len(panels), 1, i)
        ax.hist(values, bins=min(40, max(5, len(values) // 3)), color=colour)
        ax.set_xlabel(label)
        ax.set_ylabel("tasks")
        if values and max(values) > 50 * max(min(values), 1e-3):
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
    return _svg(fig)


def _total_classes(run: PastRun) -> int:
    """How many classes the proof covers: the finish record's, else the last
    progress record's (``classes total``, or ``classes`` as ``done/total``)."""
    from ..proofs import outcome as proof

    if run.proof is not None and isinstance(run.proof.get("classes_total"), int):
        return int(run.proof["classes_total"])
    value = run.stats.get(proof.TOTAL)
    if isinstance(value, int):
        return value
    _, _, after = str(run.stats.get("classes", "")).partition("/")
    try:
        return int(after.replace(",", ""))
    except ValueError:
        return 0


def proof_outcome(run: PastRun, write: Callable[[str], str] = str,
                  ) -> tuple[Any, Ledger, list[tuple[str, int]]] | None:
    """What a run file's proof proved, from its class records (the run file is
    the source of truth: the counts are those of its records); None if the
    run is not a proof. ``write``: a board as people write it (``[ij]``)."""
    from ..proofs import outcome as proof
    from ..proofs.class_tasks import Ledger

    ours = [c for c in run.checkpoints if c.get("kind") == "bnb"]
    if not ours:
        return None
    ledger = Ledger()  # a class split into pieces is done when all of them are
    for c in ours:
        ledger.add(c)
    finished = ledger.state()[0]
    failed = {(str(c["failed"]), str(c.get("part", ""))) for c in ours if "failed" in c}
    setups = [c for c in ours if c.get("setup")]
    options = run.settings.get("options") or {}
    stats: dict[str, Any] = {
        proof.DONE: len(finished), proof.TOTAL: _total_classes(run),
        proof.FAILED: sum(1 for name, _ in failed if name not in finished),
        proof.MIN_SCORE: setups[-1].get("min_score", -1) if setups else -1,
        # the options as the run file records them (``min-score``; older: ``min_score``)
        proof.MIN_FROM: (proof.CLIMB if options.get("min-score", options.get("min_score")) is None
                         else proof.GIVEN),
        proof.IN_FLIGHT: int((run.proof or {}).get("in_flight", 0)) if run.history[-1].stop_reason else 0,
    }
    found: dict[str, int] = {}
    for board, score in ledger.boards:
        found[board] = max(score, found.get(board, score))
    ranked = sorted(found.items(), key=lambda kv: (-kv[1], kv[0]))
    return proof.outcome(stats, run.settings, ranked, _stopped(run), write), ledger, ranked


def _proof_section(run: PastRun, geometry: Geometry, registries: Registries | None,
                   alphabet: Alphabet = ENGLISH) -> str:
    """The statement first, then classes over time, what classes cost, splits
    and retries, and the boards found with their words."""
    made = proof_outcome(run, alphabet.write)
    if made is None:
        return ""
    result, ledger, ranked = made
    # the recorded boards are re-scored (a wrong score refused) before any is
    # shown, and before the charts are drawn: a refused file costs no drawing
    find_words, why_not = board_words(run.settings, registries, run) if ranked or run.recorded else (None, "")
    ours = [(c, t) for c, t in zip(run.checkpoints, run.checkpoint_times) if c.get("kind") == "bnb"]
    tasks = [(c, t) for c, t in ours if "class" in c]
    finished = ledger.state()[0]
    colour = "#1d7a3a" if result.complete else "#b3261e"
    parts = ["<h2>Proof</h2>",
             f'<p class="statement" style="font-size:1.15em;font-weight:700;color:{colour}">'
             f"{html.escape(result.statement)}</p>"]
    pruned = sum(1 for c, _ in tasks if c.get("pruned") is True)
    rows: list[tuple[str, object]] = [
        ("complete" if result.complete else "incomplete", result.counts_text()),
        ("min score", result.min_score_text()),
    ]
    if any(c.get("part") for c, _ in tasks):
        rows.append(("tasks done (classes and pieces of split classes)", f"{len(tasks):,}"))
    if any("pruned" in c for c, _ in tasks):
        rows.append(("pruned at the root (bound below the min score)", f"{pruned:,}"))
        rows.append(("forced cell by cell until the bounds fell", f"{len(tasks) - pruned:,}"))
    setups = [c for c, _ in ours if c.get("setup")]
    if setups:
        rows.append(("letter buckets", setups[-1].get("buckets", "")))
    timed = [float(c["seconds"]) for c, _ in tasks if isinstance(c.get("seconds"), (int, float))]
    nodes = [int(c["nodes"]) for c, _ in tasks if isinstance(c.get("nodes"), int)]
    if timed:
        rows.append(("time in classes", f"{sum(timed):,.1f} s (longest task {max(timed):.2f} s)"))
    if nodes:
        rows.append(("largest tree", f"{max(nodes):,} nodes"))
    parts.append(_kv(rows))
    # a class's finish: its last task's record
    last: dict[str, float] = {}
    for c, t in tasks:
        name = str(c["class"])
        if name in finished:
            last[name] = max(t, last.get(name, t))
    parts.append("<h3>Classes over time</h3>")
    parts.append(f'<div class="fig">{classes_over_time_svg(list(last.values()), result.classes_total, run.elapsed)}</div>')
    if timed:
        parts.append("<h3>What each class cost</h3>")
        parts.append(f'<div class="fig">{class_cost_svg(timed, nodes)}</div>')
    else:
        parts.append('<p class="sub">This run file does not record the time per class.</p>')
    splits = [c for c, _ in ours if "split" in c]
    failures = [c for c, _ in ours if "failed" in c]
    parts.append("<h3>Splits and retries</h3>")
    why: dict[str, int] = {}
    for c in splits:
        reason = str(c.get("reason", "?"))
        key = ("worker died" if "died" in reason or "lost" in reason else
               "node budget" if "node budget" in reason else
               "time budget" if "time budget" in reason else reason)
        why[key] = why.get(key, 0) + 1
    retry_rows: list[tuple[str, object]] = [
        ("tasks split", f"{len(splits):,}" + (" (" + ", ".join(f"{k}: {n:,}" for k, n in sorted(why.items()))
                                               + ")" if why else "")),
        ("tasks failed (workers died each time)", f"{len(failures):,}"
         + (f"; {result.failed:,} still to finish" if failures else "")),
    ]
    if "retries" in run.stats:
        retry_rows.append(("retries (last segment, its last progress record)", run.stats["retries"]))
    parts.append(_kv(retry_rows))
    parts.append(f"<h3>Boards found ({len(ranked):,})</h3>")
    if ranked:
        if why_not:
            parts.append(f'<p class="sub">Words not listed: {html.escape(why_not)}</p>')
        parts.extend(
            board_card(geometry, rank, board, score, None,
                       find_words(board) if find_words is not None else None, alphabet)
            for rank, (board, score) in enumerate(ranked[:TOP], 1)
        )
        rest = ranked[TOP:]
        if rest:
            body = "".join(
                f"<tr><td><code>{html.escape(alphabet.write(b))}</code></td><td>{s:,}</td></tr>"
                for b, s in rest[:500]
            )
            more = f"<p class='sub'>... and {len(rest) - 500:,} more</p>" if len(rest) > 500 else ""
            parts.append(f'<table class="list"><tr><th>board</th><th>score</th></tr>{body}</table>{more}')
    else:
        parts.append("<p>No board reached the min score.</p>")
    return "\n".join(parts)


def _segments_table(run: PastRun) -> str:
    """Each segment's budget and use, and the run's total."""
    from ..runs import records as runrecords

    rows = []
    for i, seg in enumerate(run.history, 1):
        stop = seg.stop_reason if seg.stop_reason is not None else NO_FINISH
        cells = (str(i), seg.started, runrecords.describe_budget(seg.budget), stop,
                 f"{seg.evaluations:,}", f"{seg.elapsed:,.1f} s", f"{seg.best:,}" if seg.best >= 0 else "")
        rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    total = (f"<tr><th>total</th><th></th><th></th><th></th><th>{run.evaluations:,}</th>"
             f"<th>{run.elapsed:,.1f} s</th><th></th></tr>")
    head = ("<tr><th>segment</th><th>started</th><th>budget</th><th>stopped</th>"
            "<th>evaluations</th><th>time</th><th>best by its end</th></tr>")
    return f'<h3>Segments</h3><table class="list segments">{head}{"".join(rows)}{total}</table>'


def render(run: PastRun, registries: Registries | None = None) -> str:
    """The report page for a parsed run file (``registries`` to find its word list and rule;
    without them the plugins are loaded)."""
    from ..runs import records as runrecords

    s = run.settings
    try:
        geometry = size_geometry(str(s.get("size", "4x4")))
    except BoggleOptError as exc:
        raise ReportError(f"run file {run.path!r}: {exc}") from None
    options = s.get("options") or {}
    # as the run's header: an option left empty takes the searcher's default
    opts = ", ".join(f"{k}={v}" for k, v in options.items() if v is not None and v != "") or "defaults"
    settings = [
        ("searcher", s.get("searcher", "?")),
        ("options", opts),
        ("rule", f"{s.get('rule', '?')}{letters_note(s.get('min_letters'))}"),
        ("word list", s.get("wordlist_label") or s.get("wordlist", "?")),
        ("size", geometry.size),
        ("seed", s.get("seed", "")),
        ("jobs", s.get("jobs", 1)),
        ("budget", runrecords.describe_budget(runrecords.segment_budget(s)) if run.segments < 2
         else "per segment (below)"),
    ]
    ending = [
        ("stopped" if run.segments < 2 else "stopped (last segment)", _stopped(run)),
        ("time", f"{run.elapsed:,.1f} s over {run.segments} segment{'s' * (run.segments != 1)}"),
        ("evaluations", f"{run.evaluations:,}"),
        ("improvements recorded", f"{len(run.improved):,}"),
    ]
    from ..runs.runfile import run_alphabet

    # boards as people write them ([ij]), drawn with their dice's faces
    alphabet = run_alphabet(s, registries)
    proof_html = _proof_section(run, geometry, registries, alphabet)
    if proof_html:
        # a proof's boards are its section's; a best score over time is flat for it
        best_html = ""
    else:
        boards = ranked_boards(run, geometry)
        find_words, why = board_words(s, registries, run) if boards or run.recorded else (None, "")
        cards = [
            board_card(geometry, rank, board, score, words,
                       find_words(board) if find_words is not None else None, alphabet)
            for rank, (board, score, words) in enumerate(boards[:TOP], 1)
        ]
        missing = f'<p class="sub">Words not listed: {html.escape(why)}</p>' if why else ""
        plot = (
            f'<div class="fig">{best_over_time_svg(run.improved, run.elapsed)}</div>'
            if run.improved else "<p>No improvements recorded.</p>"
        )
        best_html = ("<h2>Best boards</h2>\n" + (missing + "".join(cards) if cards else "<p>No boards found.</p>")
                     + f"\n<h2>Best score over time</h2>\n{plot}")
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
{proof_html}
<h2>Settings</h2>
{_kv(settings)}
<h2>Outcome</h2>
{_kv(ending)}
{_segments_table(run)}
{best_html}
</body></html>
"""


def write_report(run_file: str | Sequence[str], out: str, registries: Registries | None = None,
                 progress: Callable[[str, bool], None] | None = None, jobs: int = 1) -> bool:
    """Read ``run_file`` (or the shards of one proof) and write its report to
    ``out``; whether it replaced an earlier file. ``progress`` hears the
    shards' verify (``verify_runs``), which re-solves in ``jobs`` processes."""
    from ..runs.runfile import read_run_file  # brings the driver: not for `boggle-opt score`

    from ..runs.files import PathArg, check_paths, recorded_wordlist, wordlist_files, write_output

    check_matplotlib()  # before shards are verified and merged, which can take minutes
    files = [run_file] if isinstance(run_file, str) else list(run_file)
    # the word list each run names is read again (by name: the file it stands for here)
    lists = [PathArg(f"the word list of RUNFILE {f!r}", w) for f in files
             for name in [recorded_wordlist(f)] if name is not None
             for w in wordlist_files(name, registries, beside=f)]
    # before the work of rendering; write_output checks again as it writes
    check_paths([*(PathArg("RUNFILE", f, run_file=True) for f in files), *lists,
                 PathArg("report", out, written=True)])
    if len(files) == 1:
        page = render(read_run_file(files[0], registries), registries)
    else:
        # a proof's shards: verified together and merged, then reported as one run
        from ..runs.merge import merge_runs
        from ..registry.loader import load_plugins

        with tempfile.TemporaryDirectory() as tmp:
            merged = os.path.join(tmp, "merged.jsonl")
            merge_runs(files, merged, registries if registries is not None else load_plugins(), progress=progress,
                       jobs=jobs)
            page = render(read_run_file(merged, registries), registries)
    return write_output(out, page, "report")


def add_parser(sub: Any) -> None:
    report = sub.add_parser(
        "report",
        help="write an HTML report of a run file",
        description="Write one self-contained HTML page about a run (needs boggle-opt[report]).",
    )
    report.add_argument("run_file", nargs="+", metavar="RUNFILE",
                        help="a run file written by run --out, or all the shards of one proof (verified together)")
    page = report.add_argument(
        "--out", metavar="FILE", default="report.html", help="the page to write (default report.html)"
    )
    deprecated_alias(report, page, "-o", "--output")  # until 0.2: -o is a searcher option elsewhere
    add_verify_jobs(report, "the class records of shards (verified before their report)")
    report.set_defaults(run=cmd_report)


def cmd_report(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from ..runs.proof_facts import Hole
    from .output import wrote

    try:
        with StatusLine("report") as status:
            replaced = write_report(ns.run_file, ns.out, regs, progress=status.show, jobs=ns.jobs)
    except Hole as hole:
        out.write(f"NOT verified, no report written: {hole}\n")
        return 3
    wrote(ns.out, replaced)
    return 0
