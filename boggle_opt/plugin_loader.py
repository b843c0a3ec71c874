"""Discover plugins through the ``boggle_opt`` entry points and fill the registries.

Built-ins are loaded exactly like third-party packages: through entry points
declared in pyproject.toml. Nothing here runs on ``import boggle_opt``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from . import hookspecs
from .core.errors import PluginError
from .registry import Origin, Registry
from .rules import ScoringRule
from .wordlist import WordListSource

PROJECT = "boggle_opt"
ENTRY_POINT_GROUP = "boggle_opt"


@dataclass
class Registries:
    searchers: Registry[Any] = field(default_factory=lambda: Registry("searcher"))
    rules: Registry[ScoringRule] = field(default_factory=lambda: Registry("scoring rule"))
    wordlists: Registry[WordListSource] = field(
        default_factory=lambda: Registry("word list")
    )
    #: one line per plugin that failed to load (shown as warnings)
    warnings: list[str] = field(default_factory=list)


def _origin(ep: EntryPoint) -> Origin:
    dist = ep.dist
    if dist is None:
        return Origin(ep.name, "unknown distribution", "")
    return Origin(ep.name, dist.metadata["Name"] or "unknown distribution", dist.version)


def load_plugins(strict: bool = False) -> Registries:
    """Load every entry-point plugin and return the filled registries.

    A plugin that fails to import becomes a warning (an error when ``strict``);
    a duplicate name or a misspelt hook implementation is always an error.
    """
    pm = pluggy.PluginManager(PROJECT)
    pm.add_hookspecs(hookspecs)
    origins: dict[str, Origin] = {}
    regs = Registries()
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        origin = _origin(ep)
        if ep.name in origins:
            raise PluginError(
                f"duplicate plugin name {ep.name!r}: {origins[ep.name]} and {origin}"
            )
        try:
            module = ep.load()
        except Exception as exc:  # a broken third-party plugin must not kill the tool
            message = f"{origin} failed to import: {type(exc).__name__}: {exc}"
            if strict:
                raise PluginError(message) from None
            regs.warnings.append(message)
            continue
        pm.register(module, name=ep.name)
        origins[ep.name] = origin
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"invalid plugin: {exc}") from None

    def call(hook: pluggy.HookCaller, add: Callable[[Any, Origin], None]) -> None:
        for impl in hook.get_hookimpls():
            origin = origins[impl.plugin_name]
            impl.function(register=lambda item, o=origin: add(item, o))

    def add_rule(rule: ScoringRule, origin: Origin) -> None:
        regs.rules.add(rule.name, rule, rule.summary, origin, rule.aliases)

    def add_wordlist(source: WordListSource, origin: Origin) -> None:
        regs.wordlists.add(source.name, source, source.summary, origin, source.aliases)

    def add_searcher(cls: Any, origin: Origin) -> None:
        doc = (getattr(cls, "__doc__", None) or "").strip()
        summary = doc.splitlines()[0] if doc else ""
        regs.searchers.add(getattr(cls, "name", ""), cls, summary, origin)

    call(pm.hook.register_scoring_rules, add_rule)
    call(pm.hook.register_wordlists, add_wordlist)
    call(pm.hook.register_searchers, add_searcher)
    return regs
