"""System word lists for the language tests: read from /usr/share/dict (never
part of the project). A test that needs one skips without it, with a reason
naming the package to install, except under CI, where it fails (as the
research lists do: tests/conftest.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from boggle_opt.wordlists.system import LISTS, how_to_get, path_of


def find_system_list(name: str) -> Path:
    """The installed list ``name``; skips the test without it (fails it under CI)."""
    entry = next(e for e in LISTS if e.name == name)
    path = path_of(entry)
    if path.is_file():
        return path
    reason = f"needs the system word list {name} ({path}); {how_to_get(entry)}"
    if os.environ.get("CI"):
        pytest.fail(f"CI must have the system word lists (.ci/run installs them): {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def system_list() -> Callable[[str], Path]:
    """``system_list("french")``: the list's path, or skip (fail under CI)."""
    return find_system_list
