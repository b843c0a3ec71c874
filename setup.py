"""Compile the core with mypyc, or build plain Python when BOGGLE_OPT_PURE=1.

There is no silent fallback: without BOGGLE_OPT_PURE=1 a failed compile fails
the install.
"""

import os

from setuptools import setup

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

pure = os.environ.get("BOGGLE_OPT_PURE", "") not in ("", "0")

if pure:
    ext_modules = []
else:
    from mypyc.build import mypycify

    # The compiled modules sit in the boggle_opt package, whose __init__
    # re-exports the plugin API (numpy, and pytest for the conformance suite);
    # the build environment has neither, so modules outside the list are
    # followed for types but their errors are not the build's (mypy checks
    # them in the tests).
    ext_modules = mypycify(
        ["--follow-imports=silent", *COMPILED_MODULES], opt_level="3", debug_level="0"
    )
    for ext in ext_modules:
        # lets the C compiler inline small helpers across functions
        ext.extra_compile_args = [*ext.extra_compile_args, "-fno-semantic-interposition"]

setup(ext_modules=ext_modules)
