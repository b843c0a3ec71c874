"""Compile the core with mypyc, or build plain Python when BOGGLE_OPT_PURE=1.

There is no silent fallback: without BOGGLE_OPT_PURE=1 a failed compile fails
the install.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The hot modules only; everything else stays plain Python.
COMPILED_MODULES = [
    "boggle_opt/core/geometry.py",
    "boggle_opt/core/trie.py",
    "boggle_opt/core/scorer.py",
    "boggle_opt/core/arena.py",
    "boggle_opt/core/pages.py",
    "boggle_opt/core/families.py",
    "boggle_opt/core/path_keys.py",
    "boggle_opt/core/tree.py",
    "boggle_opt/core/builder.py",
    "boggle_opt/core/orderly.py",
    "boggle_opt/core/branch.py",
    "boggle_opt/core/paths.py",
]

# Flags only GCC and Clang (and MinGW's GCC) understand; MSVC stops at an
# unknown one. -fno-semantic-interposition lets the C compiler inline small
# helpers across functions in an ELF shared library; macOS's Mach-O has no
# such interposition, and Apple's clang calls the flag unused.
GCC_STYLE_COMPILERS = frozenset({"unix", "mingw32", "cygwin"})
GCC_STYLE_FLAGS = ["-fno-semantic-interposition"]


def extra_compile_args(compiler_type: str, platform: str, args: list[str]) -> list[str]:
    """``args`` with the GCC/Clang-only flags added where the compiler takes them."""
    if compiler_type in GCC_STYLE_COMPILERS and platform != "darwin":
        return [*args, *(f for f in GCC_STYLE_FLAGS if f not in args)]
    return list(args)


def compiled_core() -> list[Extension]:
    """mypyc's extensions for COMPILED_MODULES (it type-checks, then writes the C)."""
    from mypyc.build import mypycify

    # The compiled modules sit in the boggle_opt package, whose __init__
    # re-exports the plugin API (numpy, and pytest for the conformance suite);
    # the build environment has neither, so modules outside the list are
    # followed for types but their errors are not the build's (mypy checks
    # them in the tests).
    return mypycify(
        ["--follow-imports=silent", *COMPILED_MODULES], opt_level="3", debug_level="0"
    )


# Stands in for the compiled core until something is built: a pip install runs
# this file three times (build requirements, metadata, the build) and only the
# last needs mypyc's C (docs/benchmarks.md). Any extension at all makes the
# wheel platform-specific.
PENDING_CORE = Extension("boggle_opt.core.pending", sources=[])
# setuptools commands that only write metadata or gather sources (they still
# finalize build_ext, to list its source files)
METADATA_COMMANDS = frozenset({"egg_info", "dist_info", "sdist", "check"})


class BuildExt(build_ext):
    """Runs mypyc when extensions are built, and adds the GCC/Clang-only flags
    by the compiler that build_ext really uses (``--compiler`` or the
    platform's default), known only once it runs."""

    def finalize_options(self) -> None:
        modules = self.distribution.ext_modules or []
        if PENDING_CORE in modules and not set(self.distribution.commands) <= METADATA_COMMANDS:
            self.distribution.ext_modules = [m for m in modules if m is not PENDING_CORE] + compiled_core()
        super().finalize_options()

    def build_extensions(self) -> None:
        for ext in self.extensions:
            ext.extra_compile_args = extra_compile_args(
                self.compiler.compiler_type, sys.platform, ext.extra_compile_args)
        super().build_extensions()


pure = os.environ.get("BOGGLE_OPT_PURE", "") not in ("", "0")

if __name__ == "__main__":  # setuptools runs this file as __main__; tests import it
    setup(ext_modules=[] if pure else [PENDING_CORE], cmdclass={"build_ext": BuildExt})
