"""Shared fixtures: research word lists, dictionaries, the CLI, core builds.

The research lists (ENABLE2K, YAWL) are never part of the project: they are
read from the folders in ``BOGGLE_OPT_WORDLISTS``. A test that uses one asks
for it (the ``enable2k_path``/``yawl_path``/``dictionary`` fixtures, or
``@pytest.mark.research_lists("enable2k")``); without the list it skips with a
reason that says where to get it, except under CI, where a missing list fails
the run. A test sees only the lists it asked for (the CLI's search path is
narrowed to them), so one that forgets fails even where the lists are present.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    import boggle_opt.wordlists  # noqa: F401  (mapped from wordlists/ by the install)
except ModuleNotFoundError:
    # `python -m pytest` puts the current folder first on the path, so after
    # `pip install .` the source folder's boggle_opt (no word-list package,
    # no compiled core) shadows the installed one
    pytest.exit("boggle_opt is imported from the source folder, not the installed package: run "
                "`pytest` as the README says (not `python -m pytest`), or install with "
                "`pip install -e '.[test]'`", returncode=4)

from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.registry.loader import ENV_DISABLE_AUTOLOAD, PluginLoader, Registries
from boggle_opt.dictionary.wordlist import read_word_file
from boggle_opt.wordlists.research import how_to_get

REPO = Path(__file__).resolve().parent.parent
#: the lists a test may ask for by name
RESEARCH_LISTS = ("enable2k", "yawl")

#: the compiled core modules (setup.py's COMPILED_MODULES), each tested built and pure
CORE_MODULES = ("geometry", "trie", "scorer", "arena", "pages", "families", "path_keys", "tree", "builder", "orderly", "branch", "paths")


@pytest.fixture(scope="session", autouse=True)
def own_plugins_only() -> Iterator[None]:
    """The suite tests boggle-opt's own plugins: example or third-party packages
    installed beside it (examples/ has two) must not change what it sees, in
    this process or in the commands it runs. Set for the session and restored
    after; tests of autoloading turn it off themselves."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV_DISABLE_AUTOLOAD, "1")
        yield


@pytest.fixture(scope="session", autouse=True)
def private_dictionary_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Dictionaries built by the suite (here and in the commands it runs) are
    cached in a folder of its own, never the user's cache."""
    folder = tmp_path_factory.mktemp("dictionary-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BOGGLE_OPT_CACHE", str(folder))
        patch.delenv("BOGGLE_OPT_NO_CACHE", raising=False)
        yield folder


def wordlist_folders() -> list[Path]:
    return [Path(p) for p in os.environ.get("BOGGLE_OPT_WORDLISTS", "").split(os.pathsep) if p]


def find_research_list(name: str) -> Path:
    """The research list ``name``; skips the test without it (fails it under CI)."""
    for folder in wordlist_folders():
        if (folder / f"{name}.txt").is_file():
            return folder / f"{name}.txt"
    searched = ", ".join(map(str, wordlist_folders())) or "BOGGLE_OPT_WORDLISTS is not set"
    reason = f"needs the research word list {name}.txt (searched: {searched}); {how_to_get(name)}"
    if os.environ.get("CI"):
        pytest.fail(f"CI must have the research word lists: {reason}")
    pytest.skip(reason)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "research_lists(*names): the test uses these research word lists by name "
        "(skips without them, fails under CI)",
    )
    config.addinivalue_line(
        "markers", "slow: a test that must stay heavy (published proofs, clusters, worker deaths, "
        "long searches); left out of a plain `pytest`, run by `pytest -m slow` (CI runs it)",
    )


# The slow tier. A plain `pytest` leaves out the tests marked `slow` (the README's
# command stays within minutes) and says so in its last lines; `pytest -m slow`
# runs only them, `pytest --slow` everything. A -m expression that names `slow`
# decides by itself.
SLOW_HOW = "`pytest -m slow` runs them (CI does), `pytest --slow` runs every test"
#: the slow tests a run left out (counted where they are collected: a worker under -n)
_SLOW_LEFT_OUT = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true",
                     help="run the tests marked slow too (a plain run leaves them out; -m slow runs only them)")


@pytest.hookimpl(trylast=True)  # after -k and -m: the count is of the tests they chose
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow") or "slow" in (config.getoption("markexpr") or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
    config.stash[_SLOW_LEFT_OUT] = len(slow)
    if hasattr(config, "workeroutput"):  # an xdist worker: the controller prints the summary
        config.workeroutput["slow_left_out"] = len(slow)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """Under -n the workers collect: take the count from what they send back."""
    count = getattr(node, "workeroutput", {}).get("slow_left_out")
    if count is not None:
        config = node.config
        config.stash[_SLOW_LEFT_OUT] = max(count, config.stash.get(_SLOW_LEFT_OUT, 0))


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> Generator[None, None, None]:
    """After the short summary (-ra), so it is among the run's last lines."""
    yield
    count = config.stash.get(_SLOW_LEFT_OUT, 0)
    if count:
        terminalreporter.write_line(
            f"{count} slow test{'s' if count != 1 else ''} not run (marked slow): {SLOW_HOW}", yellow=True,
        )


def asked_for(item: pytest.Item) -> list[str]:
    """The research lists a test asked for: by marker or through a fixture."""
    names = [n for m in item.iter_markers("research_lists") for n in m.args]
    fixtures = getattr(item, "fixturenames", ())
    names += [n for n in RESEARCH_LISTS if f"{n}_path" in fixtures]
    return sorted(set(names))


#: the research lists the running test asked for (set before its fixtures)
_ASKED = pytest.StashKey[list[str]]()
#: the environment ``cli_env`` gives, and the folders of links it shows lists through
_CLI_ENV = pytest.StashKey[dict[str, str]]()
_LINKS = pytest.StashKey[Path]()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    names = asked_for(item)
    for name in names:
        find_research_list(name)
    show_only(item.config, names)


def show_only(config: pytest.Config, names: list[str]) -> None:
    """The commands a test runs see only the lists it asked for, so a test that
    names a list without asking fails here too, not only on a fresh clone."""
    config.stash[_ASKED] = sorted(set(names))
    env = config.stash.get(_CLI_ENV, None)
    if env is not None:
        env["BOGGLE_OPT_WORDLISTS"] = str(visible_lists(config))


def visible_lists(config: pytest.Config) -> Path:
    """A folder of links to just the lists the running test asked for."""
    names = config.stash.get(_ASKED, [])
    folder = config.stash[_LINKS] / ("-".join(names) or "none")
    if not folder.is_dir():
        folder.mkdir()
        for name in names:
            (folder / f"{name}.txt").symlink_to(find_research_list(name))
    return folder


@pytest.fixture(scope="session")
def research_list() -> Callable[[str], Path]:
    """``research_list("yawl")``: a list's path, for a test that chose the
    list by a parameter (and asked for it by marker)."""
    return find_research_list


@pytest.fixture(scope="session")
def enable2k_path() -> Path:
    return find_research_list("enable2k")


@pytest.fixture(scope="session")
def yawl_path() -> Path:
    return find_research_list("yawl")


@pytest.fixture(scope="session")
def registries() -> Registries:
    return PluginLoader(autoload=False).load()


@pytest.fixture(scope="session")
def dictionary(
    registries: Registries, pytestconfig: pytest.Config
) -> Callable[[str, str], Dictionary]:
    """``dictionary("enable2k", "pow2")``: research lists by name, built once;
    asking for one shows it to the commands the test runs too."""
    cache: dict[tuple[str, str], Dictionary] = {}
    lines: dict[str, list[str]] = {}

    def get(wordlist: str, rule: str) -> Dictionary:
        show_only(pytestconfig, [*pytestconfig.stash.get(_ASKED, []), wordlist])
        if (wordlist, rule) not in cache:
            if wordlist not in lines:
                lines[wordlist] = read_word_file(find_research_list(wordlist))
            cache[wordlist, rule] = Dictionary(wordlist, lines[wordlist], registries.rules.get(rule))
        return cache[wordlist, rule]

    return get


@pytest.fixture(scope="session")
def cli_env(pytestconfig: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Environment for CLI runs: boggle-opt's own plugins only, and on the
    search path only the research lists the running test asked for (updated
    before each test by ``pytest_runtest_setup``)."""
    pytestconfig.stash[_LINKS] = tmp_path_factory.mktemp("research-lists-asked-for")
    env = dict(os.environ)
    # a user's shell does not set it: with it, output that is never flushed
    # still arrives, and a command that makes a reader wait passes here
    env.pop("PYTHONUNBUFFERED", None)
    env[ENV_DISABLE_AUTOLOAD] = "1"
    env["BOGGLE_OPT_WORDLISTS"] = str(visible_lists(pytestconfig))
    pytestconfig.stash[_CLI_ENV] = env
    return env


@pytest.fixture(scope="session")
def run_cli(cli_env: dict[str, str]) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the installed ``boggle-opt`` console script (the real entry point)."""
    script = Path(sys.executable).with_name("boggle-opt")
    exe = str(script) if script.exists() else shutil.which("boggle-opt")
    assert exe, "the boggle-opt console script is not installed"

    def run(
        *args: str, input: str | None = None, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [exe, *args],
            input=input,
            capture_output=True,
            text=True,
            env=env if env is not None else cli_env,
            timeout=600,  # a ceiling for a hang: a busy machine runs a command slowly
        )

    return run


def _load_pure_core(tmp: Path) -> types.ModuleType:
    """The core's source loaded as plain Python under another package name.

    The installed core is compiled; the same .py files, copied away from the
    extension modules, give the pure-Python build in the same test session.
    """
    src = REPO / "boggle_opt" / "core"
    dest = tmp / "boggle_opt_pure_core"
    dest.mkdir()
    for f in src.glob("*.py"):
        shutil.copy(f, dest / f.name)
    spec = importlib.util.spec_from_file_location(
        "boggle_opt_pure_core", dest / "__init__.py", submodule_search_locations=[str(dest)]
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    assert module.COMPILED is False
    return module


@pytest.fixture(scope="session", params=["installed", "pure"])
def core(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[
    types.SimpleNamespace
]:
    """The core modules: the installed (compiled) build, then plain Python."""
    if request.param == "installed":
        package = importlib.import_module("boggle_opt.core")
    else:
        package = _load_pure_core(tmp_path_factory.mktemp("pure"))
    name = package.__name__
    modules = {m: importlib.import_module(f"{name}.{m}") for m in CORE_MODULES}
    yield types.SimpleNamespace(kind=request.param, compiled=package.COMPILED, **modules)
