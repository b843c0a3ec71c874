"""Registries and plugin loading through the ``boggle_opt`` entry points."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from importlib.metadata import EntryPoint, entry_points, version

import pytest

from boggle_opt.wordlists.system import LISTS

#: the system lists wordlists/system.py registers (found or not)
SYSTEM_LISTS = [entry.name for entry in LISTS]

import boggle_opt.registry.loader as plugin_loader
from boggle_opt.core.errors import BoggleOptError, PluginError
from boggle_opt.registry.loader import load_plugins
from boggle_opt.registry.registries import Origin, Registry

ONE = Origin("first-plugin", "dist-one", "1.0")
TWO = Origin("second-plugin", "dist-two", "2.5")


def registry_with_a() -> Registry[str]:
    reg: Registry[str] = Registry("scoring rule")
    reg.add("alpha", "A", "the first", ONE, ("al", "a1"))
    return reg


# -- Registry --------------------------------------------------------------------------


def test_lookup_by_name_and_alias():
    reg = registry_with_a()
    assert reg.get("alpha") == reg.get("al") == reg.get("a1") == "A"
    entry = reg.entry("al")
    assert (entry.name, entry.aliases, entry.summary, entry.origin) == (
        "alpha", ("al", "a1"), "the first", ONE
    )
    assert "al" in reg and "alpha" in reg and "beta" not in reg
    assert reg.names() == ["alpha"]


@pytest.mark.parametrize(
    "name, aliases, clash",
    [
        ("alpha", (), "alpha"),  # same name
        ("al", (), "al"),  # a name that is another's alias
        ("beta", ("alpha",), "alpha"),  # an alias that is another's name
        ("beta", ("b", "a1"), "a1"),  # alias against alias
    ],
    ids=["name-name", "name-alias", "alias-name", "alias-alias"],
)
def test_duplicates_name_both_origins(name, aliases, clash):
    reg = registry_with_a()
    with pytest.raises(PluginError) as info:
        reg.add(name, "B", "the second", TWO, aliases)
    message = str(info.value)
    assert f"duplicate scoring rule name {clash!r}" in message
    assert "plugin 'first-plugin' (dist-one 1.0)" in message
    assert "plugin 'second-plugin' (dist-two 2.5)" in message
    # a refused item leaves nothing behind
    assert reg.names() == ["alpha"]
    for key in (name, *aliases):
        if key not in ("alpha", "al", "a1"):
            assert key not in reg
    assert reg.get(clash) == "A"


def test_unknown_name_lists_available():
    reg = registry_with_a()
    reg.add("beta", "B", "the second", TWO)
    with pytest.raises(PluginError) as info:
        reg.get("gamma")
    assert str(info.value) == "unknown scoring rule 'gamma' (available: alpha, beta)"


def test_unknown_name_in_empty_registry():
    reg: Registry[str] = Registry("word list")
    with pytest.raises(PluginError, match=r"unknown word list 'x' \(available: none\)"):
        reg.entry("x")


def test_nameless_item_is_refused():
    reg: Registry[str] = Registry("searcher")
    with pytest.raises(PluginError, match="without a name") as info:
        reg.add("", "X", "", TWO)
    assert "second-plugin" in str(info.value)


def test_plugin_error_is_a_user_error():
    assert issubclass(PluginError, BoggleOptError)


# -- load_plugins --------------------------------------------------------------------------


def test_builtins_are_found(registries):
    assert registries.warnings == []
    assert registries.rules.names() == ["big", "pow2", "standard", "words"]
    assert registries.wordlists.names() == sorted(["embedded", "enable2k", "yawl", *SYSTEM_LISTS])
    dist_version = version("boggle-opt")
    for reg in (registries.rules, registries.wordlists):
        for entry in reg.entries():
            assert entry.origin.distribution == "boggle-opt", entry.name
            assert entry.origin.version == dist_version
            assert entry.summary
    plugin_of = {e.name: e.origin.plugin for e in registries.rules.entries()}
    assert plugin_of == {"big": "big", "pow2": "pow2", "standard": "standard", "words": "words"}
    plugin_of = {e.name: e.origin.plugin for e in registries.wordlists.entries()}
    assert plugin_of == {"enable2k": "research", "yawl": "research", "embedded": "embedded",
                         **{name: "system" for name in SYSTEM_LISTS}}


def test_builtin_aliases(registries):
    assert registries.rules.get("word-count") is registries.rules.get("words")
    assert registries.rules.get("powers-of-two") is registries.rules.get("pow2")
    assert registries.wordlists.get("default") is registries.wordlists.get("embedded")
    assert registries.wordlists.get("kjxqz") is registries.wordlists.get("embedded")


def test_builtin_unknown_names(registries):
    with pytest.raises(PluginError, match=r"\(available: big, pow2, standard, words\)"):
        registries.rules.get("scrabble")
    with pytest.raises(PluginError, match=r"\(available: american-english, brazilian, .*, yawl\)"):
        registries.wordlists.get("sowpods")


def test_entry_points_are_declared():
    names = {ep.name for ep in entry_points(group="boggle_opt")}
    assert {"standard", "words", "pow2", "research", "embedded"} <= names


def own_entry_points() -> list[EntryPoint]:
    """boggle-opt's own entry points, whatever else is installed."""
    return [
        ep for ep in entry_points(group="boggle_opt")
        if ep.dist is not None and plugin_loader.normalise(ep.dist.name) == "boggle-opt"
    ]


@pytest.fixture
def fake_plugins(monkeypatch, tmp_path):
    """Add entry points (name -> module) next to boggle-opt's own, with autoload on."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(plugin_loader.ENV_DISABLE_AUTOLOAD, raising=False)
    real = own_entry_points()

    def install(modules: dict[str, str], eps: dict[str, str]) -> None:
        for module, source in modules.items():
            (tmp_path / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        extra = [EntryPoint(name, value, "boggle_opt") for name, value in eps.items()]
        monkeypatch.setattr(plugin_loader, "entry_points", lambda group: real + extra)

    return install


def test_third_party_rule_is_registered(fake_plugins):
    fake_plugins(
        {"bo_fake_triple": """
            from boggle_opt import hookimpl
            from boggle_opt.dictionary.rules import ScoringRule

            @hookimpl
            def register_scoring_rules(register):
                register(ScoringRule("triple", "3 a word", lambda w: 3, ("three",)))
        """},
        {"triple": "bo_fake_triple"},
    )
    regs = load_plugins()
    assert regs.rules.names() == ["big", "pow2", "standard", "triple", "words"]
    entry = regs.rules.entry("three")
    assert entry.name == "triple"
    assert entry.origin.plugin == "triple"


def test_duplicate_rule_from_another_plugin(fake_plugins):
    fake_plugins(
        {"bo_fake_clash": """
            from boggle_opt import hookimpl
            from boggle_opt.dictionary.rules import ScoringRule

            @hookimpl
            def register_scoring_rules(register):
                register(ScoringRule("tally", "1 a word", lambda w: 1, ("word-count",)))
        """},
        {"clash": "bo_fake_clash"},
    )
    with pytest.raises(PluginError) as info:
        load_plugins()
    message = str(info.value)
    assert "duplicate scoring rule name 'word-count'" in message
    assert "plugin 'clash'" in message
    assert f"plugin 'words' (boggle-opt {version('boggle-opt')})" in message


def test_duplicate_entry_point_name(fake_plugins):
    fake_plugins({"bo_fake_empty": "x = 1\n"}, {"standard": "bo_fake_empty"})
    with pytest.raises(PluginError) as info:
        load_plugins()
    message = str(info.value)
    assert "duplicate plugin name 'standard'" in message
    assert f"(boggle-opt {version('boggle-opt')})" in message
    assert "unknown distribution" in message


def test_broken_plugin_is_a_warning_unless_strict(fake_plugins):
    fake_plugins({"bo_fake_broken": "raise RuntimeError('boom')\n"}, {"broken": "bo_fake_broken"})
    regs = load_plugins()
    assert len(regs.warnings) == 1
    assert "plugin 'broken'" in regs.warnings[0] and "boom" in regs.warnings[0]
    assert regs.rules.names() == ["big", "pow2", "standard", "words"]
    with pytest.raises(PluginError, match="boom"):
        load_plugins(strict=True)


def test_misspelt_hook_is_an_error(fake_plugins):
    fake_plugins(
        {"bo_fake_typo": """
            from boggle_opt import hookimpl

            @hookimpl
            def register_scoring_rule(register):
                pass
        """},
        {"typo": "bo_fake_typo"},
    )
    with pytest.raises(PluginError, match="typo"):
        load_plugins()


# -- importing loads no plugins ----------------------------------------------------------

PROBE = """
import json, sys
import {imports}
before = sorted(m for m in sys.modules if m.startswith("boggle_opt"))
from boggle_opt.registry.loader import load_plugins
load_plugins()
after = sorted(m for m in sys.modules if m.startswith("boggle_opt"))
print(json.dumps([before, after]))
"""

PLUGIN_MODULES = {
    "boggle_opt.scoring_rules.standard",
    "boggle_opt.scoring_rules.words",
    "boggle_opt.scoring_rules.pow2",
    "boggle_opt.wordlists.research",
    "boggle_opt.wordlists.embedded",
}


@pytest.mark.parametrize("imports", ["boggle_opt", "boggle_opt.registry.dictionaries, boggle_opt.runs.run, boggle_opt.cli.app"])
def test_import_loads_no_plugins(imports, tmp_path):
    # run away from the repository: from its root, `python -c` would import the
    # source folder boggle_opt/ instead of the installed package
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(imports=imports)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    before, after = json.loads(result.stdout)
    assert "boggle_opt" in before
    assert not PLUGIN_MODULES & set(before), "importing must not load plugins"
    # the probe can see them: loading the plugins does import them
    assert PLUGIN_MODULES <= set(after)
