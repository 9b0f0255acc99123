"""Text (glyph grid, rules §2.7) and SVG pictures of a Trax position."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import (
    COLOUR,
    EMPTY_GLYPH,
    GLYPH,
    PLAYER_NAMES,
    RED,
    WHITE,
    WHITE_MASK,
    column_label,
    pos_of,
    row_col,
)

if TYPE_CHECKING:
    from .rules import TraxState


def text(state: TraxState) -> str:
    """The glyph grid with column letters and row numbers (as in the rules file), then
    whose turn it is or the result::

           AB
         1 r7
         2 LJ
        White wins: white loop
    """
    board = state.board
    lines = []
    if board.cells:
        width, height = board.width, board.height
        labels = [column_label(i) for i in range(1, width + 1)]
        depth = max(map(len, labels))
        margin = max(2, len(str(height))) + 1
        for level in range(depth):
            chars = [lab.rjust(depth)[level] for lab in labels]
            lines.append(" " * margin + "".join(chars).rstrip())
        for i, r in enumerate(range(board.min_r, board.max_r + 1), start=1):
            row = "".join(
                GLYPH.get(board.cells.get(pos_of(r, c)), EMPTY_GLYPH)
                for c in range(board.min_c, board.max_c + 1)
            )
            lines.append(f"{i:>{margin - 1}} {row}")
    else:
        lines.append("(no tiles)")
    if state.outcome is not None:
        if state.outcome.winners:
            lines.append(f"{PLAYER_NAMES[state.outcome.winners[0]]} wins: {state.outcome.reason}")
        else:
            lines.append(f"Draw: {state.outcome.reason}")
    else:
        lines.append(f"{PLAYER_NAMES[state.to_move]} to move")
    return "\n".join(lines)


CELL = 48
TRACK_WIDTH = 9
COLOURS = {WHITE: "#f4f1e8", RED: "#d62b2b"}
TILE_FILL = "#1c1c1c"


def _track(tile: int, colour: int, x: float, y: float) -> str:
    """One coloured track of a tile whose top-left corner is (x, y), as on a real tile:
    a straight band between opposite sides or a quarter arc around the shared corner."""
    sides = [d for d in range(4) if COLOUR[tile][d] == colour]
    h = CELL / 2
    mid = {0: (x + h, y), 1: (x + CELL, y + h), 2: (x + h, y + CELL), 3: (x, y + h)}
    (x1, y1), (x2, y2) = mid[sides[0]], mid[sides[1]]
    stroke = f'stroke="{COLOURS[colour]}" stroke-width="{TRACK_WIDTH}" fill="none"'
    if (sides[1] - sides[0]) % 2 == 0:
        return f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" {stroke}/>'
    return f'<path d="M{x1:g},{y1:g} A{h:g},{h:g} 0 0 {1 if sides == [0, 3] else 0} {x2:g},{y2:g}" {stroke}/>'


def _tile(tile: int, x: float, y: float) -> list[str]:
    parts = [f'<rect x="{x:g}" y="{y:g}" width="{CELL}" height="{CELL}" fill="{TILE_FILL}" stroke="#555"/>']
    straight = WHITE_MASK[tile] in (0b0101, 0b1010)
    if straight:
        # The white track crosses over the red one, with a dark rim like a bridge.
        parts.append(_track(tile, RED, x, y))
        h = CELL / 2
        vertical = WHITE_MASK[tile] == 0b0101
        x1, y1, x2, y2 = (x + h, y, x + h, y + CELL) if vertical else (x, y + h, x + CELL, y + h)
        parts.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{TILE_FILL}" '
            f'stroke-width="{TRACK_WIDTH + 6}"/>'
        )
        parts.append(_track(tile, WHITE, x, y))
    else:
        parts.append(_track(tile, WHITE, x, y))
        parts.append(_track(tile, RED, x, y))
    return parts


def _label(index: int, column: bool) -> str:
    """A column letter or row number of the current tile area (``@``/0 just outside it)."""
    if index < 0:
        return ""
    return column_label(index) if column else str(index)


def svg(state: TraxState) -> str:
    """The tiles, plus the empty cells where a tile may go as click targets
    (``data-target`` = the cell's name, the first element of the moves' paths); column
    letters and row numbers around them as the moves name cells; the last turn's tiles
    marked (``last-move``: the tile chosen, ``forced``: the tiles it forced); the cells of
    the result's loop or line (the web page highlights ``data-cell``)."""
    board = state.board
    moves = state.legal_moves()
    targets: dict[int, str] = {}
    for move in moves:
        targets.setdefault(move.data[0], move.path[0])
    cells = list(board.cells) + list(targets)
    rcs = [row_col(p) for p in cells] or [(0, 0)]
    min_r = min(r for r, _ in rcs)
    min_c = min(c for _, c in rcs)
    max_r = max(r for r, _ in rcs)
    max_c = max(c for _, c in rcs)
    pad, ruler = 6, 18
    width = (max_c - min_c + 1) * CELL + 2 * pad + ruler
    height = (max_r - min_r + 1) * CELL + 2 * pad + ruler
    ox, oy = pad + ruler, pad + ruler  # the top-left corner of the grid
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" class="qipan-trax">',
        f'<rect width="{width}" height="{height}" fill="#2e6b3a"/>',
    ]
    font = 'font-size="12" font-family="sans-serif" text-anchor="middle" fill="#f4f1e8" class="coord"'
    if board.cells:
        for c in range(min_c, max_c + 1):
            name = _label(c - board.min_c + 1, True)
            parts.append(
                f'<text x="{ox + (c - min_c) * CELL + CELL / 2:g}" y="{pad + 12}" {font}>{name}</text>'
            )
        for r in range(min_r, max_r + 1):
            name = _label(r - board.min_r + 1, False)
            parts.append(
                f'<text x="{pad + 7}" y="{oy + (r - min_r) * CELL + CELL / 2 + 4:g}" {font}>{name}</text>'
            )
    last = state.last_turn()
    forced = {p for p, _ in last[1:]}
    chosen = last[0][0] if last else None
    for p, t in sorted(board.cells.items()):
        r, c = row_col(p)
        mark = " last-move" if p == chosen else " forced" if p in forced else ""
        parts.append(f'<g class="tile{mark}" data-cell="{state.label(p)}">')
        x, y = ox + (c - min_c) * CELL, oy + (r - min_r) * CELL
        parts.extend(_tile(t, x, y))
        if mark:
            dash = "" if p == chosen else ' stroke-dasharray="3 3"'
            parts.append(
                f'<rect x="{x + 1.5:g}" y="{y + 1.5:g}" width="{CELL - 3}" height="{CELL - 3}" fill="none" '
                f'stroke="#ffd54f" stroke-width="{2.5 if p == chosen else 1.5}"{dash} class="mark"/>'
            )
        parts.append("</g>")
    for p, name in sorted(targets.items()):
        r, c = row_col(p)
        x, y = ox + (c - min_c) * CELL, oy + (r - min_r) * CELL
        parts.append(
            f'<rect class="target" data-target="{name}" x="{x + 3}" y="{y + 3}" width="{CELL - 6}" '
            f'height="{CELL - 6}" rx="6" fill="#ffffff" fill-opacity="0.12" stroke="#ffffff" '
            f'stroke-opacity="0.5" stroke-dasharray="4 3"><title>{name}</title></rect>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
