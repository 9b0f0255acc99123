"""Text and SVG views of Pipe Mania: the grid (flooded channels drawn heavy/blue), the
flow's timing, the dispensers and the scores."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core import CHANCE
from .board import BY_ID, DC, DR, PIPE_IDS, SIDE_NAMES

if TYPE_CHECKING:
    from .rules import Board, PipeManiaState

_HEAVY = {"H": "━", "V": "┃", "WS": "┓", "ES": "┏", "NE": "┗", "NW": "┛"}
_START = ("△▷▽◁", "▲▶▼◀")
_ONEWAY = {"N": "^", "E": ">", "S": "v", "W": "<"}


def glyph(board: Board, cell: int) -> str:
    piece = board.cells[cell]
    if piece is None:
        return "·"
    flooded = board.flooded[cell]
    if piece.kind == "blocked":
        return "█"
    if piece.kind == "start":
        return _START[1 if flooded else 0][piece.channels[0][0]]
    if piece.kind == "drain":
        return "◉" if flooded else "◎"
    if piece.kind == "oneway":
        return _ONEWAY[piece.id[2]]
    if piece.kind == "reservoir":
        return "▣" if flooded else "□"
    base = piece.id.split(":")[-1]
    if base == "X":
        return {0: "┼", 1: "┿", 2: "╂", 3: "╋"}[flooded]
    return _HEAVY[base] if flooded else BY_ID[base].glyph


def grid_lines(board: Board) -> list[str]:
    lv = board.level
    lines = ["   " + " ".join(f"{c % 10}" for c in range(lv.cols))]
    for r in range(lv.rows):
        lines.append(f"{r:>2} " + " ".join(glyph(board, r * lv.cols + c) for c in range(lv.cols)))
    return lines


def flow_status(board: Board) -> str:
    lv = board.level
    goal = (
        f"reach the drain{f' with {lv.min_length} channels' if lv.min_length else ''}"
        if lv.goal == "connect"
        else f"flood {lv.min_length} channels"
    )
    head = f"level {lv.number} ({goal}), tick {board.tick}"
    if board.over:
        return head + ": over"
    if not board.started:
        return head + f": the flow starts in {board.start_delay - board.tick} ticks"
    return (
        head
        + f": flowing every {board.flow_period} ticks, length {board.length}, crossovers {board.crossovers}"
    )


def ends_status(board: Board) -> str:
    """Where the start and the drain are and which side they open to."""
    lv = board.level
    parts = []
    for name, end in (("start", lv.start), ("drain", lv.drain)):
        if end is not None:
            r, c = divmod(end[0], lv.cols)
            parts.append(f"{name} {r},{c} opens {SIDE_NAMES[end[1]]}")
    return ", ".join(parts)


def _supply(state: PipeManiaState, p: int) -> str:
    g = state.game
    if g.supply == "fixed":
        return "pieces: " + " ".join(f"{BY_ID[k].glyph}x{n}" for k, n in state.pools[p].items() if n)
    if g.supply == "choice" and g.choice == "free":
        return "pieces: any"
    stacks = ["".join(BY_ID[k].glyph for k in state.queue(p, i)) for i in range(len(state.dispensers[p]))]
    return "queue: " + " | ".join(stacks)


def text(state: PipeManiaState) -> str:
    lines = []
    for i, board in enumerate(state.boards):
        if len(state.boards) > 1:
            lines.append(f"grid of player {i + 1}")
        lines.append(flow_status(board))
        lines.append(ends_status(board))
        lines.extend(grid_lines(board))
    for p in range(state.num_players):
        lost = f", loses {state.lost[p]} ticks" if state.lost[p] else ""
        lines.append(f"player {p + 1}: score {state.scores[p]}, {_supply(state, p)}{lost}")
    if state.outcome is not None:
        lines.append(f"{state.outcome.result_text()}: {state.outcome.reason}")
    elif state.to_move == CHANCE:
        lines.append("the dispenser draws a piece")
    else:
        lines.append(f"player {state.to_move + 1} to act (p<row>,<col>, - to pass, h to hurry)")
    return "\n".join(lines)


SIZE = 36
_COLOURS = ("#c0392b", "#2c5fb3")


def _piece_svg(piece_id: str, flooded: int, x: float, y: float, s: float = SIZE) -> list[str]:
    piece = BY_ID.get(piece_id.split(":")[-1])
    out = []
    if piece is None:
        return out
    cx, cy = x + s / 2, y + s / 2
    for i, (a, b) in enumerate(piece.channels):
        wet = flooded >> i & 1
        colour = "#1e88e5" if wet else "#555"
        pts = [
            f"{cx + DC[a] * s / 2},{cy + DR[a] * s / 2}",
            f"{cx},{cy}",
            f"{cx + DC[b] * s / 2},{cy + DR[b] * s / 2}",
        ]
        out.append(
            f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="{s / 5}"/>'
        )
        if wet:  # the flooz drawn moving: light dashes running along the channel
            out.append(
                f'<polyline points="{" ".join(pts)}" fill="none" stroke="#bbdefb" stroke-width="{s / 12:g}" '
                f'stroke-dasharray="4 6" class="flow"><animate attributeName="stroke-dashoffset" '
                f'from="10" to="0" dur="0.6s" repeatCount="indefinite"/></polyline>'
            )
    return out


def _board_svg(state: PipeManiaState, board: Board, ox: float, oy: float, targets: dict) -> list[str]:
    lv = board.level
    prefix = state._target_prefix(board.players[0])  # the cells' names, as the moves use them
    out = [f'<text x="{ox}" y="{oy - 20}" font-size="12">{_xml(flow_status(board))}</text>']
    # Coordinates as the moves name cells: p<row>,<col>, counted from 0.
    font = 'font-size="10" font-family="sans-serif" text-anchor="middle" fill="#444" class="coord"'
    for c in range(lv.cols):
        out.append(f'<text x="{ox + c * SIZE + SIZE / 2:g}" y="{oy - 5}" {font}>{c}</text>')
    for r in range(lv.rows):
        out.append(f'<text x="{ox - 8}" y="{oy + r * SIZE + SIZE / 2 + 4:g}" {font}>{r}</text>')
    for cell in range(lv.cols * lv.rows):
        r, c = divmod(cell, lv.cols)
        x, y = ox + c * SIZE, oy + r * SIZE
        piece = board.cells[cell]
        fill = "#fafafa"
        if piece is not None and piece.kind == "blocked":
            fill = "#333"
        elif board.owner[cell] >= 0 and len(state.scores) == 2 and len(state.boards) == 1:
            fill = ("#f6d6d2", "#d4e1f6")[board.owner[cell]]
        attrs = f' data-cell="{prefix}{r},{c}"'
        if cell in targets:
            attrs += f' data-target="{targets[cell]}"'
        out.append(
            f'<rect x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{fill}" stroke="#bbb" class="cell"{attrs}/>'
        )
        if piece is None or piece.kind == "blocked":
            continue
        if piece.kind in ("start", "drain"):
            side = piece.channels[0][0]
            colour = "#1e88e5" if board.flooded[cell] else "#555"
            cx, cy = x + SIZE / 2, y + SIZE / 2
            shape = "rect" if piece.kind == "start" else "circle"
            if shape == "rect":
                out.append(
                    f'<rect x="{x + 8}" y="{y + 8}" width="{SIZE - 16}" height="{SIZE - 16}" fill="{colour}"/>'
                )
            else:
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{SIZE / 3}" fill="none" stroke="{colour}" stroke-width="4"/>'
                )
            ex, ey = cx + DC[side] * SIZE / 2, cy + DR[side] * SIZE / 2
            out.append(
                f'<line x1="{cx}" y1="{cy}" x2="{ex}" y2="{ey}" stroke="{colour}" stroke-width="{SIZE / 5}"/>'
            )
            out.append(f"<title>{piece.kind} opening {SIDE_NAMES[side]}</title>")
            continue
        out.extend(_piece_svg(piece.id, board.flooded[cell], x, y))
        if piece.kind in ("reservoir", "bonus", "fixed", "oneway"):
            out.append(f'<text x="{x + 2}" y="{y + 11}" font-size="10">{piece.kind[0].upper()}</text>')
    return out


def svg(state: PipeManiaState) -> str:
    boards = state.boards
    lv = boards[0].level
    # The panel (scores, dispensers, buttons) goes below the boards, not beside them: the
    # picture then stays narrow enough for a phone to show grid and queue at once.
    width = max(20 + len(boards) * (lv.cols * SIZE + 30), 300)
    # Click targets: the cells where the player to move can place, and the choices.
    cell_targets: dict[int, dict[int, str]] = {i: {} for i in range(len(boards))}
    extra: list[str] = []
    if state.outcome is None and state.to_move not in (None, CHANCE):
        bi = state.board_of[state.to_move]
        for move in state.legal_moves():
            if move.data[0] == "place":
                cell_targets[bi][move.data[1]] = move.path[0]
            elif move.path[0] not in extra:
                extra.append(move.path[0])
            if len(move.path) > 1 and move.path[1] not in extra:
                extra.append(move.path[1])
    body: list[str] = []
    for i, board in enumerate(boards):
        body.extend(_board_svg(state, board, 20 + i * (lv.cols * SIZE + 30), 44, cell_targets[i]))
    px, y = 20, 44 + lv.rows * SIZE + 22
    for p in range(state.num_players):
        body.append(
            f'<text x="{px}" y="{y}" font-size="12" fill="{_COLOURS[p]}">P{p + 1}: {state.scores[p]}</text>'
        )
        if state.uses_queue():  # each dispenser a row, to the right of the score
            for k in range(len(state.dispensers[p])):
                for j, pid in enumerate(state.queue(p, k)):
                    body.extend(_piece_svg(pid, 0, px + 70 + j * 22, y - 15 + k * 24, 20))
            y += 24 * max(0, len(state.dispensers[p]) - 1)
        y += 28
    bx = px
    for target in extra:  # the buttons in rows
        if bx + 60 > width - 10:
            bx, y = px, y + 26
        label = {"pass": "pass", "hurry": "hurry"}.get(target, target)
        body.append(
            f'<rect x="{bx}" y="{y - 15}" width="60" height="22" fill="#fff" stroke="#333" class="button" '
            f'data-target="{_xml(target)}"/>'
        )
        if target in PIPE_IDS:
            body.extend(_piece_svg(target, 0, bx + 38, y - 14, 20))
        body.append(f'<text x="{bx + 4}" y="{y}" font-size="12">{_xml(label)}</text>')
        bx += 66
    height = y + (20 if extra else 0)
    return "\n".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" class="qipan pipemania">',
            f'<rect width="{width}" height="{height}" fill="#eef2f5"/>',
            *body,
            f"<title>{_xml(text(state).splitlines()[-1])}</title>",
            "</svg>",
        ]
    )


def _xml(text: str) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
