"""Boards drawn as SVG: a grid of letters, a word's path as a line with arrows.

One drawing for ``show --svg`` and the report. The SVG is self-contained (no
fonts, images or styles fetched; generic font families only) and light, for
a paper or a web page. Boards are column-major (cell ``x * rows + y``); a
``q`` cell is drawn "Qu". Each cell is a ``<rect class="cell" data-cell="i">``
and a ``<text class="letter" data-cell="i">``; the path is a ``<polyline class="path">``
through the centres of its cells in spelling order (under the letters), with
an arrowhead along each step and a ring round the first cell.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from ..core.errors import BoggleOptError
from ..core.geometry import Geometry

CELL = 56  # px, one cell's side
GAP = 6  # px between cells
PAD = 14  # px round the grid
FONT = "system-ui, sans-serif"  # generic families only: nothing to fetch

INK = "#1d1d1f"
MUTED = "#6b6b70"
CELL_FILL = "#ffffff"
CELL_EDGE = "#c8c3b6"
BOARD_FILL = "#f3f0e8"
ON_FILL = "#e3edf9"  # a cell of the path
LINE = "#2f6db5"


@dataclass(frozen=True)
class Panel:
    """One board to draw, with an optional path (cells in spelling order) and captions."""

    board: str
    path: Sequence[int] = ()
    caption: str = ""  # under the grid, bold (e.g. the word)
    note: str = ""  # under the caption (e.g. its points)
    #: each cell's face as its die shows it (``Alphabet.faces``); () for
    #: English's letters, ``q`` drawn "Qu"
    faces: Sequence[str] = ()


def check_output(path: str) -> None:
    """Fail in one line if ``path`` cannot be written, before anything is drawn or created."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BoggleOptError(f"cannot write {path!r}: no folder {folder!r}")
    if os.path.isdir(path):
        raise BoggleOptError(f"cannot write {path!r}: it is a folder")
    target = path if os.path.exists(path) else folder
    if not os.access(target, os.W_OK):
        raise BoggleOptError(f"cannot write {path!r}: permission denied")


def write_svg(path: str, svg: str) -> bool:
    """Write the picture; whether it replaced an earlier file."""
    from ..runs.files import write_output

    return write_output(path, svg, "--svg")  # never over a run file; whole or not at all


def cell_centre(geometry: Geometry, cell: int) -> tuple[float, float]:
    """The centre of ``cell`` in a panel's coordinates."""
    x, y = divmod(cell, geometry.rows)
    return PAD + x * (CELL + GAP) + CELL / 2, PAD + y * (CELL + GAP) + CELL / 2


def _panel_size(geometry: Geometry, captions: int) -> tuple[int, int]:
    width = 2 * PAD + geometry.cols * CELL + (geometry.cols - 1) * GAP
    height = 2 * PAD + geometry.rows * CELL + (geometry.rows - 1) * GAP
    return width, height + captions * 20 + (4 if captions else 0)


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _arrowhead(a: tuple[float, float], b: tuple[float, float]) -> str:
    """A filled arrowhead past half way from ``a`` to ``b``, pointing at ``b``: further
    on a diagonal, so the heads of two diagonals crossing at their middles stay apart."""
    angle = math.atan2(b[1] - a[1], b[0] - a[0])
    at = 0.68 if a[0] != b[0] and a[1] != b[1] else 0.55
    mx, my = a[0] + (b[0] - a[0]) * at, a[1] + (b[1] - a[1]) * at
    length, half = 11.0, 6.5
    cos, sin = math.cos(angle), math.sin(angle)
    tip = (mx + cos * length / 2, my + sin * length / 2)
    back = (mx - cos * length / 2, my - sin * length / 2)
    left = (back[0] - sin * half, back[1] + cos * half)
    right = (back[0] + sin * half, back[1] - cos * half)
    pts = " ".join(f"{_n(px)},{_n(py)}" for px, py in (tip, left, right))
    return f'<polygon class="arrow" points="{pts}" fill="{LINE}"/>'


def _panel(geometry: Geometry, panel: Panel) -> list[str]:
    board, path = panel.board, list(panel.path)
    if len(board) != geometry.n:
        raise ValueError(f"board {board!r} has {len(board)} cells, not {geometry.n}")
    if any(not 0 <= c < geometry.n for c in path) or len(set(path)) != len(path):
        raise ValueError(f"path {path} is not a path of distinct cells of a {geometry.size} board")
    on = set(path)
    width, height = _panel_size(geometry, 0)
    out = [f'<rect x="0" y="0" width="{width}" height="{height}" rx="10" fill="{BOARD_FILL}"/>']
    letters = []
    for cell, letter in enumerate(board):
        cx, cy = cell_centre(geometry, cell)
        fill = ON_FILL if cell in on else CELL_FILL
        shown = panel.faces[cell] if panel.faces else "Qu" if letter == "q" else letter.upper()
        out.append(
            f'<rect class="cell{" on" * (cell in on)}" data-cell="{cell}" x="{_n(cx - CELL / 2)}" '
            f'y="{_n(cy - CELL / 2)}" width="{CELL}" height="{CELL}" rx="7" fill="{fill}" '
            f'stroke="{CELL_EDGE}" stroke-width="1.2"/>'
        )
        # over the path, with a halo of the cell's colour so the line never crosses a letter
        letters.append(
            f'<text class="letter" data-cell="{cell}" x="{_n(cx)}" y="{_n(cy)}" text-anchor="middle" '
            f'dominant-baseline="central" font-size="{26 if len(shown) == 1 else 22}" font-weight="600" '
            f'fill="{INK}" stroke="{fill}" stroke-width="8" stroke-linejoin="round" '
            f'paint-order="stroke">{shown}</text>'
        )
    if path:
        centres = [cell_centre(geometry, c) for c in path]
        sx, sy = centres[0]
        out.append(f'<g class="word" data-cells="{" ".join(map(str, path))}">')
        out.append(
            f'<circle class="start" cx="{_n(sx)}" cy="{_n(sy)}" r="{CELL * 0.4:.1f}" fill="none" '
            f'stroke="{LINE}" stroke-width="3"/>'
        )
        if len(centres) > 1:
            pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in centres)
            out.append(
                f'<polyline class="path" points="{pts}" fill="none" stroke="{LINE}" '
                f'stroke-opacity="0.6" stroke-width="5" stroke-linejoin="round" stroke-linecap="round"/>'
            )
            out.extend(_arrowhead(a, b) for a, b in zip(centres, centres[1:]))
        out.append("</g>")
    out.extend(letters)
    y = height
    for text, size, weight, colour in ((panel.caption, 15, "700", INK), (panel.note, 13, "400", MUTED)):
        if text:
            y += 20
            out.append(
                f'<text class="caption" x="{_n(width / 2)}" y="{y - 4}" text-anchor="middle" '
                f'font-size="{size}" font-weight="{weight}" fill="{colour}">{escape(text)}</text>'
            )
    return out


def panels_svg(
    geometry: Geometry, panels: Sequence[Panel], *, title: str = "", subtitle: str = "", per_row: int = 3
) -> str:
    """Several boards of one size in one picture, ``per_row`` to a row, under an optional
    title (bold) and subtitle."""
    if not panels:
        raise ValueError("nothing to draw")
    captions = max((bool(p.caption) + bool(p.note)) for p in panels)
    pw, ph = _panel_size(geometry, captions)
    cols = min(per_row, len(panels))
    rows = math.ceil(len(panels) / cols)
    top = (34 if title else 0) + (20 if subtitle else 0)
    margin, space = 8, 18
    width = 2 * margin + cols * pw + (cols - 1) * space
    # wide enough for the title (an estimate: SVG text does not wrap or measure itself)
    width = max(width, 2 * margin + math.ceil(max(len(title) * 17, len(subtitle) * 13) * 0.6))
    height = 2 * margin + top + rows * ph + (rows - 1) * space
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" role="img">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
        out.append(
            f'<text class="title" x="{margin}" y="{margin + 20}" font-size="17" font-weight="700" '
            f'fill="{INK}">{escape(title)}</text>'
        )
    if subtitle:
        out.append(
            f'<text class="subtitle" x="{margin}" y="{margin + top - 12}" font-size="13" '
            f'fill="{MUTED}">{escape(subtitle)}</text>'
        )
    for i, panel in enumerate(panels):
        r, c = divmod(i, cols)
        x, y = margin + c * (pw + space), margin + top + r * (ph + space)
        out.append(f'<g class="panel" transform="translate({x},{y})">')
        out.extend(_panel(geometry, panel))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def board_svg(
    geometry: Geometry, board: str, path: Sequence[int] = (), *, caption: str = "", note: str = "",
    faces: Sequence[str] = (),
) -> str:
    """One board as an SVG string, with ``path`` (cells in spelling order) drawn if given;
    ``faces``: each cell as its die shows it (``Alphabet.faces``: ``IJ``, ``ß``)."""
    return panels_svg(geometry, [Panel(board, path, caption, note, tuple(faces))])
