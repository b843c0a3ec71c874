"""Executors through the real command line: a worker killed mid-proof (as the
out-of-memory killer would) costs a split task, never a hang or a lost or
double-counted class; the run file accounts for every class exactly once."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil
import pytest

from boggle_opt.proofs.class_tasks import Ledger
from helpers import exe, records as run_records

REPO = Path(__file__).resolve().parents[2]
#: 2x3, the default three buckets: 216 classes, about 1.5 s on one core
ARGS = ["run", "--searcher", "bnb", "--size", "2x3", "--wordlist", "enable2k", "-o", "min-score", "100",
        "--progress", "none", "--top", "1000"]
CLASSES = 216

# how long a test waits for what it needs before it calls the run hung: far
# beyond what any machine needs, however busy (no test hangs on the clock)
CEILING = 300


def ranked(stdout: str) -> list[tuple[str, ...]]:
    return [tuple(line.split("\t")[1:3]) for line in stdout.splitlines()
            if "\t" in line and not line.startswith("#")]


def checkpoints(path: Path) -> list[dict[str, object]]:
    """The searcher's records of a run file's checkpoints."""
    return [r["record"] for r in run_records(path) if r["type"] == "checkpoint"]


def assert_each_class_once(path: Path) -> Ledger:
    """Every class finished, whole or through its splits' pieces, and no
    class or piece recorded twice."""
    recs = checkpoints(path)
    solved = [(r["class"], r.get("part", "")) for r in recs if "class" in r]
    assert len(solved) == len(set(solved)), "a class or piece was recorded twice"
    ledger = Ledger()
    for r in recs:
        ledger.add(r)
    finished, partial = ledger.state()
    assert not partial and len(finished) == CLASSES
    # a piece is recorded only for a class that was split
    assert {cls for cls, part in solved if part} <= {r["split"] for r in recs if "split" in r}
    return ledger


@pytest.fixture(scope="module")
def reference(run_cli: Callable[..., subprocess.CompletedProcess[str]], enable2k_path: Path) -> list[tuple[str, ...]]:
    """The boards of the uninterrupted proof, one process."""
    r = run_cli(*ARGS)
    assert r.returncode == 0, r.stderr
    assert ranked(r.stdout)
    return ranked(r.stdout)


def kill_a_worker_mid_run(cmd: list[str], out: Path, env: dict[str, str], cwd: Path,
                          is_worker: Callable[[psutil.Process], bool]) -> subprocess.CompletedProcess[str]:
    """Start the run, SIGKILL one worker process once 20 classes are written,
    and wait for the run to end on its own (a hang fails the test)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline:
            if out.exists() and out.read_text().count('"class"') >= 20:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before a worker could be killed"
        workers = [p for p in psutil.Process(proc.pid).children(recursive=True) if is_worker(p)]
        assert workers, "no worker process found"
        workers[0].send_signal(signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)


def _pool_worker(p: psutil.Process) -> bool:
    return "spawn_main" in " ".join(p.cmdline())


def test_local_worker_killed_mid_run(
    tmp_path: Path, cli_env: dict[str, str], reference: list[tuple[str, ...]]
) -> None:
    out = tmp_path / "run.jsonl"
    r = kill_a_worker_mid_run([exe(), *ARGS, "--jobs", "2", "--out", str(out)], out, cli_env, tmp_path, _pool_worker)
    assert r.returncode == 0, r.stderr
    assert ranked(r.stdout) == reference
    assert_each_class_once(out)
    splits = [rec for rec in checkpoints(out) if "split" in rec]
    assert splits and all(s["reason"] == "a worker process died" for s in splits)
    # and the run says so: a note per lost task, kept in the finish record
    [finish] = [rec for rec in run_records(out) if rec["type"] == "finish"]
    notes = [n for n in finish.get("notes", []) if "a worker process died" in n]
    assert len(notes) == len(splits)
    assert notes[0].startswith(f"class {splits[0]['split']}") and "solved again in" in notes[0]


def test_dask_local_cluster_gives_the_local_boards(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], tmp_path: Path, reference: list[tuple[str, ...]],
    cli_env: dict[str, str],
) -> None:
    """A real LocalCluster: two worker processes talking to a scheduler over
    loopback, with the TCP timeout docs/usage.md recommends (Dask once refused
    it: test_dask_messages.py's test of it is in the slow tier)."""
    out = tmp_path / "run.jsonl"
    found = re.search(r"DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP=(\w+)", (REPO / "docs" / "usage.md").read_text())
    assert found, "docs/usage.md no longer recommends a TCP timeout"
    env = {**cli_env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__TCP": found.group(1)}
    r = run_cli(*ARGS, "--executor", "dask", "--jobs", "2", "--out", str(out), env=env)
    assert r.returncode == 0, r.stderr
    assert ranked(r.stdout) == reference
    ledger = assert_each_class_once(out)
    assert not ledger.splits


@pytest.mark.slow  # Dask worker and scheduler deaths: clusters started and killed
def test_dask_worker_killed_mid_run(
    tmp_path: Path, cli_env: dict[str, str], reference: list[tuple[str, ...]]
) -> None:
    """A Dask worker sits idle between tasks for a scheduler round trip, a
    good share of a 2x3 class's few milliseconds, so the kill may hit no task
    at all: then nothing is lost and nothing split. Either way the boards and
    the ledger must be whole; that a task on a dying worker comes back split
    is checked deterministically below."""
    out = tmp_path / "run.jsonl"
    r = kill_a_worker_mid_run([exe(), *ARGS, "--executor", "dask", "--jobs", "2", "--out", str(out)],
                              out, cli_env, tmp_path, _pool_worker)
    assert r.returncode == 0, r.stderr
    assert ranked(r.stdout) == reference
    assert_each_class_once(out)
    reasons = [rec["reason"] for rec in checkpoints(out) if "split" in rec]
    assert all(reason == "a Dask worker died" for reason in reasons), reasons


def test_dask_unreachable_scheduler_is_one_line(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], cli_env: dict[str, str]
) -> None:
    env = {**cli_env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    r = run_cli("run", "--searcher", "bnb", "--size", "2x2", "-o", "min-score", "30",
                "--scheduler", "tcp://127.0.0.1:9", "--progress", "none", env=env)
    assert r.returncode == 1 and r.stderr.count("\n") == 1
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in r.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def dask_cluster(port: int, env: dict[str, str], cwd: Path) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``dask scheduler`` and one ``dask worker`` (one thread) on
    loopback; yields the scheduler's process. Both end with the block."""
    dask = str(Path(sys.executable).with_name("dask"))
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                              env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        procs.append(subprocess.Popen([dask, "worker", address, "--nthreads", "1", "--no-dashboard"],
                                      env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        from distributed import Client

        with Client(address, timeout=300) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(1, timeout=300)
        yield procs[0]
    finally:
        for proc in reversed(procs):
            if proc.poll() is None:
                proc.kill()
            proc.wait()


def finish_records(path: Path) -> list[dict[str, object]]:
    return [r for r in map(json.loads, path.read_text().splitlines()) if r.get("type") == "finish"]


@pytest.mark.slow  # Dask worker and scheduler deaths: clusters started and killed
def test_a_lost_dask_scheduler_is_a_clean_stop_and_resumes(
    tmp_path: Path, cli_env: dict[str, str], run_cli: Callable[..., subprocess.CompletedProcess[str]],
    reference: list[tuple[str, ...]],
) -> None:
    """kill -9 of the scheduler mid-proof: the boards so far printed, the
    finish record says why, one error line naming the scheduler and --resume,
    exit 1, within seconds (Dask's client would retry for 30 s, then end in
    CancelledError tracebacks). The run file names the scheduler: --resume
    goes back to it (refused in one line while it is down, never a quiet
    single local process), or runs here when told to; either way the proof
    ends with the uninterrupted run's boards."""
    pytest.importorskip("distributed")
    port = free_port()
    scheduler = f"tcp://127.0.0.1:{port}"
    out = tmp_path / "run.jsonl"
    exe = str(Path(sys.executable).with_name("boggle-opt"))
    env = {**cli_env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}
    with dask_cluster(port, env, tmp_path) as proc:
        run = subprocess.Popen([exe, *ARGS, "--scheduler", scheduler, "--out", str(out)], cwd=tmp_path,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 300
            while run.poll() is None and time.monotonic() < deadline:
                if out.exists() and out.read_text().count('"class"') >= 20:
                    break
                time.sleep(0.01)
            assert run.poll() is None, "the run ended before the scheduler could be killed"
            proc.kill()
            killed = time.monotonic()
            stdout, stderr = run.communicate(timeout=120)
            stopped_after = time.monotonic() - killed
        finally:
            if run.poll() is None:
                run.kill()
                run.communicate()
    lost = f"lost the Dask scheduler at {scheduler}"
    assert run.returncode == 1
    assert stderr.count("\n") == 1 and lost in stderr and f"--resume {out}" in stderr, stderr
    assert f"# stopped: {lost}" in stdout and ranked(stdout)
    assert stopped_after < 20  # not Dask's 30 s of reconnecting
    assert [r["stop_reason"] for r in finish_records(out)] == [lost]
    done_before = checkpoints(out)
    assert 20 <= sum("class" in r for r in done_before) < CLASSES

    # the scheduler is down: refused in one line, the run file untouched
    before = out.read_text()
    r = run_cli("run", "--resume", str(out), "--progress", "none", env=env)
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert f"cannot reach the Dask scheduler at {scheduler}" in r.stderr and "--executor local" in r.stderr
    assert out.read_text() == before

    # told to: on this machine
    here = tmp_path / "here.jsonl"
    shutil.copy(out, here)
    r = run_cli("run", "--resume", str(here), "--executor", "local", "--progress", "none", "--top", "1000")
    assert r.returncode == 0, r.stderr
    assert ranked(r.stdout) == reference
    assert_each_class_once(here)

    # the scheduler back at its address: --resume alone uses it again
    with dask_cluster(port, env, tmp_path):
        r = run_cli("run", "--resume", str(out), "--progress", "none", "--top", "1000", env=env)
    assert r.returncode == 0, r.stderr
    assert ranked(r.stdout) == reference
    assert_each_class_once(out)
    assert [r["stop_reason"] for r in finish_records(out)] == [lost, "searcher finished"]
    starts = [r["settings"] for r in map(json.loads, out.read_text().splitlines()) if r["type"] == "start"]
    assert [(s["executor"], s["scheduler"]) for s in starts] == [("dask", scheduler)] * 2


@pytest.mark.research_lists("enable2k")
def test_an_unreachable_scheduler_writes_no_run_file(
    run_cli: Callable[..., subprocess.CompletedProcess[str]], cli_env: dict[str, str], tmp_path: Path
) -> None:
    """Refused before the run starts: no run file holding only a start record."""
    pytest.importorskip("distributed")
    out = tmp_path / "run.jsonl"
    env = {**cli_env, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    r = run_cli(*ARGS, "--scheduler", f"tcp://127.0.0.1:{free_port()}", "--out", str(out), env=env)
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert "cannot reach the Dask scheduler" in r.stderr
    assert not out.exists() or not out.read_text()


def _outcomes_within(runner: "TaskRunner[str, str]", seconds: float) -> list[object]:
    """The runner's outcomes, failing if they have not ended within ``seconds``
    (a ceiling, not a speed): beside eight busy loops a LocalCluster's worker
    once never came back after its death, and the test waited for ever."""
    deadline = time.monotonic() + seconds
    outcomes = []
    for event in runner.events():  # None every heartbeat while it waits
        assert time.monotonic() < deadline, f"not done after {seconds} s: {outcomes}"
        if event is not None:
            outcomes.append(event)
    return outcomes


@pytest.mark.slow  # Dask worker and scheduler deaths: clusters started and killed
def test_dask_reruns_the_tasks_queued_on_a_worker_that_died_uncounted() -> None:
    """One worker, one thread: while "die-later" runs, Dask queues another
    task on the worker, and each time the worker dies Dask fails both
    (KilledWorker); only "die-later" was running, so only it is counted and
    fails, and the rest are run again as they were."""
    pytest.importorskip("distributed")
    import dying_tasks

    from boggle_opt.proofs.executor import MAX_RETRIES, Done, ExecutorSettings, Failed, TaskRunner, WorkerSetup
    from boggle_opt.plugins.dask_executor import DaskExecutor

    session = DaskExecutor(ExecutorSettings(jobs=1)).open(WorkerSetup(dying_tasks.make, (), "q"))
    try:
        runner: TaskRunner[str, str] = TaskRunner(session, ["die-later", "a", "b", "c"], heartbeat=0.2,
                                                  window_per_worker=4)
        outcomes = _outcomes_within(runner, 300)
    finally:
        session.close()
    assert sorted(e.task for e in outcomes if isinstance(e, Done)) == ["a", "b", "c"]
    assert [(e.task, e.attempts) for e in outcomes if isinstance(e, Failed)] == [("die-later", MAX_RETRIES + 1)]
    assert runner.retries == MAX_RETRIES  # no bystander counted, not even once


@pytest.mark.parametrize("executor, reason", [
    ("local", "a worker process died"),
    pytest.param("dask", "a Dask worker died", marks=pytest.mark.slow),  # a LocalCluster, its worker killed 4 times
])
def test_a_task_that_always_kills_its_worker_is_reported_failed(executor: str, reason: str) -> None:
    """Retried MAX_RETRIES times, then Failed, while the other tasks finish
    (dask: a real LocalCluster, which restarts the dead worker)."""
    import dying_tasks

    from boggle_opt.proofs.executor import MAX_RETRIES, Done, ExecutorSettings, Failed, TaskRunner, WorkerSetup
    from boggle_opt.plugins.dask_executor import DaskExecutor
    from boggle_opt.proofs.local import LocalExecutor

    chosen = LocalExecutor if executor == "local" else DaskExecutor
    session = chosen(ExecutorSettings(jobs=2)).open(WorkerSetup(dying_tasks.make, (), "t"))
    try:
        runner: TaskRunner[str, str] = TaskRunner(session, ["a", "die", "b", "c", "d", "e"], heartbeat=0.2)
        outcomes = _outcomes_within(runner, 300)
    finally:
        session.close()
    done = sorted(e.task for e in outcomes if isinstance(e, Done))
    failed = [e for e in outcomes if isinstance(e, Failed)]
    assert done == ["a", "b", "c", "d", "e"]
    assert [(f.task, f.attempts, f.reason) for f in failed] == [("die", MAX_RETRIES + 1, reason)]
    assert runner.failed == 1 and runner.retries >= MAX_RETRIES


def test_the_local_pool_runs_more_tasks_than_its_pipes_hold() -> None:
    """Workers announce each task they start; unread announcements once
    filled the pipe after about 3,000 tasks and hung every worker (a 3x3
    proof with the default buckets never finished)."""
    import dying_tasks

    from boggle_opt.proofs.executor import Done, TaskRunner, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    # 5,000 announcements of about 26 bytes: twice what a 64 KiB pipe holds
    tasks = [f"t{i}" for i in range(5000)]
    session = LocalSession(WorkerSetup(dying_tasks.make, (), "t"), 2)
    try:
        runner: TaskRunner[str, str] = TaskRunner(session, tasks, heartbeat=0.2)
        started = time.monotonic()
        done = []
        for event in runner.events():
            assert time.monotonic() - started < CEILING, f"hung after {len(done)} tasks"
            if isinstance(event, Done):
                done.append(event.task)
        assert sorted(done) == sorted(tasks)
        assert len(session.running_on) == 0  # no announcement left over per finished task
    finally:
        session.close()


def test_a_task_submitted_to_a_pool_that_just_broke_is_rerun() -> None:
    """A worker can die between two collects; the next submit then meets a
    broken pool (BrokenProcessPool escaped to the run, 1 CI run in ~10)."""
    import dying_tasks

    from boggle_opt.proofs.executor import Done, Lost, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    session = LocalSession(WorkerSetup(dying_tasks.make, (), "t"), 2)
    try:
        session.submit("die")
        started = time.monotonic()
        while not session.pool._broken:  # no public way to ask
            assert time.monotonic() - started < CEILING, "the pool never broke"
            time.sleep(0.01)
        session.submit("a")  # raised BrokenProcessPool before the fix
        outcomes: list[Done[str, str] | Lost[str]] = []
        while len(outcomes) < 2:
            assert time.monotonic() - started < CEILING, f"only {outcomes}"
            outcomes += session.collect(0.2)
    finally:
        session.close()
    assert sorted((type(o).__name__, o.task) for o in outcomes) == [("Done", "a"), ("Lost", "die")]


def test_a_worker_that_dies_holding_the_announcement_lock_does_not_hang_the_pool() -> None:
    """A worker ended in the middle of saying which task it starts (the broken
    pool's SIGTERM) left the queue's lock held, and every worker of the next
    pool waited for it forever (a CI rehearsal hung in the test above)."""
    import dying_tasks

    from boggle_opt.proofs.executor import MAX_RETRIES, Done, Failed, TaskRunner, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    session = LocalSession(WorkerSetup(dying_tasks.make, (), "t"), 2)
    try:
        runner: TaskRunner[str, str] = TaskRunner(
            session, ["a", "die-holding-the-lock", "b", "c", "d", "e"], heartbeat=0.2
        )
        started = time.monotonic()
        outcomes = []
        for event in runner.events():
            assert time.monotonic() - started < CEILING, f"hung after {outcomes}"
            if event is not None:
                outcomes.append(event)
    finally:
        session.close()
    assert sorted(e.task for e in outcomes if isinstance(e, Done)) == ["a", "b", "c", "d", "e"]
    assert [(e.task, e.attempts) for e in outcomes if isinstance(e, Failed)] == [
        ("die-holding-the-lock", MAX_RETRIES + 1)
    ]


def test_a_worker_started_by_the_last_submit_is_watched() -> None:
    """CPython's pool watches the workers it had when it began waiting; a
    worker that the last submit started could die unnoticed until another
    worker's task ended: minutes for a hard class, for ever if the dead one
    held a lock the others wait for (a CI run hung in the test above)."""
    import dying_tasks

    from boggle_opt.proofs.executor import Lost, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    session = LocalSession(WorkerSetup(dying_tasks.make, (), "t"), 2)
    try:
        session.submit("sleep:600")
        started = time.monotonic()
        while not session.running_on:  # the first worker is in its task
            assert time.monotonic() - started < CEILING, "the first task never started"
            assert session.collect(0.2) == []
        session.submit("die")  # starts the second worker
        outcomes: list[object] = []
        while not outcomes:
            assert time.monotonic() - started < CEILING, "a dead worker went unnoticed"
            outcomes += session.collect(0.2)
    finally:
        session.close()
    assert [(type(o).__name__, getattr(o, "task", None)) for o in outcomes] == [("Lost", "die")]


def test_a_failing_worker_set_up_is_named_in_one_line() -> None:
    """A worker whose set-up raised used to die, and the run stopped after
    11 pool restarts with 'worker processes died ... (try fewer --jobs)',
    which hid the error (every pow2 proof on YAWL)."""
    import dying_tasks

    from boggle_opt.proofs.executor import ExecutorError, TaskRunner, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    session = LocalSession(WorkerSetup(dying_tasks.make_failing, (), "t"), 2)
    try:
        runner: TaskRunner[str, str] = TaskRunner(session, ["a", "b"], heartbeat=0.2)
        with pytest.raises(ExecutorError, match=r"ValueError: word points must be >= 0 and below 2\*\*40"):
            for _ in runner.events():
                pass
        assert session.restarts == 0
    finally:
        session.close()


def test_one_job_shows_its_task_in_flight_before_running_it() -> None:
    """With one job a task runs inside ``collect``, minutes for a big class:
    the session's first collect after a submit returns nothing, so the runner
    hands its caller a moment (None) with the task counted in flight (a
    proof's live panel said '0 tasks' while it ran one)."""
    import dying_tasks

    from boggle_opt.proofs.executor import Done, InlineSession, TaskRunner, WorkerSetup

    runner: TaskRunner[str, str] = TaskRunner(InlineSession(WorkerSetup(dying_tasks.make, (), "t")),
                                              ["a", "b", "c"])
    seen: list[tuple[str | None, int]] = []
    for event in runner.events():
        seen.append((event.task if isinstance(event, Done) else None, runner.in_flight))
    assert [task for task, _ in seen if task is not None] == ["a", "b", "c"]
    assert seen[0] == (None, 2)  # a and b submitted (two a worker), neither run yet
    # such a moment after each round that submitted a task (c's, once a ran)
    assert [task for task, _ in seen] == [None, "a", None, "b", "c"]


def test_the_runner_says_when_its_oldest_task_in_flight_was_submitted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The live panel shows how long the oldest task in flight has run (a
    one-job proof's panel is redrawn during a class, with no new stats):
    the runner keeps each task's submit time until its outcome comes."""
    import dying_tasks

    from boggle_opt.proofs import executor
    from boggle_opt.proofs.executor import Done, InlineSession, TaskRunner, WorkerSetup

    clock = iter(range(100, 200))
    monkeypatch.setattr(executor.time, "time", lambda: float(next(clock)))
    runner: TaskRunner[str, str] = TaskRunner(InlineSession(WorkerSetup(dying_tasks.make, (), "t")),
                                              ["a", "b", "c"])
    assert runner.oldest_since() == 0.0
    seen: list[tuple[str | None, float]] = []
    for event in runner.events():
        seen.append((event.task if isinstance(event, Done) else None, runner.oldest_since()))
    # a and b submitted at 100 and 101; once a is done, b is the oldest; c
    # (submitted at 102, after a) the last; none once all are done
    assert seen == [(None, 100.0), ("a", 101.0), (None, 101.0), ("b", 102.0), ("c", 0.0)]
