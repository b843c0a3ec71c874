"""The compiled core: geometry, packed trie and scorer.

These modules take and return plain ints, strings, bytes and lists and import
nothing from the plugin layer, so mypyc can compile them and tests can load
the same source as plain Python.
"""

from __future__ import annotations

from . import scorer

# mypyc builds the modules as extension modules; a plain build leaves .py files.
COMPILED: bool = not scorer.__file__.endswith((".py", ".pyc"))
