"""Text and SVG pictures of a Morris position, drawn from the board data (grid positions
come from the point names)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from .board import COLOUR, Geometry, grid_xy
from .rules import MorrisState

_STONE = ("W", "B")


def _status(state: MorrisState) -> str:
    if state.outcome is not None:
        return f"Game over: {state.outcome.result_text()} ({state.outcome.reason})"
    c = state.to_move
    what = {
        "placing": "to place",
        "moving": "to move",
        "flying": "to move (flying)",
        "removing": "to remove a stone (full board)",
    }[state.phase(c)]
    return f"{COLOUR[c]} {what}"


def text(state: MorrisState) -> str:
    """The board as in the rules file, with W / B stones and . for empty points."""
    t = state.t
    size = t.board.size
    width, height = 4 * (size - 1) + 1, 2 * (size - 1) + 1
    canvas = [[" "] * width for _ in range(height)]

    def cell(name):
        x, y = grid_xy(name)
        return 4 * x, 2 * (size - 1 - y)

    for a, b in t.board.edges:
        (x1, y1), (x2, y2) = sorted((cell(a), cell(b)))
        if y1 == y2:
            for x in range(x1 + 1, x2):
                canvas[y1][x] = "-"
        elif x1 == x2:
            for y in range(min(y1, y2) + 1, max(y1, y2)):
                canvas[y][x1] = "|"
        else:  # a diagonal: one slash halfway between the two points
            mx, my = (x1 + x2) // 2, (y1 + y2) // 2
            canvas[my][mx] = "\\" if (y2 - y1) * (x2 - x1) > 0 else "/"
    for i, name in enumerate(t.names):
        x, y = cell(name)
        canvas[y][x] = "W" if state.bb[0] >> i & 1 else "B" if state.bb[1] >> i & 1 else "."
    lines = []
    for row, chars in enumerate(canvas):
        label = str(size - row // 2) if row % 2 == 0 else " "
        lines.append(f"{label}  " + "".join(chars).rstrip())
    lines.append("   " + "   ".join(chr(ord("a") + i) for i in range(size)))
    hands = f"in hand W {state.hand[0]} B {state.hand[1]}"
    board = f"on board W {state.bb[0].bit_count()} B {state.bb[1].bit_count()}"
    lines.append(f"{_status(state)} · {hands} · {board}")
    return "\n".join(lines)


def svg(state: MorrisState, cell: int = 60) -> str:
    """A standalone SVG; every point and stone carries ``data-target`` = its name."""
    t = state.t
    parts = _board_parts(t, cell)
    last = state.history[-1] if state.history else None
    from_to = removed = 0  # point masks of the last move's ends and of what it removed
    if last is not None and last.data is not None:
        f, to, rem, _, _ = last.data
        from_to = sum(1 << i for i in (f, to) if i >= 0)
        removed = rem
    white, black = state.bb
    out = [parts.head]
    for i, (point, stones, cross) in enumerate(parts.points):
        lit = from_to >> i & 1
        out.append(point[lit])
        if white >> i & 1:
            out.append(stones[0][lit])
        elif black >> i & 1:
            out.append(stones[1][lit])
        if removed >> i & 1:
            out.append(cross)
    out.append(parts.labels)
    side = parts.side
    caption = f"{_status(state)} · hands W {state.hand[0]} B {state.hand[1]}"
    # Shrink a long caption to the board's width (a glyph is about 0.55 em wide).
    font = min(14.0, (side - 8) / (0.55 * len(caption)))
    out.append(
        f'<text x="{side / 2:g}" y="{side + 16}" font-size="{font:.1f}" text-anchor="middle">'
        f"{escape(caption)}</text>"
    )
    out.append("</svg>")
    return "\n".join(out)


@dataclass(frozen=True)
class _Parts:
    """What every picture of one board at one size draws alike (see _board_parts)."""

    side: int
    #: The frame and the lines, as one text.
    head: str
    #: Per point (in the order of the names): its marker (plain, highlighted), its stone per
    #: colour (plain, highlighted) and the cross marking a removed stone.
    points: list[tuple[tuple[str, str], tuple[tuple[str, str], tuple[str, str]], str]]
    #: The file and rank labels, as one text.
    labels: str


_PARTS: dict[tuple[Geometry, int], _Parts] = {}


def _board_parts(t: Geometry, cell: int) -> _Parts:
    """The picture's fixed elements for a rule set's board, made once (most of a picture's
    cost): the elements of a point differ only by what stands on it and the highlights."""
    key = (t, cell)
    if key in _PARTS:
        return _PARTS[key]
    size = t.board.size
    margin = cell * 0.7
    side = int(2 * margin + cell * (size - 1))

    def xy(name):
        x, y = grid_xy(name)
        return margin + cell * x, margin + cell * (size - 1 - y)

    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side + 24}" '
        f'width="{side}" height="{side + 24}" class="qipan-morris">',
        f'<rect width="{side}" height="{side + 24}" fill="#e8c98f"/>',
    ]
    for a, b in t.board.edges:
        (x1, y1), (x2, y2) = xy(a), xy(b)
        head.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#3b2a14" stroke-width="3"/>'
        )
    points = []
    for name in t.names:
        x, y = xy(name)
        marker = tuple(
            f'<circle cx="{x:g}" cy="{y:g}" r="{cell * 0.16:g}" fill="#3b2a14" '
            f'data-target="{name}" class="point"{hl}><title>{name}</title></circle>'
            for hl in ("", ' stroke="#d02020" stroke-width="4"')
        )
        stones = []
        for owner in (0, 1):
            fill, edge = ("#f7f3ea", "#222") if owner == 0 else ("#1d1d1d", "#000")
            stones.append(
                tuple(
                    f'<circle cx="{x:g}" cy="{y:g}" r="{cell * 0.36:g}" fill="{fill}" stroke="{ring}" '
                    f'stroke-width="{width}" data-target="{name}" class="stone {_STONE[owner]}">'
                    f"<title>{name}</title></circle>"
                    for ring, width in ((edge, 2), ("#d02020", 4))
                )
            )
        d = cell * 0.22
        cross = (
            f'<path d="M{x - d:g},{y - d:g} L{x + d:g},{y + d:g} M{x - d:g},{y + d:g} '
            f'L{x + d:g},{y - d:g}" stroke="#d02020" stroke-width="4" class="removed"/>'
        )
        points.append((marker, tuple(stones), cross))
    labels = []
    for i in range(size):
        x = margin + cell * i
        labels.append(
            f'<text x="{x:g}" y="{side - 6}" font-size="14" text-anchor="middle">{chr(97 + i)}</text>'
        )
        y = margin + cell * (size - 1 - i)
        labels.append(f'<text x="10" y="{y + 5:g}" font-size="14">{i + 1}</text>')
    _PARTS[key] = _Parts(side, "\n".join(head), points, "\n".join(labels))
    return _PARTS[key]
