"""The README is a front page: its two commands as CI runs them, a tour of real
commands, and links that lead somewhere."""

from __future__ import annotations

import re
from pathlib import Path

from boggle_opt.cli import app as cli

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
FIRST_COMMANDS = [
    "pip install . && boggle-opt run --searcher annealing --rule pow2 --time 60",
    "pip install '.[test]' && pytest",
]


def _sh_blocks(text: str) -> list[list[str]]:
    return [b.strip().splitlines() for b in re.findall(r"```sh\n(.*?)```", text, re.S)]


def test_the_first_two_commands() -> None:
    blocks = _sh_blocks(README)
    assert [b for b in blocks[:2]] == [[c] for c in FIRST_COMMANDS]
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert f"{FIRST_COMMANDS[1]} || exit $?" in ci  # CI runs the test command verbatim


def test_the_slow_tier_is_named_and_ci_runs_it() -> None:
    """The README's command leaves the slow tier out; the README says how to
    run it, and CI runs it right after the README's command."""
    assert ["pytest -m slow"] in _sh_blocks(README)
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    after = ci.split(f"{FIRST_COMMANDS[1]} || exit $?", 1)[1]
    assert "\npytest -m slow\n" in after


def test_the_tour_uses_real_commands_and_options() -> None:
    parser = cli.build_parser()
    subcommands = next(a for a in parser._actions if isinstance(getattr(a, "choices", None), dict))
    tour = [line.split("#")[0].split() for b in _sh_blocks(README)[2:] for line in b]
    tour = [words for words in tour if words and words[0] == "boggle-opt"]
    assert len(tour) >= 6
    for words in tour:
        if words[1].startswith("--"):
            continue  # --version
        sub = subcommands.choices[words[1]]
        options = {o for a in sub._actions for o in a.option_strings}
        used = {w for w in words[2:] if w.startswith("-") and w != "-"}  # "-": stdin
        assert used <= options, (words, used - options)


def test_links_lead_somewhere() -> None:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_tour_shows_every_command() -> None:
    parser = cli.build_parser()
    subcommands = next(a for a in parser._actions if isinstance(getattr(a, "choices", None), dict))
    shown = {line.split()[1] for b in _sh_blocks(README)[2:] for line in b
             if line.startswith("boggle-opt ")}
    missing = sorted(set(subcommands.choices) - shown)
    assert not missing, f"README's tour has no example of: {missing}"


def test_a_front_page_links_the_docs_and_keeps_no_dated_figures() -> None:
    for page in ("usage", "plugins", "architecture", "benchmarks", "reference"):
        assert f"](docs/{page}.md)" in README, f"README does not link docs/{page}.md"
    dated = re.findall(r"\b20\d\d-\d\d-\d\d\b", README)
    assert not dated, f"dated figures belong in docs/benchmarks.md, not README.md: {dated}"
    # the picture is drawn from the embedded list: nothing derived from the research lists
    svg = re.search(r"!\[[^]]*\]\((docs/images/[\w.-]+\.svg)\)", README)
    assert svg, "README shows no board picture"
    assert "embedded (" in (REPO / svg.group(1)).read_text(encoding="utf-8")


def test_the_readme_picture_is_what_its_command_draws(run_cli, tmp_path: Path) -> None:
    """The caption names the command that drew docs/images/board.svg; the
    picture went stale when that command's subtitle gained ``· in canonical
    form``. Run it again (writing elsewhere) and compare."""
    drawn = re.search(r"drawn by `(boggle-opt show[^`]*?--svg (docs/images/[\w.-]+\.svg))`", README, re.S)
    assert drawn, "README's picture caption names no `boggle-opt show ... --svg` command"
    args = drawn.group(1).split()[1:]
    fresh = tmp_path / "board.svg"
    args[args.index(drawn.group(2))] = str(fresh)
    r = run_cli(*args)
    assert r.returncode == 0, r.stderr
    assert fresh.read_text(encoding="utf-8") == (REPO / drawn.group(2)).read_text(encoding="utf-8"), (
        f"{drawn.group(2)} is stale: run `{' '.join(drawn.group(1).split())}`")


def test_usage_has_every_command_and_option() -> None:
    """The README says docs/usage.md has every command and option; `merge`
    had no section, and `bound --order` no word."""
    usage = (REPO / "docs" / "usage.md").read_text(encoding="utf-8")
    parser = cli.build_parser()
    subcommands = next(a for a in parser._actions if isinstance(getattr(a, "choices", None), dict))
    missing = []
    for name, sub in subcommands.choices.items():
        if f"boggle-opt {name}" not in usage:
            missing.append(name)
        for action in sub._actions:
            spelt = [o for o in action.option_strings if o.startswith("--") and o != "--help"]
            if spelt and not any(re.search(rf"`[^`]*{re.escape(o)}\b", usage) for o in spelt):
                missing.append(f"{name} {spelt[0]}")
    assert not missing, f"docs/usage.md does not name: {missing}"
    assert re.search(r"^#+ .*`boggle-opt merge`", usage, re.M), "merge has no section"
