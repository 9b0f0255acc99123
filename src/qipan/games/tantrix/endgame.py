"""Search for the endgame: once the last tile is drawn Tantrix is a game of perfect
information (hands are open, no draws are left), so the agent searches it instead of
guessing: alpha-beta with iterative deepening until the time is up, every other colour
playing against the agent ("paranoid" for 3-4 players), leaves scored by
``strategy.evaluate`` (exact when all tiles are placed: win 1, draw 0, loss -1)."""

from __future__ import annotations

import time as _time

from .strategy import DEFAULT, evaluate, order_moves

INF = float("inf")


class _OutOfTime(Exception):
    pass


def endgame_move(state, player: int, deadline: float | None, max_depth: int = 3, weights=DEFAULT):
    """The best move for ``player`` by the deepest search finished in time (``max_depth``
    plies when there is no deadline); one ply is always finished."""
    work = state.copy()
    moves = order_moves(work, work.legal_moves())
    left = sum(len(h) for h in work.hands)
    best = moves[0]
    depth = 1
    while True:
        limit = None if depth == 1 else deadline  # the first iteration always finishes
        values = []
        alpha = -INF
        try:
            for move in moves:
                value = _child(work, move, player, depth - 1, alpha, INF, limit, weights)
                values.append((value, move))
                alpha = max(alpha, value)
        except _OutOfTime:
            pass
        if len(values) < len(moves):
            # Moves are searched best first: one searched in time that beats the previous
            # best is trusted even though the iteration did not finish.
            return max(values, key=lambda vm: vm[0])[1] if values else best
        values.sort(key=lambda vm: vm[0], reverse=True)
        moves = [m for _, m in values]
        best = moves[0]
        if depth >= left or abs(values[0][0]) == 1.0 and depth > 1:
            return best  # searched to the end of the game, or a sure result
        if deadline is None and depth >= max_depth:
            return best
        if deadline is not None and _time.perf_counter() > deadline:
            return best
        depth += 1


def _child(state, move, player: int, depth: int, alpha: float, beta: float, deadline, weights) -> float:
    state.play_unchecked(move)
    try:
        return _search(state, player, depth, alpha, beta, deadline, weights)
    finally:
        state.undo()


def _search(state, player: int, depth: int, alpha: float, beta: float, deadline, weights) -> float:
    if depth == 0 or state.outcome is not None:
        return evaluate(state, player, None, weights)
    if deadline is not None and _time.perf_counter() > deadline:
        raise _OutOfTime
    moves = order_moves(state, state.legal_moves())
    if state.colours[state.to_move] == state.colours[player]:  # ourselves or a doubles partner
        value = -INF
        for move in moves:
            value = max(value, _child(state, move, player, depth - 1, alpha, beta, deadline, weights))
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        return value
    value = INF
    for move in moves:
        value = min(value, _child(state, move, player, depth - 1, alpha, beta, deadline, weights))
        beta = min(beta, value)
        if alpha >= beta:
            break
    return value
