"""Move notation: the round trip and the lenient parsing (error messages: test_scenarios.py)."""

from qipan.core import CHANCE

from .conftest import make, play_random


def test_notation_round_trip_and_lenient_parsing():
    state = play_random(
        make().new(players=2, seed=4), 4, stop=lambda s: len(s.board) >= 12 and s.to_move != CHANCE
    )
    game = state.game
    for move in state.legal_moves():
        assert game.parse(str(move), state) == move
        assert game.parse(str(move).lower().replace("@", " @ "), state) == move
        if move.data[4]:
            assert game.parse(str(move)[2:], state) == move  # the F may be left out
