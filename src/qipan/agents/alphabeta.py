"""Generic alpha-beta for two-player games: iterative deepening, a transposition table on
``state.key()``, the game's ``evaluate`` and ``order_moves``.

Values are from the root player's point of view (max when they move, min otherwise), which
handles turns where the same player moves twice and chance nodes (averaged: expectimax)."""

from __future__ import annotations

from ..core.errors import OptionError, SearchTimeout
from ..core.game import CHANCE, State
from ..core.move import Move
from . import clock
from .base import Agent

WIN = 1_000_000.0
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2


class AlphaBetaAgent(Agent):
    name = "alphabeta"

    def __init__(self, time=None, iterations=None, depth=None, seed=None, table_size: int = 1_000_000):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        if time is None and depth is None:
            self.depth = 4
        self.table_size = table_size
        self.table: dict = {}
        self.nodes = 0
        self.reached_depth = 0
        self.last_score = 0.0

    def select(self, state: State) -> Move:
        if state.num_players != 2:
            raise OptionError("the alphabeta agent plays two-player games only; use mcts")
        moves = state.game.order_moves(state, list(state.legal_moves()))
        if len(moves) == 1:
            return moves[0]
        self._me = state.to_move
        self._deadline = self.deadline()
        self.nodes = 0
        kernel = state.game.kernel()
        # The game's compiled twin searches the same values, faster.
        if kernel is not None and "alphabeta" in kernel.searches:
            result = kernel.alphabeta(state, depth=self.depth, deadline=self._deadline)
            self.nodes, self.reached_depth, self.last_score = result.nodes, result.depth, result.score
            return result.move
        if len(self.table) > self.table_size:
            self.table.clear()
        work = state.copy()
        best = moves[0]
        for depth in range(1, (self.depth or 64) + 1):
            try:
                score, move = self._root(work, depth, moves)
            except SearchTimeout:
                break
            best, self.reached_depth, self.last_score = move, depth, score
            moves.remove(move)
            moves.insert(0, move)  # principal move first at the next depth
            if abs(score) >= WIN - 1000:
                break
        return best

    def _root(self, state: State, depth: int, moves: list[Move]) -> tuple[float, Move]:
        alpha = -INF
        best_move, best_score = moves[0], -INF
        for move in moves:
            state.play_unchecked(move)
            try:
                score = self._search(state, depth - 1, alpha, INF, 1)
            finally:
                state.undo()
            if score > best_score:
                best_score, best_move = score, move
            alpha = max(alpha, score)
        return best_score, best_move

    def _search(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        # Checked at every node: a game's evaluate or order_moves may cost a millisecond.
        if self._deadline is not None and clock.now() > self._deadline:
            raise SearchTimeout
        me = self._me
        if state.outcome is not None:
            r = state.outcome.reward(me)
            return WIN - ply if r > 0.5 else -WIN + ply if r < 0.5 else 0.0
        if depth <= 0:
            return state.game.evaluate(state, me)
        if state.to_move == CHANCE:
            total = 0.0
            for move, p in state.chance_outcomes():
                state.play_unchecked(move)
                try:
                    total += p * self._search(state, depth - 1, -INF, INF, ply + 1)
                finally:
                    state.undo()
            return total
        key = (me, state.key())
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_flag, e_value, tt_move = entry
            if e_depth >= depth and (
                e_flag == EXACT
                or (e_flag == LOWER and e_value >= beta)
                or (e_flag == UPPER and e_value <= alpha)
            ):
                return e_value
        moves = state.game.order_moves(state, list(state.legal_moves()))
        if tt_move is not None and tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        maximizing = state.to_move == me
        alpha0, beta0 = alpha, beta
        best = -INF if maximizing else INF
        best_move = None
        for move in moves:
            state.play_unchecked(move)
            try:
                score = self._search(state, depth - 1, alpha, beta, ply + 1)
            finally:
                state.undo()
            if maximizing:
                if score > best:
                    best, best_move = score, move
                alpha = max(alpha, score)
            else:
                if score < best:
                    best, best_move = score, move
                beta = min(beta, score)
            if alpha >= beta:
                break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta0 else EXACT
        self.table[key] = (depth, flag, best, best_move)
        return best
