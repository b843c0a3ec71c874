"""The plugin author's API under one name: ``import boggle_opt`` is enough to write,
register and test a searcher, a scoring rule or a word list."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

import boggle_opt
from boggle_opt import analysis
from boggle_opt.dictionary import dictionary, rules, wordlist
from boggle_opt.searching import options, interface as search
from boggle_opt.registry import dictionaries, loader as plugin_loader
from boggle_opt.constraints import dice
from boggle_opt.core import errors, geometry
from boggle_opt.registry import registries
from boggle_opt.runs import run, runfile
from boggle_opt.searching import driver

#: each public name and the module it lives in
HOMES = {
    "hookimpl": None,
    "SearcherBase": search, "Searcher": search, "Problem": search,
    "Improved": search, "Progress": search, "Checkpoint": search, "Event": search,
    "ScoringRule": rules, "WordListSource": wordlist,
    "check": options, "OptionError": options,
    "Dictionary": dictionary, "load_dictionary": dictionaries,
    "analyse": analysis, "BoardReport": analysis,
    "load_plugins": plugin_loader, "PluginLoader": plugin_loader,
    "search": run, "RunSpec": run, "SearchResult": run,
    "Stopping": search, "make_options": options, "Registries": registries, "DiceSet": dice,
    "Geometry": geometry, "WordListError": errors, "BoardError": errors, "PluginError": errors,
    "BoggleOptError": errors, "read_run_file": runfile, "PastRun": runfile,
    "Budget": driver, "Driver": driver, "RunState": driver,
}


def test_the_plugin_api_is_exported() -> None:
    for name, home in HOMES.items():
        assert name in boggle_opt.__all__, name
        if home is not None:
            assert getattr(boggle_opt, name) is getattr(home, name), name
    from boggle_opt.testing import SearcherConformance

    assert boggle_opt.SearcherConformance is SearcherConformance
    assert "SearcherConformance" in boggle_opt.__all__
    assert boggle_opt.boards.steepest_ascent  # the shared board helpers
    missing = [n for n in boggle_opt.__all__ if not hasattr(boggle_opt, n)]
    assert not missing


def test_import_needs_no_pytest_and_loads_no_plugins(tmp_path) -> None:
    probe = (
        "import json, sys, boggle_opt\n"
        "print(json.dumps([m for m in sys.modules if m == 'pytest' or "
        "m.startswith(('boggle_opt.plugins.', 'boggle_opt.scoring_rules.', "
        "'boggle_opt.wordlists.'))]))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []


# -- a searcher written against `boggle_opt` alone -----------------------------------------


class Ascent(boggle_opt.SearcherBase["Ascent.Options"]):
    """Steepest one-letter ascent from random boards, written with top-level names only."""

    name = "ascent"

    @dataclass(frozen=True, kw_only=True)
    class Options:
        exclude: str = field(default="", metadata={"help": "letters never placed"})

        def __post_init__(self) -> None:
            boggle_opt.check(all("a" <= c <= "z" for c in self.exclude), "exclude",
                             "must be letters a-z")

    def search(self, problem: boggle_opt.Problem,
               rng: np.random.Generator) -> Iterator[boggle_opt.Event]:
        boards = boggle_opt.boards
        allowed = boards.allowed_letters(self.options.exclude)
        best = -1
        while True:
            board = boards.random_board(problem, rng, self.options.exclude)
            score = problem.score(board)
            while (step := boards.steepest_step(problem, board, score, allowed)) is not None:
                board, score = step
                yield boggle_opt.Progress({"score": score})
            if score > best:
                best = score
                yield boggle_opt.Improved(board, score)


class TestAscentConformance(boggle_opt.SearcherConformance):
    searcher_cls = Ascent
    bad_options = [("exclude", "q1")]


def test_default_options_and_excluded_letters() -> None:
    assert Ascent().options == Ascent.Options()
    d = boggle_opt.Dictionary("t", ["tea", "eat", "ate", "tee", "zeta"],
                              boggle_opt.ScoringRule.by_length("one", "", [1]))
    problem = boggle_opt.Problem(d, boggle_opt.boards.make_geometry(2, 2))
    events = Ascent(Ascent.Options(exclude="z")).search(problem, np.random.default_rng(1))
    improved = [e for e in (next(events) for _ in range(50))
                if isinstance(e, boggle_opt.Improved)]
    assert improved and all("z" not in e.board for e in improved)
    assert all(boggle_opt.analyse(d, e.board).score == e.score for e in improved)
