"""The ``boggle-opt`` command line: every command's arguments and what it prints.

Commands: ``score`` (in ``score_command``), ``show``, ``report`` (each in its own module), ``plugins``, ``searchers``, ``run`` (a ``RunSpec`` from
the arguments or a run file, run by its ``Driver``) and ``bound`` (in
``bound_command``). Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from .. import defaults
from .._version import __version__
from .bound import add_parser as add_bound_parser
from .args import (WORDLIST_HELP, IgnoredOption, add_language, add_min_letters, add_option_pairs, add_worker_memory, cache_choice, option_pairs, interval, jobs, positive_int,
                   scheduler, score, seconds, seed)
from . import output
from .dice import add_constraint_options
from .dice import add_parser as add_dice_parser
from .languages import add_parser as add_languages_parser
from .plan import add_parser as add_plan_parser
from ..boards import grid
from ..core import COMPILED
from ..core.alphabet import ENGLISH, Alphabet
from ..core.errors import BoggleOptError
from ..dictionary.rules import letters_note
from ..lazy import MissingExtra
from ..searching.options import as_dict, describe
from ..registry.loader import ENV_PLUGINS, FAILED, LOADED, load_plugins, plugin_specs
from ..registry.registries import Entry, Registries
from .score import add_parser as add_score_parser
from .show import add_parser as add_show_parser
from .report import add_parser as add_report_parser
from ..proofs.outcome import INCOMPLETE, ProofOutcome, is_proof, outcome, resume_command
from ..signals import exit_status, hold_signals, on_termination, status_for
from .verify import add_parser as add_verify_parser

if TYPE_CHECKING:
    from ..dictionary.dictionary import Dictionary
    from ..searching.driver import Consumer, RunState
    from ..runs.runfile import RunFileWriter
    from ..runs.run import RunSpec

#: --progress styles (boggle_opt.cli.display makes them); the run's modules are
#: imported by ``run`` alone, so other commands start sooner
STYLES = ("rich", "plain", "jsonl", "none")

PROG = "boggle-opt"
#: the searcher of a new run given no --searcher (the README's quick start;
#: a resumed run takes its own from its file)
DEFAULT_SEARCHER = "annealing"
#: the settings a resumed run takes from its file (so they may not be given too)
RESUMED_SETTINGS = ("searcher", "size", "rule", "wordlist", "language", "min_letters", "seed", "fix", "word", "dice")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        # argparse prints usage too; keep bad input to one line
        self.exit(2, f"{PROG}: error: {message}\n")


def version_text() -> str:
    core = "compiled with mypyc" if COMPILED else "pure Python"
    return f"{PROG} {__version__} (core: {core})"


#: where ``plugins`` starts an entry's text (a longer name gets a line of its own)
NAME_COLUMN = 27


def cmd_plugins(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    provides: dict[str, list[str]] = {}
    sections: list[tuple[str, Sequence[Entry[Any]]]] = [
        ("searchers", regs.searchers.entries()),
        ("executors", regs.executors.entries()),
        ("scoring rules", regs.rules.entries()),
        ("word lists", regs.wordlists.entries()),
        ("dice sets", regs.dice.entries()),
        ("languages", regs.languages.entries()),
    ]
    for title, entries in sections:
        for e in entries:
            provides.setdefault(e.origin.plugin, []).append(f"{title[:-1]} {e.name}")
    out.write("plugins:\n")
    for info in regs.plugins:
        o = info.origin
        if info.status == LOADED:
            what = ", ".join(provides.get(o.plugin, [])) or "registers nothing"
        elif info.status == FAILED:
            what = f"FAILED to import: {info.detail}"
        else:
            what = f"{info.status} ({info.detail})"
        out.write(output.fill(f"{o.plugin:<16} {o.release:<24} {info.module}", "  ", "      ") + "\n")
        out.write(output.fill(what, "      ") + "\n")
    for title, entries in sections:
        out.write(f"{title}:\n")
        if not entries:
            out.write("  (none)\n")
        for e in entries:
            name = e.name + (f" ({', '.join(e.aliases)})" if e.aliases else "")
            tag = f"[{e.origin.release}]"
            out.write(output.columns(name, f"{e.summary}  {tag}", NAME_COLUMN, whole=[tag]) + "\n")
            status = getattr(e.item, "status", None) if title == "word lists" else None
            if status is not None:
                out.write(output.fill(str(status()), " " * (NAME_COLUMN + 2)) + "\n")
        if title == "word lists":
            out.write(output.columns("PATH", "any file, one word a line  [built in]", NAME_COLUMN,
                                     whole=["[built in]"]) + "\n")
    return 0


def _as_typed(value: object) -> str:
    """A default as a user writes it after ``-o NAME`` (none, true, 0.5, 'text')."""
    if value is None or isinstance(value, bool):
        return str(value).lower()
    return repr(value)


def _as_shown(value: object) -> str:
    """An option's value in a results header: as ``-o`` takes it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def cmd_searchers(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    for entry in regs.searchers.entries():
        tag = f"[{entry.origin.release}]"
        out.write(output.fill(f"{entry.name}: {entry.summary}  {tag}", "", "  ", whole=[tag]) + "\n")
        for opt in describe(entry.item.Options):
            text = f"-o {opt.name} ({opt.type}, default {_as_typed(opt.default)})  {opt.help}"
            out.write(output.fill(text, "  ", "      ") + "\n")
    return 0


def run_spec(ns: argparse.Namespace, regs: Registries, held: ExitStack | None = None) -> RunSpec:
    """The run the ``run`` arguments ask for: a new one, or the one ``--resume``
    names (its run file locked for as long as ``held`` lasts)."""
    from ..searching.driver import Budget
    from ..runs.runfile import refuse_not_empty
    from ..runs.lock import run_lock
    from ..runs.run import RunSpec

    given = Budget(ns.time, ns.evals, ns.target)
    if ns.no_limit and not given.unlimited:
        flag = "--time" if ns.time is not None else "--evals" if ns.evals is not None else "--target"
        raise BoggleOptError(f"--no-limit lifts every budget; drop {flag} or --no-limit")
    plugins = plugin_specs(ns.plugins or [])
    cache = cache_choice(ns)
    if ns.resume is None:
        if ns.out is not None:
            refuse_not_empty(ns.out)  # before the word list is built
        searcher = ns.searcher if ns.searcher is not None else DEFAULT_SEARCHER
        return RunSpec.build(
            searcher, regs, options=option_pairs(ns),
            size=ns.size, rule=ns.rule, wordlist=ns.wordlist, seed=ns.seed, budget=given, jobs=ns.jobs or 1,
            fix=ns.fix, word=ns.word, dice=ns.dice,
            executor=ns.executor, scheduler=ns.scheduler, plugins=plugins, cache=cache, no_limit=ns.no_limit,
            language=ns.language, min_letters=ns.min_letters,
        )
    clashes = [k.replace("_", "-") for k in RESUMED_SETTINGS if getattr(ns, k) is not None]
    if ns.option:
        clashes.append("option")
    if ns.min_score is not None:
        clashes.append("min-score")
    if ns.shard is not None:
        clashes.append("shard")
    if ns.worker_memory is not None:
        clashes.append("worker-memory")
    if ns.out is not None:
        clashes.append("out")
    if clashes:
        raise BoggleOptError(
            f"--resume takes the run's settings from its file; drop --{clashes[0]}"
        )
    if held is not None:
        # locked before it is read: a run still writing it may not be resumed
        held.enter_context(run_lock(ns.resume, create=False))
    return RunSpec.resuming(ns.resume, regs, budget=given, jobs=ns.jobs, executor=ns.executor,
                            scheduler=ns.scheduler, plugins=plugins, cache=cache, no_limit=ns.no_limit)


def cmd_run(ns: argparse.Namespace, regs: Registries, out: TextIO) -> int:
    from .display import make_display, panel_grid
    from .report import check_matplotlib, write_report
    from ..runs.runfile import RunFileWriter
    from ..runs.lock import run_lock

    if ns.report is not None:
        check_matplotlib()  # the report is written at the end: its extra is checked first
    with ExitStack() as held:
        spec = run_spec(ns, regs, held)
        run = spec.prepare(regs)
        style = ns.progress or ("rich" if sys.stderr.isatty() else "plain")
        if style != "jsonl":  # under --progress jsonl, stderr is JSON lines: notes are records there
            for note in run.notes:
                print(output.plain(f"{PROG}: note: {note}"), file=sys.stderr)  # a searcher's: any length
        problem = run.problem
        consumers: list[Consumer] = []
        writer: RunFileWriter | None = None
        path = ns.resume or ns.out
        if path is None and ns.report is not None:
            # the report is made from a run file: a temporary one if none was asked for
            path = str(Path(held.enter_context(tempfile.TemporaryDirectory())) / "run.jsonl")
        elif ns.out is not None:
            held.enter_context(run_lock(ns.out))
        if path is not None:
            # first, so a file that cannot take even the start record stops the
            # run before the display starts
            writer = RunFileWriter(path, run.record, run.word_count, resume=ns.resume is not None)
            consumers.append(writer)
        title = f"{spec.name} · {problem.dictionary.rule_label} · {spec.size} · {problem.dictionary.label}"
        # boards as the results list them: canonical, unless fixed cells keep them as found
        form = (lambda board: board) if spec.constraints.fix else problem.geometry.canonical
        alphabet = problem.dictionary.alphabet
        display = make_display(style, title, panel_grid(problem.geometry, alphabet), sys.stderr, run.word_count,
                               every=ns.progress_every, form=form, notes=run.notes, write=alphabet.write)
        if display is not None:
            consumers.append(display)
        driver = run.driver(consumers)
        failure: BoggleOptError | None = None
        try:
            state = driver.run()
        except BoggleOptError as exc:
            state = driver.state
            if not is_proof(state.stats):
                raise
            failure = exc  # a proof's failed tasks: its results and statement first
        proof = outcome(state.stats, state.settings, state.ranked(), state.stop_reason, state.write)
        if proof is not None and proof.complete:
            hold_signals()  # proved: a signal from now on changes neither output nor status
        lost = False  # the results could not all be written to stdout
        try:
            if ns.json:  # for a program: one object, the statement's fields in it
                _json_results(state, spec, problem.dictionary, run.word_count, ns.top, out, proof,
                              ns.resume or ns.out)
            else:
                _report(state, spec, problem.dictionary.label, run.word_count, ns.top, out, proof,
                        problem.dictionary.alphabet)
            if proof is not None and not proof.complete and not ns.json:
                _resume_line(ns.resume or ns.out, state, out)
        except output.OutputError as exc:
            # the run file's finish record is written already (the driver's last
            # step): say where the results are kept, and do what is left
            lost, kept = True, ns.resume or ns.out
            print(f"{PROG}: error: {exc}" + (
                f"; the run file {kept!r} keeps the run, its finish record the results" if kept else ""
            ), file=sys.stderr)
        if failure is not None:
            print(f"{PROG}: error: {failure}", file=sys.stderr)
        if writer is not None and writer.error is not None:
            print(f"{PROG}: error: {writer.error}", file=sys.stderr)
            return 1  # no report from a run file that could not be written
        if state.failed:  # e.g. a lost Dask scheduler: what was found is printed above
            again = ns.resume or ns.out
            print(f"{PROG}: error: {state.stop_reason}" + (
                f"; the run file keeps what was done: `{PROG} run --resume {shlex.quote(again)}` continues it "
                "(add --executor local to continue on this machine)" if again else ""
            ), file=sys.stderr)
            return 1
        # with the results lost, the error line above is the one thing said (it names
        # the run file); under --progress jsonl, stderr is JSON lines for a program
        say = not lost and style != "jsonl"
        if (ns.out is not None or ns.resume is not None) and say:
            output.wrote(ns.out or ns.resume)
        if ns.report is not None and path is not None:
            replaced = write_report(path, ns.report, regs)
            if say:
                output.wrote(ns.report, replaced)
    if lost:
        return 1
    if proof is not None and proof.complete:
        return 0
    # from how the run ended, as its finish record says (a signal after that changes nothing)
    signalled = status_for(state.stop_reason)
    if signalled is not None:
        return signalled
    return INCOMPLETE if proof is not None else 0


def _resume_line(run_file: str | None, state: RunState, out: TextIO) -> None:
    """How to finish an incomplete proof: the exact command. A proof resumed
    without a budget runs to its end, so the command needs none."""
    if run_file is not None:
        command = resume_command(run_file)
        line = f"# to finish the proof: {command}"
        # the command whole on a line of its own, to copy, if both do not fit
        out.write((line if len(line) <= output.WIDTH else f"# to finish the proof:\n#   {command}") + "\n")
    else:
        out.write(output.comment("to finish the proof, run it again with --out FILE (it can then be resumed "
                                 "with --resume FILE); this run wrote no run file to resume from") + "\n")
    out.flush()


def _json_results(
    state: RunState,
    spec: RunSpec,
    dictionary: Dictionary,
    word_count: Callable[[str], int],
    top: int,
    out: TextIO,
    proof: ProofOutcome | None,
    run_file: str | None,
) -> None:
    """``run --json``: the results as one JSON object on a line of its own (the
    text results' facts, in the style of ``score --json``)."""
    from ..runs.records import describe_stop

    seconds = state.elapsed()
    ranked = state.ranked()
    past = spec.resume
    result: dict[str, Any] = {
        "searcher": spec.name,
        "options": {k: v for k, v in as_dict(spec.options).items() if v is not None and v != ""},
        "rule": spec.rule,
        "min_letters": dictionary.rule.min_letters,
        "size": spec.size,
        "wordlist": {"name": dictionary.name, "words": dictionary.n_words},
        # English too (a spec keeps None for it, so its run files read as before)
        "language": dictionary.language.name,
        "seed": spec.seed,
        "jobs": spec.jobs,
        "constraints": spec.constraints.record(),
        "stop_reason": state.stop_reason,
        "stopped": describe_stop(state.stop_reason, vars(state.budget), state.evaluations),
        # this segment; "run": every segment of a resumed run together
        "evaluations": state.evaluations,
        "seconds": round(seconds, 3),
        "run": {
            "segments": (past.segments if past is not None else 0) + 1,
            "evaluations": (past.evaluations if past is not None else 0) + state.evaluations,
            "seconds": round((past.elapsed if past is not None else 0.0) + seconds, 3),
        },
        "notes": list(state.notes),
        # fixed cells keep a board as found; otherwise each in canonical form
        "boards_canonical": not spec.constraints.fix,
        "boards_found": len(ranked),
        "best": [{"board": dictionary.alphabet.write(b), "score": s, "words": word_count(b),
                  "tiles": dictionary.alphabet.cells(b)}
                 for b, s in ranked[:top]],
        "proof": None,
    }
    if proof is not None:
        finish = resume_command(run_file) if run_file is not None and not proof.complete else None
        result["proof"] = {**proof.record(), "resume_command": finish}
    out.write(json.dumps(result, default=str) + "\n")
    out.flush()


def _report(
    state: RunState,
    spec: RunSpec,
    wordlist_label: str,
    word_count: Callable[[str], int],
    top: int,
    out: TextIO,
    proof: ProofOutcome | None = None,
    alphabet: Alphabet = ENGLISH,
) -> None:
    # options left at None or empty take the searcher's own defaults: not worth a word
    opts = " ".join(f"{k}={_as_shown(v)}" for k, v in as_dict(spec.options).items() if v is not None and v != "")
    out.write(output.comment(
        f"searcher {spec.name}" + (f" ({opts})" if opts else "") + f"; rule {spec.rule}"
        f"{letters_note(spec.min_letters)}; "
        f"word list {wordlist_label}; "
        + (f"language {spec.language}; " if spec.language else "") + f"size {spec.size}; "
        f"seed {spec.seed}; jobs {spec.jobs}"
        + (f"; constraints {spec.constraints.describe()}" if spec.constraints.active else "")
    ) + "\n")
    from ..runs.records import describe_budget, describe_stop

    # a budget reached is said as one, with what was done (a searcher's last
    # batch runs to its end); any other stop names the budget it had
    whose = "this segment's " if spec.resume is not None else ""
    said = describe_stop(state.stop_reason, vars(state.budget), state.evaluations)
    if said != state.stop_reason:
        done = f"{state.evaluations:,} done" if said.startswith("budget of") else f"{state.evaluations:,} evaluations"
        stopped = f"{whose}{said.split(' (')[0]}; {done} in {state.elapsed():.1f} s"
    else:
        stopped = (f"{said}; {state.evaluations:,} evaluations in {state.elapsed():.1f} s "
                   f"({whose}budget: {describe_budget(vars(state.budget))})")
    out.write(output.comment(f"stopped: {stopped}") + "\n")
    for note in state.notes:
        out.write(output.comment(f"note: {note}") + "\n")
    if spec.resume is not None:
        # this segment above; the run as a whole here (earlier segments from the run file)
        past = spec.resume
        out.write(output.comment(
            f"all {past.segments + 1} segments of the run: "
            f"{past.evaluations + state.evaluations:,} evaluations in "
            f"{past.elapsed + state.elapsed():.1f} s"
        ) + "\n")
    if proof is not None:  # how far the proof got, and what it proved
        head, statement = proof.lines()
        out.write(output.comment(head.removeprefix("# ")) + "\n" + output.fill(statement, "", "  ") + "\n")
    ranked = state.ranked()
    if not ranked:
        out.write("# no boards found\n")
        return
    if not spec.constraints.fix:  # fixed cells keep a board as found
        out.write(output.comment("boards in canonical form: the smallest string among each board's rotations "
                                 "and reflections (`boggle-opt score BOARD` names a board's)") + "\n")
    out.write("# rank\tboard\tscore\twords\n")
    for rank, (board, score) in enumerate(ranked[:top], 1):
        out.write(f"{rank}\t{alphabet.write(board)}\t{score}\t{word_count(board)}\n")
    if len(ranked) > top:
        out.write(f"# ... {len(ranked) - top} more (--top N shows more)\n")
    best, score = ranked[0]
    out.write(f"\nbest board ({score} point{'s' * (score != 1)}):\n{grid(spec.geometry, best, alphabet)}\n")
    out.flush()


# -- the parser ---------------------------------------------------------------


def _score(text: str) -> int:
    return score(text)


def _add_run_parser(sub: Any) -> None:
    run = sub.add_parser(
        "run",
        help="search for high-scoring boards",
        description="Run a searcher. Progress goes to stderr, results to stdout.",
    )
    run.add_argument(
        "--searcher", metavar="NAME",
        help=f"searcher name (default: {DEFAULT_SEARCHER}, or a resumed run's own; see `boggle-opt searchers`)",
    )
    run.add_argument("--rule", metavar="NAME", help=f"scoring rule (default: {defaults.RULE})")
    run.add_argument("--size", metavar="CxR", help=f"board size CxR (default: {defaults.SIZE})")
    run.add_argument("--wordlist", metavar="NAME|PATH", help=WORDLIST_HELP)
    add_language(run)
    add_min_letters(run)
    run.add_argument("--seed", type=seed, metavar="N", help="random seed (default: a fresh one, shown)")
    run.add_argument(
        "--jobs", type=jobs, metavar="N",
        help="processes (independent seeded copies; default 1, or a resumed run's own)"
    )
    run.add_argument(
        "--executor", metavar="NAME", help="where bnb's and longword's tasks run: local (default) or dask (see `boggle-opt plugins`)"
    )
    run.add_argument(
        "--scheduler", type=scheduler, metavar="tcp://HOST:PORT",
        help="an existing Dask cluster's scheduler (implies --executor dask)"
    )
    add_option_pairs(run, "a searcher option; repeat for several (see `boggle-opt searchers`)")
    run.add_argument(
        "--shard", metavar="K/N",
        help="bnb: solve shard K of N only (every N-th class), with a --min-score N all N share; verify "
             "all N run files together (the same as -o shard K/N; docs/campaigns.md)",
    )
    add_worker_memory(run, "bnb: -o worker-memory MB, the memory of one worker (default 1000; give "
                           "what a core has, e.g. 4000): the "
                           "kernel's sharing, splitting and building in passes scale with it, the boards "
                           "found do not (docs/campaigns.md)")
    add_constraint_options(run)
    run.add_argument("--time", type=seconds, metavar="SECONDS", help="stop after this many seconds")
    run.add_argument("--evals", type=positive_int, metavar="N", help="stop after this many boards scored")
    run.add_argument("--target", type=_score, metavar="SCORE", help="stop once a board scores this much")
    run.add_argument(
        "--no-limit", action="store_true",
        help="no budget: run until done or Ctrl-C (a proof, new or resumed, needs none: it runs to its end)",
    )
    run.add_argument("--out", metavar="FILE", help="write a JSON-lines record of the run to this new (or empty) file")
    run.add_argument(
        "--resume", metavar="FILE", help="continue the run recorded in FILE (appends to it)"
    )
    run.add_argument(
        "--report", metavar="FILE", help="write an HTML report of the run to FILE at the end"
    )
    run.add_argument("--top", type=positive_int, default=10, metavar="N", help="boards to list (default 10)")
    run.add_argument(
        "--json", action="store_true",
        help="the results as one JSON object on stdout, for a program (progress and run file as without)",
    )
    run.add_argument(
        "--progress",
        choices=STYLES,
        help="rich (default on a terminal), plain (default otherwise), jsonl or none",
    )
    run.add_argument(
        "--progress-every", type=interval, metavar="SECONDS",
        help="seconds between plain progress lines (default 5) or jsonl progress records (default 0.5)",
    )
    run.set_defaults(run=cmd_run)

    searchers = sub.add_parser("searchers", help="list searchers and their options")
    searchers.set_defaults(run=cmd_searchers)


#: the commands that read a word list, where --no-cache acts
READS_WORDLISTS = ("score", "show", "run", "bound", "plan")


def _add_plugin_options(parser: argparse.ArgumentParser, default: object, reads_wordlists: bool = True) -> None:
    group = parser.add_argument_group("plugin loading")
    group.add_argument(
        "--plugin", action="append", dest="plugins", default=default, metavar="MODULE_OR_FILE",
        help=f"also load this plugin module or .py file (repeatable; beside those in ${ENV_PLUGINS})",
    )
    group.add_argument(
        "--strict-plugins", action="store_true", default=default,
        help="a plugin that fails to import is an error, not a warning",
    )
    if not reads_wordlists:
        # offered here until 0.1 although it did nothing: accepted, with a note
        parser.add_argument("--no-cache", action=IgnoredOption)
        return
    parser.add_argument(
        "--no-cache", action="store_true", default=default,
        help="build word lists afresh instead of reading the dictionary cache",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="Find and prove high-scoring Boggle boards.")
    parser.add_argument("--version", action="version", version=version_text())
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="command")

    add_score_parser(sub)
    add_show_parser(sub)
    add_report_parser(sub)

    plugins = sub.add_parser("plugins", help="list the plugins and all they register: searchers, executors, "
                                             "rules, word lists, dice sets, languages")
    plugins.set_defaults(run=cmd_plugins)
    add_languages_parser(sub)
    _add_run_parser(sub)
    add_bound_parser(sub)
    add_dice_parser(sub)
    add_plan_parser(sub)
    add_verify_parser(sub)
    _add_plugin_options(parser, [])
    for name, subparser in sub.choices.items():
        # SUPPRESS: given before the subcommand, the value is not reset after it
        _add_plugin_options(subparser, argparse.SUPPRESS, name in READS_WORDLISTS)
    return parser


#: each command's file arguments (argparse dest, as the user writes it, written,
#: a run file), checked before any work by ``runs.files.check_paths``; word
#: lists and plugins given as files are inputs, never to be written over
FILE_ARGS: dict[str, tuple[tuple[str, str, bool, bool], ...]] = {
    "run": (("out", "--out", True, True), ("resume", "--resume", True, True),
            ("report", "--report", True, False)),
    "report": (("run_file", "RUNFILE", False, True), ("out", "--out", True, False)),
    "verify": (("runfiles", "RUNFILE", False, True),),
    # a merge's --out is a new run file: an output, refused over any run file before the work
    "merge": (("runfiles", "RUNFILE", False, True), ("out", "--out", True, False)),
    "show": (("svg", "--svg", True, False),),
    "plan": (("sample_out", "--sample-out", True, False),),
}


def check_file_args(ns: argparse.Namespace, regs: Registries | None = None) -> None:
    """Refuse an output over a run file or over any input of the command (a
    run file's own word list too), an output that cannot be written, a run
    file or output that is a FIFO or a device, and a compressed run file to
    append to, before any work. With ``regs`` (once the plugins are loaded),
    a word list given or recorded by name is the file that name reads here."""
    from ..registry.loader import requested_plugins
    from ..runs.files import FileRefused, PathArg, check_paths, recorded_wordlist, wordlist_files

    paths = []
    for dest, name, written, run_file in FILE_ARGS.get(ns.command, ()):
        value = getattr(ns, dest, None)  # one path, or a list of them (nargs)
        for path in [value] if isinstance(value, str) else value or []:
            paths.append(PathArg(name, path, written, run_file, new=ns.command == "merge" and name == "--out"))
    if regs is not None and not any(a.written for a in paths):
        return  # checked before the plugins loaded: inputs matter only beside an output
    inputs: list[tuple[str, str]] = []
    wordlist = getattr(ns, "wordlist", None)
    if isinstance(wordlist, str) and wordlist:
        inputs += [(f"--wordlist {wordlist}" if file != wordlist else "--wordlist", file)
                   for file in wordlist_files(wordlist, regs)]
    plugins = [*(getattr(ns, "plugins", None) or []), *requested_plugins()]
    inputs += [("--plugin", p) for p in plugins if os.path.exists(p)]
    # the word list each run file read records is read again: an input too
    # (a relative path also where the run file is: the run may have read it there)
    for arg in [a for a in paths if a.run_file and not (a.written and a.name == "--out")]:
        recorded = recorded_wordlist(arg.path)
        if recorded is not None:
            inputs += [(f"the word list of {arg.name} {arg.path!r}", file)
                       for file in wordlist_files(recorded, regs, beside=arg.path)]
    paths += [PathArg(name, value) for name, value in inputs]
    check_paths(paths)
    if ns.command == "run":
        from ..runs.records import is_gzip  # the run file's reader: imported by run alone

        # a run appends to its file a line at a time, which gzip cannot take
        if ns.out is not None and ns.out.endswith(".gz"):
            raise FileRefused(f"--out {ns.out!r}: a run file is written a line at a time, uncompressed; name it "
                              f"{ns.out[:-3]!r} (and gzip it once the run is done)")
        if ns.resume is not None and (ns.resume.endswith(".gz") or is_gzip(ns.resume)):
            raise FileRefused(f"--resume {ns.resume!r} is gzip-compressed, and a run appends to its file a line "
                              "at a time: unpack it (gunzip) and resume that file")


def main(argv: Sequence[str] | None = None) -> int:
    from ..runs.files import FileRefused

    ns = build_parser().parse_args(argv)
    try:
        check_file_args(ns)
    except FileRefused as exc:  # a bad argument, like the parser's own
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    # a run notes a signal until its driver starts, which then stops at
    # once and writes the finish record; other commands stop at once
    running = ns.run is cmd_run
    regs: Registries | None = None
    stdout, out = output.stdout()
    if sys.stderr.isatty():
        from ..dictionary import cache

        # a person at a terminal is told why a big list's first command waits
        # (Polish: about a minute); a pipe or a log gets only what it asked for
        cache.announce = lambda line: print(f"{PROG}: {line}", file=sys.stderr, flush=True)
    try:
        with on_termination(raising=not running) as signals:
            # worker processes load the same plugins from the run's spec
            regs = load_plugins(strict=bool(ns.strict_plugins), extra=plugin_specs(ns.plugins or []))
            for warning in regs.warnings:
                print(f"{PROG}: warning: {warning}", file=sys.stderr)  # one line, as an error
            if getattr(ns, "wordlist", "") is None and hasattr(ns, "language") and not running:
                from ..registry.dictionaries import default_wordlist

                # no list named: the language's own (run resolves its own: a resumed run's
                # is in its file; verify's --wordlist stands in for a run file's)
                ns.wordlist = default_wordlist(ns.language, regs)
            try:
                check_file_args(ns, regs)  # again: word lists by name are files now known
            except FileRefused as exc:
                print(f"{PROG}: error: {exc}", file=sys.stderr)
                return 2
            code: int = ns.run(ns, regs, out)
        return code if running else signals.status(code)
    except output.OutputError as exc:
        if not exc.closed_pipe or running:  # a closed pipe (`| head`) is the reader's choice
            print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 128 + signal.SIGPIPE if exc.closed_pipe and not running else 1
    except MissingExtra as exc:  # like a bad argument: nothing was done
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 2
    except BoggleOptError as exc:
        print(f"{PROG}: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:  # before the run started, or in a plugin; SIGTERM and SIGHUP too
        print(f"{PROG}: {str(exc) or 'interrupted'}", file=sys.stderr)
        return exit_status(exc)
    except SystemExit as exc:
        # argparse's exits come before; below here only foreign code calls sys.exit
        print(f"{PROG}: error: {_who_exited(exc, regs)} called sys.exit({exc.code!r})", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # stderr's reader went away (stdout's is an OutputError): nothing more can be said
        sys.stderr.close()
        return 0
    finally:
        if stdout.failed:
            output.discard_stdout()


def _who_exited(exc: SystemExit, regs: Registries | None) -> str:
    """The plugin whose code raised ``exc`` (the innermost frame of a plugin
    module in its traceback), else the innermost module."""
    frames = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(str(tb.tb_frame.f_globals.get("__name__", "?")))
        tb = tb.tb_next
    for module in reversed(frames):
        origin = regs.plugin_of(module) if regs is not None else None
        if origin is not None:
            return str(origin)
    return f"module {frames[-1]!r}" if frames else "a plugin"


if __name__ == "__main__":
    sys.exit(main())
