"""Generic alpha-beta for two-player games: iterative deepening, a transposition table on
``state.key()``, the game's ``evaluate`` and ``order_moves``.

Values are from the root player's point of view (max when they move, min otherwise), which
handles turns where the same player moves twice and chance nodes (averaged: expectimax).

With a clock budget (``choose(state, budget)``) it stops deepening near the budget's target
and goes on towards the hard limit only while the position looks critical: the best move
changed at the last iteration or its score fell (time management as chess engines do it)."""

from __future__ import annotations

from ..core.errors import OptionError, SearchTimeout
from ..core.game import CHANCE, State
from ..core.move import Move
from ..core.registry import Option
from . import clock
from .base import Agent

WIN = 1_000_000.0
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2

#: The parameters of ``AlphaBetaAgent`` beyond the limits (and of the agents built on it).
OPTIONS = (
    Option("table_size", int, 1_000_000, "transposition-table entries kept", minimum=1, maximum=100_000_000),
)


#: Extra targets granted for an iteration whose best move changed or whose score fell.
UNSTABLE_EXTENSION = 1.0
#: An iteration costs about this many times the previous one: do not start one that the
#: time left cannot pay for.
GROWTH = 2.0
#: A score drop (in evaluation units, [-1, 1]) that counts as the position turning bad.
SCORE_DROP = 0.1


class AlphaBetaAgent(Agent):
    name = "alphabeta"
    manages_time = True

    def __init__(self, time=None, iterations=None, depth=None, seed=None, table_size: int = 1_000_000):
        super().__init__(time=time, iterations=iterations, depth=depth, seed=seed)
        #: Without limits it searches 4 plies, unless a clock budget gives it time instead.
        self.default_depth = time is None and depth is None
        if self.default_depth:
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
        max_depth = None if self.default_depth and self.soft_time is not None else self.depth
        self.nodes = 0
        kernel = state.game.kernel()
        # The game's compiled twin searches the same values, faster.
        if kernel is not None and "alphabeta" in kernel.searches:
            # The compiled search deepens within one deadline: give it the target.
            deadline = self._deadline if self.soft_time is None else clock.now() + self.soft_time
            result = kernel.alphabeta(state, depth=max_depth, deadline=deadline)
            self.nodes, self.reached_depth, self.last_score = result.nodes, result.depth, result.score
            return result.move
        if len(self.table) > self.table_size:
            self.table.clear()
        work = state.copy()
        best = moves[0]
        started, spent = clock.now(), 0.0
        extensions = 0.0
        for depth in range(1, (max_depth or 64) + 1):
            try:
                score, move = self._root(work, depth, moves)
            except SearchTimeout:
                break
            if depth > 1 and (move != best or score < self.last_score - SCORE_DROP):
                extensions += UNSTABLE_EXTENSION  # critical: worth more of the clock
            best, self.reached_depth, self.last_score = move, depth, score
            moves.remove(move)
            moves.insert(0, move)  # principal move first at the next depth
            if abs(score) >= WIN - 1000:
                break
            if self.soft_time is not None:
                previous, spent = spent, clock.now() - started
                allowed = self.soft_time * (1.0 + extensions)
                if spent + GROWTH * max(spent - previous, 0.0) > allowed:
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
