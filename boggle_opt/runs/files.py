"""The files a command may read and write: regular files only, and no output
over a run file or over a file the same command reads or writes.

A FIFO blocks ``open()`` until someone opens its other end, and a device such
as ``/dev/zero`` never ends, so run files and outputs are regular files, said
in one line before anything opens them (``refuse_irregular``) and checked
again on the open descriptor (``open_regular``), which never blocks. A run is
hours of work: ``check_paths`` refuses, before any work, an output that is
the same file (by identity: symlinks and hard links count) as the run file or
an input of the same command, or that is a run file already; ``write_output``
checks again when it writes, into a temporary file renamed into place.
"""

from __future__ import annotations

import errno
import gzip
import json
import os
import secrets
import stat
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoggleOptError
from ..dictionary.wordlist import kind_of
from ..registry.registries import Registries

#: bytes of a file read to tell whether it is a run file (its first line is a start record)
RUN_FILE_PREFIX = 1 << 20


class FileRefused(BoggleOptError):
    """A path a command may not read or write: not a regular file, or an output
    over a run file or over the command's own input (a bad argument)."""


def _not_regular(what: str, path: str, mode: int) -> FileRefused:
    return FileRefused(f"{what} {path!r} is {kind_of(mode)}, not a regular file")


def refuse_irregular(path: str, what: str) -> None:
    """Refuse ``path`` (``what``: "run file", "--report", ...) if it exists and,
    links followed, is not a regular file; a missing or unreadable one is left
    to the open that follows, which says why."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(mode):
        raise _not_regular(what, path, mode)


def open_regular(path: str, flags: int, what: str, mode: int = 0o666) -> int:
    """``os.open(path, flags)`` that never blocks (a FIFO would wait for a
    writer or a reader) and refuses anything but a regular file; ``OSError``
    as ``os.open`` raises it."""
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC, mode)
    try:
        st_mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(st_mode):
            raise _not_regular(what, path, st_mode)
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def first_record(path: str) -> dict[str, Any] | None:
    """The first line of ``path`` as a JSON object, read from a bounded prefix
    (gzip-compressed too, as ``verify`` reads run files); None if it is not
    one, or the file cannot be read."""
    try:
        fd = open_regular(path, os.O_RDONLY, "file")
    except (OSError, ValueError, FileRefused):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            head = f.read(RUN_FILE_PREFIX)
            if head.startswith(b"\x1f\x8b"):
                f.seek(0)
                with gzip.GzipFile(fileobj=f) as unpacked:
                    head = unpacked.read(RUN_FILE_PREFIX)
    except (OSError, EOFError, zlib.error):
        return None
    first = head.lstrip().split(b"\n", 1)[0]
    try:
        record = json.loads(first.decode("utf-8"))
    except (ValueError, RecursionError):
        # a first line longer than the prefix: a start record begins so
        compact = b"".join(first[:200].split())
        return {"type": "start"} if compact.startswith(b'{"type":"start"') else None
    return record if isinstance(record, dict) else None


def is_run_file(path: str) -> bool:
    """Whether ``path`` is a regular file whose first line is a start record,
    read from a bounded prefix (a run file is never read whole to tell);
    gzip-compressed too, as ``verify`` reads them."""
    record = first_record(path)
    return record is not None and record.get("type") == "start"


def recorded_wordlist(path: str) -> str | None:
    """The word list run file ``path`` was written with, as its start record
    names it (a registered name or a path); None if it names none."""
    record = first_record(path)
    settings = record.get("settings") if record is not None else None
    name = settings.get("wordlist") if isinstance(settings, dict) else None
    return name if isinstance(name, str) and name else None


def wordlist_files(spec: str, registries: Registries | None, beside: str | None = None) -> list[str]:
    """The files the word list ``spec`` may be read from: the file its name
    stands for here (``registries``: by ``$BOGGLE_OPT_WORDLISTS``,
    ``$BOGGLE_OPT_DICT_DIR``, a plugin's own), or the path itself; a relative
    path also from the folder of ``beside`` (the run file that records it: a
    run reported from another folder read it there). Inputs, never to be
    written over."""
    from ..registry.dictionaries import wordlist_file  # when asked: it brings the dictionary's modules

    found: list[str] = []
    if registries is not None:
        named = wordlist_file(spec, registries)
        if named is not None:
            found.append(named)
    elif os.path.exists(spec):
        found.append(spec)
    if beside is not None and not os.path.isabs(spec):
        found.append(os.path.join(os.path.dirname(beside), spec))
    return [f for f in found if os.path.exists(f)]


@dataclass(frozen=True)
class PathArg:
    """One path a command was given: ``name`` as the user wrote it (``--out``,
    ``RUNFILE``), whether the command writes it, and whether it is a run file."""

    name: str
    path: str
    written: bool = False
    run_file: bool = False
    #: an output made new, never over anything already there (``merge --out``)
    new: bool = False

    def __str__(self) -> str:
        return f"{self.name} {self.path!r}"


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: by device and inode when both exist
    (symlinks and hard links count), by resolved path when one is yet to be made."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        pass
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False


def check_paths(args: Sequence[PathArg]) -> None:
    """Refuse, in one line and before any work: a run file or an output that
    exists and is not a regular file, an output that is already a run file,
    and two paths of which one is written that name the same file."""
    for arg in args:
        if arg.written and not arg.run_file:  # a run file's own writer says why it cannot be written
            check_output(arg)
        elif arg.written:
            refuse_dangling(arg.path, str(arg))
        if arg.written or arg.run_file:
            refuse_irregular(arg.path, arg.name)
    for i, first in enumerate(args):
        for second in args[i + 1:]:
            if (first.written or second.written) and same_file(first.path, second.path):
                # named by the one that writes over the other (the output, if one is)
                writer, other = (second, first) if second.written and not second.run_file else (first, second)
                if not writer.written:
                    writer, other = other, writer
                raise FileRefused(f"{writer} is the same file as {other}, which it would overwrite: "
                                  "write to another file")
    for arg in args:
        if arg.written and not arg.run_file and is_run_file(arg.path):
            raise FileRefused(f"{arg} is a run file, which it would overwrite: write to another file")
    for arg in args:
        if arg.new and os.path.lexists(arg.path):
            what = "a symlink" if os.path.islink(arg.path) else "there"
            raise FileRefused(f"{arg} is {what} already; {arg.name} makes a new file: choose another name")


def check_output(arg: PathArg) -> None:
    """An output that could not be written is said before any work: an empty
    name, a folder that is not there, a symlink to nothing (``check_paths``
    refuses a ``new`` one that is there already)."""
    if not arg.path:
        raise FileRefused(f"{arg.name} is an empty name: name the file to write")
    refuse_dangling(arg.path, str(arg))
    folder = os.path.dirname(os.path.realpath(arg.path)) or "."
    if not os.path.isdir(folder):
        raise FileRefused(f"{arg}: cannot write it: its folder {folder!r} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise FileRefused(f"{arg}: cannot write it: its folder {folder!r} cannot be written to")


def refuse_dangling(path: str, what: str) -> None:
    """Refuse a symlink to nothing as a file to write (``what``: ``--out 'x'``,
    ...): writing through it would create its target, somewhere else than
    the name given. Every output and run file is checked so."""
    if os.path.islink(path) and not os.path.exists(path):
        try:
            target = os.readlink(path)
        except OSError:
            target = "?"
        raise FileRefused(f"{what} is a symlink to nothing ({target!r}): remove it or write to another file")


def write_output(path: str, text: str, what: str) -> bool:
    """Write an output (``what``: "--report", ...): never onto a run file or
    anything but a regular file, and whole or not at all (a temporary file
    beside it, renamed into place; a symlink's target is the one replaced).
    A report or a picture can be made again from what it shows, so an earlier
    one is replaced: returns whether a file was there (the command says so)."""
    check_paths([PathArg(what, path, written=True)])
    target = os.path.realpath(path)
    replaced = os.path.exists(target)
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        # O_EXCL: the temporary name is ours alone; the umask applies as to any new file
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            if os.path.exists(target):  # an existing output keeps its permissions
                os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
            os.replace(temporary, target)
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise
    except OSError as exc:
        raise BoggleOptError(f"cannot write {what} {path!r}: {exc.strerror or exc}") from None
    return replaced


def write_new(path: str, lines: Iterable[str]) -> None:
    """Write ``lines`` to a new file ``path``, never over anything there: into
    a temporary file beside it, linked into place at the end (a link, unlike a
    rename, fails if the name was taken meanwhile), so a full disk or a file
    size limit leaves nothing half-written, and a retry is not refused.
    gzip-compressed if ``path`` ends in ``.gz``."""
    check_paths([PathArg("--out", path, written=True, new=True)])
    folder, name = os.path.split(os.path.abspath(path))
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        try:
            with os.fdopen(fd, "wb") as raw:
                packed = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if path.endswith(".gz") else None
                sink: Any = packed if packed is not None else raw
                for line in lines:
                    sink.write(line.encode("utf-8"))
                if packed is not None:
                    packed.close()  # its trailer; the file under it stays open
                raw.flush()
                os.fsync(raw.fileno())
            try:
                os.link(temporary, path)
            except FileExistsError:
                raise BoggleOptError(f"--out {path!r} exists; merge writes a new file: choose another name") from None
            except OSError as exc:
                if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
                    raise
                # a filesystem without hard links: a rename, after one more look
                if os.path.lexists(path):
                    raise BoggleOptError(f"--out {path!r} exists; merge writes a new file: choose another name") from None
                os.rename(temporary, path)
        finally:
            try:
                os.unlink(temporary)
            except OSError:
                pass
    except OSError as exc:
        raise BoggleOptError(f"cannot write --out {path!r}: {exc.strerror or exc}; nothing was written") from None
