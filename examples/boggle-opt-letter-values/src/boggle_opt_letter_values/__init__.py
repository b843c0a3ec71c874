"""An example boggle-opt plugin package.

``rule`` registers the ``letter-values`` scoring rule and ``wordlist`` the
``everyday`` word list; each is named in the ``boggle_opt`` entry-point group
of this package's pyproject.toml. Importing this package registers nothing:
boggle-opt loads the modules itself.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

DISTRIBUTION = "boggle-opt-letter-values"

try:
    __version__ = version(DISTRIBUTION)
except PackageNotFoundError:  # imported from a source tree that is not installed
    __version__ = "0+unknown"

__all__ = ["DISTRIBUTION", "__version__"]
