"""A cache of built dictionaries on disk, so a command starts without rebuilding its trie.

A file holds one dictionary: the packed trie, its sorted keys and their
points. Its name and its header carry a key made of everything the build
depends on: the word list's content, the scoring rule (name and the
distribution and version that registered it, and a ``--min-letters`` other
than its own), boggle-opt's version and the
source of the modules that clean words and pack the trie. Nothing in a file
is trusted: a wrong magic, key, length or checksum (a foreign, stale,
truncated or corrupt file) means the dictionary is built again and the file
rewritten. Files are written to a temporary name and renamed, so a reader
never sees half a file, and two processes building at once both end with a
whole one.

The folder is the platform's cache folder (``~/.cache/boggle-opt`` on Linux,
per ``platformdirs``), or ``$BOGGLE_OPT_CACHE``; ``--no-cache`` (``cache=False``)
skips it. A rule registered from a local file or module has no version to key
on, so its dictionaries are never cached. The folder is bounded
(``$BOGGLE_OPT_CACHE_MB``, default ``DEFAULT_CACHE_MB``): after a file is
written, the least recently used others are removed until it fits.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import sys
import tempfile
import zlib
from array import array
from collections.abc import Callable, Iterable
from pathlib import Path

from librt.vecs import vec
from mypy_extensions import i64

from ..core.errors import BoggleOptError
from ..core.trie import PackedTrie

ENV_CACHE = "BOGGLE_OPT_CACHE"
#: the cache folder's bound in megabytes (files beyond it are removed, least recently used first)
ENV_CACHE_MB = "BOGGLE_OPT_CACHE_MB"
#: the bound unless ``$BOGGLE_OPT_CACHE_MB`` says otherwise: Polish's one
#: dictionary is about 194 MB, most others 5-40 MB
DEFAULT_CACHE_MB = 512
#: bump when the file layout changes (2: the trie's alphabet and aliases)
FORMAT = 2
MAGIC = b"BOGLDICT"
_HEADER = struct.Struct("<8sI")  # magic, JSON header length
#: modules whose code decides what a build contains (cleaning, keys, packing)
_BUILD_SOURCES = ("wordlist.py", "dictionary.py", "language.py", "core/trie.py", "core/alphabet.py")


def cache_dir() -> Path:
    """Where dictionaries are cached: ``$BOGGLE_OPT_CACHE``, else the platform's cache folder."""
    env = os.environ.get(ENV_CACHE, "").strip()
    if env:
        return Path(env).expanduser()
    import platformdirs  # only when the cache is used

    return Path(platformdirs.user_cache_dir("boggle-opt", appauthor=False))


def _build_fingerprint() -> str:
    """boggle-opt's version and a hash of the build code's source, where it is installed.

    The version alone misses a development tree whose code changed under the same version.
    """
    from .._version import __version__

    digest = hashlib.sha256(f"{__version__} format {FORMAT} {sys.byteorder}".encode())
    package = Path(__file__).resolve().parent
    for name in _BUILD_SOURCES:
        try:
            digest.update((package / name).read_bytes())
        except OSError:
            digest.update(name.encode())  # an install without sources: the version decides
    return digest.hexdigest()


def cache_key(lines: list[str], rule_name: str, rule_release: str, language: str = "",
              min_letters: int | None = None) -> str:
    """The key of a dictionary: hex digest of its inputs and of the code that
    builds it. ``language`` names the language and the release that registered
    it (English, the default, adds nothing: its keys stay as they were);
    ``min_letters`` a minimum word length other than the rule's own
    (``--min-letters``; None: the rule's, which its release keys)."""
    digest = hashlib.sha256()
    digest.update(_build_fingerprint().encode())
    digest.update(f"\0rule {rule_name} from {rule_release}\0".encode())
    if language:
        digest.update(f"language {language}\0".encode())
    if min_letters is not None:
        digest.update(f"min letters {min_letters}\0".encode())
    digest.update("\n".join(lines).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


class Built:
    """A built dictionary's parts: what a cache file holds.

    ``keys`` and ``points`` (only searchers that study the words read them) are
    decoded from a cache file's bytes on first use, which keeps start-up short.
    """

    def __init__(
        self,
        name: str,
        n_words: int,
        keys: list[bytes] | bytes,
        points: list[int] | bytes,
        trie: PackedTrie,
        dropped: dict[str, int] | None = None,
    ) -> None:
        self.name = name
        self.n_words = n_words
        self._keys = keys
        self._points = points
        self.trie = trie
        #: the list's entries that gave no word, by why (``language.census``)
        self.dropped: dict[str, int] = dict(dropped or {})

    @property
    def keys(self) -> list[bytes]:
        if isinstance(self._keys, bytes):
            self._keys = self._keys.split(b"\n") if self._keys else []
        return self._keys

    @property
    def points(self) -> list[int]:
        if isinstance(self._points, bytes):
            self._points = _i64_array(self._points).tolist()
        return self._points


def _i64_bytes(values: Iterable[int]) -> bytes:
    data = array("q", values)
    if sys.byteorder != "little":
        data.byteswap()
    return data.tobytes()


def _i64_array(data: bytes | memoryview) -> array[int]:
    out = array("q")
    out.frombytes(data)
    if sys.byteorder != "little":
        out.byteswap()
    return out


def _i64_view(data: memoryview) -> memoryview | array[int]:
    """The file's int64 values without a copy where the machine is little-endian."""
    return data.cast("q") if sys.byteorder == "little" else _i64_array(data)


def encode(key: str, built: Built) -> bytes:
    """The file's bytes: magic, header length, JSON header, then the arrays."""
    parts = [
        _i64_bytes(built.trie.nodes),
        _i64_bytes(built.trie.points),
        _i64_bytes(built.points),
        b"\n".join(built.keys),  # a key's bytes are tile codes + 97: never a newline
        _i64_bytes(built.trie.aliases),
    ]
    payload = b"".join(parts)
    header = json.dumps(
        {
            "format": FORMAT,
            "key": key,
            "name": built.name,
            "n_words": built.n_words,
            "symbols": built.trie.symbols,
            "spellings": built.trie.spellings,
            "dropped": built.dropped,
            "sizes": [len(p) for p in parts],
            "crc32": zlib.crc32(payload),
        }
    ).encode()
    return _HEADER.pack(MAGIC, len(header)) + header + payload


def decode(data: bytes, key: str) -> Built | None:
    """The dictionary in a file's bytes, or None if they are not a whole file for ``key``."""
    if len(data) < _HEADER.size:
        return None
    magic, header_len = _HEADER.unpack_from(data)
    start = _HEADER.size + header_len
    if magic != MAGIC or start > len(data):
        return None
    try:
        header = json.loads(data[_HEADER.size : start])
        sizes = [int(s) for s in header["sizes"]]
        ok = header["format"] == FORMAT and header["key"] == key and len(sizes) == 5
        name, n_words, crc = str(header["name"]), int(header["n_words"]), int(header["crc32"])
        symbols = str(header["symbols"])
        spellings = [str(s) for s in header["spellings"]]
        dropped = {str(k): int(v) for k, v in dict(header.get("dropped", {})).items()}
    except (ValueError, KeyError, TypeError):
        return None
    if not ok or min(sizes) < 0 or start + sum(sizes) != len(data):
        return None
    payload = memoryview(data)[start:]
    if zlib.crc32(payload) != crc or any(s % 8 for s in (*sizes[:3], sizes[4])):
        return None
    offsets = [0]
    for s in sizes:
        offsets.append(offsets[-1] + s)
    nodes, node_points = (_i64_view(payload[offsets[i] : offsets[i + 1]]) for i in range(2))
    points = payload[offsets[2] : offsets[3]].tobytes()
    blob = payload[offsets[3] : offsets[4]].tobytes()
    aliases = vec[i64](_i64_view(payload[offsets[4] : offsets[5]]))
    # the word count against both arrays: a file cut or padded to the right length still fails
    n_keys = blob.count(b"\n") + 1  # a word spelled in several ways has a key for each
    if len(points) != 8 * n_keys or not 0 < n_words <= n_keys:
        return None
    if len(nodes) != len(node_points) or not nodes:
        return None
    if not 0 < len(symbols) <= 32 or len(aliases) % 2 or len(spellings) != len(symbols):
        return None
    saved: tuple[vec[i64], vec[i64], i64] = (vec[i64](nodes), vec[i64](node_points), n_words)
    trie = PackedTrie([], [], saved, symbols=symbols, aliases=aliases, spellings=spellings)
    return Built(name, n_words, blob, points, trie, dropped)


def _path(folder: Path, key: str) -> Path:
    return folder / f"dictionary-{key[:40]}.bin"


def load(folder: Path, key: str) -> Built | None:
    """The cached dictionary for ``key``, or None if there is no sound file for it."""
    path = _path(folder, key)
    try:
        data = path.read_bytes()
    except OSError:
        return None
    found = decode(data, key)
    if found is not None:
        try:
            os.utime(path)  # used now: eviction removes the least recently used first
        except OSError:
            pass
    return found


def cache_limit() -> int:
    """The cache folder's bound in bytes: ``$BOGGLE_OPT_CACHE_MB`` megabytes,
    else ``DEFAULT_CACHE_MB``; a value that is no whole number >= 0 is an error."""
    text = os.environ.get(ENV_CACHE_MB, "").strip()
    if not text:
        return DEFAULT_CACHE_MB * 2**20
    if not text.isdecimal() or len(text) > 12:
        raise BoggleOptError(f"{ENV_CACHE_MB} must be a whole number of megabytes, got {text[:40]!r}")
    return int(text) * 2**20


def evict(folder: Path, keep: Path, limit: int) -> list[Path]:
    """Remove cache files, least recently used first (a file's time is its
    last write or read), until the folder's files fit in ``limit`` bytes;
    ``keep`` (the file just written) stays. Returns the files removed."""
    files: list[tuple[float, int, Path]] = []
    for path in folder.glob("dictionary-*.bin"):
        try:
            st = path.stat()
        except OSError:
            continue  # removed by another process meanwhile
        files.append((st.st_mtime, st.st_size, path))
    total = sum(size for _, size, _ in files)
    removed: list[Path] = []
    for _, size, path in sorted(files):
        if total <= limit:
            break
        if path == keep:
            continue
        try:
            path.unlink()
        except OSError:
            continue
        total -= size
        removed.append(path)
    return removed


def save(folder: Path, key: str, built: Built) -> bool:
    """Write the file atomically; False (and nothing left behind) if the folder is not writable."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".dictionary-", suffix=".tmp", dir=folder)
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(encode(key, built))
        os.replace(tmp, _path(folder, key))
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


#: told, before a dictionary is built for the cache, what is built (the
#: command line sets it on a terminal: a big list's first build takes a
#: minute, and a person should not wonder whether it hangs)
announce: Callable[[str], None] | None = None


def cached(key: str, build: Callable[[], Built], folder: Path | None = None, what: str = "") -> Built:
    """The dictionary for ``key`` from the cache, else built and saved there
    (``announce`` is told ``what`` first)."""
    folder = cache_dir() if folder is None else folder
    found = load(folder, key)
    if found is not None:
        return found
    limit = cache_limit()  # a bad bound is said before the build
    if announce is not None and what:
        announce(f"building the dictionary of {what} (the first time; the cache keeps it)")
    built = build()
    if save(folder, key, built):
        evict(folder, _path(folder, key), limit)
    return built

