"""Perft: the number of move sequences of a given length (rules file §1.9). A removal is
part of its ply, so these are the "removal folded into the move" counts."""

from __future__ import annotations

from .state import MorrisState


def perft(state: MorrisState, depth: int) -> int:
    """Leaf count of the legal-move tree ``depth`` plies deep (the state is left unchanged)."""
    if depth <= 0:
        return 1
    moves = state._legal()
    if depth == 1:
        return len(moves)
    total = 0
    apply, revert = state._apply, state._revert
    for move in moves:
        token = apply(move)
        total += perft(state, depth - 1)
        revert(token)
    return total
