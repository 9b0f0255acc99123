"""Morris boards as data, and the geometry the engine derives from them (rules file §1.2).

A point is named file+rank (``a1`` .. ``g7``); its grid position comes from the name, so
the text and SVG renderers need no other layout data. Lines are ordered triples; for the
24-point boards every line is also classified as a square *side* (its middle point is a side
midpoint) or a *radial* line (outer -> middle square -> inner), which 直棋's 擔 and 槓 use.

Everything the engine needs per ply is precomputed here once per rule set (:class:`Geometry`):
point bits, neighbour masks, the lines through each point, and the Move objects themselves
(created once and reused, looked up by 8-bit chunks of the empty-point mask)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from dataclasses import dataclass
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


class Geometry:
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
        # place_halves[k][x]: the placements on the points of 12-bit half k set in x.
        self.place_halves = [
            _half_table(lambda i, p0=12 * k: (self.simple[-1][p0 + i],) if p0 + i < n else ()) for k in (0, 1)
        ]
        # fly_tab[f][k][byte]: the moves from f to the points of chunk k in byte.
        self.fly_tab = [self._chunk_table(f) for f in range(n)]
        # capture_rows[f][to][v]: the move from f (-1: a placement) to ``to`` removing v, a
        # row built on first use, so a ply that closes a mill picks its moves by victim
        # (``map(row.__getitem__, victims)``: a list, whose bound __getitem__ is called
        # faster than a tuple's slot wrapper).
        self.capture_rows: list[list[list[Move | None] | None]] = [[None] * n for _ in range(n + 1)]
        # The point indices in each 12-bit half (iterating a mask without bit tricks).
        self.points_in_half = _points_in_half(n)
        # Directed edges ("arcs") as bits: a slide is an arc whose source is own and whose
        # target is empty, so all slides come from (own-source mask & empty-target mask), each
        # built with two half look-ups. The arcs are cut into four runs; slide_rows[k][x] holds
        # the slides of the arcs of run k set in x, in arc order, made on first use: a list of
        # 2^16 (None until made) for runs of up to 16 arcs, a dict for the longer runs of the
        # 24-point board with diagonals (80 arcs). A row not made yet raises where it is read
        # (None cannot be unpacked, a dict has no such key), and slides_after_miss makes it.
        arcs = [(idx[a], idx[b]) for a, b in board.edges] + [(idx[b], idx[a]) for a, b in board.edges]
        self.arc_src = _or_halves(
            [sum(1 << e for e, arc in enumerate(arcs) if arc[0] == p) for p in range(n)]
        )
        self.arc_dst = _or_halves(
            [sum(1 << e for e, arc in enumerate(arcs) if arc[1] == p) for p in range(n)]
        )
        self.arc_slides = tuple(self.simple[f][to] for f, to in arcs)
        width = -(-len(arcs) // 4)
        self.slide_shifts = (width, 2 * width, 3 * width)
        self.slide_mask = (1 << width) - 1
        self.slide_rows: tuple[list[tuple[Move, ...] | None] | dict[int, tuple[Move, ...]], ...] = tuple(
            [None] * (1 << width) if width <= 16 else {} for _ in range(4)
        )
        # What the slide generation reads, in one tuple: one attribute look-up a ply, not five.
        self.slide_plan = (
            *self.arc_src,
            *self.arc_dst,
            *self.slide_rows,
            *self.slide_shifts,
            self.slide_mask,
        )
        # hot_slides[to][own & hot_scope[to]]: for plain mills, the slides onto ``to`` (a point
        # that closes a mill) split into (the moves that remove nothing: the stone moved was one
        # of the only full pair, the (from, to) pairs that close a mill); filled on first use.
        self.hot_scope = [self.nbr[i] | functools.reduce(operator.or_, self.pairs[i], 0) for i in range(n)]
        self.hot_slides: list[dict[int, tuple[tuple[Move, ...], tuple[tuple[int, int], ...]]]] = [
            {} for _ in range(n)
        ]
        # Line planes: line_planes[2j + k][x] has bit i set when point j of line i is among
        # the points of 12-bit half k set in x, so the lines holding two or three of a set of
        # points come out of six look-ups and a few operations on one-digit ints. One flat
        # tuple: a memo miss unpacks it once.
        self.line_planes = tuple(
            half
            for j in range(3)
            for half in _or_halves(
                [sum(1 << i for i, line in enumerate(board.lines) if line[j] == p) for p in self.names]
            )
        )
        # line_union[x]: the points of the lines set in x (a bit per line), one look-up.
        self.line_union = _union_table(tuple(self.lines))
        # closers_and_mills() memoised by stone set: a side's stones recur across plies (a set
        # closed on as one player's own is then the opponent's stones to remove from) and games.
        self.known_closers_and_mills: dict[int, tuple[int, int]] = {}
        # Union of the neighbours of a set of points, by 12-bit half.
        self.nbr_halves = _or_halves(self.nbr)

    def _chunk_table(self, f: int) -> list[list[tuple[Move, ...]]]:
        """For each 8-bit chunk k and byte, the moves from ``f`` (-1: placements) to its points."""
        n = self.n
        return [
            _byte_table(lambda i, p0=8 * k: (self.move(f, p0 + i, 0),) if p0 + i < n and p0 + i != f else ())
            for k in range(3)
        ]

    def capture_row(self, f: int, to: int) -> list[Move | None]:
        """``row[v]``: the move from ``f`` to ``to`` removing the stone on ``v`` (None where
        ``v`` is ``f`` or ``to``); built once and kept in ``capture_rows[f][to]`` (never
        changed after)."""
        row = [self.move(f, to, 1 << v) if v != f and v != to else None for v in range(self.n)]
        self.capture_rows[f][to] = row
        return row

    def hot_slide(self, to: int, local: int) -> tuple[tuple[Move, ...], tuple[tuple[int, int], ...]]:
        """``hot_slides[to][local]`` (``local``: own stones within ``hot_scope[to]``), built
        and kept. A slide closes a mill unless the moved stone is one of the pair: with one full
        pair its stones slide in plainly; two full pairs never share a stone."""
        excluded = -1
        for pm in self.pairs[to]:
            if local & pm == pm:
                excluded = pm if excluded < 0 else 0
        sources = self.nbr[to] & local
        entry = (
            tuple(self.simple[f][to] for f in bits(sources & excluded)),
            tuple((f, to) for f in bits(sources & ~excluded)),
        )
        self.hot_slides[to][local] = entry
        return entry

    def slides_after_miss(self, arcs: int) -> list[Move]:
        """The slides of the arcs set in ``arcs`` when a row of ``slide_rows`` was not made yet:
        the rows of its four runs are made (a dict row is cleared at 100,000 values to bound
        the memory)."""
        width = self.slide_shifts[0]
        moves: list[Move] = []
        for k, rows in enumerate(self.slide_rows):
            x = arcs >> k * width & self.slide_mask
            row = rows.get(x) if isinstance(rows, dict) else rows[x]
            if row is None:
                if isinstance(rows, dict) and len(rows) >= 100_000:
                    rows.clear()
                row = rows[x] = tuple(self.arc_slides[k * width + i] for i in bits(x))
            moves += row
        return moves

    def closers(self, own: int) -> int:
        """Points that complete a line on which ``own`` holds the two other points."""
        return (self.known_closers_and_mills.get(own) or self.closers_and_mills(own))[0]

    def in_mills(self, stones: int) -> int:
        """The points of ``stones`` that stand in a complete line."""
        return (self.known_closers_and_mills.get(stones) or self.closers_and_mills(stones))[1]

    def closers_and_mills(self, stones: int) -> tuple[int, int]:
        """``(closers, in_mills)`` of a set of stones, from the line planes (``l<j>``: the lines
        whose point j is in the set); kept in ``known_closers_and_mills``."""
        a0, a1, b0, b1, c0, c1 = self.line_planes
        low, high = stones & 4095, stones >> 12
        l0, l1, l2 = a0[low] | a1[high], b0[low] | b1[high], c0[low] | c1[high]
        both = l0 & l1
        union = self.line_union
        # The empty points of the lines holding two or three stones close a mill.
        out = union[both | l2 & (l0 | l1)] & ~stones, union[both & l2]
        known = self.known_closers_and_mills
        if len(known) > 200_000:  # bound the memory
            known.clear()
        known[stones] = out
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


def _byte_table(items_at: Callable[[int], tuple], size: int = 256) -> list[tuple]:
    """``table[x]``: the items of the set bits of ``x`` (``x < size``), lowest bit first,
    where ``items_at(i)`` gives those of bit ``i``; built as items_at(lowest) + table[rest]."""
    table: list[tuple] = [()] * size
    for x in range(1, size):
        low = x & -x
        table[x] = items_at(low.bit_length() - 1) + table[x ^ low]
    return table


def _half_table(items_at: Callable[[int], tuple]) -> list[tuple]:
    """A :func:`_byte_table` over the 12 bits of a half (point masks are looked up in two
    12-bit halves: every board has at most 24 points, and lines at most 24)."""
    return _byte_table(items_at, 4096)


@functools.cache
def _points_in_half(n: int) -> list[list[tuple[int, ...]]]:
    """``table[k][x]``: the points of half k set in ``x`` on an n-point board (shared)."""
    return [_half_table(lambda i, p0=12 * k: (p0 + i,) if p0 + i < n else ()) for k in (0, 1)]


@functools.cache
def _union_table(values: tuple[int, ...]) -> list[int] | dict[int, int]:
    """``table[x]``: the OR of ``values[j]`` over the bits j set in ``x``: a list for up to 16
    values, and for more (20 lines on the 24-point board with diagonal mills) a dict filled on
    first use, so the same one look-up serves every board. Shared by the rule sets of a board."""
    if len(values) > 16:
        return _LazyUnion(values)
    table = [0] * (1 << len(values))
    for x in range(1, len(table)):
        low = x & -x
        table[x] = table[x ^ low] | values[low.bit_length() - 1]
    return table


class _LazyUnion(dict):
    """:func:`_union_table` as a dict: each value made on first use."""

    def __init__(self, values: tuple[int, ...]):
        super().__init__()
        self.values = values

    def __missing__(self, x: int) -> int:
        union = self[x] = functools.reduce(operator.or_, (self.values[j] for j in bits(x)), 0)
        return union


def _or_halves(values: list[int]) -> list[list[int]]:
    """``table[k][x]``: the OR of ``values[12k + j]`` over the bits j set in ``x``."""
    out = []
    for k in (0, 1):
        table = [0] * 4096
        for x in range(1, 4096):
            low = x & -x
            j = 12 * k + low.bit_length() - 1
            table[x] = table[x ^ low] | (values[j] if j < len(values) else 0)
        out.append(table)
    return out


@functools.cache
def board_symmetries(t: Geometry) -> list[tuple[int, ...]]:
    """The point permutations that keep the board's adjacency and lines (the identity first).
    直棋's captures work on some lines only (擔 on sides, 槓 on radials), so a board with them
    claims no symmetry beyond the identity."""
    from ...solve.symmetry import automorphisms

    if t.rules.captures == "zhiqi":
        return [tuple(range(t.n))]
    edges = [(t.index[a], t.index[b]) for a, b in t.board.edges]
    lines = [tuple(t.index[p] for p in line) for line in t.board.lines]
    return automorphisms(t.n, edges, lines)


@functools.cache
def geometry_for(rules: MorrisRules) -> Geometry:
    return Geometry(rules)
