"""Worker processes get transparent huge pages through glibc's malloc tunable
(boggle_opt/huge_pages.py): forcing a tree reads nodes scattered over
hundreds of megabytes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from boggle_opt.huge_pages import OPT_OUT, SETTING, TUNABLES, with_huge_pages

linux = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's tunable: Linux only")


@linux
def test_the_setting_is_added_to_an_empty_environment() -> None:
    env: dict[str, str] = {}
    assert with_huge_pages(env)
    assert env == {TUNABLES: f"{SETTING}=1"}


@linux
def test_other_tunables_are_kept() -> None:
    env = {TUNABLES: "glibc.malloc.arena_max=2"}
    assert with_huge_pages(env)
    assert env[TUNABLES] == f"glibc.malloc.arena_max=2:{SETTING}=1"


@linux
def test_a_users_own_value_stands() -> None:
    env = {TUNABLES: f"{SETTING}=0:glibc.malloc.arena_max=2"}
    assert not with_huge_pages(env)  # kept, and said to be off
    assert env[TUNABLES] == f"{SETTING}=0:glibc.malloc.arena_max=2"
    env = {TUNABLES: f"glibc.malloc.arena_max=2:{SETTING}=2"}
    assert with_huge_pages(env)
    assert env[TUNABLES] == f"glibc.malloc.arena_max=2:{SETTING}=2"


def test_opting_out_leaves_the_environment_alone() -> None:
    env = {OPT_OUT: "0", TUNABLES: "glibc.malloc.arena_max=2"}
    assert not with_huge_pages(env)
    assert env == {OPT_OUT: "0", TUNABLES: "glibc.malloc.arena_max=2"}


def _thp_mode() -> str:
    try:
        text = Path("/sys/kernel/mm/transparent_hugepage/enabled").read_text(encoding="ascii")
    except OSError:
        return "none"
    return text.split("[", 1)[1].split("]", 1)[0] if "[" in text else "none"


@linux
def test_local_workers_get_huge_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's workers start with the tunable and their big blocks really
    land on huge pages."""
    import dying_tasks

    from boggle_opt.proofs.executor import Done, TaskRunner, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    monkeypatch.delenv(TUNABLES, raising=False)  # put back as it was afterwards
    monkeypatch.delenv(OPT_OUT, raising=False)
    session = LocalSession(WorkerSetup(dying_tasks.make, (), "t"), 1)
    try:
        runner: TaskRunner[str, str] = TaskRunner(session, [f"env:{TUNABLES}", "huge"], heartbeat=0.2)
        got = {event.task: event.result for event in runner.events() if isinstance(event, Done)}
    finally:
        session.close()
    assert got[f"env:{TUNABLES}"] == f"{SETTING}=1"
    if _thp_mode() in ("always", "madvise"):
        assert int(got["huge"]) >= 32 << 10, "a worker's 64 MB block is not on huge pages"


@linux
@pytest.mark.parametrize("cells, huge", [(12, False), (16, True)])
def test_a_worker_keeps_huge_pages_only_for_big_classes(
    monkeypatch: pytest.MonkeyPatch, cells: int, huge: bool
) -> None:
    """A worker for classes under MIN_CELLS cells turns its huge pages off
    (fresh huge pages cost the big 3x4 builds more than they gave)."""
    import dying_tasks

    from boggle_opt.huge_pages import MIN_CELLS
    from boggle_opt.proofs.executor import Done, TaskRunner, WorkerSetup
    from boggle_opt.proofs.local import LocalSession

    assert (cells >= MIN_CELLS) == huge
    if _thp_mode() not in ("always", "madvise"):
        pytest.skip("this kernel has no transparent huge pages to give")
    monkeypatch.delenv(TUNABLES, raising=False)
    monkeypatch.delenv(OPT_OUT, raising=False)
    session = LocalSession(WorkerSetup(dying_tasks.make, (), "t"), 1)
    try:
        runner: TaskRunner[str, str] = TaskRunner(session, [f"huge:{cells}"], heartbeat=0.2)
        got = [event.result for event in runner.events() if isinstance(event, Done)]
    finally:
        session.close()
    kb = int(got[0])
    if huge:
        assert kb >= 32 << 10, "a worker for big classes lost its huge pages"
    else:
        # (what the worker held on huge pages before it settled stays there)
        assert kb < 32 << 10, f"a worker for {cells}-cell classes put its 64 MB block on huge pages ({kb} kB)"


@linux
def test_a_process_that_set_the_tunable_for_its_workers_leaves_itself_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The main process of a run sets the tunable for its workers; settling
    in it (an inline 3x4 run) must not turn huge pages off there, or every
    worker it starts later (a 4x4 run) would inherit that."""
    import ctypes

    from boggle_opt import huge_pages

    if huge_pages._STARTED_WITH:
        pytest.skip("this test process itself started with the tunable")
    monkeypatch.delenv(TUNABLES, raising=False)
    monkeypatch.delenv(OPT_OUT, raising=False)
    assert huge_pages.for_child_processes()
    assert not huge_pages.settle_for(12)
    assert not huge_pages.settle_for(16)
    pr_get_thp_disable = 42
    assert ctypes.CDLL(None).prctl(pr_get_thp_disable, 0, 0, 0, 0) == 0
