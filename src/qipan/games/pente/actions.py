"""Pente's action space (``Game.actions()``, see ``core/actions.py``).

Actions: the point at column ``col`` (A.. left to right, no I) and row ``row`` (1 at the
bottom) is ``row * n + col`` on an n×n board. With ``max_pairs_per_move`` set a placement
may take only some of the pairs it brackets: the action is then
``(row * n + col) * 256 + chosen``, ``chosen`` having bit k set for the pair in direction
k of the geometry's eight (E, N, NE, NW, W, S, SW, SE in padded-array steps), 0 for none.

Observation, shape (2·P + 1, n, n) for P players, seen by ``player``: planes 0..P-1 the
stones of the players in seat order from ``player`` (itself first), planes P..2P-1 those
players' captured stones / 10 everywhere, the last plane 1 everywhere when ``player`` is
to move."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes, seat_order
from .board import EMPTY


class PenteActions(ActionSpace):
    batched = "qipan.games.pente.vector:PenteBatch"

    def __init__(self, game):
        super().__init__(game)
        self.geom = game.geom
        n = self.geom.n
        self.choosing = game.options.get("max_pairs_per_move") is not None
        self.size = n * n * (256 if self.choosing else 1)
        self.description = __doc__
        self._dir_bit = {d: 1 << k for k, d in enumerate(self.geom.dirs8)}

    def index(self, state, move) -> int:
        i, dirs = move.data
        g = self.geom
        point = g.row[i] * g.n + g.col[i]
        if not self.choosing:
            return point
        chosen = 0
        for d in dirs or ():
            chosen |= self._dir_bit[d]
        return point * 256 + chosen

    def observation_shape(self, players: int) -> tuple[int, ...]:
        n = self.geom.n
        return (2 * players + 1, n, n)

    def observe(self, state, player: int) -> list[float]:
        g, players = self.geom, state.num_players
        planes = Planes(2 * players + 1, g.n, g.n)
        plane_of = {p + 1: k for k, p in enumerate(seat_order(player, players))}
        cells = state.cells
        for i in g.points:
            v = cells[i]
            if v != EMPTY:
                planes.set(plane_of[v], g.row[i], g.col[i])
        for k, p in enumerate(seat_order(player, players)):
            planes.fill(players + k, min(1.0, state.captures[p] / 10))
        if state.to_move == player:
            planes.fill(2 * players, 1.0)
        return planes.data
