"""Word-list sources and the cleaning every list goes through."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import WordListError


@dataclass(frozen=True)
class WordListSource:
    """A named word list; ``load()`` returns its raw lines (not yet cleaned).
    ``status()``, for a list that may be missing, says whether it is found here
    and where to get it (``boggle-opt plugins`` shows it)."""

    name: str
    summary: str
    load: Callable[[], list[str]]
    aliases: tuple[str, ...] = field(default=())
    status: Callable[[], str] | None = None
    #: the language its words are in (a registered language's name)
    language: str = "english"
    #: the system package that installs it (Debian's and Ubuntu's ``wfrench``), if any
    package: str = ""
    #: the encoding its last ``load()`` read the file in (a list given by path)
    encoding: Callable[[], str] | None = None
    #: the file ``load()`` reads here, if it reads one (None: none, or not
    #: found): no command writes an output over it
    file: Callable[[], str | None] | None = None


#: the largest word list read (the research lists are 2-3 MB): a bound on
#: memory, whatever the path names
MAX_BYTES = 256 * 1024 * 1024


def kind_of(mode: int) -> str:
    """What a file that is not a regular file is, for a message."""
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def read_word_bytes(path: str | Path) -> bytes:
    """The bytes of a word-list file, at most ``MAX_BYTES + 1``: opened
    without blocking (a FIFO would wait for a writer for ever, and every
    command that re-reads the list with it), and refused in one line
    (``WordListError``) unless it is a regular file; ``OSError`` as ``open``
    raises it."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise WordListError(f"word list {str(path)!r} is {kind_of(mode)}, not a file: give a regular file")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as f:
            fd = -1  # closed with f
            return f.read(MAX_BYTES + 1)
    finally:
        if fd >= 0:
            os.close(fd)


def read_word_file(path: str | Path) -> list[str]:
    """The lines of a word-list file; a clear WordListError if it can't be
    read, is not a regular file (a FIFO would block, ``/dev/zero`` never
    ends) or passes ``MAX_BYTES``."""
    return read_word_file_as(path)[0]


def read_word_file_as(path: str | Path) -> tuple[list[str], str]:
    """``read_word_file``'s lines, and the encoding they were read in."""
    try:
        data = read_word_bytes(path)
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise WordListError(f"cannot read word list {str(path)!r}: {reason}") from None
    if len(data) > MAX_BYTES:
        raise WordListError(f"word list {str(path)!r} is larger than {MAX_BYTES // 2**20} MB; not a word list")
    text, encoding = decoded(data)
    if "\0" in text:  # no text list holds a NUL: each letter's other byte of UTF-16
        raise WordListError(f"word list {str(path)!r} holds NUL bytes: UTF-16 without a byte-order mark? "
                            "save it as UTF-8")
    return text.splitlines(), encoding


def decode_word_file(data: bytes) -> str:
    """A word list's text (``decoded``)."""
    return decoded(data)[0]


def decoded(data: bytes) -> tuple[str, str]:
    """A word list's text and its encoding: UTF-16 after its byte-order mark
    (Windows editors' "Unicode"), UTF-8 (utf-8-sig: a byte-order mark from a
    Windows editor is not part of the first word), else the legacy 8-bit
    encoding of word lists, Windows-1252 (ISO-8859-1 where a byte is not in
    it), so a French or Swedish list saved the old way keeps its accented
    words. English reads only a-z, so its words come out the same either way."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "Windows-1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "ISO-8859-1"  # every byte is a character here


def playable(word: str) -> bool:
    """Can ``word`` (lower-case) ever be spelled on a board?"""
    if len(word) < 3 or not (word.isascii() and word.isalpha()):
        return False
    # 'q' only exists as the "Qu" cell, so every q must be followed by u.
    return "q" not in word or word.count("q") == word.count("qu")


def clean_words(lines: Iterable[str]) -> list[str]:
    """Distinct playable words, sorted. Tolerates CRLF, upper case, blank lines."""
    words = {w for w in (line.strip().lower() for line in lines) if playable(w)}
    return sorted(words)


def looks_like_path(spec: str) -> bool:
    return os.sep in spec or spec.endswith(".txt") or os.path.exists(spec)


def path_source(path: str) -> WordListSource:
    """Any file, one word a line: the built-in source for ``--wordlist PATH``."""
    read: list[str] = []  # the encoding of the last load

    def load() -> list[str]:
        lines, encoding = read_word_file_as(path)
        read[:] = [encoding]
        return lines

    return WordListSource(path, f"the file {path}", load, encoding=lambda: "".join(read), file=lambda: path)
