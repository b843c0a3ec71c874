"""Huge pages for worker processes: a glibc malloc setting in their environment.

Forcing a branch and bound tree reads nodes scattered over hundreds of
megabytes, so with 4 KB pages most reads also miss the TLB. glibc's tunable
``glibc.malloc.hugetlb=1`` makes malloc ask the kernel for transparent huge
pages (2 MB) on its big blocks, the tree's arena among them: measured on 4x4
classes, forcing about 6% faster, peak memory about 1% higher
(docs/benchmarks.md). glibc reads tunables only when a process starts, so a
run sets it for the worker processes it spawns, not for itself. Elsewhere
(musl, macOS, a kernel without transparent huge pages) the variable is ignored.

Smaller boards do without them: a worker for classes of fewer than
``MIN_CELLS`` cells turns them off for itself (``settle_for``). Their trees
are small enough for the TLB to matter less, and on the development VM the
kernel zeroes a fresh huge page slowly, which the big 3x4 classes, whose
keys and arena are fresh memory, paid for: 3x4 class 11 alone, median of
8, 1.415 -> 1.235 s; the 3x4 anchor sample 12.6 -> 12.4 s (docs/benchmarks.md).

``BOGGLE_OPT_HUGE_PAGES=0`` leaves the environment alone; a
``GLIBC_TUNABLES`` that already names the setting is kept as it is.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import MutableMapping

TUNABLES = "GLIBC_TUNABLES"
SETTING = "glibc.malloc.hugetlb"
OPT_OUT = "BOGGLE_OPT_HUGE_PAGES"
#: the fewest cells of a class whose worker keeps its huge pages
MIN_CELLS = 16
#: prctl(2)'s option that turns transparent huge pages off for the process
PR_SET_THP_DISABLE = 41


def with_huge_pages(env: MutableMapping[str, str]) -> bool:
    """Add the huge-page setting to ``env``'s glibc tunables; whether they
    ask for huge pages now (False on other systems, when opted out, or when
    the user's own value is 0)."""
    if not sys.platform.startswith("linux") or env.get(OPT_OUT, "1") == "0":
        return False
    tunables = env.get(TUNABLES, "")
    if not any(item.split("=", 1)[0] == SETTING for item in tunables.split(":")):
        env[TUNABLES] = f"{tunables}:{SETTING}=1" if tunables else f"{SETTING}=1"
    return requested(env)  # a user's own value stands


def requested(env: MutableMapping[str, str]) -> bool:
    """Whether ``env``'s glibc tunables ask for huge pages (a value other than 0)."""
    for item in env.get(TUNABLES, "").split(":"):
        name, _, value = item.partition("=")
        if name == SETTING:
            return value.strip() not in ("", "0")
    return False


#: whether this process started with the tunable (glibc read it then); a
#: setting ``for_child_processes`` adds later is its workers' alone
_STARTED_WITH = requested(os.environ)


def for_child_processes() -> bool:
    """Huge pages for every process this one starts from now on (spawned
    workers inherit ``os.environ``); whether they get them."""
    return with_huge_pages(os.environ)


def settle_for(cells: int) -> bool:
    """In a process started with huge pages, turn them off for its memory
    from now on if its classes have fewer than ``MIN_CELLS`` cells (the
    tunable only asks; ``prctl`` overrides it); whether it has them now.
    A process that only set the tunable for its workers has none to turn
    off, and leaves itself alone: its workers would inherit the prctl."""
    if not _STARTED_WITH:
        return False
    if cells >= MIN_CELLS:
        return True
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return True
    prctl.restype = ctypes.c_int
    off = ctypes.c_ulong(0)
    return int(prctl(PR_SET_THP_DISABLE, ctypes.c_ulong(1), off, off, off)) != 0
