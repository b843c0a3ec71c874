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
import mmap
import sys
from typing import Any, Final

from librt.vecs import vec
from mypy_extensions import i32, i64

# whole huge pages (2 MB) are given back, so the rest stay huge
PAGE: Final[i64] = 1 << 21

_madvise: list[Any] = []
_trim: list[Any] = []
_address: list[Any] = []


def release_from(v: vec[i32], start: i64) -> bool:
    """Give back the whole pages of ``v`` from word ``start`` to its end;
    they read as zeros when next read (``MADV_DONTNEED`` on private
    anonymous memory, Linux) and are resident again only once written.
    False where that is not available (the caller then frees the buffer,
    if it is big)."""
    if len(v) <= start:
        return _available()
    items: Any = v
    return _release(items, 4 * start, 4 * len(v))


def release_range64(v: vec[i64], start: i64, end: i64) -> bool:
    """Give back the whole pages of ``v[start:end]`` (as ``release_from``):
    a sorted build's keys once the tree holds them."""
    if end <= start:
        return _available()
    items: Any = v
    return _release(items, 8 * start, 8 * end)


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


def _release(items: Any, first: i64, last: i64) -> bool:
    """``madvise`` the whole pages between bytes ``first`` and ``last`` of
    the buffer ``items``."""
    if not _available():
        return False
    at = _buffer_address(items)
    lo = (at + first + PAGE - 1) & -PAGE
    hi = (at + last) & -PAGE
    if hi > lo:
        return int(_madvise[0](lo, hi - lo, mmap.MADV_DONTNEED)) == 0
    return True


def _buffer_address(items: Any) -> i64:
    """The address of the items of a buffer-protocol object. A vec exports
    its items read-only, which ctypes' ``from_buffer`` refuses, so the
    buffer is asked for through the C API (numpy's ``frombuffer`` did this,
    but importing numpy for it cost each proof worker 11 MB)."""
    if not _address:

        # Py_buffer, as the C API lays it out (made with type(): mypyc
        # compiles no nested class, nor a native one from a ctypes base)
        fields = [
            ("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p), ("len", ctypes.c_ssize_t),
            ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
            ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
            ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p),
        ]
        PyBuffer: Any = type("PyBuffer", (ctypes.Structure,), {"_fields_": fields})

        # functions of their own: ``ctypes.pythonapi``'s attributes are
        # shared by the whole process (a second copy of this module, the
        # pure build beside the compiled one, would reset their argtypes)
        get: Any = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_void_p, ctypes.c_int)(
            ("PyObject_GetBuffer", ctypes.pythonapi))
        release: Any = ctypes.PYFUNCTYPE(None, ctypes.c_void_p)(("PyBuffer_Release", ctypes.pythonapi))
        _address.extend([PyBuffer, get, release])
    view: Any = _address[0]()
    if int(_address[1](items, ctypes.addressof(view), 0)) != 0:  # PyBUF_SIMPLE
        raise BufferError("no buffer to give pages back from")
    try:
        return int(view.buf or 0)
    finally:
        _address[2](ctypes.addressof(view))
