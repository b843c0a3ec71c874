"""Giving the memory of part of a buffer back to the system while the buffer
is kept. Compiled with mypyc.

A worker solves class after class in one arena. Memory the system gives a
process for the first time is zeroed by the kernel as it is first touched
(on the development VM about 1-2 s a GB: 5% of a middling 4x4 class in
``perf``), so an arena kept for the next class saves that; but kept whole,
a big class's arena would sit beside the next build's keys. So the arena is
kept with only its first part resident (``release_from``).
"""

from __future__ import annotations

import ctypes
import importlib
import mmap
import sys
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i32, i64

# whole huge pages (2 MB) are given back, so the rest stay huge
PAGE: Final[i64] = 1 << 21

_madvise: list[Any] = []
_trim: list[Any] = []


def release_from(v: vec[i32], start: i64) -> bool:
    """Give back the whole pages of ``v`` from word ``start`` to its end;
    they read as zeros when next read (``MADV_DONTNEED`` on private
    anonymous memory, Linux) and are resident again only once written.
    False where that is not available (the caller then frees the buffer,
    if it is big)."""
    if len(v) <= start:
        return _available()
    items: Any = v
    return _release(items, "int32", 4 * start, 4 * len(v))


def release_range64(v: vec[i64], start: i64, end: i64) -> bool:
    """Give back the whole pages of ``v[start:end]`` (as ``release_from``):
    a sorted build's keys once the tree holds them."""
    if end <= start:
        return _available()
    items: Any = v
    return _release(items, "int64", 8 * start, 8 * end)


def trim_heap() -> bool:
    """Give back the free memory malloc holds (glibc's ``malloc_trim``);
    False where there is none to call."""
    if not _trim:
        try:
            fn: Any = ctypes.CDLL(None).malloc_trim
        except (OSError, AttributeError):
            return False
        fn.argtypes = [ctypes.c_size_t]
        fn.restype = ctypes.c_int
        _trim.append(fn)
    return int(_trim[0](0)) == 1


def _available() -> bool:
    if not sys.platform.startswith("linux") or not hasattr(mmap, "MADV_DONTNEED"):
        return False
    if not _madvise:
        try:
            fn: Any = ctypes.CDLL(None, use_errno=True).madvise
        except (OSError, AttributeError):
            return False
        fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        fn.restype = ctypes.c_int
        _madvise.append(fn)
    return True


def _release(items: Any, dtype: str, first: i64, last: i64) -> bool:
    """``madvise`` the whole pages between bytes ``first`` and ``last`` of
    the buffer ``items``."""
    if not _available():
        return False
    # the buffer's address: vec exports its items read-only
    # (numpy is imported at run time: the compile's environment has none)
    np: Any = importlib.import_module("numpy")
    at: i64 = int(np.frombuffer(items, dtype=dtype).__array_interface__["data"][0])
    lo = (at + first + PAGE - 1) & -PAGE
    hi = (at + last) & -PAGE
    if hi > lo:
        return int(_madvise[0](lo, hi - lo, mmap.MADV_DONTNEED)) == 0
    return True
