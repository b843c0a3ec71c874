"""Typed name -> item registries filled by plugins; names and aliases are unique."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from ..core.errors import PluginError
from ..constraints.dice import DiceSet
from ..searching.options import did_you_mean
from ..dictionary.language import Language
from ..dictionary.rules import ScoringRule
from ..dictionary.wordlist import WordListSource

if TYPE_CHECKING:
    from ..proofs.executor import Executor
    from ..searching.interface import Searcher

T = TypeVar("T")


@dataclass(frozen=True)
class Origin:
    """Where a registered item came from."""

    plugin: str
    distribution: str
    version: str

    @property
    def release(self) -> str:
        """The distribution and its version ("boggle-opt 0.1.0", or "local file")."""
        return f"{self.distribution} {self.version}".strip()

    def __str__(self) -> str:
        return f"plugin {self.plugin!r} ({self.release})"


def failure(exc: BaseException) -> str:
    """What a plugin's exception says, in one line of at most 200 characters
    (``SystemExit`` as the call that raised it)."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    text = " ".join(str(exc).split())
    text = text if len(text) <= 200 else text[:197] + "..."
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


@dataclass(frozen=True)
class Entry(Generic[T]):
    name: str
    aliases: tuple[str, ...]
    summary: str
    item: T
    origin: Origin


def _folded(name: str) -> str:
    """A name as a lookup compares it: case folded, accents dropped (NFD
    splits a letter from its accents: ``español`` is ``espanol``)."""
    return "".join(c for c in unicodedata.normalize("NFD", name.casefold()) if not unicodedata.combining(c))


class Registry(Generic[T]):
    """Items of one kind (``kind`` names it in messages, e.g. "scoring rule")."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._entries: dict[str, Entry[T]] = {}
        self._names: dict[str, str] = {}  # name or alias -> name

    def add(
        self, name: str, item: T, summary: str, origin: Origin, aliases: tuple[str, ...] = ()
    ) -> None:
        if not isinstance(name, str) or not name:
            raise PluginError(f"{origin} registered a {self.kind} without a name")
        for key in (name, *aliases):
            if key in self._names:
                other = self._entries[self._names[key]].origin
                raise PluginError(
                    f"duplicate {self.kind} name {key!r}: registered by {other} and by {origin}"
                )
        self._entries[name] = Entry(name, tuple(aliases), summary, item, origin)
        for key in (name, *aliases):
            self._names[key] = name

    def _key(self, name: object) -> str | None:
        """The registered name ``name`` stands for: exact, else in any case and
        with or without accents (``Español`` for ``espanol``) if only one name
        or alias matches that way."""
        if not isinstance(name, str):
            return None
        if name in self._names:
            return self._names[name]
        folded = {self._names[k] for k in self._names if _folded(k) == _folded(name)}
        return folded.pop() if len(folded) == 1 else None

    def __contains__(self, name: object) -> bool:
        return self._key(name) is not None

    def get(self, name: str) -> T:
        return self.entry(name).item

    def entry(self, name: str) -> Entry[T]:
        key = self._key(name)
        if key is None:
            available = ", ".join(self.names()) or "none"
            raise PluginError(
                f"unknown {self.kind} {name!r}{did_you_mean(str(name), self._names)} "
                f"(available: {available})"
            )
        return self._entries[key]

    def names(self) -> list[str]:
        return sorted(self._entries)

    def entries(self) -> list[Entry[T]]:
        return [self._entries[n] for n in self.names()]


@dataclass(frozen=True)
class PluginInfo:
    """One plugin the loader met, whether or not it was loaded."""

    origin: Origin
    module: str  # module path or file
    source: str  # "entry point" or "--plugin"
    status: str  # LOADED, BLOCKED, NOT_AUTOLOADED or FAILED
    detail: str = ""  # why it was not loaded


@dataclass
class Registries:
    """What the plugins registered, by kind, and what loading them reported."""

    searchers: Registry[type[Searcher]] = field(default_factory=lambda: Registry("searcher"))
    executors: Registry[type[Executor]] = field(default_factory=lambda: Registry("executor"))
    rules: Registry[ScoringRule] = field(default_factory=lambda: Registry("scoring rule"))
    wordlists: Registry[WordListSource] = field(
        default_factory=lambda: Registry("word list")
    )
    dice: Registry[DiceSet] = field(default_factory=lambda: Registry("dice set"))
    languages: Registry[Language] = field(default_factory=lambda: Registry("language"))
    #: one line per plugin that failed to load (shown as warnings)
    warnings: list[str] = field(default_factory=list)
    #: every plugin met, in load order, for ``boggle-opt plugins``
    plugins: list[PluginInfo] = field(default_factory=list)
    #: the module of each plugin loaded, by name: which plugin's code raised
    #: what ended a command (``plugin_of``)
    modules: dict[str, Origin] = field(default_factory=dict)

    def plugin_of(self, module: str) -> Origin | None:
        """The plugin whose module (or a submodule of it) is ``module``."""
        for name, origin in self.modules.items():
            if module == name or module.startswith(name + "."):
                return origin
        return None
