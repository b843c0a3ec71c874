"""How the package is built: setup.py's compile flags by compiler, and the
wheel build's pins."""

from __future__ import annotations

import importlib.util
import re
import sys
import tomllib
import types
from pathlib import Path

import pytest
from setuptools import Distribution, Extension
from setuptools._distutils.ccompiler import new_compiler

REPO = Path(__file__).resolve().parents[2]


def _setup_py(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """setup.py as a module, without compiling anything."""
    monkeypatch.setenv("BOGGLE_OPT_PURE", "1")
    spec = importlib.util.spec_from_file_location("boggle_opt_setup", REPO / "setup.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("compiler_type, platform, gets_flag", [
    ("unix", "linux", True), ("mingw32", "win32", True), ("msvc", "win32", False),
    ("unix", "darwin", False)])
def test_gcc_only_flags_go_only_to_gcc_style_compilers(
        monkeypatch: pytest.MonkeyPatch, compiler_type: str, platform: str, gets_flag: bool) -> None:
    """setup.py gave every extension -fno-semantic-interposition, which MSVC
    does not know: no Windows build. build_ext now adds it by the compiler it
    really runs (distutils' own compiler classes, MSVC's included, are made
    here; nothing is compiled), and not on macOS, where it does nothing."""
    setup_py = _setup_py(monkeypatch)
    seen: dict[str, list[str]] = {}

    class Recording(setup_py.BuildExt):  # type: ignore[name-defined,misc]
        def build_extension(self, ext: Extension) -> None:  # the compile itself
            seen[ext.name] = list(ext.extra_compile_args)

    ext = Extension("boggle_opt.core.x", ["x.c"], extra_compile_args=["-DX"])
    cmd = Recording(Distribution({"ext_modules": [ext]}))
    cmd.ensure_finalized()
    cmd.compiler = new_compiler(compiler=compiler_type)
    assert cmd.compiler.compiler_type == compiler_type
    monkeypatch.setattr(sys, "platform", platform)  # the compiler is made: now the platform
    cmd.build_extensions()
    flag = "-fno-semantic-interposition"
    assert (flag in seen["boggle_opt.core.x"]) is gets_flag, seen
    assert seen["boggle_opt.core.x"][0] == "-DX"  # mypyc's own flags kept
    cmd.build_extensions()  # a second build does not add it twice
    assert seen["boggle_opt.core.x"].count(flag) == int(gets_flag)


def test_mypy_librt_and_cibuildwheel_are_pinned_together() -> None:
    """The wheels are built with the mypy that the tests type-check with, the
    librt its C calls, and one exact cibuildwheel (pyproject.toml says they
    move together)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    build = project["build-system"]["requires"]
    pins = {re.split(r"[=<>]", r)[0]: r for r in build}
    assert re.fullmatch(r"mypy==[\d.]+", pins["mypy"]), pins["mypy"]
    assert pins["mypy"] in project["project"]["optional-dependencies"]["test"]
    assert pins["librt"] in project["project"]["dependencies"]
    workflow = (REPO / ".github" / "workflows" / "wheels.yml").read_text(encoding="utf-8")
    uses = re.findall(r"uses: pypa/cibuildwheel@(\S+)", workflow)
    assert uses and all(re.fullmatch(r"v\d+\.\d+\.\d+", u) for u in uses), uses
    wheels = project["tool"]["cibuildwheel"]
    assert wheels["build"] == ["cp311-*", "cp312-*", "cp313-*", "cp314-*"]
    assert project["project"]["requires-python"] == ">=3.11"
