"""The command line in this process, for checks of what it says about its
arguments: ``main_cli`` takes what ``run_cli`` takes and returns what it
returns, without the interpreter start and imports of a process per check
(most of such a test's cost). Tests of the console script itself, of
signals, processes, stdout that fails, or of anything that could hang keep
``run_cli``."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Callable

import pytest

from boggle_opt.cli.app import main

MainCli = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture()
def main_cli(cli_env: dict[str, str], capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> MainCli:
    """``boggle-opt ARGS`` as ``main(ARGS)`` here, with ``run_cli``'s
    environment (or ``env``) and standard input; its exit status (argparse's
    exits too), stdout and stderr, as a finished process would give them."""

    def run(*args: str, input: str | None = None, env: dict[str, str] | None = None
            ) -> subprocess.CompletedProcess[str]:
        with monkeypatch.context() as patch:
            wanted = cli_env if env is None else env
            for name in set(os.environ) - set(wanted):
                patch.delenv(name)
            for name, value in wanted.items():
                patch.setenv(name, value)
            if input is not None:
                patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(input.encode()), encoding="utf-8"))
            capsys.readouterr()  # what came before is not this command's
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse: usage errors (2) and --help (0)
                code = exc.code if isinstance(exc.code, int) else 1
            out, err = capsys.readouterr()
        return subprocess.CompletedProcess(["boggle-opt", *args], code, out, err)

    return run
