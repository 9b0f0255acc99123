"""The Morris action space (``Game.actions()``, see ``core/actions.py``), one layout for
every board of the family.

Points are numbered 0..P-1 in the order of the board's point names (``a1``, ``a4``, …,
the engine's bit order). A ply is (from, to, removal): ``from`` is 0 for a placement or
1 + the point a stone leaves, ``to`` is 0 for a bare removal (full-board rule) or 1 + the
point it lands on, ``removal`` is 0 for none, 1 + v for the single stone v, and, where a
ply can remove two stones (``take_per_mill=2``, 直棋's 擔), 1 + P + w·(w-1)/2 + v for the
pair v < w. The action is ``(from · (P + 1) + to) · R + removal`` with R the number of
removal codes (1 + P, or 1 + P + P·(P-1)/2).

Observation, shape (6, P), seen by ``player``: its stones, the opponent's stones, then
planes filled with its stones in hand / stones, the opponent's, the removals still
pending (full-board rule) / stones, and 1 when ``player`` is to move."""

from __future__ import annotations

from ...core.actions import ActionSpace, Planes


class MorrisActions(ActionSpace):
    batched = "qipan.games.morris.vector:MorrisBatch"

    def __init__(self, game):
        super().__init__(game)
        rules = game.rules
        self.points = n = game.geometry.n
        pairs = rules.take_per_mill == 2 or rules.captures == "zhiqi"
        self.removals = 1 + n + (n * (n - 1) // 2 if pairs else 0)
        self.size = (n + 1) * (n + 1) * self.removals
        self.description = __doc__

    def removal_code(self, mask: int) -> int:
        if not mask:
            return 0
        low = mask & -mask
        v = low.bit_length() - 1
        rest = mask ^ low
        if not rest:
            return 1 + v
        w = rest.bit_length() - 1
        return 1 + self.points + w * (w - 1) // 2 + v

    def index(self, state, move) -> int:
        f, t, removed = move.data[:3]
        n = self.points
        return ((f + 1) * (n + 1) + t + 1) * self.removals + self.removal_code(removed)

    def observation_shape(self, players: int) -> tuple[int, ...]:
        return (6, self.points)

    def observe(self, state, player: int) -> list[float]:
        n, other = self.points, 1 - player
        stones = state.rules.stones
        planes = Planes(6, 1, n)
        for plane, bits in ((0, state.bb[player]), (1, state.bb[other])):
            while bits:
                low = bits & -bits
                planes.set(plane, 0, low.bit_length() - 1)
                bits ^= low
        planes.fill(2, state.hand[player] / stones)
        planes.fill(3, state.hand[other] / stones)
        planes.fill(4, min(1.0, state.pending / stones))
        if state.to_move == player:
            planes.fill(5, 1.0)
        return planes.data
