"""Exact immediate wins for the ``trax`` search (``search.py``).

``winning_moves`` finds every free tile that wins at once for the side to move, exactly,
without trying most placements: a free tile that forces nothing is a single new tile, and
the cell it fills faces at most one edge of each colour (a cell facing two would have been
forced), so its tracks stay open at one side and it cannot close a loop; it can only finish
a line, and only if it lies on the outermost row or column of an area 8 long. Only the
placements that force something (and those line candidates) are tried with the rules'
forced plays, so the check costs a fraction of a full expansion. The search's evaluation
of the positions without one is ``evaluation.evaluate_without_win``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import DELTA, LIMIT, LINE_SPAN, OTHER_END, TRACK, row_col
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


def wins_with(
    board: Board, pos: int, tile: int, mover: int, lines: bool, draw_on_both: bool, span_rule: bool
):
    """Does the free ``tile`` on ``pos`` (a free placement here) win at once for ``mover``?
    False for an illegal turn. The board is left as it was."""
    placed = board.place_if_legal(pos, tile)
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


__all__ = [
    "completed",
    "is_free_placement",
    "may_finish_line",
    "turn_result",
    "winning_moves",
    "wins_with",
]
