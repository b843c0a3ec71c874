"""docs/plugins.md stays true to the code.

Every hook, event (with its fields), searcher-interface member, ``Problem``
member, ``ScoringRule``/``WordListSource`` field, conformance setting, plugin
environment variable and plugin command-line option must be documented; found
by introspection, so a new one fails here until it is written up.

Every ```python block compiles. A block preceded by
``<!-- docs-test: file NAME -->`` is written to a scratch folder as NAME; a
``test_*.py`` file runs under pytest. Other blocks run as scripts there (unless
marked ``<!-- docs-test: compile-only -->``); comment lines ending a block
(``# output``) are the output it must print.
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import re
import subprocess
import sys
import tomllib
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest

from boggle_opt.cli import app as cli
from boggle_opt.registry import hookspecs, loader as plugin_loader
from boggle_opt.boards import make_geometry
from boggle_opt.dictionary.dictionary import Dictionary
from boggle_opt.dictionary.rules import ScoringRule
from boggle_opt.searching.interface import Event, Problem, Searcher, SearcherBase
from boggle_opt.testing import SearcherConformance
from boggle_opt.dictionary.wordlist import WordListSource
from helpers import exe

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "plugins.md"
WHERE = "docs/plugins.md"
TEXT = DOC.read_text(encoding="utf-8")
LINES = TEXT.splitlines()
MARKER = re.compile(r"<!--\s*docs-test:\s*(.*?)\s*-->")
PLUGIN_ENV = ("BOGGLE_OPT_PLUGINS", "BOGGLE_OPT_BLOCK_PLUGINS", "BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD")


@dataclass(frozen=True)
class Block:
    lang: str
    code: str
    line: int  # of the opening fence, 1-based
    marker: str  # "", "compile-only" or "file NAME"

    @property
    def file(self) -> str | None:
        return self.marker.split(None, 1)[1] if self.marker.startswith("file ") else None

    @property
    def id(self) -> str:
        return f"line{self.line}" + (f"-{self.file}" if self.file else "")


def _blocks() -> list[Block]:
    blocks: list[Block] = []
    i = 0
    while i < len(LINES):
        fence = re.match(r"^```(\w*)\s*$", LINES[i])
        if not fence:
            i += 1
            continue
        start = i
        i += 1
        while i < len(LINES) and not LINES[i].startswith("```"):
            i += 1
        marker = ""
        if start > 0 and (m := MARKER.search(LINES[start - 1])):
            marker = m.group(1)
        blocks.append(Block(fence.group(1), "\n".join(LINES[start + 1 : i]) + "\n", start + 1, marker))
        i += 1
    return blocks


BLOCKS = _blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python"]


def _headings() -> list[tuple[int, int, str]]:
    """(line index, level, text) of every heading outside code blocks."""
    inside = {n for b in BLOCKS for n in range(b.line - 1, b.line + b.code.count("\n") + 1)}
    return [
        (n, len(m.group(1)), m.group(2))
        for n, line in enumerate(LINES)
        if n not in inside and (m := re.match(r"^(#{1,6})\s+(.*)$", line))
    ]


HEADINGS = _headings()


def _section(heading_text: str) -> str:
    """The text under the first heading containing ``heading_text``."""
    for k, (n, level, text) in enumerate(HEADINGS):
        if heading_text in text:
            end = next((m for m, lv, _ in HEADINGS[k + 1 :] if lv <= level), len(LINES))
            return "\n".join(LINES[n + 1 : end])
    return ""


def _code_spans() -> str:
    return "\n".join(re.findall(r"`([^`\n]+)`", TEXT))


CODE = _code_spans()


def _in_code(name: str) -> bool:
    """``name`` is written as code somewhere (an inline span or a code block)."""
    pattern = re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")
    return bool(pattern.search(CODE)) or any(pattern.search(b.code) for b in BLOCKS)


def _call_form(qualname: str, func: typing.Any) -> str:
    """``name(a, b, c=())``: how the docs write a call signature."""
    params = [
        p.name if p.default is inspect.Parameter.empty else f"{p.name}={p.default!r}"
        for p in inspect.signature(func).parameters.values()
        if p.name not in ("self", "cls")
    ]
    return f"{qualname}({', '.join(params)})"


# -- the reference must cover the code ---------------------------------------------------


def _hookspecs() -> list[typing.Any]:
    found = [
        obj
        for name, obj in vars(hookspecs).items()
        if inspect.isfunction(obj) and hasattr(obj, "boggle_opt_spec")
    ]
    assert found, "no hookspecs found in boggle_opt.registry.hookspecs (marker attribute boggle_opt_spec)"
    return found


@pytest.mark.parametrize("spec", _hookspecs(), ids=lambda f: f.__name__)
def test_every_hookspec_has_a_heading_with_its_signature(spec: typing.Any) -> None:
    form = _call_form(spec.__name__, spec)
    headings = [text for _, _, text in HEADINGS]
    if any(form in text for text in headings):
        return
    near = [text for text in headings if spec.__name__ in text]
    hint = f"; headings naming it: {near}" if near else ""
    pytest.fail(f"hook {form} (boggle_opt/registry/hookspecs.py) has no heading `{form}` in {WHERE}{hint}")


def _event_types() -> list[type]:
    types = list(typing.get_args(Event))
    assert types and all(dataclasses.is_dataclass(t) for t in types), types
    return types


@pytest.mark.parametrize("event", _event_types(), ids=lambda t: t.__name__)
def test_every_event_and_field_is_documented(event: type) -> None:
    fields = [f.name for f in dataclasses.fields(event)]  # type: ignore[arg-type]
    form = f"{event.__name__}({', '.join(fields)})"
    if not any(form in text for _, _, text in HEADINGS):
        pytest.fail(f"event {form} (boggle_opt.searching.interface.Event) has no heading `{form}` in {WHERE}")
    section = _section(form)
    missing = [f for f in fields if f"`{f}`" not in section]
    assert not missing, (
        f"fields of event {event.__name__} not described (as `name`) under its heading "
        f"in {WHERE}: {', '.join(missing)}"
    )


def _interface_members() -> list[str]:
    members = {"Options", "summary"}  # read by boggle-opt, not declared on the protocol
    for cls in (Searcher, SearcherBase):
        members |= set(getattr(cls, "__annotations__", {}))
        members |= {n for n, v in vars(cls).items() if callable(v) and not n.startswith("_")}
        if "__init__" in vars(cls):
            members.add("__init__")
    return sorted(members)


def test_searcher_interface_members_are_documented() -> None:
    missing = [m for m in _interface_members() if not _in_code(m)]
    assert not missing, (
        f"searcher interface members (boggle_opt.searching.interface.Searcher / SearcherBase) not "
        f"written as code in {WHERE}: {', '.join(missing)}"
    )
    for name in ("Searcher", "SearcherBase"):
        assert _in_code(f"boggle_opt.{name}"), f"{WHERE} never names boggle_opt.{name}"


def _problem_members() -> list[str]:
    problem = Problem(Dictionary("t", ["cat"], ScoringRule.by_length("r", "", [1])),
                      make_geometry(2, 2))
    public = {n for n in dir(problem) if not n.startswith("_")}
    return sorted(public)


def test_problem_members_are_documented() -> None:
    missing = [m for m in _problem_members() if not _in_code(f"problem.{m}")]
    assert not missing, (
        f"Problem members (boggle_opt/searching/interface.py) not documented as `problem.NAME` in {WHERE}: "
        + ", ".join(missing)
    )


@pytest.mark.parametrize("cls", [ScoringRule, WordListSource], ids=lambda c: c.__name__)
def test_rule_and_wordlist_fields_are_documented(cls: type) -> None:
    form = _call_form(cls.__name__, cls)
    assert form in TEXT, f"{WHERE} does not give the constructor `{form}` ({cls.__module__})"
    missing = [
        f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f"- `{f.name}`:" not in TEXT
    ]
    assert not missing, (
        f"fields of {cls.__name__} ({cls.__module__}) not described in {WHERE} "
        f"(a bullet starting \"- `FIELD`:\"): {', '.join(missing)}"
    )


def test_by_length_is_documented() -> None:
    form = _call_form("ScoringRule.by_length", ScoringRule.by_length)
    assert form in TEXT, f"{WHERE} does not document `{form}` (boggle_opt/dictionary/rules.py)"


def test_conformance_settings_are_documented() -> None:
    settings = list(SearcherConformance.__annotations__)
    missing = [s for s in settings if not re.search(rf"^\| `{s}` \|", TEXT, re.M)]
    assert not missing, (
        f"SearcherConformance settings (boggle_opt/testing.py) without a table row in {WHERE}: "
        + ", ".join(missing)
    )


def test_plugin_environment_variables_are_documented() -> None:
    source = Path(plugin_loader.__file__).with_suffix(".py").read_text(encoding="utf-8")
    names = sorted(set(re.findall(r"""["'](BOGGLE_OPT_[A-Z0-9_]+)["']""", source)))
    missing = [n for n in names if not _in_code(n)]
    assert not missing, f"environment variables of boggle_opt/registry/loader.py not in {WHERE}: {missing}"


def test_plugin_command_line_options_are_documented() -> None:
    parser = cli.build_parser()
    parsers = [parser]
    for action in parser._actions:  # the subcommands' parsers
        choices = getattr(action, "choices", None)
        if isinstance(choices, dict):
            parsers += list(choices.values())
    options = sorted({
        opt for p in parsers for a in p._actions for opt in a.option_strings if "plugin" in opt
    })
    missing = [o for o in options if not _in_code(o)]
    assert not missing, f"plugin options of the boggle-opt CLI not in {WHERE}: {missing}"


# -- the examples must work ------------------------------------------------------------


def test_doc_has_python_examples() -> None:
    assert PYTHON, f"no ```python blocks in {WHERE}"
    markers = {b.marker for b in BLOCKS if b.marker}
    bad = [m for m in markers if m != "compile-only" and not m.startswith("file ")]
    assert not bad, f"unknown docs-test markers in {WHERE}: {bad}"


@pytest.mark.parametrize("block", PYTHON, ids=lambda b: b.id)
def test_python_block_compiles(block: Block) -> None:
    try:
        compile(block.code, f"{WHERE}:{block.line}", "exec")
    except SyntaxError as exc:
        pytest.fail(f"the python block at {WHERE}:{block.line} does not compile: {exc}")


@pytest.mark.parametrize("block", [b for b in BLOCKS if b.lang == "toml"], ids=lambda b: b.id)
def test_toml_block_declares_entry_points_of_documented_modules(block: Block) -> None:
    data = tomllib.loads(block.code)
    eps = data.get("project", {}).get("entry-points", {}).get("boggle_opt")
    assert eps, f"the toml block at {WHERE}:{block.line} has no [project.entry-points.boggle_opt]"
    files = {b.file for b in PYTHON if b.file}
    for name, module in eps.items():
        assert f"{module}.py" in files, (
            f"entry point {name} = {module!r} ({WHERE}:{block.line}) names no module "
            f"shown as a file block"
        )


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in PLUGIN_ENV}
    env["PYTHONPATH"] = str(folder)
    return env


@pytest.fixture(scope="module")
def examples(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding every file block of the docs."""
    folder = tmp_path_factory.mktemp("docs_examples")
    for block in PYTHON:
        if block.file:
            path = folder / block.file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.code, encoding="utf-8")
    return folder


def _expected_output(code: str) -> list[str] | None:
    lines = code.rstrip("\n").splitlines()
    tail: list[str] = []
    while lines and lines[-1].startswith("# "):
        tail.insert(0, lines.pop()[2:])
    return tail or None


SCRIPTS = [b for b in PYTHON if not b.marker]
TEST_FILES = [b for b in PYTHON if b.file and Path(b.file).name.startswith("test_")]


@pytest.mark.parametrize("block", SCRIPTS, ids=lambda b: b.id)
def test_python_block_runs(block: Block, examples: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-c", block.code], cwd=examples, env=_env(examples),
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, (
        f"the python block at {WHERE}:{block.line} failed:\n{result.stderr[-3000:]}"
    )
    expected = _expected_output(block.code)
    if expected is not None:
        assert result.stdout.splitlines() == expected, (
            f"the python block at {WHERE}:{block.line} printed\n{result.stdout}"
            f"but its closing comment says\n" + "\n".join(expected)
        )


@pytest.mark.parametrize("block", TEST_FILES, ids=lambda b: b.id)
def test_test_file_blocks_pass(block: Block, examples: Path) -> None:
    assert block.file is not None
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir",
         str(examples), block.file],
        cwd=examples, env=_env(examples), capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, (
        f"the tests of {block.file} ({WHERE}:{block.line}) failed:\n{result.stdout[-3000:]}"
    )


def test_plugin_files_load_through_the_cli(examples: Path) -> None:
    """The file blocks that implement hooks are plugins that ``--plugin`` loads."""
    script = exe()
    help_text = subprocess.run([script, "run", "--help"], capture_output=True, text=True).stdout
    if "--plugin" not in help_text:
        pytest.skip("this boggle-opt has no --plugin option yet")
    plugin_files = [
        b.file for b in PYTHON
        if b.file and not Path(b.file).name.startswith("test_") and "hookimpl" in b.code
    ]
    assert plugin_files
    args = [a for f in plugin_files for a in ("--plugin", f"./{f}")]
    env = {**_env(examples), "BOGGLE_OPT_DISABLE_PLUGIN_AUTOLOAD": "1"}  # other packages' plugins
    result = subprocess.run(
        [exe(), "plugins", *args], cwd=examples, env=env,
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr, result.stderr
    for f in plugin_files:
        assert Path(f).stem in result.stdout, f"{f} not listed by boggle-opt plugins"
    # the searcher command shown in the docs works as written (with a small budget)
    run = subprocess.run(
        [exe(), "run", "--plugin", "./boggle_opt_greedy.py", "--searcher", "greedy",
         "--size", "3x3", "--evals", "20000", "--seed", "1", "--progress", "none"],
        cwd=examples, env=env, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "# searcher greedy" in run.stdout and "best board" in run.stdout, run.stdout
