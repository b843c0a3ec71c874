"""Controlling which plugins load, and what a user sees when one is broken.

The CLI tests install throw-away distributions (a ``*.dist-info`` folder with
an ``entry_points.txt``) on ``PYTHONPATH``, so the real console script finds
them exactly as it finds a pip-installed package.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from importlib.metadata import version
from pathlib import Path

import pytest

from boggle_opt.registry import loader as plugin_loader
from boggle_opt.core.errors import PluginError
from boggle_opt.registry.loader import load_plugins
from helpers import exe

VERSION = version("boggle-opt")

TRIPLE_RULE = """
    from boggle_opt import hookimpl
    from boggle_opt.dictionary.rules import ScoringRule

    @hookimpl
    def register_scoring_rules(register):
        register(ScoringRule("{name}", "3 points a word", lambda w: 3))
"""

RANDOM_SEARCHER = """
    from dataclasses import dataclass

    from boggle_opt import hookimpl
    from boggle_opt.searching.interface import Improved, Progress, SearcherBase


    class Sampler(SearcherBase):
        \"\"\"Random boards: the best of many random boards.\"\"\"

        name = "sampler"

        @dataclass(frozen=True)
        class Options:
            pass

        def search(self, problem, rng):
            best = -1
            cells = problem.geometry.cols * problem.geometry.rows
            while True:
                board = "".join(rng.choice(list("aeinrst"), size=cells))
                score = problem.score(board)
                if score > best:
                    best = score
                    yield Improved(board, score)
                yield Progress({"best": best})


    @hookimpl
    def register_searchers(register):
        register(Sampler)
"""


def install_dist(site: Path, dist: str, modules: dict[str, str], eps: dict[str, str]) -> None:
    """A minimal installed distribution: metadata, entry points and modules."""
    info = site / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n", encoding="utf-8"
    )
    lines = "".join(f"{name} = {module}\n" for name, module in eps.items())
    (info / "entry_points.txt").write_text(f"[boggle_opt]\n{lines}", encoding="utf-8")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")


def install_triple(site: Path) -> None:
    """Distribution bo-triple 1.0: plugin 'triple' registers the rule 'triple'."""
    install_dist(site, "bo-triple", {"bo_triple": TRIPLE_RULE.format(name="triple")},
                 {"triple": "bo_triple"})


@pytest.fixture
def site(tmp_path: Path, cli_env: dict[str, str]) -> tuple[Path, dict[str, str]]:
    """A folder for fake distributions and a CLI environment that sees it, autoload on."""
    folder = tmp_path / "site"
    folder.mkdir()
    env = dict(cli_env)
    env.pop(plugin_loader.ENV_DISABLE_AUTOLOAD, None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), env.get("PYTHONPATH")]))
    return folder, env


@pytest.fixture
def in_process_site(site, monkeypatch):
    """The same fake distributions, visible to load_plugins() in this process."""
    folder, _ = site
    monkeypatch.syspath_prepend(str(folder))
    monkeypatch.delenv(plugin_loader.ENV_DISABLE_AUTOLOAD, raising=False)
    monkeypatch.delenv(plugin_loader.ENV_PLUGINS, raising=False)
    monkeypatch.delenv(plugin_loader.ENV_BLOCK, raising=False)
    return folder


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


# -- what a user sees ----------------------------------------------------------------------


def test_broken_plugin_is_a_one_line_warning(site, run_cli):
    folder, env = site
    install_dist(
        folder, "bo-broken",
        {"bo_broken": "import bo_missing_dependency\n"},
        {"broken": "bo_broken"},
    )
    result = run_cli("plugins", env=env)
    assert result.returncode == 0
    assert one_line(result.stderr) == (
        "boggle-opt: warning: plugin 'broken' (bo-broken 1.0) failed to import: "
        "ModuleNotFoundError: No module named 'bo_missing_dependency' "
        "(skipped; --strict-plugins makes this an error)"
    )
    # the rest of the tool works, and the listing says what happened
    assert "broken" in result.stdout and "FAILED to import" in result.stdout
    assert "standard" in result.stdout
    scored = run_cli("score", "abcdefghijklmnop", env=env)
    assert scored.returncode == 0 and "failed to import" in scored.stderr

    strict = run_cli("plugins", "--strict-plugins", env=env)
    assert strict.returncode == 1
    assert one_line(strict.stderr) == (
        "boggle-opt: error: plugin 'broken' (bo-broken 1.0) failed to import: "
        "ModuleNotFoundError: No module named 'bo_missing_dependency'"
    )
    # the option also goes before the subcommand
    assert run_cli("--strict-plugins", "plugins", env=env).returncode == 1


def test_duplicate_rule_name_names_both_plugins(site, run_cli):
    folder, env = site
    install_dist(
        folder, "bo-dupe",
        {"bo_dupe": TRIPLE_RULE.format(name="standard")},
        {"dupe": "bo_dupe"},
    )
    result = run_cli("score", "abcdefghijklmnop", env=env)
    assert result.returncode == 1
    assert one_line(result.stderr) == (
        "boggle-opt: error: duplicate scoring rule name 'standard': registered by "
        f"plugin 'standard' (boggle-opt {VERSION}) and by plugin 'dupe' (bo-dupe 1.0)"
    )
    assert result.stdout == ""
    # blocking the offender is the way out
    blocked = run_cli("score", "abcdefghijklmnop", env={**env, "BOGGLE_OPT_BLOCK_PLUGINS": "dupe"})
    assert blocked.returncode == 0, blocked.stderr


def test_duplicate_plugin_name_names_both_distributions(site, run_cli):
    folder, env = site
    install_dist(folder, "bo-same", {"bo_same": "x = 1\n"}, {"standard": "bo_same"})
    result = run_cli("plugins", env=env)
    assert result.returncode == 1
    assert one_line(result.stderr) == (
        "boggle-opt: error: duplicate plugin name 'standard': "
        f"plugin 'standard' (boggle-opt {VERSION}) and plugin 'standard' (bo-same 1.0)"
    )


def test_plugins_lists_distribution_and_version(site, run_cli):
    folder, env = site
    install_triple(folder)
    result = run_cli("plugins", env=env)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    row = lines.index(next(line for line in lines if line.split()[:1] == ["triple"]))
    assert lines[row].split() == ["triple", "bo-triple", "1.0", "bo_triple"]
    assert lines[row + 1].strip() == "scoring rule triple"
    builtin = next(line for line in lines if line.split()[:1] == ["annealing"])
    assert builtin.split()[1:3] == ["boggle-opt", VERSION]
    assert "triple                   3 points a word  [bo-triple 1.0]" in result.stdout

    scored = run_cli("score", "--rule", "triple", "--json", "tapsreinlateming", env=env)
    assert scored.returncode == 0, scored.stderr
    assert '"rule": "triple"' in scored.stdout


def test_disable_autoload_keeps_the_builtins(site, run_cli):
    folder, env = site
    install_triple(folder)
    env = {**env, "BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD": "1"}
    result = run_cli("plugins", env=env)
    assert result.returncode == 0, result.stderr
    assert "not autoloaded (BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD)" in result.stdout
    assert "scoring rule triple" not in result.stdout
    assert "standard" in result.stdout and "annealing" in result.stdout
    missing = run_cli("score", "--rule", "triple", "abcdefghijklmnop", env=env)
    assert missing.returncode == 1
    assert one_line(missing.stderr).startswith("boggle-opt: error: unknown scoring rule 'triple'")
    # an autoload-disabled plugin can still be asked for by module
    asked = run_cli("score", "--plugin", "bo_triple", "--rule", "triple", "tapsreinlateming",
                    env=env)
    assert asked.returncode == 0, asked.stderr


def test_plugin_file_searcher_runs_in_workers(tmp_path, run_cli, cli_env):
    plugin = tmp_path / "my_sampler.py"
    plugin.write_text(textwrap.dedent(RANDOM_SEARCHER), encoding="utf-8")
    # workers are spawned processes: they must load the file too
    result = run_cli(
        "run", "--plugin", str(plugin), "--searcher", "sampler", "--size", "3x3",
        "--evals", "2000", "--jobs", "2", "--seed", "1", "--progress", "none",
    )
    assert result.returncode == 0, result.stderr
    assert "sampler" in result.stdout
    assert "best board" in result.stdout.lower()


@pytest.mark.slow  # 9 s or more on two busy cores (docs/testing.md)
def test_a_run_file_names_the_plugin_it_needs(tmp_path, run_cli, cli_env):
    """A run file written with a plugin's rule or searcher, read without the
    plugin: resume, verify and merge say which rule or searcher is missing and
    how to load it (the file never loads code itself); with it, they work."""
    rule = tmp_path / "my_rule.py"
    rule.write_text(textwrap.dedent(TRIPLE_RULE.format(name="triple")), encoding="utf-8")
    sampler = tmp_path / "my_sampler.py"
    sampler.write_text(textwrap.dedent(RANDOM_SEARCHER), encoding="utf-8")
    proof, search = tmp_path / "proof.jsonl", tmp_path / "search.jsonl"
    quiet = ("--progress", "none")
    made = run_cli("run", "--plugin", str(rule), "--rule", "triple", "--searcher", "bnb", "--size", "2x2",
                   "-o", "min-score", "12", "--out", str(proof), *quiet, env=cli_env)
    assert made.returncode == 0, made.stderr
    made = run_cli("run", "--plugin", str(sampler), "--searcher", "sampler", "--size", "2x2", "--evals", "50",
                   "--out", str(search), *quiet, env=cli_env)
    assert made.returncode == 0, made.stderr
    for args, named in [
        (("verify", str(proof)), f"run file {str(proof)!r} was written with the scoring rule 'triple'"),
        (("merge", str(proof), "--out", str(tmp_path / "merged.jsonl")), "the scoring rule 'triple'"),
        (("run", "--resume", str(proof), *quiet), "the scoring rule 'triple'"),
        (("run", "--resume", str(search), "--evals", "10", *quiet),
         f"run file {str(search)!r} was written with the searcher 'sampler'"),
    ]:
        result = run_cli(*args, env=cli_env)
        assert result.returncode == 1, (args, result.stdout, result.stderr)
        line = one_line(result.stderr)
        assert line.startswith("boggle-opt: error: run file ") and f"{named}, which no plugin loaded here registers" in line, line
        assert line.endswith("load the plugin that provides it (--plugin FILE or MODULE, or install its package)")
    assert not (tmp_path / "merged.jsonl").exists()
    # a report is still written, without the boards' words, and says why on the page
    page = tmp_path / "report.html"
    reported = run_cli("report", str(proof), "--out", str(page), env=cli_env)
    assert reported.returncode == 0, reported.stderr
    assert "the scoring rule &#x27;triple&#x27;, which no plugin loaded here registers" in page.read_text()
    verified = run_cli("verify", "--plugin", str(rule), str(proof), "--budget", "1", env=cli_env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "under the triple rule" in " ".join(verified.stdout.split())
    resumed = run_cli("run", "--plugin", str(sampler), "--resume", str(search), "--evals", "10", *quiet, env=cli_env)
    assert resumed.returncode == 0, resumed.stderr


@pytest.mark.parametrize(
    "spec, message",
    [
        ("bo_no_such_module", "plugin 'bo_no_such_module' failed to import: "
                              "ModuleNotFoundError: No module named 'bo_no_such_module'"),
        ("./no_such_file.py", "plugin file '{tmp}/no_such_file.py' not found"),
    ],
)
def test_requested_plugin_that_fails_is_an_error(spec, message, tmp_path, run_cli, cli_env):
    result = run_cli("plugins", "--plugin", spec, env=cli_env) if not spec.startswith(".") else \
        run_cli("plugins", "--plugin", str(tmp_path / spec), env=cli_env)
    assert result.returncode == 1
    assert one_line(result.stderr) == f"boggle-opt: error: {message.format(tmp=tmp_path)}"


# -- load_plugins in process ---------------------------------------------------------------


def test_block_by_plugin_or_distribution_name(in_process_site, monkeypatch):
    install_triple(in_process_site)
    assert "triple" in load_plugins().rules
    monkeypatch.setenv(plugin_loader.ENV_BLOCK, "genetic, bo_triple")  # distribution, any spelling
    regs = load_plugins()
    assert "triple" not in regs.rules and "genetic" not in regs.searchers
    assert "annealing" in regs.searchers
    status = {p.origin.plugin: p.status for p in regs.plugins}
    assert status["triple"] == status["genetic"] == plugin_loader.BLOCKED
    assert status["annealing"] == plugin_loader.LOADED
    assert regs.warnings == []


def test_blocking_an_unknown_plugin_is_a_warning(in_process_site, monkeypatch):
    monkeypatch.setenv(plugin_loader.ENV_BLOCK, "genetic,gentic")
    regs = load_plugins()
    assert "genetic" not in regs.searchers
    assert regs.warnings == ["BOGGLE_OPT_BLOCK_PLUGINS names 'gentic', which is no installed plugin"]


def test_env_plugins_and_extra_load_modules_and_files(in_process_site, monkeypatch, tmp_path):
    (in_process_site / "bo_env_rule.py").write_text(
        textwrap.dedent(TRIPLE_RULE.format(name="from-env")), encoding="utf-8"
    )
    plugin_file = tmp_path / "bo_file_rule.py"
    plugin_file.write_text(textwrap.dedent(TRIPLE_RULE.format(name="from-file")), encoding="utf-8")
    monkeypatch.setenv(plugin_loader.ENV_PLUGINS, "bo_env_rule")
    regs = load_plugins(extra=[str(plugin_file)])
    assert {"from-env", "from-file"} <= set(regs.rules.names())
    assert regs.rules.entry("from-file").origin.distribution == "local file"
    assert regs.rules.entry("from-env").origin.distribution == "local module"


def test_same_module_twice_is_loaded_once(in_process_site, monkeypatch):
    install_triple(in_process_site)
    regs = load_plugins(extra=["bo_triple"])
    assert [p.origin.plugin for p in regs.plugins].count("triple") == 1


def test_undecorated_hook_is_an_error(in_process_site):
    (in_process_site / "bo_plain.py").write_text(
        "def register_searchers(register):\n    pass\n", encoding="utf-8"
    )
    with pytest.raises(PluginError) as info:
        load_plugins(extra=["bo_plain"])
    assert str(info.value) == (
        "plugin 'bo_plain' (local module): register_searchers is not marked with "
        "@boggle_opt.hookimpl"
    )


def test_misspelt_undecorated_hook_suggests_the_name(in_process_site):
    (in_process_site / "bo_typo.py").write_text(
        "def register_wordlist(register):\n    pass\n", encoding="utf-8"
    )
    with pytest.raises(PluginError, match=r"register_wordlist is not a boggle-opt hook "
                                          r"\(did you mean register_wordlists\?\)"):
        load_plugins(extra=["bo_typo"])


def test_wrong_hook_arguments_are_an_error(in_process_site):
    (in_process_site / "bo_args.py").write_text(
        "from boggle_opt import hookimpl\n\n@hookimpl\ndef register_searchers(add):\n    pass\n",
        encoding="utf-8",
    )
    with pytest.raises(PluginError) as info:
        load_plugins(extra=["bo_args"])
    assert str(info.value) == (
        "plugin 'bo_args' (local module) is invalid: hookimpl definition: register_searchers(add); "
        "Argument(s) {'add'} are declared in the hookimpl but can not be found in the hookspec"
    )


@pytest.mark.parametrize(
    "module, body, message",
    [
        ("bo_bad_object", "register(object())", "registered <object object at"),
        ("bo_bad_str", "register('tabu')", "registered 'tabu', not a searcher class"),
        ("bo_bad_raise", "raise KeyError('oops')", "failed in register_searchers: KeyError: 'oops'"),
    ],
)
def test_bad_registration_is_one_error(in_process_site, module, body, message):
    (in_process_site / f"{module}.py").write_text(
        f"from boggle_opt import hookimpl\n\n@hookimpl\ndef register_searchers(register):\n"
        f"    {body}\n",
        encoding="utf-8",
    )
    with pytest.raises(PluginError) as info:
        load_plugins(extra=[module])
    assert str(info.value).startswith(f"plugin '{module}' (local module)")
    assert message in str(info.value)


SUMMARY_ONLY = """
    from dataclasses import dataclass

    from boggle_opt import hookimpl
    from boggle_opt.searching.interface import Improved, SearcherBase


    class Quiet(SearcherBase):
        summary = "A searcher with a summary attribute and no docstring."
        name = "quiet"

        @dataclass(frozen=True)
        class Options:
            pass

        def search(self, problem, rng):
            yield Improved("a" * problem.n_cells, problem.score("a" * problem.n_cells))


    @hookimpl
    def register_searchers(register):
        register(Quiet)
"""


def test_summary_attribute_is_the_summary_everywhere(tmp_path, run_cli, cli_env):
    """A searcher with only a ``summary`` attribute shows it in `plugins` and `searchers`
    (``plugins`` once read the docstring alone and showed a blank)."""
    plugin = tmp_path / "bo_quiet.py"
    plugin.write_text(textwrap.dedent(SUMMARY_ONLY), encoding="utf-8")
    summary = "A searcher with a summary attribute and no docstring."
    assert load_plugins(extra=[str(plugin)]).searchers.entry("quiet").summary == summary
    for command in ("plugins", "searchers"):
        result = run_cli(command, "--plugin", str(plugin), env=cli_env)
        assert result.returncode == 0, result.stderr
        line = next(x for x in result.stdout.splitlines() if x.lstrip().startswith("quiet"))
        assert summary in line, result.stdout


def test_a_module_named_from_its_folder_loads(tmp_path, cli_env):
    """docs/plugins.md's ``BOGGLE_OPT_PLUGINS=boggle_opt_greedy boggle-opt
    searchers``, run from the folder that holds the file, gave ``No module named
    'boggle_opt_greedy'``: the console script's sys.path lacks the current
    folder. A module named so is looked for there too, by workers as well."""
    (tmp_path / "my_sampler.py").write_text(textwrap.dedent(RANDOM_SEARCHER), encoding="utf-8")
    env = {**cli_env, "BOGGLE_OPT_PLUGINS": "my_sampler"}
    listed = subprocess.run([exe(), "searchers"], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert "sampler" in listed.stdout and "Random boards" in listed.stdout
    ran = subprocess.run([exe(), "run", "--plugin", "my_sampler", "--searcher", "sampler", "--size", "3x3",
                          "--evals", "2000", "--jobs", "2", "--seed", "1", "--progress", "none"],
                         cwd=tmp_path, env=cli_env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert "best board" in ran.stdout
    # elsewhere it is still not found, with the same one line
    (tmp_path / "elsewhere").mkdir()
    missing = subprocess.run([exe(), "searchers"], cwd=tmp_path / "elsewhere", env=env, capture_output=True,
                             text=True, timeout=120)
    assert missing.returncode != 0 and missing.stderr.count("\n") == 1, missing.stderr
    assert "No module named 'my_sampler'" in missing.stderr
