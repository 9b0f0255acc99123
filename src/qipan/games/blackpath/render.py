"""Text and SVG boards. The path's segments are drawn solid, the unused segments faint."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import CROSS, EMPTY, PAIR, SIDE_NAMES, SYMBOLS, cell_name

if TYPE_CHECKING:
    from .rules import BlackPathState


def _used_segments(state: BlackPathState) -> dict[int, set[frozenset]]:
    used: dict[int, set[frozenset]] = {}
    for cell, a, b in state.path():
        used.setdefault(cell, set()).add(frozenset((a, b)))
    return used


def _segments(tile: int) -> list[frozenset]:
    pair = PAIR[tile]
    return list({frozenset((a, pair[a])) for a in range(4)})


def _status(state: BlackPathState) -> str:
    if state.outcome is not None:
        return f"{state.outcome.result_text()}: {state.outcome.reason}"
    where = cell_name(state.end_cell, state.game.cols)
    return (
        f"player {state.to_move + 1} to place a tile at {where} (entered from {SIDE_NAMES[state.end_side]})"
    )


# Characters of a cell's 3x3 block: (row, col, path char, unused char) per segment.
_CROSS_V = [(0, 1, "|", ":"), (2, 1, "|", ":")]
_CROSS_H = [(1, 0, "-", "."), (1, 2, "-", ".")]


def _block(state: BlackPathState, cell: int, used: set[frozenset]) -> list[list[str]]:
    g = state.game
    block = [[" "] * 3 for _ in range(3)]
    tile = state.tiles[cell]
    if tile == EMPTY:
        if cell == g.goal:
            block[1][1] = "*"
        if state.outcome is None and cell == state.end_cell:
            block[1][1] = "?"
        return block
    for seg in _segments(tile):
        on = seg in used
        if tile == CROSS:
            marks = _CROSS_V if seg == frozenset((0, 2)) else _CROSS_H
            for r, c, solid, faint in marks:
                block[r][c] = solid if on else faint
        else:
            # An arc is drawn in the corner between its two sides.
            r = 0 if 0 in seg else 2
            c = 2 if 1 in seg else 0
            block[r][c] = SYMBOLS[tile] if on else "."
    if tile == CROSS:
        vertical_on = frozenset((0, 2)) in used
        horizontal_on = frozenset((1, 3)) in used
        block[1][1] = "+" if vertical_on == horizontal_on else ("|" if vertical_on else "-")
    return block


def text(state: BlackPathState) -> str:
    g = state.game
    used = _used_segments(state)
    header = "    " + "".join(f" {chr(ord('a') + c)} " for c in range(g.cols))
    lines = [header, "   +" + "---" * g.cols + "+"]
    for r in range(g.rows):
        blocks = [_block(state, r * g.cols + c, used.get(r * g.cols + c, set())) for c in range(g.cols)]
        for i in range(3):
            label = f"{r + 1:>2} " if i == 1 else "   "
            lines.append(label + "|" + "".join("".join(b[i]) for b in blocks) + "|")
    lines.append("   +" + "---" * g.cols + "+")
    lines.append(_status(state))
    return "\n".join(lines)


SIZE = 48


def _segment_svg(tile: int, seg: frozenset, x: float, y: float, on: bool) -> str:
    s = SIZE
    style = 'stroke="#111" stroke-width="6"' if on else 'stroke="#bbb" stroke-width="3"'
    if tile == CROSS:
        if seg == frozenset((0, 2)):
            return f'<line x1="{x + s / 2}" y1="{y}" x2="{x + s / 2}" y2="{y + s}" {style}/>'
        return f'<line x1="{x}" y1="{y + s / 2}" x2="{x + s}" y2="{y + s / 2}" {style}/>'
    # Quarter circle of radius s/2 around the corner between the two sides.
    cx = x + (s if 1 in seg else 0)
    cy = y + (0 if 0 in seg else s)
    x1, y1 = x + s / 2, cy  # the middle of the N or S side
    x2, y2 = cx, y + s / 2  # the middle of the E or W side
    return f'<path d="M{x1},{y1} A{s / 2},{s / 2} 0 0 {1 if (cx == x) == (cy == y) else 0} {x2},{y2}" fill="none" {style}/>'


def svg(state: BlackPathState) -> str:
    g = state.game
    used = _used_segments(state)
    s, pad = SIZE, 20
    width = pad * 2 + g.cols * s + (s + 30 if state.outcome is None else 0)
    height = pad * 2 + max(g.rows * s, 3 * (s + 8))
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" class="qipan blackpath">',
        f'<rect width="{width}" height="{height}" fill="#f4efe2"/>',
    ]
    for cell in range(g.rows * g.cols):
        r, c = divmod(cell, g.cols)
        x, y = pad + c * s, pad + r * s
        name = cell_name(cell, g.cols)
        attrs = f'class="cell" data-cell="{name}"'
        fill = "#fff"
        if cell == g.goal:
            fill = "#f2c14e"
        if state.outcome is None and cell == state.end_cell:
            attrs += f' data-target="{name}"'
            fill = "#9fd3a0"
        out.append(f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="{fill}" stroke="#777" {attrs}/>')
        tile = state.tiles[cell]
        if tile != EMPTY:
            for seg in _segments(tile):
                out.append(_segment_svg(tile, seg, x, y, seg in used.get(cell, set())))
    # Coordinates as moves and results name cells (a1 top left): letters below, numbers
    # on the right (the start mark takes the top-left corner's margins).
    font = 'font-size="12" font-family="sans-serif" text-anchor="middle" fill="#444" class="coord"'
    for c in range(g.cols):
        out.append(
            f'<text x="{pad + c * s + s / 2:g}" y="{pad + g.rows * s + 15}" {font}>{chr(ord("a") + c)}</text>'
        )
    for r in range(g.rows):
        out.append(f'<text x="{pad + g.cols * s + 10}" y="{pad + r * s + s / 2 + 4:g}" {font}>{r + 1}</text>')
    # Where the path starts: a mark on the start side of the top-left cell.
    if g.start_side == 3:
        out.append(
            f'<line x1="{pad - 12}" y1="{pad + s / 2}" x2="{pad}" y2="{pad + s / 2}" stroke="#111" stroke-width="6"/>'
        )
    else:
        out.append(
            f'<line x1="{pad + s / 2}" y1="{pad - 12}" x2="{pad + s / 2}" y2="{pad}" stroke="#111" stroke-width="6"/>'
        )
    if state.outcome is None:
        # The tile choices for the free end, clickable after its cell.
        x = pad + g.cols * s + 30
        for i, move in enumerate(state.legal_moves()):
            y = pad + i * (s + 8)
            tile = {"+": 1, "/": 2, "\\": 3}[move.text]
            out.append(
                f'<rect x="{x}" y="{y}" width="{s}" height="{s}" fill="#fff" stroke="#333" '
                f'class="choice" data-target="{_xml(move.path[1])}"/>'
            )
            for seg in _segments(tile):
                out.append(_segment_svg(tile, seg, x, y, True))
    out.append(f"<title>{_xml(_status(state))}</title>")
    out.append("</svg>")
    return "\n".join(out)


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
