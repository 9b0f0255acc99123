"""The engine as a whole (``rules.py``): perft (9MM-10, removal folded into the ply), copies,
and the capabilities the Game declares."""

from __future__ import annotations

import json

import pytest
from tests.data import DATA

import qipan
from qipan.core.perft import perft

DATA = DATA / "morris"
PERFT = json.loads((DATA / "morris_perft.json").read_text())["removal_folded_into_move"]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_9mm_10_perft(depth):
    state = qipan.load("nine-mens-morris").new()
    before = state.key()
    assert perft(state, depth) == PERFT[depth - 1]
    assert state.key() == before and state.history == []


def test_perft_through_the_public_api_matches():
    def count(state, depth):
        if depth == 0:
            return 1
        total = 0
        for move in state.legal_moves():
            state.play(move)
            total += count(state, depth - 1)
            state.undo()
        return total

    assert count(qipan.load("nine-mens-morris").new(), 3) == PERFT[2]


SHUFFLE = "W:a7,d7,g7,b6,b2 B:a1,d1,g4,f4,c3,e3 to:W"
CYCLE = ["b6-d6", "c3-c4", "d6-b6", "c4-c3"]


def test_a_copy_has_its_own_board_hands_and_repetition_counts():
    game = qipan.load("nine-mens-morris")
    state = game.position(SHUFFLE)
    state.play_many(CYCLE)  # the start position seen twice
    before = state.position()
    copy = state.copy()
    copy.play_many(CYCLE)  # the third time: a draw in the copy only
    assert copy.outcome.is_draw and "repetition" in copy.outcome.reason
    assert state.outcome is None and state.position() == before
    assert state.reps != copy.reps and len(state.history) == 4 and len(copy.history) == 8
    copy.undo()
    assert copy.outcome is None and "c4-c3" in copy.legal_move_texts()
    state.play_many(CYCLE)  # the original counts its own occurrences: the third one draws
    assert state.outcome.is_draw
    placing = qipan.load("nine-mens-morris").new().play_many(["d2", "d3"])
    twin = placing.copy()
    twin.play("f4")
    assert placing.hand == [8, 8] and twin.hand == [7, 8] and placing.bb != twin.bb
    twin.undo()
    assert twin.key() == placing.key() and twin.legal_move_texts() == placing.legal_move_texts()


@pytest.mark.parametrize("preset", [s.id for s in qipan.specs() if s.family == "morris"])
def test_every_preset_declares_its_capabilities(preset):
    game = qipan.load(preset)
    assert game.has_evaluation and not game.hides_information
    assert game.realtime_tick is None and game.idle_move is None
    assert game.terminal is None and game.scoring_match is None
