"""Exact immediate wins and a threat-aware evaluation for the ``trax`` search (``search.py``).

``winning_moves`` finds every free tile that wins at once for the side to move, exactly,
without trying most placements: a free tile that forces nothing is a single new tile, and
the cell it fills faces at most one edge of each colour (a cell facing two would have been
forced), so its tracks stay open at one side and it cannot close a loop; it can only finish
a line, and only if it lies on the outermost row or column of an area 8 long. Only the
placements that force something (and those line candidates) are tried with the rules'
forced plays, so the check costs a fraction of a full expansion.

``evaluate`` is ``evaluation.evaluate`` for a position where the side to move is known to
have no immediate win (the search checks that first): the side to move's own one-tile
threats are then not wins but blocked or illusory, so they count like the other tracks."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .board import (
    BITS,
    COLOUR,
    DELTA,
    LIMIT,
    LINE_SPAN,
    OTHER_END,
    RED,
    STRIDE,
    TRACK,
    WHITE,
    row_col,
    tile_joining,
)
from .evaluation import GAP_VALUE, L_SHAPE, open_tracks
from .rules import forces_nothing, free_placements

if TYPE_CHECKING:
    from .rules import Board


def may_finish_line(board: Board, pos: int, span_rule: bool) -> bool:
    """Could a single tile on ``pos`` (forcing nothing) complete a line? Only if the area
    with it is 8 long and, under the official rule, ``pos`` is on its outermost edge."""
    r, c = row_col(pos)
    min_r, max_r = min(board.min_r, r), max(board.max_r, r)
    min_c, max_c = min(board.min_c, c), max(board.max_c, c)
    wide = max_c - min_c + 1 >= LINE_SPAN
    tall = max_r - min_r + 1 >= LINE_SPAN
    if span_rule:
        return wide or tall
    return (wide and (c == min_c or c == max_c)) or (tall and (r == min_r or r == max_r))


def completed(board: Board, placed, colour: int, lines: bool, span_rule: bool) -> bool:
    """Did the new tiles ``placed`` complete a loop or line of ``colour``? ``Board.wins``
    for one colour, faster: one walk per track for loops, and the second walk (for a line)
    only when the first end already lies where a line must end."""
    cells = board.cells
    new = {p for p, _ in placed}
    seen: set[int] = set()
    line_possible = lines and (
        span_rule or board.max_c - board.min_c + 1 >= LINE_SPAN or board.max_r - board.min_r + 1 >= LINE_SPAN
    )
    for start, tile in placed:
        if start in seen:
            continue
        a, b = TRACK[tile][colour]
        p, d = start, a
        while True:  # Board.follow, inlined: this is the innermost loop of the search
            q = p + DELTA[d]
            t = cells.get(q)
            if t is None:
                break
            if q == start:
                return True  # back at the start: a loop
            if q in new:
                seen.add(q)
            d = OTHER_END[t][d ^ 2]
            p = q
        if line_possible and (span_rule or _on_outer_edge(board, p, d)):
            end2 = board.follow(start, b)
            if end2 is not None and board.is_line((p, d), end2):
                return True
    return False


def _on_outer_edge(board: Board, pos: int, side: int) -> bool:
    """Does the track end leaving ``pos`` through ``side`` lie on the outermost edge of the
    tile area it faces (where an official line must end)?"""
    r, c = row_col(pos)
    if side == 1:
        return c == board.max_c
    if side == 3:
        return c == board.min_c
    if side == 0:
        return r == board.min_r
    return r == board.max_r


def turn_result(
    board: Board, placed, mover: int, lines: bool, draw_on_both: bool, span_rule: bool = False
) -> float | None:
    """+1 / -1 / 0 if the turn that put ``placed`` (already on the board, tile area updated)
    ends the game for ``mover``, else None (the rules' ``outcome_of``)."""
    if completed(board, placed, mover, lines, span_rule):
        if draw_on_both and completed(board, placed, 1 - mover, lines, span_rule):
            return 0.0
        return 1.0
    if completed(board, placed, 1 - mover, lines, span_rule):
        return -1.0
    return None


# Colour (0 white, 1 red) each tile shows on its S, W, N and E side: what a neighbour to
# the N, E, S and W of an empty cell shows towards it.
_SOUTH = tuple(COLOUR[t][2] for t in range(6))
_WEST = tuple(COLOUR[t][3] for t in range(6))
_NORTH = tuple(COLOUR[t][0] for t in range(6))
_EAST = tuple(COLOUR[t][1] for t in range(6))
#: The forced tile of a cell whose two white (red) edges are the sides in the mask.
_FORCED_WHITE = {m: tile_joining(WHITE, m) for m in range(16) if BITS[m] == 2}
_FORCED_RED = {m: tile_joining(RED, m) for m in range(16) if BITS[m] == 2}


def place_turn(board: Board, pos: int, tile: int) -> list | None:
    """``Board.place`` for the search's trials: the same forced plays in the same order
    (a last-in-first-out work list of the four neighbours N, E, S, W), unrolled, and None
    instead of an exception for an illegal turn (the board then left as it was). On
    success the tiles are on the board, free tile first (``Board.rollback`` takes them
    away)."""
    cells = board.cells
    get = cells.get
    cells[pos] = tile
    placed = [(pos, tile)]
    todo = [pos - STRIDE, pos + 1, pos + STRIDE, pos - 1]
    pop, push = todo.pop, todo.extend
    while todo:
        q = pop()
        if q in cells:
            continue
        white = red = 0
        t = get(q - STRIDE)
        if t is not None:
            if _SOUTH[t]:
                red = 1
            else:
                white = 1
        t = get(q + 1)
        if t is not None:
            if _WEST[t]:
                red |= 2
            else:
                white |= 2
        t = get(q + STRIDE)
        if t is not None:
            if _NORTH[t]:
                red |= 4
            else:
                white |= 4
        t = get(q - 1)
        if t is not None:
            if _EAST[t]:
                red |= 8
            else:
                white |= 8
        nw, nr = BITS[white], BITS[red]
        if nw < 2 and nr < 2:
            continue
        if nw >= 3 or nr >= 3:
            for p, _ in placed:
                del cells[p]
            return None
        forced = _FORCED_WHITE[white] if nw == 2 else _FORCED_RED[red]
        cells[q] = forced
        placed.append((q, forced))
        push((q - STRIDE, q + 1, q + STRIDE, q - 1))
    return placed


def wins_with(
    board: Board, pos: int, tile: int, mover: int, lines: bool, draw_on_both: bool, span_rule: bool
):
    """Does the free ``tile`` on ``pos`` (a free placement here) win at once for ``mover``?
    False for an illegal turn. The board is left as it was."""
    placed = place_turn(board, pos, tile)
    if placed is None:
        return False
    # The tile area as ``commit`` would set it (forced tiles stay inside it), for the line test.
    bbox = board.min_r, board.max_r, board.min_c, board.max_c
    r, c = row_col(pos)
    board.min_r, board.max_r = min(bbox[0], r), max(bbox[1], r)
    board.min_c, board.max_c = min(bbox[2], c), max(bbox[3], c)
    wins = completed(board, placed, mover, lines, span_rule) and not (
        draw_on_both and completed(board, placed, 1 - mover, lines, span_rule)
    )
    board.min_r, board.max_r, board.min_c, board.max_c = bbox
    board.rollback(placed)
    return wins


def is_free_placement(board: Board, pos: int, tile: int, limited: bool) -> bool:
    """Is (``pos``, ``tile``) among ``free_placements`` here (before the forced-play check)?"""
    if pos not in board.frontier or not board.fits(pos, tile):
        return False
    if limited:
        height, width = board.area_with(pos)
        return height <= LIMIT and width <= LIMIT
    return True


def winning_moves(
    board: Board,
    mover: int,
    lines: bool,
    limited: bool,
    draw_on_both: bool,
    span_rule: bool = False,
    first_only: bool = False,
    hint: tuple[int, int] | None = None,
) -> list[tuple[int, int]]:
    """Every free placement (cell, tile) after whose turn ``mover`` has won; with
    ``first_only`` it stops at the first one, trying ``hint`` (a win found in a nearby
    position) before the rest. The board is left as it was."""
    if (
        first_only
        and hint is not None
        and is_free_placement(board, hint[0], hint[1], limited)
        and wins_with(board, hint[0], hint[1], mover, lines, draw_on_both, span_rule)
    ):
        return [hint]
    found = []
    masks: dict = {}
    bbox = board.min_r, board.max_r, board.min_c, board.max_c
    # A single tile can finish a line only if it can make the area 8 long.
    lines_near = lines and (span_rule or max(bbox[1] - bbox[0], bbox[3] - bbox[2]) + 2 >= LINE_SPAN)
    for pos, tile in free_placements(board, limited):
        if forces_nothing(board, pos, tile, masks) and not (
            lines_near and may_finish_line(board, pos, span_rule)
        ):
            continue
        if wins_with(board, pos, tile, mover, lines, draw_on_both, span_rule):
            found.append((pos, tile))
            if first_only:
                break
    return found


def evaluate(board: Board, mover: int, lines: bool = True, tracks=None) -> float:
    """Heuristic value in (-1, 1) for ``mover`` (to move), who has no immediate win;
    ``tracks`` are ``open_tracks(board, lines)`` if already known."""
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


__all__ = [
    "completed",
    "evaluate",
    "is_free_placement",
    "may_finish_line",
    "place_turn",
    "turn_result",
    "winning_moves",
    "wins_with",
]
