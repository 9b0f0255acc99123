"""Perft: the number of move sequences of a given length (chance moves count as moves)."""

from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    """Leaf count of the legal-move tree ``depth`` plies deep; the state is left unchanged.
    The moves come from ``legal_moves``, so they are played without a second check."""
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    play, undo = state.play_unchecked, state.undo
    total = 0
    for move in moves:
        play(move)
        total += perft(state, depth - 1)
        undo()
    return total
