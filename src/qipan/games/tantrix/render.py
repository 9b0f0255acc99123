"""Text and SVG pictures of a Tantrix position: black hexagonal tiles with coloured curved
links (sharp, gentle, straight), the open hands, and the spaces with forced ones marked.

Click targets (``data-target``): hand tiles of the player to move (``t12``) and the
spaces (``1,-1``); rotations (``r0``..``r5``) are offered by the front-end as buttons."""

from __future__ import annotations

import math
from html import escape

from ...core import CHANCE
from .board import ALL_NUMBERS, COLOUR_NAMES, ORIENTED, PLAY, TILES, Cell, link_kind, track_value, tracks

SQ3 = math.sqrt(3)
PAINT = {"R": "#d7263d", "Y": "#f4c20d", "G": "#2a9d3f", "B": "#1e5bc6"}
STEP_NAMES = {1: "forced fills", 2: "free move", 3: "forced fills after the free move"}


def pixel(cell: Cell, size: float) -> tuple[float, float]:
    q, r = cell
    return size * SQ3 * (q + r / 2), size * 1.5 * r


def _fmt(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def hexagon_points(cx: float, cy: float, size: float) -> str:
    pts = []
    for k in range(6):
        a = math.radians(-90 + 60 * k)
        pts.append(f"{_fmt(cx + size * math.cos(a))},{_fmt(cy + size * math.sin(a))}")
    return " ".join(pts)


def _edge_mid(cx, cy, size, d):
    a = math.radians(-60 + 60 * d)
    h = size * SQ3 / 2
    return cx + h * math.cos(a), cy + h * math.sin(a)


def link_path(cx: float, cy: float, size: float, a: int, b: int) -> str:
    """SVG path data of the link joining edges a and b (sharp arc, gentle arc or straight)."""
    x1, y1 = _edge_mid(cx, cy, size, a)
    x2, y2 = _edge_mid(cx, cy, size, b)
    gap = (b - a) % 6
    if gap == 3:
        return f"M{_fmt(x1)},{_fmt(y1)} L{_fmt(x2)},{_fmt(y2)}"
    if gap in (1, 5):
        first = a if gap == 1 else b
        ang = math.radians(-60 + 60 * first + 30)  # the corner between the two edges
        ox, oy, radius = cx + size * math.cos(ang), cy + size * math.sin(ang), size / 2
    else:
        middle = (a + 1) % 6 if gap == 2 else (b + 1) % 6
        ang = math.radians(-60 + 60 * middle)  # the centre of the neighbour beyond the middle edge
        ox, oy, radius = cx + SQ3 * size * math.cos(ang), cy + SQ3 * size * math.sin(ang), 1.5 * size
    cross = (x1 - ox) * (y2 - oy) - (y1 - oy) * (x2 - ox)
    sweep = 1 if cross > 0 else 0
    r = _fmt(radius)
    return f"M{_fmt(x1)},{_fmt(y1)} A{r},{r} 0 0 {sweep} {_fmt(x2)},{_fmt(y2)}"


def tile_svg(
    cx: float,
    cy: float,
    size: float,
    oriented: str,
    number: int,
    target: str | None = None,
    highlight: bool = False,
    cell: Cell | None = None,
    last: bool = False,
) -> str:
    attrs = f' data-target="{escape(target)}" style="cursor:pointer"' if target else ""
    if cell is not None:
        attrs += f' data-cell="{cell[0]},{cell[1]}"'
    parts = [
        f'<g class="tile{" last-move" if last else ""}"{attrs}>',
        f'<polygon points="{hexagon_points(cx, cy, size * 0.98)}" fill="#141414" '
        f'stroke="{"#ffffff" if highlight else "#555"}" stroke-width="{1.5 if highlight else 1}"/>',
    ]
    for colour in sorted(set(oriented)):
        a, b = (d for d in range(6) if oriented[d] == colour)
        parts.append(
            f'<path d="{link_path(cx, cy, size, a, b)}" fill="none" stroke="{PAINT[colour]}" '
            f'stroke-width="{_fmt(size * 0.24)}"/>'
        )
    parts.append(
        f'<text x="{_fmt(cx)}" y="{_fmt(cy + size * 0.12)}" font-size="{_fmt(size * 0.32)}" '
        f'text-anchor="middle" fill="#dddddd" font-family="sans-serif">{number}</text>'
    )
    if last:  # the tile the last move placed
        parts.append(
            f'<polygon points="{hexagon_points(cx, cy, size * 0.9)}" fill="none" stroke="#ffd54f" '
            f'stroke-width="{_fmt(size * 0.08)}" class="mark"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def last_placed(state) -> Cell | None:
    """The cell of the most recent placement (draws and passes come between)."""
    for move in reversed(state.history):
        if move.data and move.data[0] == "place":
            return move.data[2]
    return None


def board_svg(
    board: dict,
    spaces: dict[Cell, int],
    hands: list[tuple[str, list[int], bool]],
    title: str,
    forced_at: int = 3,
    size: float = 28.0,
    last: Cell | None = None,
) -> str:
    """``board``: cell -> (tile, rot); ``spaces``: empty cell -> occupied neighbours (its
    ``data-target`` is the cell); ``hands``: (label, tiles, clickable) rows below the board."""
    cells = list(board) + list(spaces) or [(0, 0)]
    xs = [pixel(c, size)[0] for c in cells]
    ys = [pixel(c, size)[1] for c in cells]
    pad = size * 1.2
    min_x, max_x, min_y, max_y = min(xs) - pad, max(xs) + pad, min(ys) - pad, max(ys) + pad
    hand_size = size * 0.8
    hand_step = hand_size * SQ3 + 4
    width = max(max_x - min_x, 7 * hand_step + 120)
    top = 24
    board_h = max_y - min_y
    height = top + board_h + len(hands) * (hand_size * 2.2) + 10
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(width)} {_fmt(height)}" '
        f'width="{_fmt(width)}" height="{_fmt(height)}" font-family="sans-serif">',
        '<rect width="100%" height="100%" fill="#e9e4d8"/>',
        f'<text x="8" y="17" font-size="13" fill="#222">{escape(title)}</text>',
    ]
    ox, oy = -min_x + (width - (max_x - min_x)) / 2, top - min_y
    for cell, n in sorted(spaces.items()):
        cx, cy = pixel(cell, size)
        forced = n >= forced_at
        stroke = "#c0392b" if forced else "#9a9282"
        label = "#a0281c" if forced else "#5f584c"  # WCAG AA (4.5:1) on the space's fill
        out.append(
            f'<g class="space{" forced" if forced else ""}" data-target="{cell[0]},{cell[1]}" '
            f'style="cursor:pointer"><polygon points="{hexagon_points(cx + ox, cy + oy, size * 0.96)}" '
            f'fill="{"#f6d5cf" if forced else "#f3efe6"}" stroke="{stroke}" '
            f'stroke-width="{2.5 if forced else 1}" stroke-dasharray="{"" if forced else "3,3"}"/>'
            f'<text x="{_fmt(cx + ox)}" y="{_fmt(cy + oy + 4)}" font-size="{_fmt(size * 0.3)}" '
            f'text-anchor="middle" fill="{label}">{"F " if forced else ""}{cell[0]},{cell[1]}</text></g>'
        )
    for cell, (tile, rot) in sorted(board.items()):
        cx, cy = pixel(cell, size)
        out.append(tile_svg(cx + ox, cy + oy, size, ORIENTED[tile][rot], tile, cell=cell, last=cell == last))
    y = top + board_h + hand_size * 1.2
    for label, tiles, clickable in hands:
        out.append(f'<text x="8" y="{_fmt(y + 4)}" font-size="12" fill="#222">{escape(label)}</text>')
        x = 120
        for tile in tiles:
            out.append(
                tile_svg(
                    x,
                    y,
                    hand_size,
                    ORIENTED[tile][0],
                    tile,
                    target=f"t{tile}" if clickable else None,
                    highlight=clickable,
                )
            )
            x += hand_step
        y += hand_size * 2.2
    out.append("</svg>")
    return "".join(out)


def hex_map(board: dict, spaces: dict[Cell, int], forced_at: int = 3) -> list[str]:
    """An ASCII map: ``12r3`` for a tile, ``<F>`` for a forced space, ``.`` for a space."""
    cells = list(board) + list(spaces)
    if not cells:
        return ["(empty board: the first tile goes to 0,0)"]
    rows = sorted({r for _, r in cells})
    min_col = min(2 * q + r for q, r in cells)
    lines = []
    for r in rows:
        row = {2 * q + rr - min_col: (q, rr) for q, rr in cells if rr == r}
        width = (max(row) + 2) * 3 if row else 0
        chars = [" "] * (width + 6)
        for col, cell in row.items():
            if cell in board:
                tile, rot = board[cell]
                label = f"{tile}r{rot}"
            elif spaces.get(cell, 0) >= forced_at:
                label = "<F>"
            else:
                label = "."
            start = col * 3 + 3 - len(label) // 2
            chars[start : start + len(label)] = label
        lines.append(f"r={r:>3} " + "".join(chars).rstrip())
    return lines


def text(state) -> str:
    lines = [
        f"{state.game.title} — {state.num_players} players, {len(state.bag)} tiles in the bag"
        + (" (endgame: restrictions lifted)" if state.endgame else "")
    ]
    if state.outcome is not None:
        lines.append(f"Game over: {state.outcome.reason}; result {state.outcome.result_text()}")
    elif state.phase != PLAY:
        lines.append(f"Setup ({state.phase}): player {state.current + 1} draws")
    elif state.to_move == CHANCE:
        lines.append(f"Player {state.current + 1} draws a replacement tile")
    else:
        lines.append(f"Player {state.to_move + 1} to move: step {state.step} ({STEP_NAMES[state.step]})")
    scores = state.scores()
    for p, hand in enumerate(state.hands):
        colour = state.colours[p]
        tiles = " ".join(map(str, sorted(hand))) or "(empty)"
        lines.append(f"  P{p + 1} {COLOUR_NAMES[colour]:<6} score {scores[p]:>3}  hand: {tiles}")
    if state.order_draws:
        lines.append("  start-order draws: " + " ".join(map(str, state.order_draws)))
    lines.append("Board (tile number r rotation; <F> forced space, . space):")
    lines += hex_map(state.board, state.counts)
    if state.board:
        lines.append(
            "Placements: " + " ".join(f"{t}@{q},{r}r{k}" for (q, r), (t, k) in sorted(state.board.items()))
        )
    forced = state.forced_spaces
    if forced:
        lines.append("Forced spaces: " + " ".join(f"{q},{r}" for q, r in forced))
    for colour in sorted(set(state.colours)):
        best = sorted(
            ((track_value(c, loop), loop) for c, loop in tracks(state.edges, colour)), reverse=True
        )[:3]
        if best:
            desc = ", ".join(f"{v} ({'loop' if loop else 'line'})" for v, loop in best)
            lines.append(f"  {COLOUR_NAMES[colour]} tracks: {desc}")
    return "\n".join(lines)


def svg(state) -> str:
    if state.outcome is not None:
        title = f"Game over: {state.outcome.reason}"
    elif state.to_move == CHANCE:
        title = f"Player {state.current + 1} draws ({len(state.bag)} in the bag)"
    else:
        title = f"Player {state.to_move + 1}: {STEP_NAMES[state.step]} ({len(state.bag)} in the bag)"
    scores = state.scores()
    hands = [
        (f"P{p + 1} {COLOUR_NAMES[state.colours[p]]} {scores[p]}", sorted(h), p == state.to_move)
        for p, h in enumerate(state.hands)
    ]
    spaces = dict(state.counts)
    if not state.board:
        spaces = {(0, 0): 0}
    return board_svg(state.board, spaces, hands, title, last=last_placed(state))


# -- the tile gallery (``qipan tiles``, docs/games/tantrix-tiles.svg, the site's picture) -----
#: The seed's nicknames for the four link patterns (its "水、火、風、土").
KIND_NAMES = {"brid": "水", "sint": "火", "rond": "風", "chin": "土"}
EDGE_NAMES = ("NE", "E", "SE", "SW", "W", "NW")  # the edge indices of a pointy-top tile


def tile_description(number: int) -> str:
    """One tile in words: number, pattern, colours and links (rotation 0), back colour."""
    tile = TILES[number]
    links = ", ".join(
        f"{COLOUR_NAMES[c]} {EDGE_NAMES[a]}-{EDGE_NAMES[b]} ({link_kind(a, b)})" for c, a, b in tile.links()
    )
    missing = "".join(c for c in "BGRY" if c not in tile.colours)
    back = f"; back {COLOUR_NAMES[tile.back]}" if tile.back else ""
    return f"{number:>2}  {tile.kind} {KIND_NAMES[tile.kind]}  no {COLOUR_NAMES[missing]:<6}  {links}{back}"


def gallery_text() -> str:
    """The 56 tiles by number, one line each (``qipan tiles``)."""
    head = (
        "The 56 Tantrix tiles by number (rotation 0; edges NE E SE SW W NW). Patterns, with the "
        "seed's names: brid 水 (straight + 2 sharp), sint 火 (sharp + 2 gentle), rond 風 (3 sharp), "
        "chin 土 (straight + 2 gentle); 14 colourings without one of the four colours, 14 x 4 = 56."
    )
    return "\n".join([head, *(tile_description(n) for n in ALL_NUMBERS)])


def gallery_svg(columns: int = 8, size: float = 30.0) -> str:
    """The 56 tiles by number as one standalone SVG, each captioned with its pattern."""
    step_x, step_y = size * SQ3 + 10, size * 2 + 24
    rows = -(-len(ALL_NUMBERS) // columns)
    width, top = columns * step_x + 10, 30
    height = top + rows * step_y + 4
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(width)} {_fmt(height)}" '
        f'width="{_fmt(width)}" height="{_fmt(height)}" font-family="sans-serif" class="tantrix-tiles">',
        '<rect width="100%" height="100%" fill="#e9e4d8"/>',
        f'<text x="8" y="19" font-size="14" fill="#222">The {len(ALL_NUMBERS)} Tantrix tiles by number '
        "(brid 水, sint 火, rond 風, chin 土)</text>",
    ]
    for k, number in enumerate(ALL_NUMBERS):
        cx = 5 + step_x * (k % columns + 0.5)
        cy = top + size + step_y * (k // columns)
        tile = TILES[number]
        out.append(tile_svg(cx, cy, size, ORIENTED[number][0], number))
        out.append(
            f'<text x="{_fmt(cx)}" y="{_fmt(cy + size + 13)}" font-size="10" text-anchor="middle" '
            f'fill="#333">{tile.kind} {KIND_NAMES[tile.kind]}</text>'
        )
    out.append("</svg>")
    return "\n".join(out)


def solitaire_text(state) -> str:
    lines = [state.game.title]
    if state.outcome is not None:
        lines.append(f"Over: {state.outcome.reason}")
    elif state.to_move == CHANCE:
        lines.append(f"Drawing tiles ({len(state.hand)} of 7)")
    lines.append("Hand: " + (" ".join(map(str, state.hand)) or "(empty)"))
    lines += hex_map(state.board, state._spaces(), forced_at=7)
    return "\n".join(lines)


def solitaire_svg(state) -> str:
    status = state.outcome.reason if state.outcome else "place a tile"
    return board_svg(
        state.board,
        state._spaces(),
        [("hand", list(state.hand), state.to_move == 0)],
        f"{state.game.title}: {status}",
        forced_at=7,
        last=last_placed(state),
    )
