"""Discover plugins and fill the registries: ``PluginLoader`` and ``load_plugins``.

Built-ins are loaded exactly like third-party packages: through entry points
in the ``boggle_opt`` group declared in pyproject.toml. Nothing here runs on
``import boggle_opt``. What gets loaded can be controlled from the
environment (inherited by worker processes, so they load the same plugins):

- ``BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD=1``: load only boggle-opt's own entry
  points, not those of other installed distributions;
- ``BOGGLE_OPT_BLOCK_PLUGINS=a,b``: skip plugins by name or distribution;
- ``BOGGLE_OPT_PLUGINS=module,path/file.py``: load these modules or files too
  (the CLI's ``--plugin`` adds to it); a module not on ``sys.path`` is
  looked for in the current folder.

``load_plugins()`` reads those variables; ``PluginLoader`` takes the same
settings as arguments.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import importlib
import importlib.util
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import Distribution, EntryPoint, entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from ..core.errors import PluginError
from ..constraints.dice import DiceSet
from .registries import Origin, PluginInfo, failure
from .registries import Registries as Registries  # where callers have long found it
from ..dictionary.language import Language
from ..dictionary.rules import ScoringRule
from ..searching.interface import summary_of
from ..dictionary.wordlist import WordListSource

PROJECT = "boggle_opt"
ENTRY_POINT_GROUP = "boggle_opt"
DISTRIBUTION = "boggle-opt"

ENV_DISABLE_AUTOLOAD = "BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD"
ENV_BLOCK = "BOGGLE_OPT_BLOCK_PLUGINS"
ENV_PLUGINS = "BOGGLE_OPT_PLUGINS"

HOOK_PREFIX = "register_"

# statuses in PluginInfo.status
LOADED = "loaded"
BLOCKED = "blocked"
NOT_AUTOLOADED = "not autoloaded"
FAILED = "failed"


def normalise(name: str) -> str:
    """Distribution names compare as PEP 503 says (``Boggle_Opt`` is ``boggle-opt``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


def autoload_enabled() -> bool:
    return os.environ.get(ENV_DISABLE_AUTOLOAD, "").strip().lower() in ("", "0", "false", "no")


def blocked_names() -> set[str]:
    return {normalise(n) for n in _env_list(ENV_BLOCK)}


def requested_plugins() -> list[str]:
    """The extra plugin modules and files named in ``BOGGLE_OPT_PLUGINS``."""
    return _env_list(ENV_PLUGINS)


def plugin_specs(specs: Iterable[str]) -> tuple[str, ...]:
    """Plugin modules and files as a run records them for its worker processes:
    files by absolute path, each once."""
    found: list[str] = []
    for spec in specs:
        spec = str(Path(spec).resolve()) if _is_file_spec(spec) else spec
        if spec not in found:
            found.append(spec)
    return tuple(found)


def _origin(ep: EntryPoint) -> Origin:
    dist = ep.dist
    if dist is None:
        return Origin(ep.name, "unknown distribution", "")
    return Origin(ep.name, *_name_and_version(dist))


@functools.lru_cache(maxsize=64)
def _name_and_version(dist: Distribution) -> tuple[str, str]:
    # each metadata read parses the METADATA file: once per distribution, not
    # twice per entry point (a tenth of the command line's start-up)
    meta = dist.metadata
    return meta["Name"] or "unknown distribution", meta["Version"] or ""


def _is_file_spec(spec: str) -> bool:
    return spec.endswith(".py") or os.sep in spec or "/" in spec


def _import_file(path: Path) -> ModuleType:
    """Import a plugin file as a top-level module named after it.

    Its folder goes on ``sys.path`` (which spawned workers inherit), so classes
    defined in it can be pickled to worker processes by name.
    """
    if not path.is_file():
        raise PluginError(f"plugin file {str(path)!r} not found")
    name = path.stem
    if not name.isidentifier():
        raise PluginError(f"plugin file {str(path)!r}: {name!r} is not a module name")
    existing = sys.modules.get(name)
    if existing is not None:
        where = getattr(existing, "__file__", None)
        if where is not None and Path(where).resolve() == path:
            return existing
        raise PluginError(
            f"plugin file {str(path)!r}: a module named {name!r} is already imported "
            f"from {where or 'built-in'}; rename the file"
        )
    folder = str(path.parent)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    # Compiled from its source each run: Python trusts a cached .pyc by the
    # source's size and mtime in whole seconds, so a file edited within a
    # second of the run that cached it (this process or a spawned worker),
    # to the same size, would run stale. The cache this import writes is
    # current, for this run's workers.
    with contextlib.suppress(OSError, NotImplementedError):
        os.remove(importlib.util.cache_from_source(str(path)))
    return importlib.import_module(name)


def _import_module(spec: str) -> ModuleType:
    """Import a plugin module named by the user, looking in the current folder
    too when it is not found on ``sys.path``.

    A console script's ``sys.path`` holds its own folder, not the current one
    (as ``python -m`` or ``python -c`` would); a module named on the command
    line is looked for there as Flask's ``--app`` and uvicorn's look. Appended,
    not put first, so a file in the folder never shadows an installed module;
    spawned workers inherit the path.
    """
    try:
        return importlib.import_module(spec)
    except ModuleNotFoundError as exc:
        here = os.getcwd()
        if exc.name != spec.partition(".")[0] or here in sys.path or "" in sys.path:
            raise
        sys.path.append(here)
        try:
            return importlib.import_module(spec)
        except ModuleNotFoundError as again:
            if again.name == exc.name:  # not here either: as it was
                sys.path.remove(here)
            raise


def _import_requested(spec: str) -> tuple[ModuleType, PluginInfo]:
    if _is_file_spec(spec):
        path = Path(spec).resolve()
        origin = Origin(path.stem, "local file", "")
        load: Callable[[], ModuleType] = lambda: _import_file(path)  # noqa: E731
        where = str(path)
    else:
        origin = Origin(spec, "local module", "")
        load = lambda: _import_module(spec)  # noqa: E731
        where = spec
    try:
        module = load()
    except PluginError:
        raise
    except (Exception, SystemExit) as exc:  # asked for by name: failing to load it is fatal
        raise PluginError(f"plugin {where!r} failed to import: {failure(exc)}") from None
    return module, PluginInfo(origin, where, "--plugin", LOADED)


def _check_hook_names(module: ModuleType, origin: Origin) -> None:
    """``register_*`` functions must be real, marked hooks: a typo is an error."""
    known = [name for name in dir(hookspecs) if name.startswith(HOOK_PREFIX)]
    for name, obj in vars(module).items():
        if not (name.startswith(HOOK_PREFIX) and callable(obj)):
            continue
        if getattr(obj, "__module__", None) != module.__name__:
            continue  # imported from elsewhere, not this plugin's definition
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise PluginError(
                f"{origin}: {name} is not a boggle-opt hook{hint}; hooks are {', '.join(known)}"
            )
        if not hasattr(obj, f"{PROJECT}_impl"):
            raise PluginError(f"{origin}: {name} is not marked with @boggle_opt.hookimpl")


class PluginLoader:
    """Loads plugins into fresh registries; every setting is an argument.

    ``autoload``: load the entry points of other distributions (boggle-opt's
    own always load); ``blocked``: plugin or distribution names to skip;
    ``requested``: plugin modules or ``.py`` files to load as well; ``strict``:
    an entry-point plugin that fails to import is an error, not a warning. A
    requested plugin that fails, a duplicate name or a misspelt hook is always
    an error. One loader loads once: ``PluginLoader(...).load()``.
    """

    def __init__(
        self,
        *,
        autoload: bool = True,
        blocked: Iterable[str] = (),
        requested: Sequence[str] = (),
        strict: bool = False,
    ) -> None:
        self.autoload = autoload
        self.blocked = {normalise(n) for n in blocked}
        self.requested = list(requested)
        self.strict = strict
        self.registries = Registries()
        self._pm = pluggy.PluginManager(PROJECT)
        self._pm.add_hookspecs(hookspecs)
        self._origins: dict[str, Origin] = {}
        self._blocks_used: set[str] = set()

    @classmethod
    def from_environment(cls, strict: bool = False, extra: Sequence[str] = ()) -> PluginLoader:
        """A loader set by ``BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD``,
        ``BOGGLE_OPT_BLOCK_PLUGINS`` and ``BOGGLE_OPT_PLUGINS`` (plus ``extra``)."""
        return cls(
            autoload=autoload_enabled(),
            blocked=blocked_names(),
            requested=[*requested_plugins(), *extra],
            strict=strict,
        )

    def load(self) -> Registries:
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=_load_order):
            self._load_entry_point(ep)
        for spec in self.requested:
            self._load_requested(spec)
        for name in sorted(self.blocked - self._blocks_used):
            # a typo here would otherwise block nothing, silently
            self.registries.warnings.append(
                f"{ENV_BLOCK} names {name!r}, which is no installed plugin"
            )
        try:
            self._pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"invalid plugin: {' '.join(str(exc).split())}") from None
        hook = self._pm.hook
        self._call(hook.register_scoring_rules, self._add_rule)
        self._call(hook.register_languages, self._add_language)
        self._call(hook.register_wordlists, self._add_wordlist)
        self._call(hook.register_searchers, self._add_searcher)
        self._call(hook.register_dice_sets, self._add_dice_set)
        self._call(hook.register_executors, self._add_executor)
        return self.registries

    # -- finding and importing plugin modules ------------------------------

    def _is_blocked(self, origin: Origin, module: str) -> bool:
        hits = {normalise(k) for k in (origin.plugin, origin.distribution, module)} & self.blocked
        self._blocks_used.update(hits)
        return bool(hits)

    def _met(self, origin: Origin, module: str, source: str, status: str, detail: str = "") -> None:
        self.registries.plugins.append(PluginInfo(origin, module, source, status, detail))

    def _load_entry_point(self, ep: EntryPoint) -> None:
        origin = _origin(ep)
        if self._is_blocked(origin, ep.value):
            self._met(origin, ep.value, "entry point", BLOCKED, ENV_BLOCK)
            return
        if not self.autoload and normalise(origin.distribution) != DISTRIBUTION:
            self._met(origin, ep.value, "entry point", NOT_AUTOLOADED, ENV_DISABLE_AUTOLOAD)
            return
        if ep.name in self._origins:
            raise PluginError(
                f"duplicate plugin name {ep.name!r}: {self._origins[ep.name]} and {origin}"
            )
        try:
            module = ep.load()
        except (Exception, SystemExit) as exc:  # a broken third-party plugin must not kill the tool
            reason = failure(exc)
            message = f"{origin} failed to import: {reason}"
            if self.strict:
                raise PluginError(message) from None
            self.registries.warnings.append(
                f"{message} (skipped; --strict-plugins makes this an error)"
            )
            self._met(origin, ep.value, "entry point", FAILED, reason)
            return
        self._register(module, origin)
        self._met(origin, ep.value, "entry point", LOADED)

    def _load_requested(self, spec: str) -> None:
        module, info = _import_requested(spec)
        if self._is_blocked(info.origin, module.__name__):
            self._met(info.origin, info.module, info.source, BLOCKED, ENV_BLOCK)
            return
        already = self._pm.is_registered(module)
        self._register(module, info.origin)
        if not already:
            self.registries.plugins.append(info)

    def _register(self, module: ModuleType, origin: Origin) -> None:
        if origin.plugin in self._origins:
            raise PluginError(
                f"duplicate plugin name {origin.plugin!r}: "
                f"{self._origins[origin.plugin]} and {origin}"
            )
        if self._pm.is_registered(module):
            return  # the same module reached twice (entry point and --plugin)
        _check_hook_names(module, origin)
        try:
            self._pm.register(module, name=origin.plugin)
        except pluggy.PluginValidationError as exc:
            # pluggy's first line repeats the plugin's name; the rest says what is wrong
            detail = "; ".join(line.strip() for line in str(exc).splitlines()[1:] if line.strip())
            raise PluginError(f"{origin} is invalid: {detail or exc}") from None
        self._origins[origin.plugin] = origin
        self.registries.modules[module.__name__] = origin

    # -- calling the hooks -------------------------------------------------

    def _call(self, hook: pluggy.HookCaller, add: Callable[[Any, Origin], None]) -> None:
        for impl in hook.get_hookimpls():  # in registration order
            origin = self._origins[impl.plugin_name]
            try:
                impl.function(register=lambda item, o=origin: add(item, o))
            except PluginError:
                raise
            except (Exception, SystemExit) as exc:
                raise PluginError(f"{origin} failed in {hook.name}: {failure(exc)}") from None

    def _add_rule(self, rule: ScoringRule, origin: Origin) -> None:
        if not isinstance(rule, ScoringRule):
            raise PluginError(f"{origin} registered {rule!r}, not a ScoringRule")
        self.registries.rules.add(rule.name, rule, rule.summary, origin, rule.aliases)

    def _add_language(self, language: Language, origin: Origin) -> None:
        if not isinstance(language, Language):
            raise PluginError(f"{origin} registered {language!r}, not a Language")
        self.registries.languages.add(language.name, language, language.summary, origin,
                                      language.aliases)

    def _add_wordlist(self, source: WordListSource, origin: Origin) -> None:
        if not isinstance(source, WordListSource):
            raise PluginError(f"{origin} registered {source!r}, not a WordListSource")
        self.registries.wordlists.add(source.name, source, source.summary, origin, source.aliases)

    def _add_dice_set(self, dice: DiceSet, origin: Origin) -> None:
        if not isinstance(dice, DiceSet):
            raise PluginError(f"{origin} registered {dice!r}, not a DiceSet")
        self.registries.dice.add(dice.name, dice, dice.summary, origin, dice.aliases)

    def _add_searcher(self, cls: Any, origin: Origin) -> None:
        if not isinstance(cls, type) or not callable(getattr(cls, "search", None)):
            raise PluginError(f"{origin} registered {cls!r}, not a searcher class")
        self.registries.searchers.add(getattr(cls, "name", ""), cls, summary_of(cls), origin)

    def _add_executor(self, cls: Any, origin: Origin) -> None:
        if not isinstance(cls, type) or not callable(getattr(cls, "open", None)):
            raise PluginError(f"{origin} registered {cls!r}, not an executor class")
        self.registries.executors.add(getattr(cls, "name", ""), cls, summary_of(cls), origin)


def _load_order(ep: EntryPoint) -> tuple[bool, str, str]:
    # built-ins first, so a clash always names boggle-opt's plugin first
    dist = normalise(_origin(ep).distribution)
    return (dist != DISTRIBUTION, ep.name, dist)


def load_plugins(strict: bool = False, extra: Sequence[str] = ()) -> Registries:
    """Load the plugins the environment asks for (see ``PluginLoader.from_environment``),
    plus the modules or ``.py`` files in ``extra``; fill the registries."""
    return PluginLoader.from_environment(strict, extra).load()
