"""The package's layers, checked from the source (docs/architecture.md draws them).

Every import counts: at module level, inside functions and under ``TYPE_CHECKING``
(a lazy or type-only import that closes a loop still ties two layers). Imports may
go down the layers or sideways within one, never up, and never round in a cycle.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
#: folder on disk -> the package it installs as (pyproject's package-dir)
ROOTS = {
    "boggle_opt": "boggle_opt",
    "plugins": "boggle_opt.plugins",
    "scoring_rules": "boggle_opt.scoring_rules",
    "wordlists": "boggle_opt.wordlists",
    "dice_sets": "boggle_opt.dice_sets",
    "languages": "boggle_opt.languages",
}
#: lowest first; a module belongs to the longest prefix listed
LAYERS: list[tuple[str, ...]] = [
    ("boggle_opt.core",),
    ("boggle_opt._version", "boggle_opt.lazy", "boggle_opt.defaults", "boggle_opt.signals",
     "boggle_opt.main_guard", "boggle_opt.huge_pages"),
    ("boggle_opt.dictionary",),
    ("boggle_opt.constraints",),
    ("boggle_opt.proofs",),
    ("boggle_opt.searching",),
    ("boggle_opt.boards",),
    ("boggle_opt.registry",),
    ("boggle_opt.runs",),
    ("boggle_opt", "boggle_opt.analysis", "boggle_opt.testing"),  # the public face
    ("boggle_opt.plugins", "boggle_opt.scoring_rules", "boggle_opt.wordlists", "boggle_opt.dice_sets",
     "boggle_opt.languages"),
    ("boggle_opt.cli",),
]
MAX_TOP_LEVEL = 15


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the source folders: name -> (file, is a package)."""
    found: dict[str, tuple[Path, bool]] = {}
    for folder, package in ROOTS.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            parts = list(path.relative_to(REPO / folder).with_suffix("").parts)
            is_pkg = parts[-1] == "__init__"
            if is_pkg:
                parts = parts[:-1]
            found[".".join([package, *parts])] = (path, is_pkg)
    return found


MODULES = modules()


def imports(name: str) -> set[str]:
    """The project modules ``name`` imports, anywhere in its source."""
    path, is_pkg = MODULES[name]
    here = name.split(".") if is_pkg else name.split(".")[:-1]
    out: set[str] = set()

    def add(target: str) -> None:
        # the longest known module a dotted name starts with
        parts = target.split(".")
        for i in range(len(parts), 0, -1):
            candidate = ".".join(parts[:i])
            if candidate in MODULES:
                out.add(candidate)
                return

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # ``from pkg import module`` names a module
                add(f"{target}.{alias.name}")
    out.discard(name)
    return out


GRAPH = {name: imports(name) for name in MODULES}


def layer(name: str) -> int:
    best, level = -1, -1
    for i, prefixes in enumerate(LAYERS):
        for p in prefixes:
            if (name == p or name.startswith(p + ".")) and len(p) > best:
                best, level = len(p), i
    assert level >= 0, f"{name} is in no layer: add it to LAYERS and docs/architecture.md"
    return level


def test_every_module_has_a_layer() -> None:
    for name in MODULES:
        layer(name)


def test_imports_only_go_down() -> None:
    upward = [
        f"{src} (layer {layer(src)}) imports {dst} (layer {layer(dst)})"
        for src, targets in sorted(GRAPH.items())
        for dst in sorted(targets)
        if layer(dst) > layer(src)
    ]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(upward)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_cycles() -> None:
    found = cycles(GRAPH)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_only_the_command_line_imports_rich() -> None:
    for name, (path, _) in MODULES.items():
        if name.startswith("boggle_opt.cli"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not any(a.name.split(".")[0] == "rich" for a in node.names), name
            elif isinstance(node, ast.ImportFrom) and not node.level:
                assert (node.module or "").split(".")[0] != "rich", name


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.parametrize("limit", [MAX_TOP_LEVEL])
def test_few_modules_directly_in_the_package(limit: int) -> None:
    top = sorted(p.name for p in (REPO / "boggle_opt").glob("*.py"))
    assert len(top) <= limit, f"{len(top)} modules directly in boggle_opt/: {top}"


def test_subpackages_say_what_they_hold_and_may_import() -> None:
    for init in sorted((REPO / "boggle_opt").glob("*/__init__.py")):
        if init.parent.name == "core":  # the compiled kernels keep their own docstring
            continue
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert "May import" in doc, f"{init.relative_to(REPO)}: the docstring says what it may import"


def test_architecture_page_names_only_modules_that_exist() -> None:
    text = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:cli|runs|registry|searching|proofs|constraints|dictionary|plugins"
                           r"|scoring_rules|wordlists|dice_sets)/\w+\.py)`", text))
    assert named, "the page names no modules"
    missing = [n for n in sorted(named) if not (REPO / "boggle_opt" / n).exists() and not (REPO / n).exists()]
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"
    # the layer diagram lists every module of each subpackage
    for package in ("cli", "runs", "registry", "searching", "proofs", "constraints", "dictionary"):
        for path in (REPO / "boggle_opt" / package).glob("*.py"):
            if path.stem != "__init__":
                assert re.search(rf"\b{path.stem}\b", text), f"docs/architecture.md misses {package}/{path.name}"


#: what a built-in plugin may import: the public API (docs/usage.md, "Public API"), the
#: proof machinery, and its own folder
PLUGIN_ROOTS = ("boggle_opt.plugins", "boggle_opt.scoring_rules", "boggle_opt.wordlists", "boggle_opt.dice_sets",
                "boggle_opt.languages")
PLUGIN_MAY_IMPORT = ("boggle_opt", "boggle_opt.boards", "boggle_opt.testing", "boggle_opt.proofs", *PLUGIN_ROOTS)
#: imports below the public API that built-in searchers still make (numpy on first use,
#: checkpoint parsing, the compiled kernels longword and bnb drive): known, and not to grow
BELOW_THE_API = {
    "boggle_opt.plugins._plant": {"boggle_opt.core.geometry", "boggle_opt.lazy"},
    "boggle_opt.plugins.annealing": {"boggle_opt.lazy", "boggle_opt.runs.records",
                                     "boggle_opt.searching.interface", "boggle_opt.searching.options"},
    "boggle_opt.plugins.bnb": {"boggle_opt.core.geometry", "boggle_opt.core.tree", "boggle_opt.lazy",
                               "boggle_opt.runs.fingerprints", "boggle_opt.runs.records",
                               "boggle_opt.searching.interface", "boggle_opt.searching.options"},
    "boggle_opt.plugins.genetic": {"boggle_opt.lazy", "boggle_opt.runs.records",
                                   "boggle_opt.searching.interface", "boggle_opt.searching.options"},
    "boggle_opt.plugins.hillclimb": {"boggle_opt.lazy", "boggle_opt.runs.records",
                                     "boggle_opt.searching.interface", "boggle_opt.searching.options"},
    "boggle_opt.plugins.longword": {"boggle_opt.constraints.fixed", "boggle_opt.core.errors",
                                    "boggle_opt.core.geometry", "boggle_opt.core.paths",
                                    "boggle_opt.core.scorer", "boggle_opt.core.trie", "boggle_opt.lazy",
                                    "boggle_opt.searching.interface", "boggle_opt.searching.options"},
    "boggle_opt.wordlists.research": {"boggle_opt.core.errors", "boggle_opt.dictionary.wordlist"},
    # the read-a-list helpers (MAX_BYTES) and the language module's own pieces
    # (English, its Speller, the Double Letter tiles) that the built-ins share
    "boggle_opt.wordlists.system": {"boggle_opt.dictionary.wordlist"},
    "boggle_opt.dice_sets.double_letter": {"boggle_opt.dictionary.language"},
    **{f"boggle_opt.languages.{name}": {"boggle_opt.dictionary.language"} for name in (
        "dutch", "english", "english_dl", "french", "german", "italian", "polish", "portuguese",
        "spanish", "swedish")},
}


def test_built_in_plugins_import_only_the_public_api_and_proofs() -> None:
    def allowed(src: str, dst: str) -> bool:
        return (dst in PLUGIN_MAY_IMPORT or dst.startswith(tuple(p + "." for p in PLUGIN_MAY_IMPORT[1:]))
                or dst in BELOW_THE_API.get(src, set()))

    bad = [f"{src} imports {dst}" for src, targets in sorted(GRAPH.items()) if src.startswith(PLUGIN_ROOTS)
           for dst in sorted(targets) if not allowed(src, dst)]
    assert not bad, ("built-in plugins import past the public API and boggle_opt.proofs "
                     "(export what they need from boggle_opt):\n" + "\n".join(bad))
