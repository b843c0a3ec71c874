"""The ``core`` fixture gives every compiled module, built and pure."""

from __future__ import annotations

import re
import types
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_core_fixture_covers_every_compiled_module(core: types.SimpleNamespace) -> None:
    compiled = re.findall(r'"boggle_opt/core/(\w+)\.py"', (REPO / "setup.py").read_text())
    given = sorted(n for n, v in vars(core).items() if isinstance(v, types.ModuleType))
    assert compiled and given == sorted(compiled)
    for name in given:
        where = getattr(core, name).__file__
        if core.kind == "pure":
            assert where.endswith(".py"), where
        elif core.compiled:
            assert not where.endswith(".py"), f"{name} is not the compiled build: {where}"
