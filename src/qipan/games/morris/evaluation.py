"""Morris knowledge for the generic alphabeta agent: a static evaluation and move ordering."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...core.move import Move

if TYPE_CHECKING:
    from .rules import MorrisState


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


def _mobility(state: MorrisState, player: int, empty: int) -> float:
    """Free slides minus blocked stones, for a player who slides (not placing, not flying)."""
    if state.hand[player] or state.flies(player):
        return 0.0
    t = state.t
    own = state.bb[player]
    slides = sum((t.nbr[i] & empty).bit_count() for i in range(t.n) if own >> i & 1)
    blocked = sum(1 for i in range(t.n) if own >> i & 1 and not t.nbr[i] & empty)
    return 0.05 * slides - 0.1 * blocked


def evaluate(state: MorrisState, player: int) -> float:
    """Heuristic value in [-1, 1] for ``player`` (antisymmetric): material (board + hand), mills,
    potential mills and double threats, mobility and blocked stones, and a mill the side to
    move can close at once."""
    if state.outcome is not None:
        return 2 * state.outcome.reward(player) - 1
    t = state.t
    white, black = state.bb
    empty = t.full ^ (white | black)
    score = 0.0  # for White
    if state.rules.goal == "mill":
        score += (state.hand[0] + white.bit_count()) - (state.hand[1] + black.bit_count())
        score += 0.25 * (state.in_mills(white).bit_count() - state.in_mills(black).bit_count()) / 3
    w_once, w_twice = _closers(state, white, empty)
    b_once, b_twice = _closers(state, black, empty)
    score += 0.3 * (w_once.bit_count() - b_once.bit_count()) + 0.5 * (
        w_twice.bit_count() - b_twice.bit_count()
    )
    score += _mobility(state, 0, empty) - _mobility(state, 1, empty)
    if state.to_move == 0 and w_once:
        score += 0.3
    elif state.to_move == 1 and b_once:
        score -= 0.3
    value = math.tanh(score / 4)
    return value if player == 0 else -value


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
