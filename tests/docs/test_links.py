"""Every relative link of README.md and docs/*.md (and the notes under
benchmarks/) leads to a file of the repository, and no page points to
``../shared``, the developers' folder beside the checkout that a user of
boggle-opt does not have.

Links are markdown's inline ``[text](target)`` and ``![alt](target)`` and
reference definitions ``[name]: target``, outside code blocks and code spans;
web and mail addresses (anything with a scheme) are not checked. A target's
``#anchor`` must name a heading of the page it leads to (as GitHub makes
anchors from headings), when that page is markdown.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[2]
#: the front page, the docs, and the notes beside the benchmarks, the examples and the results
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")),
         *sorted((REPO / "benchmarks").rglob("*.md")),
         *sorted((REPO / "examples").rglob("*.md")), *sorted((REPO / "results").rglob("*.md"))]

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
# [text](target) and ![alt](target); the target may be <in angle brackets> and
# be followed by a "title"
INLINE = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


def _prose_lines(text: str, blank_code: bool = True) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, code spans blanked
    unless ``blank_code`` is False."""
    lines: list[tuple[int, str]] = []
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((n, CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line) if blank_code else line))
    return lines


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every link in a markdown page."""
    found: list[tuple[int, str]] = []
    for n, line in _prose_lines(text):
        targets = [m.group(1) for m in INLINE.finditer(line)]
        if (d := DEFINITION.match(line)) is not None:
            targets.append(d.group(1))
        found += [(n, t[1:-1] if t.startswith("<") else t) for t in targets]
    return found


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text without markup, lower case,
    punctuation but ``-`` and ``_`` dropped, spaces as ``-``."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").replace("*", "")
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return "".join(c for c in text if c.isalnum() or c in "-_ ").replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a page's headings (a repeated one gets -1, -2, ...)."""
    seen: dict[str, int] = {}
    result: set[str] = set()
    for _, line in _prose_lines(text, blank_code=False):
        m = HEADING.match(line)
        if m is None:
            continue
        base = slug(m.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        result.add(base if count == 0 else f"{base}-{count}")
    return result


def problems(page: Path, repo: Path = REPO) -> list[str]:
    """What is wrong with the links of ``page``, one line each."""
    text = page.read_text(encoding="utf-8")
    name = page.relative_to(repo).as_posix()
    found: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        if "../shared" in line:
            found.append(f"{name}:{n}: points to ../shared, which users do not have: "
                         "copy what the reader needs into the repository, or cite the published source")
    for n, target in links(text):
        if SCHEME.match(target):
            continue  # https:, mailto: and the like
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / unquote(path_part)).resolve() if path_part else page.resolve()
        if not dest.is_relative_to(repo.resolve()):
            found.append(f"{name}:{n}: {target} leads outside the repository")
            continue
        if not dest.exists():
            found.append(f"{name}:{n}: {target} does not exist")
            continue
        if anchor and dest.suffix == ".md" and dest.is_file():
            if unquote(anchor).lower() not in anchors(dest.read_text(encoding="utf-8")):
                found.append(f"{name}:{n}: {target}: {dest.name} has no heading with the anchor #{anchor}")
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(REPO).as_posix() for p in PAGES])
def test_relative_links_resolve_inside_the_repository(page: Path) -> None:
    wrong = problems(page)
    assert not wrong, "\n".join(wrong)


def test_the_pages_are_found() -> None:
    names = {p.relative_to(REPO).as_posix() for p in PAGES}
    assert {"README.md", "docs/usage.md", "docs/benchmarks.md", "docs/results.md"} <= names


def test_the_checker_finds_what_it_must(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other page\n\n## A `code` heading: yes\n")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Title\n\n"
        "[ok](other.md) [ok too](other.md#a-code-heading-yes) [self](#title) "
        "[web](https://example.com/x) [mail](mailto:a@b.c)\n"
        "![missing picture](images/none.svg) [gone](gone.md) [bad anchor](other.md#nowhere)\n"
        "[outside](../../elsewhere.md) see `../shared/REFERENCE.md`\n"
        "`[in code](not-checked.md)`\n"
        "```\n[in a block](not-checked-either.md)\n```\n"
        "[ref]: missing-ref.md\n",
        encoding="utf-8",
    )
    wrong = "\n".join(problems(page, tmp_path))
    for expected in ("images/none.svg does not exist", "gone.md does not exist",
                     "other.md#nowhere: other.md has no heading", "../../elsewhere.md leads outside",
                     "points to ../shared", "missing-ref.md does not exist"):
        assert expected in wrong, (expected, wrong)
    for fine in ("other.md does not", "a-code-heading-yes", "#title", "example.com", "mailto",
                 "not-checked"):
        assert fine not in wrong, (fine, wrong)
