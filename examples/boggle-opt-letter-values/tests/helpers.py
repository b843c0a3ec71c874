"""Names the tests share (conftest.py holds the fixtures)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

RULE = "letter-values"
WORDLIST = "everyday"

RunCli = Callable[..., subprocess.CompletedProcess[str]]
