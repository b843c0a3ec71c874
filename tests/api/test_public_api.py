"""The public API is the whole API: the README, the docs and the examples import only
``boggle_opt``, ``boggle_opt.testing`` and ``boggle_opt.boards``, and docs/usage.md
lists every public name in one place."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import boggle_opt
from boggle_opt import boards, testing

REPO = Path(__file__).resolve().parents[2]
#: the helpers boggle_opt.boards defines (not what it imports for itself), and its letter base A
HELPERS = {n for n, v in vars(boards).items()
           if callable(v) and getattr(v, "__module__", None) == boards.__name__ and n[0] != "_"} | {"A"}
PUBLIC = {"boggle_opt": set(boggle_opt.__all__) | {"boards", "testing"},
          "boggle_opt.boards": HELPERS | set(boggle_opt.__all__) & set(vars(boards)),
          "boggle_opt.testing": {"SearcherConformance"}}
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
EXAMPLES = sorted((REPO / "examples").rglob("*.py"))


def private_imports(source: str) -> list[str]:
    """Each import of ``source`` that reaches past the public API, as written."""
    bad: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            bad += [f"import {a.name}" for a in node.names
                    if a.name.split(".")[0] == "boggle_opt" and a.name not in PUBLIC]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if node.module.split(".")[0] != "boggle_opt":
                continue
            allowed = PUBLIC.get(node.module, set())
            bad += [f"from {node.module} import {a.name}" for a in node.names if a.name not in allowed]
    return bad


def python_blocks(page: Path) -> list[tuple[int, str]]:
    """(line, code) of each ```python block of a Markdown page."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1))
            for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M)]


def test_the_checker_tells_public_from_private() -> None:
    assert private_imports("from boggle_opt import search, Problem\nimport boggle_opt\n"
                           "from boggle_opt.boards import make_geometry\n"
                           "from boggle_opt.testing import SearcherConformance\n"
                           "import boggle_opt.boards\nimport numpy\n") == []
    assert private_imports("from boggle_opt.runs.run import search\nimport boggle_opt.x\n"
                           "from boggle_opt import runs\nfrom boggle_opt.boards import np\n"
                           "def f():\n    from boggle_opt.searching.driver import Budget\n") == [
        "from boggle_opt.runs.run import search", "import boggle_opt.x", "from boggle_opt import runs",
        "from boggle_opt.boards import np", "from boggle_opt.searching.driver import Budget",
    ]


def test_docs_and_readme_import_only_the_public_api() -> None:
    blocks = [(page, line, code) for page in PAGES for line, code in python_blocks(page)]
    assert len(blocks) >= 10, "the docs lost their python blocks"
    bad = [f"{page.relative_to(REPO)}:{line}: {imp}"
           for page, line, code in blocks for imp in private_imports(code)]
    assert not bad, "docs import past the public API:\n" + "\n".join(bad)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: str(p.relative_to(REPO / "examples")))
def test_examples_import_only_the_public_api(path: Path) -> None:
    bad = private_imports(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.relative_to(REPO)} imports past the public API: {bad}"


def test_every_public_name_is_listed_once_in_usage() -> None:
    text = (REPO / "docs" / "usage.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Public API\n") + 1:]
    section = section[: m.start()] if (m := re.search(r"^## ", section[3:], re.M)) else section
    listed = re.findall(r"^\| `(\w+)` \|", section, re.M)
    assert len(listed) == len(set(listed)), "a name is listed twice"
    expected = set(boggle_opt.__all__) | HELPERS
    assert not expected - set(listed), f"public names not in docs/usage.md, Public API: {expected - set(listed)}"
    unknown = set(listed) - set(boggle_opt.__all__) - PUBLIC["boggle_opt.boards"]
    assert not unknown, f"docs/usage.md, Public API, lists names that are not public: {unknown}"
    assert testing.SearcherConformance is boggle_opt.SearcherConformance


def test_dir_lists_the_public_api_and_nothing_else() -> None:
    """``dir(boggle_opt)`` listed ``Any``, ``TYPE_CHECKING``, ``annotations`` and
    ``pluggy`` (what the package imports for itself) and its subpackages, and
    not the names imported on first use (``search``)."""
    listed = set(dir(boggle_opt))
    assert listed == set(boggle_opt.__all__), sorted(listed ^ set(boggle_opt.__all__))
    for name in listed:
        assert getattr(boggle_opt, name) is not None, name
