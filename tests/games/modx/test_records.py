"""MOD X records: the JSON and PGN-like records, and the ``modx-turns`` format (one line per
turn, rules §3.9); an illegal record is rejected with the ply."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.games.modx.records import FORMAT, turn_lines
from qipan.records import Record, loads, read_records_text


def test_record_with_scoring_and_relocation_round_trips():
    state = qipan.load("modx").new()
    state.play_many(["J@C3", "J@A8", "J@H8", "J@H1", "J@F7"])
    state.play_many(["H4", "A1", "H5", "B2", "H6", "D4", "G2", "E5 {A1 B2 C3 D4 E5}", "J>C3"])
    assert state.points == [4, 0] and state.to_move == 1
    record = Record.from_state(state)
    assert "E5 {A1 B2 C3 D4 E5}" in record.moves and "J>C3" in record.moves
    for text in (record.to_json(), record.to_pgn()):
        again = loads(text).replay()
        assert again.key() == state.key()
    bad = Record.from_dict(record.to_dict())
    bad.moves[12] = "E5 {A1 B2}"
    with pytest.raises(qipan.RecordError) as err:
        bad.replay()
    assert err.value.ply == 13


# -- one line per turn (rules §3.9) ----------------------------------------------------------


def _scored_game():
    state = qipan.load("modx").new()
    state.play_many(["J@C3", "J@A8", "J@H8", "J@H1", "J@F7"])
    state.play_many(["H4", "A1", "H5", "B2", "H6", "D4", "G2", "E5 {A1 B2 C3 D4 E5}", "J>C3", "G3"])
    return state


def test_turn_lines_format_round_trips():
    state = _scored_game()
    lines = turn_lines([m.text for m in state.history], 2)
    assert lines[0] == "R J@C3 A8 H8 H1 F7"
    assert lines[1] == "B H4" and lines[2] == "R A1"
    assert lines[8] == "R E5 {A1 B2 C3 D4 E5} J>C3"
    assert lines[9] == "B G3"
    text = FORMAT.write([Record.from_state(state, names=["ann", "bob"])])
    assert "\nR J@C3 A8 H8 H1 F7\n" in text
    assert FORMAT.sniff(text) and not FORMAT.sniff(Record.from_state(state).to_pgn())
    (record,) = read_records_text(text)
    assert record.moves == [m.text for m in state.history] and record.names == ["ann", "bob"]
    assert record.replay().key() == state.key()


def test_turn_lines_for_four_players_and_a_finished_game():
    state = qipan.load("modx-4", random_jokers=True).new(seed=2)
    rng = random.Random(2)
    while state.outcome is None:
        state.play(rng.choice(state.legal_moves()))
    text = FORMAT.write([Record.from_state(state)])
    assert text.splitlines()[-1] == state.outcome.result_text()
    (record,) = FORMAT.read(text)
    replayed = record.replay()
    assert replayed.key() == state.key() and replayed.outcome.winners == state.outcome.winners


@pytest.mark.parametrize(
    "body, why",
    [
        ("R J@C3 A8 H8 H1 F7\nR H4", "B's turn"),
        ("B J@C3 A8 H8 H1 F7", "places the setup jokers"),
        ("R J@C3 A8 H8 H1 F7\nB H4 ???", "no MOD X move"),
        ("R J@C3 A8 H8 H1 F7\nB J>C4", "starts with an X placement"),
        ("R J@C3 A8 H8 H1 F7\nhello", "is not"),
    ],
)
def test_malformed_turn_lines_are_rejected(body, why):
    with pytest.raises(qipan.RecordError, match=why):
        FORMAT.read('[Game "modx"]\n[Players "2"]\n\n' + body + "\n")


def test_illegal_turn_lines_are_rejected_on_replay_with_the_ply():
    (record,) = FORMAT.read('[Game "modx"]\n[Players "2"]\n\nR J@C3 D4 A8 H1 H8\n')
    with pytest.raises(qipan.RecordError) as err:
        record.replay()
    assert err.value.ply == 2
