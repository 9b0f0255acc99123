"""Trax knowledge for agents: the open tracks, how close each is to a loop or a line, and
the threats the Trax literature names (rules §2.8):

* **loop threat**: a track whose two ends face edge-adjacent empty cells. One free tile
  (plus the forced tile it creates) closes the loop.
* **L-threat**: a track whose ends face diagonally adjacent empty cells, so that the two
  cells and a shared neighbour form an L; two free moves close it.
* **edge threat** (line threat): a track running from one outermost edge of the tile area
  to one tile short of the opposite edge (or to an area one column/row short of 8).

Gaps count free moves, the forced tiles they set off included in the move. The patterns
are estimates; only the search proves a win.

``evaluate`` turns them into a score (``evaluate_without_win`` when the side to move is known
to have no immediate win); the search in ``search.py`` finds the real wins."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .board import COLOUR, DELTA, LINE_SPAN, OFFSET, OTHER_END, RED, STRIDE, WHITE

if TYPE_CHECKING:
    from .rules import Board

LOOP, L_SHAPE, EDGE = "loop threat", "L-threat", "edge threat"


@dataclass(frozen=True)
class Track:
    colour: int
    #: The two ends: (tile cell, side the track leaves through).
    ends: tuple[tuple[int, int], tuple[int, int]]
    #: Free moves still needed for a loop (1 = a loop threat) and a line (1 = an edge threat).
    loop_gap: int
    line_gap: int

    @property
    def gap(self) -> int:
        return min(self.loop_gap, self.line_gap)

    def threat(self) -> str | None:
        if self.loop_gap == 1:
            return LOOP
        if self.line_gap == 1:
            return EDGE
        if self.loop_gap == 2 and self._diagonal():
            return L_SHAPE
        return None

    def _diagonal(self) -> bool:
        (p1, d1), (p2, d2) = self.ends
        diff = abs((p1 + DELTA[d1]) - (p2 + DELTA[d2]))
        return diff in (STRIDE - 1, STRIDE + 1)


def _cell_distance(a: int, b: int) -> int:
    ra, ca = divmod(a, STRIDE)
    rb, cb = divmod(b, STRIDE)
    return abs(ra - rb) + abs(ca - cb)


def line_gap(board: Board, end1: tuple[int, int], end2: tuple[int, int]) -> int:
    """Tiles needed before this track is a line: to bring its ends to both outermost edges
    and make the area 8 long. A large number where the ends do not face opposite ways."""
    (p1, d1), (p2, d2) = end1, end2
    if d1 > d2:
        (p1, d1), (p2, d2) = (p2, d2), (p1, d1)
    r1, c1 = divmod(p1, STRIDE)
    r2, c2 = divmod(p2, STRIDE)
    if (d1, d2) == (1, 3):  # p1 leaves east, p2 leaves west
        gap = (c2 - (board.min_c + OFFSET)) + ((board.max_c + OFFSET) - c1)
        return gap + max(0, LINE_SPAN - board.width)
    if (d1, d2) == (0, 2):  # p1 leaves north, p2 leaves south
        gap = (r1 - (board.min_r + OFFSET)) + ((board.max_r + OFFSET) - r2)
        return gap + max(0, LINE_SPAN - board.height)
    return 99


def open_tracks(board: Board, lines: bool = True) -> list[Track]:
    """Every track with two open ends (loops end the game, so none are closed)."""
    cells = board.cells
    seen: set[tuple[int, int]] = set()
    tracks = []
    for q in board.frontier:
        for d in range(4):
            p = q - DELTA[d]
            t = cells.get(p)
            if t is None:
                continue
            end = (p, d)  # tile p leaves through side d into q
            if end in seen:
                continue
            colour = COLOUR[t][d]
            other = _follow(cells, p, OTHER_END[t][d])
            seen.add(end)
            seen.add(other)
            loop = _cell_distance(q, other[0] + DELTA[other[1]])
            tracks.append(Track(colour, (end, other), loop, line_gap(board, end, other) if lines else 99))
    return tracks


def _follow(cells, p, d):
    while True:
        q = p + DELTA[d]
        t = cells.get(q)
        if t is None:
            return p, d
        d = OTHER_END[t][d ^ 2]
        p = q


#: Value of a track by the number of tiles it still needs.
GAP_VALUE = {1: 0.30, 2: 0.12, 3: 0.05, 4: 0.02, 5: 0.01}


def threat_counts(tracks: list[Track]) -> dict[int, int]:
    """Immediate threats (one tile from a win) per colour."""
    counts = {WHITE: 0, RED: 0}
    for track in tracks:
        if track.gap == 1:
            counts[track.colour] += 1
    return counts


def evaluate(board: Board, player: int, to_move: int | None, lines: bool = True) -> float:
    """Heuristic value in (-1, 1) for ``player`` (White = 0) with ``to_move`` to play."""
    if to_move is None:
        return 0.0
    tracks = open_tracks(board, lines)
    threats = threat_counts(tracks)
    mover, other = to_move, 1 - to_move
    # The side to move with a threat wins at once; two threats cannot both be blocked.
    if threats[mover]:
        value = 0.9
    elif threats[other] >= 2:
        value = -0.85
    else:
        score = 0.0
        for track in tracks:
            v = GAP_VALUE.get(track.gap, 0.0)
            if track.threat() == L_SHAPE:
                v += 0.06
            score += v if track.colour == mover else -v
        score -= 0.25 * threats[other]
        value = math.tanh(score)
    return value if player == mover else -value


def evaluate_without_win(board: Board, mover: int, lines: bool = True, tracks=None) -> float:
    """``evaluate`` for a position where ``mover`` (to move) is known to have no immediate win
    (the ``trax`` search checks that first): the mover's own one-tile threats are then not
    wins but blocked or illusory, so they count like the other tracks. In (-1, 1) for
    ``mover``; ``tracks`` are ``open_tracks(board, lines)`` if already known."""
    score = 0.0
    threats = 0  # the opponent's tracks one tile from a win
    for track in open_tracks(board, lines) if tracks is None else tracks:
        gap = track.gap
        v = GAP_VALUE.get(gap, 0.0)
        if track.threat() == L_SHAPE:
            v += 0.06
        if track.colour == mover:
            score += 0.6 * v if gap == 1 else v  # a one-tile threat that cannot be played now
        else:
            score -= v
            threats += gap == 1
    # Two threats of the opponent are hard to stop with one tile.
    score -= 0.8 if threats >= 2 else 0.25 * threats
    return math.tanh(score)


def hot_cells(board: Board, tracks: list[Track], limit: int = 3) -> dict[int, int]:
    """Empty cells at the ends of tracks that are near a win, with the smallest gap seen:
    the places where moves matter most (for ordering)."""
    hot: dict[int, int] = {}
    for track in tracks:
        if track.gap > limit:
            continue
        for p, d in track.ends:
            q = p + DELTA[d]
            if hot.get(q, 99) > track.gap:
                hot[q] = track.gap
    return hot


def order_moves(state, moves):
    """Moves at the ends of the most urgent tracks first, then the rest in their order."""
    tracks = open_tracks(state.board, state.game.lines_win)
    hot = hot_cells(state.board, tracks)
    return sorted(moves, key=lambda m: hot.get(m.data[0], 99) if m.data else 99)


__all__ = [
    "EDGE",
    "L_SHAPE",
    "LOOP",
    "Track",
    "evaluate",
    "evaluate_without_win",
    "open_tracks",
    "order_moves",
    "threat_counts",
]
