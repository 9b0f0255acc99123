"""The search of the ``trax`` agent: iterative-deepening principal-variation search over
the free tiles (the rules engine applies each one's forced plays), with

* a transposition table keyed by a Zobrist hash of the tiles (transpositions are common:
  the same tiles in another order give the same position);
* move ordering by the table's move, two killer moves per ply, a history score, and the
  cells at the ends of tracks close to a win;
* a threat horizon: at depth 0 the side to move's immediate wins are found exactly
  (``threats.winning_moves``, which tries only the placements that force something), and
  when the opponent has an immediate win the side to move gets one more ply to parry it
  (quiescence on threats), so a depth-3 search sees every loss four plies deep.

Scores are for the side to move; a win found ``n`` plies from the root is worth
``WIN - n``, so quicker wins and slower losses are preferred."""

from __future__ import annotations

import random

from ...agents import clock
from ...core.errors import SearchTimeout
from .board import LIMIT
from .evaluation import hot_cells, open_tracks
from .rules import Board, IllegalTurn, TraxState, free_placements, legal_placements
from .threats import evaluate, turn_result, winning_moves

WIN = 1000.0
#: Scores beyond this are wins or losses found by the search.
PROVEN = WIN - 500
INFINITY = 4 * WIN
#: Null-window width for the scout searches (evaluations are floats in (-1, 1)).
EPSILON = 1e-7
EXACT, LOWER, UPPER = 0, 1, 2
#: Extra plies the threat horizon may add below the nominal depth.
QUIESCENCE_PLIES = 2

_ZOBRIST_RNG = random.Random(0x7A1C5)
_ZOBRIST: dict[int, int] = {}
SIDE_KEY = (0, _ZOBRIST_RNG.getrandbits(64))


def zobrist(pos: int, tile: int) -> int:
    """The random 64-bit key of ``tile`` on ``pos`` (made on first use, fixed seed)."""
    k = pos * 8 + tile
    z = _ZOBRIST.get(k)
    if z is None:
        z = _ZOBRIST[k] = _ZOBRIST_RNG.getrandbits(64)
    return z


def board_hash(board: Board) -> int:
    h = 0
    for p, t in board.cells.items():
        h ^= zobrist(p, t)
    return h


class ThreatSearch:
    """One move's search on a private copy of the board."""

    def __init__(self, state: TraxState, rng, deadline: float | None = None, node_limit: int | None = None):
        game = state.game
        self.board: Board = state.board.copy()
        self.lines = game.lines_win
        self.limited = game.limited
        self.draw_on_both = game.simultaneous == "draw"
        self.span_rule = game.line_rule == "span"
        self.mover = state.to_move
        self.rng = rng
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.depth_done = 0
        self.scores: dict[tuple[int, int], float] = {}
        self.hash = board_hash(self.board)
        self.table: dict[int, tuple[int, int, float, tuple[int, int] | None]] = {}
        self.wins_known: dict[int, bool] = {}
        self.killers: dict[int, list] = {}
        self.history: dict[tuple[int, int], int] = {}

    # -- root ------------------------------------------------------------------------------
    def best(self, max_depth: int) -> tuple[int, int]:
        moves = legal_placements(self.board, self.limited)
        self.rng.shuffle(moves)  # ties broken at random (seeded)
        if len(moves) == 1:
            return moves[0]
        wins = winning_moves(
            self.board, self.mover, self.lines, self.limited, self.draw_on_both, self.span_rule
        )
        if wins:
            self.scores = {wins[0]: WIN}
            return wins[0]
        order = self._root_order(moves)
        best = order[0]
        for depth in range(1, max_depth + 1):
            try:
                scores = self._root(order, depth)
            except SearchTimeout:
                break
            self.scores = scores
            self.depth_done = depth
            order = sorted(order, key=lambda m: -scores.get(m, -INFINITY))
            best = order[0]
            top = scores[best]
            if top >= PROVEN or all(v <= -PROVEN for v in scores.values()):
                break  # a forced win found, or every move loses: deeper search changes nothing
        return best

    def _root_order(self, moves):
        hot = hot_cells(self.board, open_tracks(self.board, self.lines))
        return sorted(moves, key=lambda m: hot.get(m[0], 99))

    def _root(self, order, depth):
        """Scores of the root moves: exact for the best, upper bounds for the others."""
        scores = {}
        alpha = -INFINITY
        mover = self.mover
        for i, move in enumerate(order):
            made = self._make(move)
            if made is None:
                continue
            placed, before, saved = made
            try:
                value = self._after(placed, mover, depth, 0, alpha, INFINITY, i == 0)
            finally:
                self._unmake(placed, before, saved)
            scores[move] = value
            alpha = max(alpha, value)
        return scores

    # -- tree ------------------------------------------------------------------------------
    def _make(self, move):
        board = self.board
        try:
            placed = board.place(move[0], move[1])
        except IllegalTurn:
            return None
        before = board.bbox()
        board.commit(placed)
        saved = self.hash
        h = saved
        for p, t in placed:
            h ^= zobrist(p, t)
        self.hash = h
        return placed, before, saved

    def _unmake(self, placed, before, saved):
        self.board.uncommit(placed, before)
        self.hash = saved

    def _after(self, placed, mover, depth, ply, alpha, beta, full) -> float:
        """The value for ``mover`` of the turn that just put ``placed`` (``depth`` left
        before it, ``ply`` its distance from the root). ``full``: search the reply with
        the whole window (first move), else a null window first (PVS)."""
        self._tick()
        result = turn_result(self.board, placed, mover, self.lines, self.draw_on_both, self.span_rule)
        if result is not None:
            return result * (WIN - ply - 1)
        if self.limited and len(self.board.cells) >= LIMIT * LIMIT:
            return 0.0
        other = 1 - mover
        if full:
            return -self._negamax(other, depth - 1, ply + 1, -beta, -alpha)
        value = -self._negamax(other, depth - 1, ply + 1, -alpha - EPSILON, -alpha)
        if alpha < value < beta:
            value = -self._negamax(other, depth - 1, ply + 1, -beta, -alpha)
        return value

    def _negamax(self, mover: int, depth: int, ply: int, alpha: float, beta: float) -> float:
        key = self.hash ^ SIDE_KEY[mover]
        entry = self.table.get(key)
        table_move = None
        if entry is not None:
            e_depth, flag, value, table_move = entry
            if e_depth >= depth:
                value = _from_table(value, ply)
                if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                    return value
        if depth <= 0:
            return self._horizon(mover, depth, ply, alpha, beta, key)
        alpha0 = alpha
        best, best_move = -INFINITY, None
        first = True
        for move in self._ordered(mover, ply, depth, table_move):
            made = self._make(move)
            if made is None:
                continue
            placed, before, saved = made
            try:
                value = self._after(placed, mover, depth, ply, alpha, beta, first)
            finally:
                self._unmake(placed, before, saved)
            first = False
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(move, ply, depth)
                        break
        if best_move is None:
            return 0.0  # no legal move: a draw (8x8)
        flag = LOWER if best >= beta else UPPER if best <= alpha0 else EXACT
        self.table[key] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def _horizon(self, mover, depth, ply, alpha, beta, key) -> float:
        """Depth used up: an immediate win of the side to move is a win; a pending win of
        the opponent gets the side to move a reply (up to QUIESCENCE_PLIES extra plies);
        otherwise the evaluation."""
        if self._can_win(mover, key):
            return WIN - ply - 1
        other = 1 - mover
        if depth > -QUIESCENCE_PLIES and self._can_win(other, self.hash ^ SIDE_KEY[other]):
            # Parry or lose: search every reply; the opponent's answer is looked at next.
            best = -INFINITY
            first = True
            for move in self._ordered(mover, ply, 0, None):
                made = self._make(move)
                if made is None:
                    continue
                placed, before, saved = made
                try:
                    value = self._after(placed, mover, depth, ply, alpha, beta, first)
                finally:
                    self._unmake(placed, before, saved)
                first = False
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            return 0.0 if best == -INFINITY else best
        return evaluate(self.board, mover, self.lines)

    def _can_win(self, mover: int, key: int) -> bool:
        known = self.wins_known.get(key)
        if known is None:
            known = bool(
                winning_moves(
                    self.board, mover, self.lines, self.limited, self.draw_on_both, self.span_rule, True
                )
            )
            self.wins_known[key] = known
        return known

    def _ordered(self, mover, ply, depth, table_move):
        moves = list(free_placements(self.board, self.limited))
        history = self.history
        killers = self.killers.get(ply, ())
        hot = hot_cells(self.board, open_tracks(self.board, self.lines)) if depth >= 2 else {}

        def rank(m):
            if m == table_move:
                return -1_000_000
            if m in killers:
                return -100_000
            return -history.get(m, 0) * 8 + hot.get(m[0], 9)

        moves.sort(key=rank)
        return moves

    def _reward(self, move, ply, depth):
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def _tick(self):
        self.nodes += 1
        if self.nodes & 63 == 0 and self.deadline is not None and clock.now() > self.deadline:
            raise SearchTimeout
        if self.node_limit is not None and self.nodes > self.node_limit and self.depth_done:
            raise SearchTimeout


def _to_table(value: float, ply: int) -> float:
    """Win scores stored relative to the node, so they stay right at another distance."""
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


def _from_table(value: float, ply: int) -> float:
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


__all__ = ["WIN", "ThreatSearch", "board_hash", "zobrist"]
