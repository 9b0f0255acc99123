"""The rules dataclass that configures the one Morris engine, and the tables derived from it.

Everything the engine needs per ply is precomputed here once per rule set: point bits,
neighbour masks, the lines through each point, and the Move objects themselves (created
once and reused, looked up by 8-bit chunks of the empty-point mask)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ...core.move import Move
from .boards import Board, make_board

#: Path element of a 直棋 擔 move (a button in the UI; the two victims follow from it).
DAN = "擔"


@dataclass(frozen=True)
class MorrisRules:
    """One Morris variant. Defaults are Nine Men's Morris (rules file §1.3)."""

    board: str = "nine"  # nine | twelve | six | three
    diagonals: bool = False  # twelve: diagonal mills; three: diagonal edges and lines
    stones: int = 9
    flying: int | None = 3  # fly with exactly this many stones on board and none in hand
    take_per_mill: int = 1  # 1 = one removal per ply; 2 = one per mill closed
    protection: str = "fallback"  # fallback | always_protected | no_mill_protection
    repetition_count: int | None = 3  # n-th occurrence of a position draws; None = off
    n_move: int = 100  # slides/flies without a removal or placement -> draw; 0 = off
    max_plies: int | None = None  # OpenSpiel-like cap -> draw
    full_board: str = "draw"  # draw | white_loses | each_removes
    captures: str = "mill"  # mill | zhiqi (直, 擔, 槓)
    dan_gang_moving_only: bool = False
    goal: str = "mill"  # mill (a mill removes) | line (a line wins: Three Men's Morris)
    placement_only: bool = False  # simple Three Men's Morris: no movement phase
    move_anywhere: bool = False  # Nine Holes: every move goes to any empty point
    first_player: str = "white"  # white | black | random

    @property
    def repetition_threshold(self) -> int | None:
        # 1 ("any repetition", Gasser/Malom) needs a second occurrence, like 2.
        if self.repetition_count is None:
            return None
        return max(2, self.repetition_count)


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
        for a, m, b in board.side_lines:
            ends = 1 << idx[a] | 1 << idx[b]
            self.dan_at[idx[m]].append(ends)
            self.dan_lines.append((1 << idx[m], ends))
        for a, m, b in board.radial_lines:
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
        self.arc_moves = []
        for j in range((len(arcs) + 7) // 8):
            table: list[tuple[Move, ...]] = [()] * 256
            for byte in range(1, 256):
                low = byte & -byte
                e = 8 * j + low.bit_length() - 1
                first = (self.move(*arcs[e], 0),) if e < len(arcs) else ()
                table[byte] = first + table[byte ^ low]
            self.arc_moves.append(table)
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
        """For each 8-bit chunk k and byte, the moves from ``f`` (-1: placements) to its points.
        Built lowest bit first: table[byte] = (move to the lowest point,) + table[rest]."""
        out = []
        for k in range(3):
            table: list[tuple[Move, ...]] = [()] * 256
            for byte in range(1, 256):
                low = byte & -byte
                to = 8 * k + low.bit_length() - 1
                first = (self.move(f, to, 0),) if to < self.n and to != f else ()
                table[byte] = first + table[byte ^ low]
            out.append(table)
        return out

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


@cache
def tables_for(rules: MorrisRules) -> Tables:
    return Tables(rules)
