"""The arena's room: reserved, not resident, until the tree grows into it."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import types
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads VmRSS from /proc (Linux)")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_reserved_room_is_not_resident(core: types.SimpleNamespace) -> None:
    words = 1 << 26  # 256 MB
    before = rss_mb()
    v = core.tree.reserved32(words)
    assert len(v) == 0
    assert rss_mb() - before < 32, "reserving the room touched it"
    v = core.tree.grown32(v, 1 << 24, 1 << 24)  # 64 MB of it, written as zeros
    assert len(v) == 1 << 24
    assert v[(1 << 24) - 1] == 0
    grown = rss_mb() - before
    assert 48 < grown < 112, f"growing into 64 MB of room took {grown:.0f} MB"


def test_arena_reserves_twice_the_estimate_or_what_it_can() -> None:
    # Under an address-space limit that leaves room for 1.2 GB but not for
    # 2.4 GB, the arena takes the estimate alone instead of failing.
    script = textwrap.dedent(
        """
        import resource
        from boggle_opt.core.tree import Tree
        from librt.vecs import vec
        from mypy_extensions import i32
        t = Tree(vec[i32](), 0, 0, 16, 0)
        t.reserve_arena(1 << 20)
        assert t.cap == 2 << 20, t.cap
        used = int(open("/proc/self/status").read().split("VmSize:")[1].split()[0]) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (used + (1800 << 20), resource.RLIM_INFINITY))
        words = 300 << 20  # 1.2 GB of 4-byte words
        t.reserve_arena(words)
        assert t.cap == words, t.cap
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_released_pages_read_as_zeros_and_leave_memory(core: types.SimpleNamespace) -> None:
    v = core.tree.reserved32(1 << 26)
    v = core.tree.grown32(v, 1 << 26, 1 << 26)  # 256 MB, all written
    v[5] = 7
    v[(1 << 25) + 3] = 9
    before = rss_mb()
    assert core.pages.release_from(v, 1 << 22)  # keep the first 16 MB
    assert before - rss_mb() > 200, "the pages were not given back"
    assert len(v) == 1 << 26
    assert v[5] == 7  # the kept part is untouched
    assert v[(1 << 25) + 3] == 0  # a given-back page reads as zeros
    v[(1 << 25) + 3] = 11  # and can be written again
    assert v[(1 << 25) + 3] == 11
    assert core.pages.release_from(v, 1 << 26)  # nothing past the end: nothing to do


def test_a_range_of_keys_is_given_back(core: types.SimpleNamespace) -> None:
    v = core.path_keys.zeros64(1 << 25)  # 256 MB, all written
    v[5] = 7
    v[(1 << 24) + 3] = 9
    v[(1 << 25) - 1] = 4
    before = rss_mb()
    assert core.pages.release_range64(v, 1 << 20, (1 << 25) - (1 << 20))  # all but 8 MB at each end
    assert before - rss_mb() > 200, "the pages were not given back"
    assert len(v) == 1 << 25
    assert (v[5], v[(1 << 25) - 1]) == (7, 4)  # outside the range: untouched
    assert v[(1 << 24) + 3] == 0  # a given-back page reads as zeros
    v[(1 << 24) + 3] = 11
    assert v[(1 << 24) + 3] == 11
    assert core.pages.release_range64(v, 9, 9)  # an empty range: nothing to do


def test_a_kept_arena_is_taken_only_with_twice_the_estimate(core: types.SimpleNamespace) -> None:
    # A kept arena with room for the estimate but not twice it would be
    # copied once the forcing outgrew it (both copies resident): fit()
    # reserves anew then, and keeps an arena with the room a new one gets.
    t = core.tree.Tree(core.tree.reserved32(0), 0, 0, 16, 0)
    t.reserve_arena(1 << 20)
    kept = t.cap
    t.fit(1 << 20)
    assert t.cap == kept  # twice the estimate: kept
    t.fit(1 << 19)
    assert t.cap == kept  # more than twice: kept
    t.fit((1 << 20) + 1)
    assert t.cap == 2 * ((1 << 20) + 1)  # room for the estimate, not twice: a new one


def test_zeros_of_any_length(core: types.SimpleNamespace) -> None:
    """``zeros64`` fills from a small block: every length around its size."""
    block = core.path_keys.ZERO_BLOCK
    for count in (0, 1, block - 1, block, block + 1, 3 * block + 5):
        v = core.path_keys.zeros64(count)
        assert len(v) == count
        assert all(x == 0 for x in v)
    grown = core.tree.grown32(core.tree.reserved32(3 * block), block + 7, 3 * block + 2)
    assert len(grown) == 3 * block + 2 and not any(grown)
    assert len(core.tree.fresh32(0)) == 0  # nothing to add: no endless loop (as grown64)
    assert len(core.path_keys.grown64(core.path_keys.zeros64(5), 5)) == 5


def test_a_buffers_address_is_its_first_item(core: types.SimpleNamespace) -> None:
    np = pytest.importorskip("numpy")
    from boggle_opt.core import pages as installed_pages

    for v, dtype in ((core.tree.grown32(core.tree.reserved32(4096), 1000, 1000), np.int32),
                     (core.path_keys.zeros64(3000), np.int64)):
        want = np.frombuffer(v, dtype=dtype).__array_interface__["data"][0]
        assert core.pages._buffer_address(v) == want
        # the installed build still works after the pure one (they share ctypes.pythonapi)
        assert installed_pages._buffer_address(v) == want


def test_a_worker_giving_pages_back_imports_no_numpy() -> None:
    """numpy is 11 MB of a worker's base: a proof's worker does not import it."""
    code = textwrap.dedent("""
        import sys
        from boggle_opt.proofs.class_tasks import ClassContext
        from boggle_opt.core import pages, path_keys
        assert pages.release_range64(path_keys.zeros64(1 << 20), 0, 1 << 20)
        print("numpy" in sys.modules)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
