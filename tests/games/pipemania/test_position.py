"""The Pipe Mania position text (the whole state as JSON) round-trips mid-game."""

from __future__ import annotations

from pipemania_helpers import CROSS_LOOP, act, make


def test_position_round_trip_mid_game():
    state = act(make(sequence=CROSS_LOOP).new(), "p1,1", "p1,2", "p1,3", "p0,3")
    text = state.position()
    again = state.game.position(text)
    assert again.key() == state.key() and again.position() == text
    assert again.legal_move_texts() == state.legal_move_texts()
