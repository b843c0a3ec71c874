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
    "boggle_opt/core/tree.py",
    "boggle_opt/core/orderly.py",
    "boggle_opt/core/branch.py",
]

pure = os.environ.get("BOGGLE_OPT_PURE", "") not in ("", "0")

if pure:
    ext_modules = []
else:
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED_MODULES, opt_level="3", debug_level="0")
    for ext in ext_modules:
        # lets the C compiler inline small helpers across functions
        ext.extra_compile_args = [*ext.extra_compile_args, "-fno-semantic-interposition"]

setup(ext_modules=ext_modules)
