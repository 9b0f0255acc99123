"""Text and SVG boards. Every empty point (and every stone, for the capture choice of
``max_pairs_per_move``) carries ``data-target`` = its pente.org name, the Move path."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import FILES, Geometry

if TYPE_CHECKING:
    from .rules import PenteState

COLOUR_NAMES = ("White", "Black", "Red", "Blue")
SYMBOLS = ("O", "X", "R", "B")  # the last move is shown in lower case
FILLS = ("#f8f8f8", "#202020", "#c0392b", "#2e6fd8")


def player_label(state: PenteState, p: int) -> str:
    return f"P{p + 1} {COLOUR_NAMES[p]}"


def status_line(state: PenteState, words: list[str] | None = None) -> str:
    """The captures, who is to move or the result, and the last move with its
    announcement (``words``: ``state.announcements()``, if the caller has them)."""
    caps = ", ".join(f"{player_label(state, p)} {c}" for p, c in enumerate(state.captures))
    parts = [f"captures: {caps}"]
    if state.outcome is not None:
        parts.append(f"result: {state.outcome.result_text()} ({state.outcome.reason})")
    else:
        parts.append(f"to move: {player_label(state, state.to_move)}")
    if state.pending >= 0:
        parts.append(f"double open tria pending for {player_label(state, state.pending)}")
    if state.last >= 0:
        parts.append(f"last: {state.geom.name[state.last]}")
        if words is None:
            words = state.announcements()  # the etiquette's "tria" / "tessera" (禮節)
        if words:
            parts.append(f"{player_label(state, state.stone(state.last))} announces: {', '.join(words)}")
    return " | ".join(parts)


def text(state: PenteState) -> str:
    g = state.geom
    n = g.n
    files = "    " + " ".join(FILES[:n])
    lines = [files]
    for row in range(n - 1, -1, -1):
        cells = []
        for col in range(n):
            i = g.index(col, row)
            p = state.stone(i)
            if p is None:
                cells.append("+" if i == g.centre else ".")
            else:
                s = SYMBOLS[p]
                cells.append(s.lower() if i == state.last else s)
        lines.append(f"{row + 1:>3} " + " ".join(cells) + f" {row + 1}")
    lines.append(files)
    lines.append(status_line(state))
    return "\n".join(lines)


def svg(state: PenteState, cell: int = 28) -> str:
    g = state.geom
    n = g.n
    margin = cell
    side = margin * 2 + cell * (n - 1)
    head, points = _board_parts(g, cell, state.num_players)
    cells = state.cells
    # The fixed parts come from the cache; only the stones, marks and texts are new.
    out = [head]
    out += [pieces[cells[i]] for i, pieces in points]
    if state.last >= 0:
        x, y = _xy(g, state.last, cell)
        out.append(
            f'<circle cx="{x}" cy="{y}" r="{cell * 0.45 * 0.35:.1f}" fill="#e74c3c" class="last-move"/>'
        )
    out.extend(_captures(state, side, margin, cell))
    words = state.announcements()
    if words:  # the etiquette's call, for front ends to show (in their language)
        p = state.stone(state.last)
        out.append(f'<g class="announce" data-announce="{words[0]}" data-player="{p}"/>')
    status = status_line(state, words).replace("&", "&amp;").replace("<", "&lt;")
    out.append(
        f'<text x="{margin}" y="{side + 18}" font-size="12" font-family="sans-serif" '
        f'class="status">{status}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def _xy(g: Geometry, i: int, cell: int) -> tuple[int, int]:
    return cell + g.col[i] * cell, cell + (g.n - 1 - g.row[i]) * cell


#: The fixed parts of the picture per (geometry, cell size, player count): see _board_parts.
_PARTS: dict[tuple[Geometry, int, int], tuple[str, list[tuple[int, tuple[str, ...]]]]] = {}


def _board_parts(g: Geometry, cell: int, players: int) -> tuple[str, list[tuple[int, tuple[str, ...]]]]:
    """What every picture of a board size draws alike, made once (most of a picture's
    cost): the frame, grid, labels and centre as one text, and for each point its element
    per cell value (empty, then each player's stone), in drawing order."""
    key = (g, cell, players)
    if key in _PARTS:
        return _PARTS[key]
    n = g.n
    margin = cell
    side = margin * 2 + cell * (n - 1)
    height = side + 30
    tray = 4 * cell  # captured pairs beside the board, one column per player
    width = side + tray
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="qipan-board pente">',
        f'<rect width="{width}" height="{height}" fill="#e3b766"/>',
    ]
    lo, hi = margin, margin + cell * (n - 1)
    for k in range(n):
        p = margin + k * cell
        out.append(f'<line x1="{lo}" y1="{p}" x2="{hi}" y2="{p}" stroke="#5a3d12" stroke-width="1"/>')
        out.append(f'<line x1="{p}" y1="{lo}" x2="{p}" y2="{hi}" stroke="#5a3d12" stroke-width="1"/>')
        font = 'font-size="11" font-family="sans-serif" text-anchor="middle" fill="#3a2a10"'
        out.append(f'<text x="{p}" y="{lo - 12}" {font}>{FILES[k]}</text>')
        out.append(f'<text x="{p}" y="{hi + 20}" {font}>{FILES[k]}</text>')
        out.append(f'<text x="{lo - 16}" y="{margin + (n - 1 - k) * cell + 4}" {font}>{k + 1}</text>')
        out.append(f'<text x="{hi + 16}" y="{margin + (n - 1 - k) * cell + 4}" {font}>{k + 1}</text>')
    cx, cy = _xy(g, g.centre, cell)
    out.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="#5a3d12"/>')
    r = cell * 0.45
    points = []
    for i in g.points:
        x, y = _xy(g, i, cell)
        name = g.name[i]
        pieces = [
            f'<circle cx="{x}" cy="{y}" r="{r:.1f}" fill="transparent" class="point" '
            f'data-target="{name}"><title>{name}</title></circle>'
        ]
        for p in range(players):
            stone = (
                f'<circle cx="{x}" cy="{y}" r="{r:.1f}" fill="{FILLS[p]}" stroke="#000" stroke-width="1" '
                f'class="stone p{p + 1}" data-target="{name}"><title>{name}</title></circle>'
            )
            if players > 2:  # four colours: the seat number too, not colour alone
                stone += "\n" + _seat_number(x, y, p, cell)
            pieces.append(stone)
        points.append((i, tuple(pieces)))  # indexed by the cell value: EMPTY, then player + 1
    _PARTS[key] = ("\n".join(out), points)
    return _PARTS[key]


def _seat_number(x: float, y: float, p: int, cell: int) -> str:
    ink = "#000" if p == 0 else "#fff"
    return (
        f'<text x="{x}" y="{y + cell * 0.16:.1f}" font-size="{cell * 0.42:.0f}" font-weight="700" '
        f'font-family="sans-serif" text-anchor="middle" fill="{ink}" class="seat-number">{p + 1}</text>'
    )


def _captures(state: PenteState, left: int, top: int, cell: int) -> list[str]:
    """Each player's captured pairs beside the board: a column per player headed by its
    stone and the stones it captured (the count the capture win uses), then one pair per capture."""
    out = []
    players = state.num_players
    col_w = cell * 4 // players
    r = cell * 0.3
    font = 'font-size="11" font-family="sans-serif" text-anchor="middle" fill="#3a2a10"'
    for p in range(players):
        x = left + p * col_w + col_w // 2
        out.append(f'<g class="captures" data-player="{p}" data-captures="{state.captures[p]}">')
        out.append(f'<circle cx="{x}" cy="{top - 12}" r="{r:.1f}" fill="{FILLS[p]}" stroke="#000"/>')
        out.append(f'<text x="{x}" y="{top + 12}" {font}>{state.captures[p]}</text>')
        victim = 1 - p if players == 2 else None
        for k in range(state.captures[p] // 2):  # captures counts stones; they go in pairs
            y = top + 24 + k * (r * 2 + 4)
            fill = FILLS[victim] if victim is not None else "#8a7a5a"
            for dx in (-r - 1, r + 1):
                out.append(
                    f'<circle cx="{x + dx:.1f}" cy="{y:.1f}" r="{r * 0.9:.1f}" fill="{fill}" stroke="#000"/>'
                )
        out.append("</g>")
    return out
