"""The Black Path action space (``Game.actions()``, see ``core/actions.py``).

Every move goes to the one cell the path's free end enters, so an action is only the tile:
0 = ``+``, 1 = ``/``, 2 = ``\\``.

Observation, shape (8, rows, cols), the same for both players: planes 0..2 the cells
holding ``+``, ``/`` and ``\\``, plane 3 the cell the path enters next, planes 4..7 that
cell again on the plane of the side it is entered by (N, E, S, W)."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes
from .board import EMPTY


class BlackPathActions(ActionSpace):
    size = 3
    description = __doc__

    def __init__(self, game):
        super().__init__(game)
        self.max_game_length = game.rows * game.cols  # each ply fills a cell

    def index(self, state, move) -> int:
        return move.data - 1

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return (8, self.game.rows, self.game.cols)

    def observe(self, state, player: int) -> list[float]:
        rows, cols = self.game.rows, self.game.cols
        planes = Planes(8, rows, cols)
        for cell, tile in enumerate(state.tiles):
            if tile != EMPTY:
                planes.set(tile - 1, cell // cols, cell % cols)
        if state.outcome is None:
            r, c = divmod(state.end_cell, cols)
            planes.set(3, r, c)
            planes.set(4 + state.end_side, r, c)
        return planes.data
