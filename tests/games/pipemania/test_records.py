"""The §3.7 level record: written from a game, read back through the record formats."""

from __future__ import annotations

import json
import random

import pytest

import qipan
from qipan.core import CHANCE, RecordError, resolve_chance
from qipan.games.pipemania.records import FORMAT, level_record
from qipan.records import read_records_text


def played(preset="pipemania-classic", players=None, seed=5):
    game = qipan.load(preset)
    state = game.new(players=players, seed=seed)
    rng = random.Random(seed)
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
        else:
            moves = state.legal_moves()
            state.play(moves[0] if rng.random() < 0.6 else rng.choice(moves))
    return state


@pytest.mark.parametrize(
    "preset,players", [("pipemania-classic", 1), ("pipemania-2p", 2), ("pipemania-fixed", 1)]
)
def test_level_record_replays_to_the_same_score(preset, players):
    state = played(preset, players)
    data = level_record(state)
    assert data["format"] == FORMAT
    assert (
        data["level"]["start"][2] in "NESW"
        and data["level"]["start_delay"] == state.game.level(1).start_delay
    )
    assert len(data["actions"]) + len(data["supply"]["draws"]) == state.ply
    data["supply"]["seed"] = None  # the draws are enough
    (record,) = read_records_text(json.dumps(data))
    again = record.replay()
    assert again.scores == state.scores and again.outcome == state.outcome


def test_a_record_with_a_wrong_score_or_bad_action_is_rejected():
    state = played()
    data = level_record(state)
    data["scores"] = [data["scores"][0] + 1]
    with pytest.raises(RecordError, match="score"):
        read_records_text(json.dumps(data))
    data = level_record(state)
    data["actions"][0] = "p99,99"
    with pytest.raises(RecordError) as err:
        read_records_text(json.dumps(data))
    assert err.value.ply is not None
    data = level_record(state)
    data["supply"]["draws"] = []
    with pytest.raises(RecordError, match="dispenser"):
        read_records_text(json.dumps(data))
