"""The Tantrix action space (``Game.actions()``, see ``core/actions.py``), for the
multi-player games and the solitaire puzzles alike.

The table has no edge, so moves are numbered in a window around the tiles: the window's
centre is the middle of the tiles' bounding box in axial coordinates (q, r) (``(0, 0)`` on
an empty table, halves rounded down), and a cell (q, r) is at row ``r - centre_r + 8``,
column ``q - centre_q + 8`` of a 17 × 17 grid (offsets -8..8 in q and r). A placement of
tile t (1..56) turned k sixth-turns (0..5) on the cell at (row, col) is action
``((t - 1) · 6 + k) · 289 + row · 17 + col``; a forced fill has the same action as the same
placement would. A move beyond the window (a table spread more than 8 cells from the middle
of its tiles) is not offered.

Observation, shape (31, 17, 17), the same window, seen by ``player``: plane 0 the occupied
cells, planes 1 + 4·d + c the colour c (R, Y, G, B) that a tile shows on its edge d (NE, E,
SE, SW, W, NW), plane 25 the tiles in ``player``'s hand (flat position t - 1 of the plane
is 1 when tile t is in it), planes 26..29 filled with 1 for ``player``'s colour (R, Y, G,
B; the loop colour in a puzzle), the last plane 1 when ``player`` is to move."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes

RADIUS = 8
SIDE = 2 * RADIUS + 1
CELLS = SIDE * SIDE
_COLOUR = {c: k for k, c in enumerate("RYGB")}


class TantrixActions(ActionSpace):
    size = 56 * 6 * CELLS
    description = __doc__
    chance_outcomes = 56  # a draw from the bag
    max_game_length = 3 * 56 + 8  # every tile drawn and placed, plus the start-order draws

    def centre(self, state) -> tuple[int, int]:
        if not state.board:
            return 0, 0
        qs = [q for q, _ in state.board]
        rs = [r for _, r in state.board]
        return (min(qs) + max(qs)) // 2, (min(rs) + max(rs)) // 2

    def _slot(self, cell, centre) -> int | None:
        row, col = cell[1] - centre[1] + RADIUS, cell[0] - centre[0] + RADIUS
        if 0 <= row < SIDE and 0 <= col < SIDE:
            return row * SIDE + col
        return None

    def index(self, state, move) -> int | None:
        _, tile, cell, rot, _forced = move.data
        slot = self._slot(cell, self.centre(state))
        if slot is None:
            return None
        return ((tile - 1) * 6 + rot) * CELLS + slot

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return (31, SIDE, SIDE)

    def observe(self, state, player: int) -> list[float]:
        planes = Planes(31, SIDE, SIDE)
        centre = self.centre(state)
        for cell, edges in state.edges.items():
            slot = self._slot(cell, centre)
            if slot is None:
                continue
            row, col = divmod(slot, SIDE)
            planes.set(0, row, col)
            for d, colour in enumerate(edges):
                planes.set(1 + 4 * d + _COLOUR[colour], row, col)
        for tile in state.hands[player]:
            planes.set(25, *divmod(tile - 1, SIDE))
        # A puzzle's State has no seat colours: its game names the loop colour.
        colour = state.colours[player] if hasattr(state, "colours") else state.game.colour
        if colour in _COLOUR:
            planes.fill(26 + _COLOUR[colour], 1.0)
        if state.to_move == player:
            planes.fill(30, 1.0)
        return planes.data
