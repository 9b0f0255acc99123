"""Morris boards as data: points, adjacency (edges) and lines (rules file §1.2).

A point is named file+rank (``a1`` .. ``g7``); its grid position comes from the name, so
the text and SVG renderers need no other layout data. Lines are ordered triples; for the
24-point boards every line is also classified as a square *side* (its middle point is a side
midpoint) or a *radial* line (outer -> middle square -> inner), which 直棋's 擔 and 槓 use."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    name: str
    size: int  # grid width = height (7, 5 or 3)
    points: tuple[str, ...]  # sorted by name: the index order of the engine's bitmasks
    edges: tuple[tuple[str, str], ...]
    lines: tuple[tuple[str, str, str], ...]
    side_lines: tuple[tuple[str, str, str], ...] = ()
    radial_lines: tuple[tuple[str, str, str], ...] = ()


def _pairs(text: str) -> list[tuple[str, str]]:
    return [tuple(e.split("-")) for e in text.split()]  # type: ignore[misc]


def _triples(text: str) -> list[tuple[str, str, str]]:
    return [tuple(t.split("-")) for t in text.split()]  # type: ignore[misc]


def _points(edges, lines) -> tuple[str, ...]:
    names = {p for e in edges for p in e} | {p for line in lines for p in line}
    return tuple(sorted(names))


# -- the 24-point board ---------------------------------------------------------------------
_NINE_EDGES = _pairs(
    "a7-d7 d7-g7 g7-g4 g4-g1 g1-d1 d1-a1 a1-a4 a4-a7 "
    "b6-d6 d6-f6 f6-f4 f4-f2 f2-d2 d2-b2 b2-b4 b4-b6 "
    "c5-d5 d5-e5 e5-e4 e4-e3 e3-d3 d3-c3 c3-c4 c4-c5 "
    "d7-d6 d6-d5 g4-f4 f4-e4 d1-d2 d2-d3 a4-b4 b4-c4"
)
_NINE_SIDES = _triples(
    "a7-d7-g7 g7-g4-g1 g1-d1-a1 a1-a4-a7 b6-d6-f6 f6-f4-f2 f2-d2-b2 b2-b4-b6 "
    "c5-d5-e5 e5-e4-e3 e3-d3-c3 c3-c4-c5"
)
# Radial lines run outer -> middle square -> inner.
_CROSS_LINES = _triples("d7-d6-d5 g4-f4-e4 d1-d2-d3 a4-b4-c4")
_DIAGONAL_EDGES = _pairs("a7-b6 b6-c5 g7-f6 f6-e5 a1-b2 b2-c3 g1-f2 f2-e3")
_DIAGONAL_LINES = _triples("a7-b6-c5 g7-f6-e5 a1-b2-c3 g1-f2-e3")


def nine_board() -> Board:
    lines = _NINE_SIDES + _CROSS_LINES
    return Board(
        "nine",
        7,
        _points(_NINE_EDGES, lines),
        tuple(_NINE_EDGES),
        tuple(lines),
        tuple(_NINE_SIDES),
        tuple(_CROSS_LINES),
    )


def twelve_board(diagonal_mills: bool = True) -> Board:
    """The 9MM board plus the four diagonals (12MM, Morabaraba, 直棋)."""
    edges = _NINE_EDGES + _DIAGONAL_EDGES
    radial = _CROSS_LINES + _DIAGONAL_LINES
    lines = _NINE_SIDES + _CROSS_LINES + (_DIAGONAL_LINES if diagonal_mills else [])
    return Board(
        "twelve", 7, _points(edges, lines), tuple(edges), tuple(lines), tuple(_NINE_SIDES), tuple(radial)
    )


# -- the 16-point board ---------------------------------------------------------------------
_SIX_EDGES = _pairs(
    "a5-c5 c5-e5 e5-e3 e3-e1 e1-c1 c1-a1 a1-a3 a3-a5 "
    "b4-c4 c4-d4 d4-d3 d3-d2 d2-c2 c2-b2 b2-b3 b3-b4 "
    "c5-c4 e3-d3 c1-c2 a3-b3"
)
_SIX_LINES = _triples("a5-c5-e5 e5-e3-e1 e1-c1-a1 a1-a3-a5 b4-c4-d4 d4-d3-d2 d2-c2-b2 b2-b3-b4")


def six_board() -> Board:
    return Board(
        "six", 5, _points(_SIX_EDGES, _SIX_LINES), tuple(_SIX_EDGES), tuple(_SIX_LINES), tuple(_SIX_LINES), ()
    )


# -- the 3x3 board --------------------------------------------------------------------------
_THREE_EDGES = _pairs("a1-b1 b1-c1 a2-b2 b2-c2 a3-b3 b3-c3 a1-a2 a2-a3 b1-b2 b2-b3 c1-c2 c2-c3")
_THREE_LINES = _triples("a1-b1-c1 a2-b2-c2 a3-b3-c3 a1-a2-a3 b1-b2-b3 c1-c2-c3")
_THREE_DIAGONAL_EDGES = _pairs("a1-b2 b2-c3 c1-b2 b2-a3")
_THREE_DIAGONAL_LINES = _triples("a1-b2-c3 c1-b2-a3")


def three_board(diagonals: bool) -> Board:
    edges = _THREE_EDGES + (_THREE_DIAGONAL_EDGES if diagonals else [])
    lines = _THREE_LINES + (_THREE_DIAGONAL_LINES if diagonals else [])
    return Board(
        "three-diagonal" if diagonals else "three", 3, _points(edges, lines), tuple(edges), tuple(lines)
    )


def make_board(kind: str, diagonals: bool) -> Board:
    """``kind``: nine, twelve, six or three. ``diagonals``: diagonal mills on twelve, diagonal
    edges and lines on three."""
    if kind == "nine":
        return nine_board()
    if kind == "twelve":
        return twelve_board(diagonal_mills=diagonals)
    if kind == "six":
        return six_board()
    if kind == "three":
        return three_board(diagonals)
    raise ValueError(f"unknown Morris board {kind!r}")


def grid_xy(name: str) -> tuple[int, int]:
    """Column and row (0 = bottom) of a point on its board's grid."""
    return ord(name[0]) - ord("a"), int(name[1:]) - 1
