"""pente.org records: reading, writing, and the corpus replay of scenario 11."""

from __future__ import annotations

import json

import pytest
from tests.data import DATA as TEST_DATA

import qipan
from qipan.core import RecordError
from qipan.games.pente.records import read, sniff, write
from qipan.records import Record, read_records, read_records_text

DATA = TEST_DATA / "pente"
SAMPLE = DATA / "pente_org_sample.pgn"
INDEX = json.loads((DATA / "pente_org_sample_index.json").read_text())
RECORDS = read_records(SAMPLE)
BY_ENTRY = dict(zip((e["source_entry"] for e in INDEX), RECORDS, strict=True))


def test_the_sample_is_read_by_the_registered_format():
    assert len(RECORDS) == len(INDEX) == 20
    assert all(r.game == "pente" and r.players == 2 for r in RECORDS)
    assert [len(r.moves) for r in RECORDS] == [e["plies"] for e in INDEX]
    assert RECORDS[0].names == ["squirrlkng", "aaru"]
    assert RECORDS[0].tags["Date"] == "05/31/2006"


@pytest.mark.parametrize("entry", INDEX, ids=[e["source_entry"] for e in INDEX])
def test_11_corpus_replay(entry):
    record = BY_ENTRY[entry["source_entry"]]
    recorded = {"1-0": (0,), "0-1": (1,)}[entry["recorded_result"]]
    assert record.result.winners == recorded
    assert record.options.get("tournament", False) == (entry["rated"] == "Y")
    if not entry["replay_ok"]:
        with pytest.raises(RecordError) as info:
            record.replay()
        assert info.value.ply == entry["plies"]  # the first move after the game was won
        state = record.replay(upto=entry["plies"] - 1)
    else:
        state = record.replay()
        assert state.ply == entry["plies"]
    assert state.captures == [entry["stones_captured_by_P1"], entry["stones_captured_by_P2"]]
    if entry["engine_winner"] is None:
        assert state.outcome is None
        assert record.result.reason == "resignation or time"
    else:
        assert state.outcome.winners == ({"P1": (0,), "P2": (1,)}[entry["engine_winner"]])
        word = {"five": "five in a row", "captures": "10 stones captured"}[entry["engine_how"]]
        assert state.outcome.reason == word


def test_named_games_of_scenario_11():
    s = BY_ENTRY["34/50000000000586"].replay()
    assert s.ply == 46 and s.outcome.winners == (1,) and s.captures == [8, 10]
    s = BY_ENTRY["34/50000000009285"].replay()
    assert s.ply == 41 and s.outcome.winners == (0,)
    assert max(s.run_length(s.last, d, 1) for d in s.geom.dirs4) >= 6  # the overline
    rec = BY_ENTRY["34/50000000002639"]
    s = rec.replay(upto=30)
    s.play(rec.moves[30])
    assert rec.moves[30] == "J11" and len(s.captured_by_last_move()) == 4  # double capture on ply 31
    assert BY_ENTRY["34/50000000000466"].replay().ply == 20
    anomaly = BY_ENTRY["40/50000000058581"]
    s = anomaly.replay(upto=38)
    assert anomaly.moves[37] == "L8" and s.outcome.winners == (1,) and s.captures[1] == 10
    assert {s.geom.name[i] for i in s.captured_by_last_move()} == {"K9", "J10"}


def test_tournament_rule_breach_is_rejected_with_its_ply():
    record = BY_ENTRY["34/50000000037200"]
    assert record.moves[2] == "K11"
    assert record.replay().outcome.winners == (0,)  # unrated: tournament rule off
    strict = Record(record.game, {"tournament": True}, 2, record.names, record.moves, record.result)
    with pytest.raises(RecordError, match="tournament rule") as info:
        strict.replay()
    assert info.value.ply == 3


def test_every_rated_game_obeys_the_tournament_rule():
    rated = [r for r in RECORDS if r.options.get("tournament")]
    assert len(rated) == 16
    for record in rated:
        if record is not BY_ENTRY["40/50000000058581"]:
            record.replay()


def test_write_and_read_back():
    text = write(RECORDS)
    again = read(text)
    assert [r.moves for r in again] == [r.moves for r in RECORDS]
    assert [r.names for r in again] == [r.names for r in RECORDS]
    assert [r.result.winners for r in again] == [r.result.winners for r in RECORDS]
    assert [r.options for r in again] == [r.options for r in RECORDS]
    assert [r.tags for r in again] == [r.tags for r in RECORDS]
    first = text.split("\n\n")[1].splitlines()
    assert first[0].startswith("1. K10 N11 2. N10 L11") and all(len(line) <= 80 for line in first)
    assert first[-1].endswith("0-1")


def test_a_played_game_round_trips_with_its_options():
    game = qipan.load("pente", exact_five=True)
    s = game.new()
    s.play_many(["K10", "L10", "M10", "N11", "N10"])
    record = Record.from_state(s, names=["a", "b"])
    text = write([record])
    assert '[Qipan Options "{\\"exact_five\\": true}"]' in text
    assert '[Rated "N"]' in text and text.rstrip().endswith("*")
    (back,) = read_records_text(text)
    assert back.options == {"exact_five": True}
    assert back.replay().key() == s.key()


def test_resignation_round_trip():
    record = BY_ENTRY["34/50000000000466"]
    (back,) = read(write([record]))
    assert back.result.winners == (1,) and back.result.reason == "resignation or time"
    assert back.replay().outcome is None


def test_sniff():
    assert sniff(SAMPLE.read_text())
    own = Record("pente", {}, 2, [], ["K10"]).to_pgn()
    assert not sniff(own)
    assert read_records_text(own)[0].moves == ["K10"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Game "Keryo-Pente"]\n\n1. K10 L10 1-0\n', "only Pente"),
        ('[Game "Pente"]\n[Result "1-0"]\n\n1. K10 L10 0-1\n', "Result tag says"),
        ('[Game "Pente"]\n\n1. K10 Z99 *\n', "not a Pente move"),
        ('[Game "Pente"]\n[Broken\n\n1. K10 *\n', "malformed tag"),
        ('[Game "Pente"]\n\n1. K10 1-0 L10\n', "after the result"),
        ('[Game "Pente"]\n[Qipan Options "[1]"]\n\n1. K10 *\n', "JSON object"),
    ],
)
def test_malformed_records(text, message):
    with pytest.raises(RecordError, match=message):
        read(text)


def test_illegal_record_names_the_ply():
    (record,) = read('[Game "Pente"]\n\n1. K10 L10 2. L10 *\n')
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.ply == 3 and "occupied" in str(info.value)


def test_four_player_records_are_not_pente_org():
    s = qipan.load("pente-team").new()
    s.play("K10")
    with pytest.raises(RecordError):
        write([Record.from_state(s)])


def test_qipan_json_record_round_trip():
    record = BY_ENTRY["34/50000000009285"]
    again = Record.from_json(record.to_json())
    assert again.replay().outcome.winners == (0,)
