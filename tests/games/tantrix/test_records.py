"""Records: qipan's own replay exactly without the seed; the turn log of rules 4.6 reads back."""

import pytest

from qipan.core.records import Record

from .conftest import make, play_random


def test_record_replays_exactly_without_the_seed():
    state = play_random(make().new(players=3, seed=8), 8)
    record = Record.from_state(state)
    record.seed = None
    assert any(m.startswith("+") for m in record.moves) and any(m.startswith("F ") for m in record.moves)
    for text in (record.to_json(), record.to_pgn()):
        from qipan.core.records import loads

        again = loads(text)
        spec_state = make().new(players=3)
        for move in again.moves:
            spec_state.play(move)
        assert spec_state.key() == state.key() and spec_state.outcome == state.outcome


def test_turn_log_uses_the_proposed_notation():
    from qipan.core import RecordError
    from qipan.games.tantrix.records import read, turn_log

    state = play_random(make().new(players=2, seed=5), 5)
    log = turn_log(state)
    lines = log.splitlines()
    assert lines[0] == '[Tantrix "tantrix"]' and any(line.startswith("[Start") for line in lines)
    body = [line for line in lines if line.startswith("P")]
    assert any(" ; " in line and "+" in line for line in body)
    assert any(": F " in line or "; F " in line for line in body)
    assert all(len(line.split(" ; ")) <= 20 for line in body)
    records = read(log)
    again = records[0].replay()
    assert again.key() == state.key() and again.outcome == state.outcome
    assert turn_log(again) == log
    with pytest.raises(RecordError):
        read(log.replace("P1: ", "P1: 9@9,9r1 ", 1))[0].replay()
    with pytest.raises(RecordError):
        read(log.replace("[Tantrix", "[Tantrics"))
