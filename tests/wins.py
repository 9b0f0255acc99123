"""Brute force over a state's legal moves, for tests that check an agent's tactics."""

from __future__ import annotations


def wins_next(state, player: int) -> list[str]:
    """Every move of ``player`` (to move) that wins at once; the state is left as it was."""
    out = []
    for move in state.legal_moves():
        state.play(move)
        if state.outcome is not None and player in state.outcome.winners:
            out.append(move.text)
        state.undo()
    return out
