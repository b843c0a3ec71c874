"""Compile the core with mypyc, or build plain Python when BOGGLE_OPT_PURE=1.

There is no silent fallback: without BOGGLE_OPT_PURE=1 a failed compile fails
the install.
"""

from __future__ import annotations

import os

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
# helpers across functions.
GCC_STYLE_COMPILERS = frozenset({"unix", "mingw32", "cygwin"})
GCC_STYLE_FLAGS = ["-fno-semantic-interposition"]


def extra_compile_args(compiler_type: str, args: list[str]) -> list[str]:
    """``args`` with the GCC/Clang-only flags added where the compiler takes them."""
    if compiler_type in GCC_STYLE_COMPILERS:
        return [*args, *(f for f in GCC_STYLE_FLAGS if f not in args)]
    return list(args)


class BuildExt(build_ext):
    """Adds the GCC/Clang-only flags by the compiler that build_ext really
    uses (``--compiler`` or the platform's default), known only once it runs."""

    def build_extensions(self) -> None:
        for ext in self.extensions:
            ext.extra_compile_args = extra_compile_args(self.compiler.compiler_type,
                                                        ext.extra_compile_args)
        super().build_extensions()


def ext_modules() -> list[Extension]:
    if os.environ.get("BOGGLE_OPT_PURE", "") not in ("", "0"):
        return []
    from mypyc.build import mypycify

    # The compiled modules sit in the boggle_opt package, whose __init__
    # re-exports the plugin API (numpy, and pytest for the conformance suite);
    # the build environment has neither, so modules outside the list are
    # followed for types but their errors are not the build's (mypy checks
    # them in the tests).
    return mypycify(
        ["--follow-imports=silent", *COMPILED_MODULES], opt_level="3", debug_level="0"
    )


if __name__ == "__main__":  # setuptools runs this file as __main__; tests import it
    setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt})
