"""The MOD X position text (``position.py``): round trips in every phase; malformed text is
refused."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import NotationError

from .conftest import make


def test_position_text_round_trips_in_every_phase():
    game = qipan.load("modx-4")
    state = game.new(seed=1)
    rng = random.Random(4)
    seen = set()
    while state.outcome is None:
        text = state.position()
        again = game.position(text)
        assert again.key() == state.key() and again.position() == text
        assert again.points == state.points and again.supply_x == state.supply_x
        assert again.supply_m == state.supply_m and again.topmask == state.topmask
        seen.add(state.phase)
        state.play(rng.choice(state.legal_moves()))
    assert {"setup", "play"} <= seen
    final = game.position(state.position())
    assert final.outcome.winners == state.outcome.winners and final.outcome.scores == state.outcome.scores


def test_position_format_example():
    state = make({"D3": "bR", "E4": "J", "A1": "rb"}, turn="B")
    text = state.position()
    assert text.splitlines()[0] == "2 B play"
    assert text.splitlines()[-1] == "rb . . . . . . ."
    assert text.splitlines()[-3] == ". . . bR . . . ."
    assert state.points == [0, 2] and state.supply_x == [13, 14] and state.supply_m == [17, 16]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2 R play",
        "5 R play\n" + "\n".join([". . . . . . . ."] * 8),
        "2 Y play\n" + "\n".join([". . . . . . . ."] * 8),
        "2 R dance\n" + "\n".join([". . . . . . . ."] * 8),
        "2 R relocate\n" + "\n".join([". . . . . . . ."] * 8),
        "2 R play\n" + "\n".join([". . . . . . . ."] * 7 + [". . . . . . ."]),
        "2 R play\n" + "\n".join([". . . . . . . ."] * 7 + ["Q . . . . . . ."]),
        "2 R play\n" + "\n".join([". . . . . . . ."] * 7 + ["Rr . . . . . . ."]),
        "2 R play\n" + "\n".join([". . . . . . . ."] * 7 + ["y . . . . . . ."]),
        "2 R play\n" + "\n".join(["R R R R R R R R"] * 2 + [". . . . . . . ."] * 6),
        "2 B setup 5\n" + "\n".join([". . . . . . . ."] * 8),
        "2 R setup 3\n" + "\n".join([". . . . . . . ."] * 7 + ["J J . . . . . ."]),
        "2 R setup 4\n" + "\n".join([". . . . . . . ."] * 8),
        "2 - over Q: x\n" + "\n".join([". . . . . . . ."] * 8),
    ],
)
def test_malformed_positions_are_rejected(text):
    with pytest.raises(NotationError):
        qipan.load("modx").position(text)
