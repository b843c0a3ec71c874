"""One vocabulary across the commands (docs/usage.md#one-vocabulary), names matched
forgivingly, and the small CLI and library defects of issue 23 item 5."""

from __future__ import annotations

import argparse
import io
from typing import Any

import pytest

from boggle_opt import analyse, boards, load_dictionary
from boggle_opt.cli import app as cli, plan as plan_command
from boggle_opt.cli.args import DeprecatedAlias, IgnoredOption
from boggle_opt.core.errors import BoardError, BoggleOptError, PluginError
from boggle_opt.searching.options import OptionError, make_options
from boggle_opt.registry.loader import load_plugins

#: spellings that name a concept which has another, canonical spelling; allowed
#: only as a deprecated alias. (spelling, takes a value) -> canonical spelling
NON_CANONICAL = {
    ("--output", True): "--out",
    ("--outfile", True): "--out",
    ("--output-file", True): "--out",
    ("--words", True): "--word",  # --words alone (score) lists the words found
    ("--set", True): "--dice",
    ("--dice-set", True): "--dice",
    ("--workers", True): "--jobs",
    ("--processes", True): "--jobs",
    ("--minscore", True): "--min-score",
    ("--min", True): "--min-score",
    ("--opt", True): "--option",
    ("--searcher-option", True): "--option",
    ("--word-list", True): "--wordlist",
    ("--rules", True): "--rule",
}

#: concept -> (canonical option strings, the commands that must offer it)
CANONICAL = {
    "searcher option": (("-o", "--option"), ("run", "plan")),
    "min score": (("--min-score",), ("run", "plan", "bound")),
    "output file": (("--out",), ("run", "report")),
    "a word": (("--word",), ("run", "show")),
    "a dice set": (("--dice",), ("run", "dice")),
    "processes": (("--jobs",), ("run", "plan")),
    "min letters": (("--min-letters",), ("score", "show", "run", "bound", "plan")),
}


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = cli.build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def current(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The options a command offers (not help, not deprecated spellings)."""
    return [
        a for a in parser._actions
        if a.option_strings and not isinstance(a, (argparse._HelpAction, DeprecatedAlias, IgnoredOption))
    ]


def test_no_command_offers_a_non_canonical_spelling() -> None:
    bad = [
        f"{name} {opt} (use {NON_CANONICAL[(opt, a.nargs != 0)]})"
        for name, parser in commands().items()
        for a in current(parser)
        for opt in a.option_strings
        if (opt, a.nargs != 0) in NON_CANONICAL
    ]
    assert not bad, bad


def test_a_spelling_means_one_thing_in_every_command() -> None:
    seen: dict[str, tuple[tuple[str, ...], Any, str]] = {}
    clashes = []
    for name, parser in commands().items():
        for a in current(parser):
            shape = (tuple(a.option_strings), a.nargs)
            for opt in a.option_strings:
                if opt in seen and seen[opt][:2] != shape:
                    clashes.append(f"{opt}: {seen[opt][2]} {seen[opt][:2]} but {name} {shape}")
                seen.setdefault(opt, (*shape, name))
    assert not clashes, clashes


@pytest.mark.parametrize("concept", sorted(CANONICAL))
def test_each_concept_has_its_canonical_spelling(concept: str) -> None:
    spelling, where = CANONICAL[concept]
    parsers = commands()
    for name in where:
        offered = [tuple(a.option_strings) for a in current(parsers[name])]
        assert spelling in offered, f"{name} should offer {'/'.join(spelling)} for the {concept}"


def test_no_cache_only_where_a_word_list_is_read() -> None:
    for name, parser in commands().items():
        acts = any("--no-cache" in a.option_strings for a in current(parser))
        assert acts == (name in cli.READS_WORDLISTS), name


@pytest.mark.parametrize(
    "argv, dest, value, note",
    [
        (["report", "r.jsonl", "-o", "x.html"], "out", "x.html", "-o is deprecated"),
        (["report", "r.jsonl", "--output", "x.html"], "out", "x.html", "use --out"),
        (["show", "abcd", "--words", "ab", "--word", "cd"], "words", ["ab", "cd"], "use --word"),
        (["dice", "abcd", "--set", "new"], "dice_set", "new", "use --dice"),
        (["plan", "--min-score", "5", "--workers", "3"], "jobs", 3, "use --jobs"),
        (["dice", "--no-cache"], "boards", [], "--no-cache does nothing for `dice`"),
    ],
)
def test_old_spellings_work_with_a_one_line_note(
    capsys: pytest.CaptureFixture[str], argv: list[str], dest: str, value: object, note: str
) -> None:
    ns = cli.build_parser().parse_args(argv)
    assert getattr(ns, dest) == value
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("boggle-opt: warning: ") and note in err, err


def test_canonical_spellings_say_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    ns = cli.build_parser().parse_args(["report", "r.jsonl", "--out", "x.html"])
    assert ns.out == "x.html" and capsys.readouterr().err == ""


# -- names: case and near misses ---------------------------------------------------------


def test_names_suggest_the_near_miss_and_ignore_case() -> None:
    regs = load_plugins()
    with pytest.raises(PluginError, match=r"unknown searcher 'anealing'; did you mean 'annealing'\? \(available: "):
        regs.searchers.entry("anealing")
    with pytest.raises(PluginError, match="did you mean 'classic'"):
        regs.dice.get("clasic")
    with pytest.raises(PluginError, match="did you mean 'powers-of-two'"):
        regs.rules.entry("powers-of-2")
    with pytest.raises(PluginError, match="did you mean 'enable2k'"):
        regs.wordlists.get("enable2")
    assert regs.searchers.entry("Annealing").name == "annealing"
    assert regs.rules.entry("POW2").name == "pow2"
    assert regs.dice.get("Modern").name == "new"
    cls = regs.searchers.get("hillclimb")
    with pytest.raises(OptionError, match="has no option 'pool-sise'; did you mean 'pool-size'"):
        make_options("hillclimb", cls.Options, [("pool-sise", "3")])
    assert make_options("hillclimb", cls.Options, [("Pool-Size", "3")]).pool_size == 3


def test_run_with_a_misspelt_searcher_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["run", "--searcher", "anealing"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "did you mean 'annealing'?" in err, err


def test_searchers_show_defaults_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["searchers"]) == 0
    out = capsys.readouterr().out
    assert "default None" not in out and "default True" not in out
    assert "-o min-score (int | none, default none)" in out
    assert "-o canonical (bool, default true)" in out


def test_dice_without_a_board_lists_the_sets(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["dice"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# dice set\tdice\taliases\tsummary\n")
    assert "\nnew\t16\tmodern\t" in out and "\nbig\t25\t" in out
    assert cli.main(["dice", "--dice", "classic"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 + 16 and lines[2] == "1\tA A C I O T"


# -- the min score, one concept -----------------------------------------------------------


def test_run_min_score_is_the_searcher_option() -> None:
    regs = load_plugins()
    ns = cli.build_parser().parse_args(["run", "--searcher", "bnb", "--size", "3x3", "--min-score", "250"])
    assert cli.run_spec(ns, regs).options.min_score == 250
    ns = cli.build_parser().parse_args(
        ["run", "--searcher", "bnb", "--size", "3x3", "--min-score", "250", "-o", "min-score", "9"]
    )
    with pytest.raises(BoggleOptError, match="disagree"):
        cli.run_spec(ns, regs)


def test_plan_takes_the_min_score_either_way(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["plan", "--size", "2x2", "-o", "min-score", "5", "--sample", "1"]) == 0
    assert "min score 5;" in capsys.readouterr().out


# -- item 5: small defects ------------------------------------------------------------------


def test_plan_prints_its_header_before_the_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()

    def solve(self: object, task: object) -> object:
        raise RuntimeError(f"sampling; printed so far: {out.getvalue()!r}")

    from boggle_opt.proofs.estimate import MeasuredContext  # what plan solves its sample with

    monkeypatch.setattr(MeasuredContext, "run", solve)
    # one job: the sample is solved in this process, where the patch is
    ns = cli.build_parser().parse_args(["plan", "--size", "2x2", "--min-score", "5", "--sample", "1", "--jobs", "1"])
    with pytest.raises(RuntimeError) as info:
        plan_command.cmd_plan(ns, load_plugins(), out)
    assert "# plan: bnb 2x2;" in str(info.value) and "classes\\t" in str(info.value)


def test_score_checks_the_boards_before_its_header(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["score", "abcd", "ab1d"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "'1' is not a letter" in err


def test_library_errors_speak_library_terms() -> None:
    with pytest.raises(BoardError, match=r"give size='CxR'$"):
        analyse(load_dictionary(), "abcde")
    with pytest.raises(BoardError, match=r"give --size CxR$"):
        boards.geometry_for("abcde", None, "--size CxR")


def test_with_letter_takes_a_code_or_a_letter() -> None:
    assert boards.with_letter("abcd", 1, 4) == "aecd"
    assert boards.with_letter("abcd", 1, "e") == "aecd"
    assert boards.with_letter("abcd", 0, "Q") == "qbcd"
    for bad in ("ee", "1", 26, -1):
        with pytest.raises(BoardError, match="with_letter: expected"):
            boards.with_letter("abcd", 1, bad)  # type: ignore[arg-type]
