"""MOD X as text and as SVG: stacks of markers, X pieces, jokers, scores and supplies."""

from __future__ import annotations

from .board import BIT, COLOURS, FILES, LETTERS, NAMES, SIZE
from .position import cell_text
from .rules import ModXState

FILL = {0: "#d62828", 1: "#222222", 2: "#f2c200", 3: "#f77f00"}


def status_line(state: ModXState) -> str:
    parts = []
    for p in range(state.num_players):
        parts.append(
            f"{LETTERS[p]} {COLOURS[p]} {state.points[p]} pts (X {state.supply_x[p]}, markers {state.supply_m[p]})"
        )
    line = " | ".join(parts)
    if state.teams:
        line += f" | teams R+Y {state.side_points(0)}, B+O {state.side_points(1)}"
    return line


def turn_line(state: ModXState) -> str:
    if state.outcome is not None:
        if not state.outcome.winners:
            return f"game over: draw; {state.outcome.reason}"
        who = ", ".join(COLOURS[p] for p in state.outcome.winners)
        return f"game over: {who} won; {state.outcome.reason}"
    who = COLOURS[state.to_move]
    if state.phase == "setup":
        return f"{who} places the jokers ({state.pending} left): J@square, no two touching"
    if state.phase == "relocate":
        return f"{who} relocates a removed joker ({state.pending} left): J>square"
    return f"{who} to place an X (target {state.target})"


def text(state: ModXState) -> str:
    """One column per file; a cell is ``.`` or markers bottom→top (lower case) then the
    top piece (``R``/``B``/``Y``/``O`` X piece, ``J`` joker)."""
    cells = [cell_text(state, s) for s in range(SIZE * SIZE)]
    width = max(3, max(len(c) for c in cells))
    head = "   " + " ".join(f.center(width) for f in FILES)
    rows = [head]
    for rank in range(SIZE - 1, -1, -1):
        row = " ".join(cells[rank * SIZE + f].center(width) for f in range(SIZE))
        rows.append(f"{rank + 1:>2} {row}")
    rows.append(head)
    rows.append(status_line(state))
    rows.append(turn_line(state))
    return "\n".join(rows)


CELL = 56
MARGIN = 24


def _x_shape(cx: float, cy: float, r: float, colour: str, stroke: str, opacity: float) -> str:
    return (
        f'<g opacity="{opacity}"><path d="M{cx - r},{cy - r} L{cx + r},{cy + r} M{cx - r},{cy + r} '
        f'L{cx + r},{cy - r}" stroke="{stroke}" stroke-width="13" stroke-linecap="round"/>'
        f'<path d="M{cx - r},{cy - r} L{cx + r},{cy + r} M{cx - r},{cy + r} L{cx + r},{cy - r}" '
        f'stroke="{colour}" stroke-width="9" stroke-linecap="round"/></g>'
    )


def svg(state: ModXState) -> str:
    size = SIZE * CELL + 2 * MARGIN
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size + 28}" '
        f'width="{size}" height="{size + 28}" font-family="sans-serif">',
        f'<rect x="0" y="0" width="{size}" height="{size + 28}" fill="#f4efe4"/>',
    ]
    last = state.history[-1].path[-1] if state.history and state.history[-1].path else None
    for s in range(SIZE * SIZE):
        f, r = s % SIZE, s // SIZE
        x, y = MARGIN + f * CELL, MARGIN + (SIZE - 1 - r) * CELL
        name = NAMES[s]
        shade = "#e8dcc0" if (f + r) % 2 else "#d8c8a4"
        out.append(f'<g class="square" data-target="{name}"><title>{name}</title>')
        out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{shade}" stroke="#9a8a6a"/>')
        stack = state.stacks[s]
        if stack:
            # The top marker fills the square; covered markers show as chips along the bottom.
            out.append(
                f'<rect class="marker" x="{x + 5}" y="{y + 5}" width="{CELL - 10}" height="{CELL - 18}" '
                f'rx="4" fill="{FILL[stack[-1]]}" opacity="0.55"/>'
            )
            # The owner's letter too: red, orange and yellow are not told apart by colour alone.
            out.append(_letter(x + CELL - 12, y + 16, LETTERS[stack[-1]], "marker-letter"))
            for i, p in enumerate(stack[:-1]):
                out.append(
                    f'<rect class="covered-marker" x="{x + 5 + i * 9}" y="{y + CELL - 11}" width="7" '
                    f'height="7" fill="{FILL[p]}" stroke="#fff" stroke-width="0.8"/>'
                )
        cx, cy = x + CELL / 2, y + CELL / 2 - 4
        if state.jokers & BIT[s]:
            out.append(
                _x_shape(cx, cy, 13, "#ffffff", "#8aa0b8", 0.85).replace("<g ", '<g class="joker" ', 1)
            )
        else:
            for p, xs in enumerate(state.xs):
                if xs & BIT[s]:
                    out.append(
                        _x_shape(cx, cy, 13, FILL[p], "#ffffff", 1).replace("<g ", '<g class="xpiece" ', 1)
                    )
                    out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="7" fill="#ffffff" stroke="{FILL[p]}"/>')
                    out.append(_letter(cx, cy + 4, LETTERS[p], "xpiece-letter"))
        if name == last:
            out.append(
                f'<rect class="last-move" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                f'fill="none" stroke="#1b3a6b" stroke-width="3" stroke-dasharray="6 3"/>'
            )
        out.append("</g>")
    for i in range(SIZE):
        fx = MARGIN + i * CELL + CELL / 2
        out.append(
            f'<text x="{fx}" y="{MARGIN + SIZE * CELL + 16}" text-anchor="middle" font-size="13">{FILES[i]}</text>'
        )
        ry = MARGIN + (SIZE - 1 - i) * CELL + CELL / 2 + 5
        out.append(f'<text x="{MARGIN / 2}" y="{ry}" text-anchor="middle" font-size="13">{i + 1}</text>')
    scores = "  ".join(f"{LETTERS[p]} {state.points[p]}" for p in range(state.num_players))
    out.append(
        f'<text x="{MARGIN}" y="{size + 18}" font-size="14">{scores} — {_escape(turn_line(state))}</text>'
    )
    out.append("</svg>")
    return "\n".join(out)


def _letter(x: float, y: float, letter: str, cls: str) -> str:
    """A seat's letter, dark with a light halo so it reads on every colour."""
    return (
        f'<text x="{x:g}" y="{y:g}" text-anchor="middle" font-size="11" font-weight="700" fill="#111" '
        f'stroke="#fff" stroke-width="2.5" paint-order="stroke" class="{cls}">{letter}</text>'
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
