"""The installed release of boggle-opt (``boggle_opt.__version__``).

A module of its own, so the dictionary cache and run fingerprints can key on it
without importing the package's public face, which sits above them.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("boggle-opt")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0+unknown"
