"""The MOD X action space (``Game.actions()``, see ``core/actions.py``).

Squares are numbered 8·rank + file (a1 = 0, b1 = 1, …, h8 = 63). Actions 0..63 put a setup
joker on a square (``J@a1``…), 64..127 place an X piece (with whatever it scores), 128..191
relocate a removed joker (``J>a1``…). With ``manual_claims``, 192..255 place an X leaving
the patterns it completes unclaimed (``a1 {}``…) and 256 + 64·owner + square claim the
owner's unclaimed patterns with an X on the square (``a1 claim {…}``).

Observation, shape (2·P + 4, 8, 8) for P players, seen by ``player``: planes 0..P-1 the X
pieces of the players in seat order from ``player`` (itself first), P..2P-1 the squares
whose top marker is theirs, then the jokers, the height of each marker stack / 18, a plane
filled with ``player``'s points / the target, and 1 when ``player`` is to move."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes, seat_order
from .board import MARKERS, SIZE, SQUARES

_KIND = {"setup": 0, "place": 1, "relocate": 2, "leave": 3, "claim": 4}
#: Claims by owner follow the four blocks of the other moves.
_CLAIMS = 4 * SQUARES


class ModXActions(ActionSpace):
    description = __doc__

    def __init__(self, game):
        super().__init__(game)
        # The claims of each of up to four owners follow, where they can be made.
        self.size = _CLAIMS + 4 * SQUARES if game.manual_claims else 3 * SQUARES

    def index(self, state, move) -> int:
        kind, s = move.data[:2]
        if kind == "claim":
            return _CLAIMS + move.data[2] * SQUARES + s
        return _KIND[kind] * SQUARES + s

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return (2 * players + 4, SIZE, SIZE)

    def observe(self, state, player: int) -> list[float]:
        players = state.num_players
        planes = Planes(2 * players + 4, SIZE, SIZE)
        order = seat_order(player, players)
        for s in range(SQUARES):
            rank, file = divmod(s, SIZE)
            for k, p in enumerate(order):
                if state.xs[p] >> s & 1:
                    planes.set(k, rank, file)
                if state.top[s] == p:
                    planes.set(players + k, rank, file)
            if state.jokers >> s & 1:
                planes.set(2 * players, rank, file)
            if state.stacks[s]:
                planes.set(2 * players + 1, rank, file, min(1.0, len(state.stacks[s]) / MARKERS))
        planes.fill(2 * players + 2, min(1.0, state.side_points(player) / state.target))
        if state.to_move == player:
            planes.fill(2 * players + 3, 1.0)
        return planes.data
