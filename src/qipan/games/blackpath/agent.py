"""Black Path players: the Winning Ways domino strategy and the solver-backed perfect player."""

from __future__ import annotations

from ...agents import clock
from ...agents.base import Agent
from ...core import Move
from ...core.errors import SearchTimeout
from .board import EMPTY, GOAL, tile_joining
from .solver import Solver


def domino_partners(rows: int, cols: int) -> list[int]:
    """partner[cell] in a domino tiling of the board (Winning Ways vol. 2, pp. 682-683).

    Even boards are tiled completely; an odd x odd board is tiled without the top-left
    start cell (partner -1), which is what the second player's strategy needs."""
    partner = [-1] * (rows * cols)

    def pair(a: int, b: int) -> None:
        partner[a], partner[b] = b, a

    if cols % 2 == 0:
        for r in range(rows):
            for c in range(0, cols, 2):
                pair(r * cols + c, r * cols + c + 1)
    elif rows % 2 == 0:
        for c in range(cols):
            for r in range(0, rows, 2):
                pair(r * cols + c, (r + 1) * cols + c)
    else:
        for c in range(1, cols, 2):  # the top row after the start cell, in pairs
            pair(c, c + 1)
        for c in range(cols):  # the other rows (an even number) in vertical pairs
            for r in range(1, rows, 2):
                pair(r * cols + c, (r + 1) * cols + c)
    return partner


def domino_move(state) -> Move | None:
    """The strategist's move: link the entry side to the side of the free end's domino
    partner, when that partner is empty. None when the invariant does not hold."""
    g = state.game
    partners = domino_partners(g.rows, g.cols)
    cell = state.end_cell
    partner = partners[cell]
    if partner < 0 or partner == g.goal or state.tiles[partner] != EMPTY:
        return None
    side = g.neigh[cell].index(partner)
    move = g.cell_moves[cell][tile_joining(state.end_side, side) - 1]
    return move if move in state.legal_moves() else None


class DominoAgent(Agent):
    """Plays the domino-tiling strategy; where it does not apply (the wrong side of the
    parity, the seed variant's goal), a winning tile or else a tile that stays on the board."""

    name = "blackpath-domino"

    def select(self, state) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        for move in moves:
            if state.where(move.data) == GOAL:
                return move
        move = domino_move(state)
        if move is not None:
            return move
        safe = [m for m in moves if m.data in state.safe_tiles()]
        return self.rng.choice(safe or moves)


class SolverAgent(Agent):
    """Perfect play from the exhaustive solver. The search is exact; with a ``time`` limit
    a search that cannot finish in time falls back to the domino player's move."""

    name = "blackpath-solver"
    # Until ply 20-26 a solve needs more than 1.5 s, so within a level's second it plays the
    # domino move whatever its share: the levels set its strength by lapses.
    levels_by_lapses = True

    def __init__(self, **limits):
        super().__init__(**limits)
        self._solvers: dict[tuple, Solver] = {}
        self._fallback = DominoAgent(seed=self.seed)

    def _solver(self, game) -> Solver:
        options = (game.rows, game.cols, game.variant, game.options.get("start_arm", "horizontal"))
        if options not in self._solvers:
            self._solvers[options] = Solver(*options)
        return self._solvers[options]

    def select(self, state) -> Move:
        moves = state.legal_moves()
        if len(moves) == 1:
            return moves[0]
        solver = self._solver(state.game)
        solver.clock = clock.now  # the agents' clock: CPU seconds in a match that asks for them
        solver.deadline = clock.now() + self.time if self.time is not None else None
        try:
            best = solver.best_move(state)
        except SearchTimeout:
            return self._fallback.select(state)
        if best is not None:
            return best
        # Lost anyway: stay on the board as long as possible.
        safe = [m for m in moves if m.data in state.safe_tiles()]
        return (safe or moves)[0]
