"""The Trax action space (``Game.actions()``, see ``core/actions.py``).

A move is named relative to the tile area before it (rules §2.7): column 0 (``@``) is the
empty column left of the area, row 0 the empty row above it. The action is
``(row · W + col) · 3 + symbol`` with ``symbol`` 0 = ``+``, 1 = ``/``, 2 = ``\\`` in a
window of W × W relative cells: W = 10 for 8x8 Trax (the whole board and its rim), and
W = 20 for the unbounded variants (an area up to 18 tiles wide and tall and its rim). In
those, a move beyond the window (the area is already wider or taller than 18) is not
offered, so programs see only the moves at the top-left of a very large area.

Observation, shape (7, W, W), the same window (tile area at row 1, column 1), seen by
``player``: planes 0..5 the tile states NS, WE, NW, NE, SW, SE of the white track, the last
plane 1 when ``player`` (0 = White, 1 = Red) is to move."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes
from .board import SYMBOL, SYMBOLS, row_col

_SYMBOL_INDEX = {s: k for k, s in enumerate(SYMBOLS)}


class TraxActions(ActionSpace):
    def __init__(self, game):
        super().__init__(game)
        self.window = 10 if game.limited else 20
        self.size = self.window * self.window * 3
        self.description = __doc__

    def index(self, state, move) -> int | None:
        pos, tile = move.data
        board = state.board
        if not board.cells:
            row = col = 0
        else:
            r, c = row_col(pos)
            row, col = r - board.min_r + 1, c - board.min_c + 1
        if not (0 <= row < self.window and 0 <= col < self.window):
            return None
        return (row * self.window + col) * 3 + _SYMBOL_INDEX[SYMBOL[tile]]

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return (7, self.window, self.window)

    def observe(self, state, player: int) -> list[float]:
        w = self.window
        planes = Planes(7, w, w)
        board = state.board
        for pos, tile in board.cells.items():
            r, c = row_col(pos)
            row, col = r - board.min_r + 1, c - board.min_c + 1
            if row < w and col < w:
                planes.set(tile, row, col)
        if state.to_move == player:
            planes.fill(6, 1.0)
        return planes.data
