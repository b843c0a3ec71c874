"""The board drawing (``board_svg``) shared by ``show --svg`` and the report: well-formed,
self-contained, one cell per board cell in column-major order, the path through the right
cells in order."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from boggle_opt.cli.board_svg import Panel, board_svg, check_output, panels_svg
from boggle_opt.boards import size_geometry
from boggle_opt.core.errors import BoggleOptError

NS = "{http://www.w3.org/2000/svg}"
GENERIC_FONTS = {"serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui",
                 "ui-serif", "ui-sans-serif", "ui-monospace", "ui-rounded", "math", "emoji"}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{NS}svg"
    return root


def assert_self_contained(svg: str, root: ET.Element) -> None:
    """Nothing a viewer would fetch: no links, imports, remote url(), named fonts."""
    assert "http" not in svg.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "@import" not in svg and "url(" not in svg
    for el in root.iter():
        assert not any(k.endswith("href") or k == "src" for k in el.attrib), el.attrib
        if "font-family" in el.attrib:
            families = {f.strip().strip("'\"") for f in el.attrib["font-family"].split(",")}
            assert families <= GENERIC_FONTS, families
    assert not root.findall(f".//{NS}image") and not root.findall(f".//{NS}style")


def cells(root: ET.Element) -> dict[int, tuple[float, float, str]]:
    """Cell index -> (centre x, centre y, letter shown), read from the drawing."""
    rects = {int(r.get("data-cell", "")): r for r in root.iter(f"{NS}rect") if r.get("data-cell")}
    letters = {int(t.get("data-cell", "")): (t.text or "") for t in root.iter(f"{NS}text")
               if t.get("data-cell")}
    assert rects.keys() == letters.keys()
    return {
        i: (float(r.get("x", "")) + float(r.get("width", "")) / 2,
            float(r.get("y", "")) + float(r.get("height", "")) / 2, letters[i])
        for i, r in rects.items()
    }


def path_cells(root: ET.Element) -> list[int]:
    """The cells the path's polyline visits in order, found by their drawn centres."""
    centres = {(round(x, 1), round(y, 1)): i for i, (x, y, _) in cells(root).items()}
    (line,) = root.iter(f"{NS}polyline")
    points = [tuple(round(float(v), 1) for v in p.split(",")) for p in line.get("points", "").split()]
    return [centres[p] for p in points]  # type: ignore[index]


def test_a_cell_per_board_cell_column_major_with_qu():
    geometry = size_geometry("3x4")  # 3 columns of 4: not square, so the order shows
    board = "qatsxyzbcdef"
    root = parse(board_svg(geometry, board))
    drawn = cells(root)
    assert sorted(drawn) == list(range(12))
    assert [drawn[i][2] for i in range(12)] == ["Qu", "A", "T", "S", "X", "Y", "Z", "B", "C", "D", "E", "F"]
    xs = sorted({x for x, _, _ in drawn.values()})
    ys = sorted({y for _, y, _ in drawn.values()})
    assert len(xs) == 3 and len(ys) == 4
    for i, (x, y, _) in drawn.items():  # cell i is in column i // rows, row i % rows
        assert (xs.index(x), ys.index(y)) == divmod(i, 4)
    assert not list(root.iter(f"{NS}polyline")), "no path asked for, none drawn"
    assert_self_contained(board_svg(geometry, board), root)


def test_the_path_visits_its_cells_in_order_with_arrows_and_a_start():
    geometry = size_geometry("4x4")
    board = "perslatgsineters"
    path = [2, 5, 8, 13, 12]  # r, a, s, e, t: column-major cells; diagonals up and down, a step up
    svg = board_svg(geometry, board, path, caption="RASET", note="2 points")
    root = parse(svg)
    assert_self_contained(svg, root)
    drawn = cells(root)
    assert path_cells(root) == path
    assert "".join(drawn[c][2] for c in path).lower() == "raset"
    (start,) = [c for c in root.iter(f"{NS}circle") if c.get("class") == "start"]
    assert (float(start.get("cx", "")), float(start.get("cy", ""))) == drawn[path[0]][:2]
    arrows = [p for p in root.iter(f"{NS}polygon") if p.get("class") == "arrow"]
    assert len(arrows) == len(path) - 1
    for arrow, a, b in zip(arrows, path, path[1:]):
        (ax, ay, _), (bx, by, _) = drawn[a], drawn[b]
        pts = [tuple(map(float, p.split(","))) for p in arrow.get("points", "").split()]
        tip = pts[0]
        # on the step from a to b, between them, and its tip the point furthest towards b
        along = [((px - ax) * (bx - ax) + (py - ay) * (by - ay)) for px, py in pts]
        assert along[0] == max(along)
        step = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        off_line = abs((tip[0] - ax) * (by - ay) - (tip[1] - ay) * (bx - ax)) / step
        assert off_line < 0.2 and 0 < along[0] < step**2
    texts = [t.text for t in root.iter(f"{NS}text") if t.get("class") == "caption"]
    assert texts == ["RASET", "2 points"]


def test_several_panels_and_bad_paths():
    geometry = size_geometry("2x2")
    svg = panels_svg(geometry, [Panel("abcd", [0, 3]), Panel("abcd"), Panel("abcd", [1])],
                     title="three <boards>")
    root = parse(svg)
    assert len([g for g in root.iter(f"{NS}g") if g.get("class") == "panel"]) == 3
    assert len(list(root.iter(f"{NS}polyline"))) == 1, "a one-cell path is a start, no line"
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "start"]) == 2
    assert root.find(f"{NS}title") is not None and root.find(f"{NS}title").text == "three <boards>"
    with pytest.raises(ValueError, match="not a path"):
        board_svg(geometry, "abcd", [0, 0])
    with pytest.raises(ValueError, match="not a path"):
        board_svg(geometry, "abcd", [4])
    with pytest.raises(ValueError, match="cells"):
        board_svg(geometry, "abc")


def test_check_output(tmp_path):
    check_output(str(tmp_path / "ok.svg"))
    assert list(tmp_path.iterdir()) == [], "checking creates nothing"
    with pytest.raises(BoggleOptError, match=r"cannot write .*no folder"):
        check_output(str(tmp_path / "missing" / "x.svg"))
    with pytest.raises(BoggleOptError, match="it is a folder"):
        check_output(str(tmp_path))
