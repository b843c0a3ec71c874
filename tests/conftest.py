"""Shared fixtures: research word lists, dictionaries, the CLI, core builds.

The research lists (ENABLE2K, YAWL) are never part of the project: they are
read from ``../shared/wordlists`` or the folders in ``BOGGLE_OPT_WORDLISTS``.
Without them the tests that need them skip, except under CI, where a missing
list fails the run.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from boggle_opt.dictionary import Dictionary
from boggle_opt.plugin_loader import ENV_DISABLE_AUTOLOAD, PluginLoader, Registries
from boggle_opt.wordlist import read_word_file

REPO = Path(__file__).resolve().parent.parent
SHARED_WORDLISTS = REPO.parent / "shared" / "wordlists"

#: the compiled core modules (setup.py's COMPILED_MODULES), each tested built and pure
CORE_MODULES = ("geometry", "trie", "scorer", "arena", "path_keys", "tree", "orderly", "branch", "paths")


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
    env = [Path(p) for p in os.environ.get("BOGGLE_OPT_WORDLISTS", "").split(os.pathsep) if p]
    return [*env, SHARED_WORDLISTS]


def find_research_list(name: str) -> Path:
    for folder in wordlist_folders():
        if (folder / f"{name}.txt").is_file():
            return folder / f"{name}.txt"
    reason = (
        f"{name}.txt not found in {', '.join(map(str, wordlist_folders()))} "
        "(set BOGGLE_OPT_WORDLISTS to its folder)"
    )
    if os.environ.get("CI"):
        pytest.fail(f"CI must have the research word lists: {reason}")
    pytest.skip(reason)


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
def dictionary(registries: Registries) -> Callable[[str, str], Dictionary]:
    """``dictionary("enable2k", "pow2")``: research lists by name, built once."""
    cache: dict[tuple[str, str], Dictionary] = {}
    lines: dict[str, list[str]] = {}

    def get(wordlist: str, rule: str) -> Dictionary:
        if (wordlist, rule) not in cache:
            if wordlist not in lines:
                lines[wordlist] = read_word_file(find_research_list(wordlist))
            cache[wordlist, rule] = Dictionary(wordlist, lines[wordlist], registries.rules.get(rule))
        return cache[wordlist, rule]

    return get


@pytest.fixture(scope="session")
def cli_env() -> dict[str, str]:
    """Environment for CLI runs: boggle-opt's own plugins only, and the research
    lists' folders on the search path."""
    env = dict(os.environ)
    env[ENV_DISABLE_AUTOLOAD] = "1"
    env["BOGGLE_OPT_WORDLISTS"] = os.pathsep.join(str(p) for p in wordlist_folders())
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
            timeout=120,
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
