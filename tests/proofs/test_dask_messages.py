"""What a Dask run says when its cluster is not as it should be: a scheduler
with no worker (said after a timeout, not a silent 0 classes/s), Dask settings
it cannot work with, an impossible scheduler address (at once, not after the
connect timeout). All through the real command line."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers import assert_one_line_error, exe, records, unwrapped

pytest.importorskip("distributed")

REPO = Path(__file__).resolve().parents[2]
#: a 2x2 proof on the embedded list: 21 classes, done in a moment
PROOF = ["run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "30"]
#: Dask's connect timeout for the tests that must not reach a scheduler
#: (30 s by default): a regression then fails in seconds, not in minutes
SHORT_CONNECT = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
# a connect timeout beyond the ceiling of the tests that use it: a command
# that tried to connect would not come back before subprocess.run gives up
CEILING = 300
LONG_CONNECT = {"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": f"{2 * CEILING}s"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def scheduler_alone(env: dict[str, str], cwd: Path) -> Iterator[str]:
    """A real ``dask scheduler`` on loopback with no worker; yields its address."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    dask = str(Path(sys.executable).with_name("dask"))
    proc = subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                            env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + CEILING
        while True:  # listening
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            assert proc.poll() is None and time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        yield address
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.slow  # heavy: a real dask scheduler started, a run waiting on it for its whole budget (docs/testing.md)
def test_a_scheduler_without_workers_is_said(tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A resume onto a scheduler restarted without its workers used to sit at
    0 classes/s in silence; after the timeout the run says why and how to go on
    (a note on stderr, with the results and in the run file)."""
    out = tmp_path / "run.jsonl"
    env = {**cli_env, "BOGGLE_OPT_NO_WORKERS_TIMEOUT": "1"}
    with scheduler_alone(env, tmp_path) as address:
        r = subprocess.run([exe(), *PROOF, "--scheduler", address, "--time", "4", "--progress", "plain",
                            "--out", str(out)], capture_output=True, text=True, env=env, timeout=300)
    said = f"no Dask worker connected to the scheduler at {address} for 1 s"
    assert "Traceback" not in r.stderr
    notes = [line for line in unwrapped(r.stderr).splitlines() if said in line]  # wrapped at 80: read joined
    assert len(notes) == 1 and notes[0].startswith("note: "), r.stderr
    assert f"dask worker {address}" in notes[0] and "--executor local" in notes[0]
    assert f"# note: {said}" in unwrapped(r.stdout)
    (finish,) = [rec for rec in records(out) if rec["type"] == "finish"]
    assert any(said in note for note in finish["notes"])


def test_the_wait_for_workers_is_a_setting(cli_env: dict[str, str]) -> None:
    env = {**cli_env, "BOGGLE_OPT_NO_WORKERS_TIMEOUT": "soon"}
    r = subprocess.run([exe(), *PROOF, "--executor", "dask", "--progress", "none"], capture_output=True, text=True,
                       env=env, timeout=300)
    assert_one_line_error(r, "BOGGLE_OPT_NO_WORKERS_TIMEOUT", "'soon'")


def documented_tcp_timeout() -> str:
    """The value docs/usage.md recommends for Dask's TCP timeout."""
    found = re.search(r"DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP=(\w+)", (REPO / "docs" / "usage.md").read_text())
    assert found, "docs/usage.md no longer recommends a TCP timeout"
    return found.group(1)


@pytest.mark.slow  # heavy: a LocalCluster started; the quick tier's LocalCluster run also uses this value (docs/testing.md)
def test_the_documented_tcp_timeout_works(cli_env: dict[str, str]) -> None:
    """The setting the docs recommend gave ``AssertionError: Timeout too low``
    from Dask (its keep-alive needs 11 s at least)."""
    env = {**cli_env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP": documented_tcp_timeout()}
    r = subprocess.run([exe(), *PROOF, "--executor", "dask", "--jobs", "1", "--progress", "none"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "proved: no 2x2 board scores >= 30" in r.stdout


@pytest.mark.parametrize("value", ["10s", "3", "soon"])
def test_a_tcp_timeout_dask_cannot_use_is_one_line(value: str, cli_env: dict[str, str]) -> None:
    env = {**cli_env, **SHORT_CONNECT, "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP": value}
    for where in (["--executor", "dask"], ["--scheduler", f"tcp://127.0.0.1:{free_port()}"]):
        r = subprocess.run([exe(), *PROOF, *where, "--progress", "none"], capture_output=True, text=True,
                           env=env, timeout=300)
        assert_one_line_error(r, "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP", repr(value), "at least 11 s")


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:99999", "tcp://127.0.0.1:abc", "tcp://127.0.0.1",
                                     "tcp://127.0.0.1:0", "tcp://:8786", "tcp://127.0.0.1:8786/x"])
def test_an_impossible_scheduler_address_is_refused_at_once(address: str, cli_env: dict[str, str]) -> None:
    """Not after Dask's connect timeout: a usage error, exit 2, before any
    connection is tried (the connect timeout here is beyond the test's
    ceiling, so a command that tried would not come back in time)."""
    r = subprocess.run([exe(), *PROOF, "--scheduler", address, "--progress", "none"], capture_output=True,
                       text=True, env={**cli_env, **LONG_CONNECT}, timeout=CEILING)
    line = assert_one_line_error(r, "--scheduler", repr(address), "tcp://HOST:PORT")
    assert r.returncode == 2, line


def test_a_run_files_impossible_scheduler_is_refused_at_once(tmp_path: Path, cli_env: dict[str, str]) -> None:
    out = tmp_path / "run.jsonl"
    r = subprocess.run([exe(), *PROOF, "--time", "0.01", "--progress", "none", "--out", str(out)],
                       capture_output=True, text=True, env=cli_env, timeout=300)
    assert r.returncode in (0, 3), r.stderr
    lines = records(out)
    lines[0]["settings"].update(executor="dask", scheduler="tcp://127.0.0.1:99999")
    out.write_text("".join(json.dumps(rec) + "\n" for rec in lines), encoding="utf-8")
    r = subprocess.run([exe(), "run", "--resume", str(out), "--time", "5", "--progress", "none"],
                       capture_output=True, text=True, env={**cli_env, **LONG_CONNECT}, timeout=CEILING)
    assert_one_line_error(r, "'tcp://127.0.0.1:99999'", "tcp://HOST:PORT")
