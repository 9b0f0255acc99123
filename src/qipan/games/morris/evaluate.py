"""Morris knowledge for the generic alphabeta agent: a static evaluation and move ordering."""

from __future__ import annotations

import math

from ...core.move import Move
from .state import MorrisState


def _closers(state: MorrisState, own: int, empty: int) -> tuple[int, int]:
    """Empty points that would complete a line of ``own`` (potential mills), and the points
    that would complete two at once (double threats)."""
    once = twice = 0
    for line in state.t.lines:
        x = line & ~own
        if x and not x & (x - 1) and x & empty:
            twice |= once & x
            once |= x
    return once, twice


def evaluate(state: MorrisState, player: int) -> float:
    """Heuristic value in [-1, 1] for ``player``: material (board + hand), mills, potential
    mills and double threats, mobility and blocked stones."""
    if state.outcome is not None:
        return 2 * state.outcome.reward(player) - 1
    t = state.t
    me, op = player, 1 - player
    own, opp = state.bb[me], state.bb[op]
    empty = t.full ^ (own | opp)
    score = 0.0
    if state.rules.goal == "mill":
        score += 1.0 * ((state.hand[me] + own.bit_count()) - (state.hand[op] + opp.bit_count()))
        score += 0.25 * (state.in_mills(own).bit_count() - state.in_mills(opp).bit_count()) / 3
    my_once, my_twice = _closers(state, own, empty)
    op_once, op_twice = _closers(state, opp, empty)
    score += 0.3 * (my_once.bit_count() - op_once.bit_count()) + 0.5 * (my_twice.bit_count() - op_twice.bit_count())
    if not state.hand[me] and not state.flies(me):
        mobility = sum((t.nbr[i] & empty).bit_count() for i in range(t.n) if own >> i & 1)
        blocked = sum(1 for i in range(t.n) if own >> i & 1 and not t.nbr[i] & empty)
        score += 0.05 * mobility - 0.1 * blocked
    if not state.hand[op] and not state.flies(op):
        mobility = sum((t.nbr[i] & empty).bit_count() for i in range(t.n) if opp >> i & 1)
        blocked = sum(1 for i in range(t.n) if opp >> i & 1 and not t.nbr[i] & empty)
        score -= 0.05 * mobility - 0.1 * blocked
    if state.to_move == me and my_once:
        score += 0.3  # the side to move can close a mill right away
    return math.tanh(score / 4)


def order_moves(state: MorrisState, moves: list[Move]) -> list[Move]:
    """Removals first (most stones first), then moves onto the opponent's mill points (blocks),
    then the rest in their given order."""
    if state.to_move is None:
        return list(moves)
    opp = state.bb[1 - state.to_move]
    empty = state.t.full ^ (state.bb[0] | opp)
    threats, _ = _closers(state, opp, empty)

    def rank(move: Move) -> int:
        f, to, removed, fb, tb = move.data
        if removed:
            return -2 - removed.bit_count()
        if tb & threats:
            return -1
        return 0

    return sorted(moves, key=rank)
