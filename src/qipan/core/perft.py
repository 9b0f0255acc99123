"""Perft: the number of move sequences of a given length (chance moves count as moves)."""

from __future__ import annotations

from .game import State


def perft(state: State, depth: int) -> int:
    if depth <= 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        state.play_unchecked(move)
        total += perft(state, depth - 1)
        state.undo()
    return total
