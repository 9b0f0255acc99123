"""Morris boards as data, and the tables the engine derives from them (rules file §1.2).

A point is named file+rank (``a1`` .. ``g7``); its grid position comes from the name, so
the text and SVG renderers need no other layout data. Lines are ordered triples; for the
24-point boards every line is also classified as a square *side* (its middle point is a side
midpoint) or a *radial* line (outer -> middle square -> inner), which 直棋's 擔 and 槓 use.

Everything the engine needs per ply is precomputed here once per rule set (:class:`Tables`):
point bits, neighbour masks, the lines through each point, and the Move objects themselves
(created once and reused, looked up by 8-bit chunks of the empty-point mask)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ...core.move import Move

if TYPE_CHECKING:
    from .variant import MorrisRules

#: Path element of a 直棋 擔 move (a button in the UI; the two victims follow from it).
DAN = "擔"
#: Player names and stone letters, by player index (0 = White moves first by default).
COLOUR = ("White", "Black")
LETTER = ("W", "B")


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


# -- tables derived from a board and a rule set -------------------------------------------
def bits(mask: int):
    """Indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Tables:
    """Precomputed data for one rule set (shared by every state of every game using it)."""

    def __init__(self, rules: MorrisRules):
        self.rules = rules
        board: Board = make_board(rules.board, rules.diagonals)
        self.board = board
        self.names = board.points
        self.index = {name: i for i, name in enumerate(self.names)}
        n = self.n = len(self.names)
        self.full = (1 << n) - 1
        idx = self.index
        self.nbr = [0] * n
        for a, b in board.edges:
            self.nbr[idx[a]] |= 1 << idx[b]
            self.nbr[idx[b]] |= 1 << idx[a]
        self.lines = [sum(1 << idx[p] for p in line) for line in board.lines]
        # For each point, the masks of the other two points of every line through it.
        self.pairs = [[m & ~(1 << i) for m in self.lines if m >> i & 1] for i in range(n)]
        # 直棋: a 擔 lands on a side midpoint with both ends held by the enemy; a 槓 lands on a
        # radial end with the middle held by the enemy and the other end by the mover.
        self.dan_at: list[list[int]] = [[] for _ in range(n)]
        self.gang_at: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        self.dan_lines = []  # (mid bit, ends mask)
        self.gang_lines = []  # (end1 bit, middle bit, end2 bit)
        # The thesis: 擔 on square sides, 槓 on radial lines; dan_lines/gang_lines="any" (the
        # seed, which names no line) let each work on every line of the board.
        every_line = board.side_lines + board.radial_lines
        dan_lines = every_line if rules.dan_lines == "any" else board.side_lines
        gang_lines = every_line if rules.gang_lines == "any" else board.radial_lines
        for a, m, b in dan_lines:
            ends = 1 << idx[a] | 1 << idx[b]
            self.dan_at[idx[m]].append(ends)
            self.dan_lines.append((1 << idx[m], ends))
        for a, m, b in gang_lines:
            self.gang_at[idx[a]].append((1 << idx[m], 1 << idx[b]))
            self.gang_at[idx[b]].append((1 << idx[m], 1 << idx[a]))
            self.gang_lines.append((1 << idx[a], 1 << idx[m], 1 << idx[b]))

        self._moves: dict[tuple[int, int, int], Move] = {}
        # simple[f][to]: the move from f (-1: a placement) to ``to`` without removal.
        self.simple = [[self.move(f, to, 0) if f != to else None for to in range(n)] for f in range(n)]
        self.simple.append([self.move(-1, to, 0) for to in range(n)])  # simple[-1]: placements
        # place_chunks[k][byte]: the placements on the points of 8-bit chunk k set in byte.
        self.place_chunks = self._chunk_table(-1)
        # fly_tab[f][k][byte]: the moves from f to the points of chunk k in byte.
        self.fly_tab = [self._chunk_table(f) for f in range(n)]
        # Removal moves by (from, to, 8-bit chunk of the victims), filled in on first use.
        self.captures: dict[int, tuple[Move, ...]] = {}
        # The point indices in each 8-bit chunk value (iterating a mask without bit tricks).
        self.points_in = [
            [tuple(8 * k + j for j in range(8) if byte >> j & 1 and 8 * k + j < n) for byte in range(256)]
            for k in range(3)
        ]
        # Directed edges as bits: a slide is an edge whose source is own and whose target is
        # empty, so all slides come from (own-source mask & empty-target mask), each built with
        # three chunk look-ups, and the Move objects from chunk tables over the edge mask.
        arcs = [(idx[a], idx[b]) for a, b in board.edges] + [(idx[b], idx[a]) for a, b in board.edges]
        self.arc_src = [[0] * 256 for _ in range(3)]
        self.arc_dst = [[0] * 256 for _ in range(3)]
        for e, (a, b) in enumerate(arcs):
            for byte in range(256):
                if byte >> (a & 7) & 1:
                    self.arc_src[a >> 3][byte] |= 1 << e
                if byte >> (b & 7) & 1:
                    self.arc_dst[b >> 3][byte] |= 1 << e
        self.arc_moves = [
            _byte_table(lambda i, e0=8 * j: (self.move(*arcs[e0 + i], 0),) if e0 + i < len(arcs) else ())
            for j in range((len(arcs) + 7) // 8)
        ]
        # Line planes: plane j (bits j*S .. j*S+S-1) has bit i set when point j of line i is in a
        # set of points. Built from a board mask with three 8-bit chunk look-ups, so the lines
        # with two (or three) own stones come out of a few integer operations.
        S = self.plane_shift = len(board.lines)
        self.plane_mask = (1 << S) - 1
        self.line_planes = [[0] * 256 for _ in range(3)]
        self.plane_point = [0] * (3 * S)  # bit position in the planes -> point bit
        for i, line in enumerate(board.lines):
            for j, name in enumerate(line):
                p = idx[name]
                self.plane_point[j * S + i] = 1 << p
                for byte in range(256):
                    if byte >> (p - 8 * (p // 8)) & 1:
                        self.line_planes[p // 8][byte] |= 1 << (j * S + i)
        # Union of the neighbours of a set of points, by 8-bit chunk.
        self.nbr_chunks = [[self._nbr_union(k, byte) for byte in range(256)] for k in range(3)]

    def _chunk_table(self, f: int) -> list[list[tuple[Move, ...]]]:
        """For each 8-bit chunk k and byte, the moves from ``f`` (-1: placements) to its points."""
        n = self.n
        return [
            _byte_table(lambda i, p0=8 * k: (self.move(f, p0 + i, 0),) if p0 + i < n and p0 + i != f else ())
            for k in range(3)
        ]

    def capture_chunk(self, f: int, to: int, kb: int) -> tuple[Move, ...]:
        """The moves from ``f`` to ``to`` removing one stone of chunk ``kb >> 8`` whose bits are
        ``kb & 255``; cached in ``captures`` under ``((f + 1) << 5 | to) << 10 | kb``."""
        if len(self.captures) > 200_000:  # bound the memory; the Move objects themselves stay
            self.captures.clear()
        k, byte = kb >> 8, kb & 255
        moves = tuple(self.move(f, to, 1 << v) for v in self.points_in[k][byte])
        self.captures[((f + 1) << 5 | to) << 10 | kb] = moves
        return moves

    def _nbr_union(self, k: int, byte: int) -> int:
        out = 0
        for j in range(8):
            if byte >> j & 1 and 8 * k + j < self.n:
                out |= self.nbr[8 * k + j]
        return out

    def closers(self, own: int) -> int:
        """Points that complete a line on which ``own`` holds the two other points."""
        S, M = self.plane_shift, self.plane_mask
        lp = self.line_planes
        L = lp[0][own & 255] | lp[1][own >> 8 & 255] | lp[2][own >> 16 & 255]
        l0, l1, l2 = L & M, L >> S & M, L >> 2 * S
        miss = (l1 & l2 & ~l0) | (l0 & l2 & ~l1) << S | (l0 & l1 & ~l2) << 2 * S
        out = 0
        pp = self.plane_point
        while miss:
            low = miss & -miss
            out |= pp[low.bit_length() - 1]
            miss ^= low
        return out

    def in_mills(self, stones: int) -> int:
        """The points of ``stones`` that stand in a complete line."""
        S, M = self.plane_shift, self.plane_mask
        lp = self.line_planes
        L = lp[0][stones & 255] | lp[1][stones >> 8 & 255] | lp[2][stones >> 16 & 255]
        full = L & L >> S & L >> 2 * S & M
        out = 0
        lines = self.lines
        while full:
            low = full & -full
            out |= lines[low.bit_length() - 1]
            full ^= low
        return out

    def move(self, f: int, t: int, removed: int) -> Move:
        """The one Move object for: from ``f`` (-1 = placement) to ``t`` (-1 = a bare removal
        in the full-board phase), removing the stones in mask ``removed``."""
        key = (f, t, removed)
        move = self._moves.get(key)
        if move is None:
            names = self.names
            victims = [names[v] for v in bits(removed)]
            if t < 0:
                text, path = "x" + victims[0], tuple(victims)
            else:
                head = (names[t],) if f < 0 else (names[f], names[t])
                text = "-".join(head) + "".join("x" + v for v in victims)
                if self.rules.captures == "zhiqi" and len(victims) == 2:
                    path = head + (DAN,)  # a 擔; a 直 on the same landing has a victim as third click
                else:
                    path = head + tuple(victims)
            fb = 1 << f if f >= 0 else 0
            tb = 1 << t if t >= 0 else 0
            move = Move(text, path, (f, t, removed, fb, tb))
            self._moves[key] = move
        return move

    def known_move(self, f: int, t: int, removed: int) -> Move | None:
        return self._moves.get((f, t, removed))


def _byte_table(moves_at: Callable[[int], tuple[Move, ...]]) -> list[tuple[Move, ...]]:
    """``table[byte]``: the moves of the set bits of ``byte``, lowest bit first, where
    ``moves_at(i)`` gives those of bit ``i``; built as moves_at(lowest) + table[rest]."""
    table: list[tuple[Move, ...]] = [()] * 256
    for byte in range(1, 256):
        low = byte & -byte
        table[byte] = moves_at(low.bit_length() - 1) + table[byte ^ low]
    return table


@cache
def tables_for(rules: MorrisRules) -> Tables:
    return Tables(rules)
