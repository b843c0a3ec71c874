"""Word lists of other languages from the system: Debian's and Ubuntu's
``w*`` packages put them in ``/usr/share/dict`` (``BOGGLE_OPT_DICT_DIR``
names another folder). ``--wordlist french`` reads ``/usr/share/dict/french``
in French; a list that is not installed is a one-line error naming the
package to install.

Each file is read in its own encoding: UTF-8 where it decodes as UTF-8 (most
lists), else the legacy encoding its package is known to use (``wswedish``
is ISO-8859-1); a file that is neither is an error, never read with its
letters replaced.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from boggle_opt import hookimpl
from boggle_opt import WordListError
from boggle_opt.dictionary.wordlist import MAX_BYTES, WordListSource, read_word_bytes

ENV = "BOGGLE_OPT_DICT_DIR"
FOLDER = "/usr/share/dict"


@dataclass(frozen=True)
class SystemList:
    """A list as a package installs it: its file in the folder, the package,
    the language its words are in, and the encoding to fall back on."""

    name: str
    package: str
    language: str
    summary: str
    legacy: str = ""
    aliases: tuple[str, ...] = ()


LISTS = (
    SystemList("french", "wfrench", "french", "French (wfrench, about 346,000 entries)"),
    SystemList("ngerman", "wngerman", "german", "German, new spelling (wngerman, about 356,000 entries)",
               aliases=("german",)),
    SystemList("spanish", "wspanish", "spanish", "Spanish (wspanish, about 86,000 entries)"),
    SystemList("italian", "witalian", "italian", "Italian (witalian, about 117,000 entries)"),
    SystemList("dutch", "wdutch", "dutch", "Dutch (wdutch, about 413,000 entries)",
               aliases=("nederlands",)),
    SystemList("portuguese", "wportuguese", "portuguese",
               "European Portuguese (wportuguese, about 431,000 entries)"),
    SystemList("brazilian", "wbrazilian", "portuguese",
               "Brazilian Portuguese (wbrazilian, about 276,000 entries)"),
    SystemList("swedish", "wswedish", "swedish", "Swedish (wswedish, about 121,000 entries)",
               legacy="iso-8859-1", aliases=("svenska",)),
    SystemList("polish", "wpolish", "polish", "Polish (wpolish, about 4.3 million entries)"),
    SystemList("american-english", "wamerican", "english",
               "American English (wamerican, about 104,000 entries)"),
    SystemList("british-english", "wbritish", "english",
               "British English (wbritish, about 103,000 entries)"),
)


def folder() -> Path:
    return Path(os.environ.get(ENV, "").strip() or FOLDER)


def path_of(entry: SystemList) -> Path:
    return folder() / entry.name


def how_to_get(entry: SystemList) -> str:
    return f"install it with `apt-get install {entry.package}`"


def status(entry: SystemList) -> str:
    """Whether the list is installed here, and which package gives it if not."""
    path = path_of(entry)
    return f"found: {path}" if path.is_file() else f"not installed ({path}); {how_to_get(entry)}"


def decode(data: bytes, entry: SystemList, path: Path) -> str:
    """The file's text: UTF-8 if it is UTF-8, else its package's legacy
    encoding; an error if it is neither."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if not entry.legacy:
            line = data.count(b"\n", 0, exc.start) + 1
            raise WordListError(
                f"word list {str(path)!r} is not UTF-8 (line {line}) and {entry.package} is "
                "not known to use another encoding") from None
        # every byte string decodes as ISO-8859-1: the package's known encoding
        return data.decode(entry.legacy)


def read(entry: SystemList) -> list[str]:
    """The list's lines, in its own encoding."""
    path = path_of(entry)
    try:
        data = read_word_bytes(path)  # never blocks: a FIFO is refused in one line
    except FileNotFoundError:
        raise WordListError(
            f"word list {entry.name!r} is not installed ({path} not found); {how_to_get(entry)}"
        ) from None
    except OSError as exc:
        raise WordListError(f"cannot read word list {str(path)!r}: {exc.strerror or type(exc).__name__}") from None
    if len(data) > MAX_BYTES:
        raise WordListError(f"word list {str(path)!r} is larger than {MAX_BYTES // 2**20} MB; not a word list")
    return decode(data, entry, path).splitlines()


def source(entry: SystemList) -> WordListSource:
    return WordListSource(entry.name, entry.summary, lambda: read(entry), entry.aliases,
                          status=lambda: status(entry), language=entry.language, package=entry.package,
                          file=lambda: str(path_of(entry)))


@hookimpl
def register_wordlists(register: Callable[[WordListSource], None]) -> None:
    for entry in LISTS:
        register(source(entry))
