"""Fixtures: the installed plugins, the everyday/letter-values dictionary, the CLI.

The tests import the installed package (src layout: ``src`` is not on the
path), so they check what ``pip install`` actually put in place.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt import Dictionary, Registries, load_dictionary, load_plugins

from helpers import RULE, WORDLIST, RunCli


@pytest.fixture(scope="session")
def registries() -> Registries:
    return load_plugins()


@pytest.fixture(scope="session")
def dictionary(registries: Registries) -> Dictionary:
    return load_dictionary(WORDLIST, RULE, registries)


@pytest.fixture(scope="session")
def run_cli() -> RunCli:
    """Run the installed ``boggle-opt`` console script, as a user would."""
    script = Path(sys.executable).with_name("boggle-opt")
    exe = str(script) if script.exists() else shutil.which("boggle-opt")
    assert exe, "the boggle-opt console script is not installed"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=60)

    return run
