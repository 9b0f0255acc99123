"""The contract's machinery on throw-away games: registry, options, play/undo, records."""

import json

import pytest

import qipan
from qipan.core import CHANCE, IllegalMove, NotationError, OptionError, RecordError, resolve_chance
from qipan.records import Record, loads


def test_unknown_game_lists_known_games(toys):
    with pytest.raises(OptionError) as err:
        qipan.load("no-such-game")
    assert "toy-ttt" in str(err.value)


def test_option_validation(toys):
    game = qipan.load("toy-dice", target="30")
    assert game.options["target"] == 30
    for bad in ("abc", 200, 1, True):
        with pytest.raises(OptionError) as err:
            qipan.load("toy-dice", target=bad)
        assert "5..100" in str(err.value)
    with pytest.raises(OptionError) as err:
        qipan.load("toy-dice", colour="red")
    assert "target" in str(err.value)


def test_player_count_checked(toys):
    with pytest.raises(qipan.QipanError):
        qipan.load("toy-ttt").new(players=3)
    assert qipan.load("toy-dice").new(players=3).num_players == 3


def test_illegal_move_changes_nothing(toys):
    state = qipan.load("toy-ttt").new()
    state.play("b2")
    key = state.key()
    with pytest.raises(IllegalMove) as err:
        state.play("b2")
    assert "occupied" in str(err.value) or "not a legal" in str(err.value)
    with pytest.raises((IllegalMove, NotationError)):
        state.play("")
    assert state.key() == key and len(state.history) == 1


def test_undo_is_exact_and_empty_undo_fails(toys):
    state = qipan.load("toy-ttt").new()
    with pytest.raises(qipan.QipanError):
        state.undo()
    state.play("a1")
    assert state.undo().text == "a1"
    assert state.key() == qipan.load("toy-ttt").new().key()


def test_game_over_rejects_moves(toys):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "a2", "b1", "b2", "c1"])
    assert state.outcome.winners == (0,)
    assert state.outcome.result_text() == "1-0"
    with pytest.raises(IllegalMove, match="over"):
        state.play("c3")


def test_chance_nodes(toys):
    state = qipan.load("toy-dice").new(seed=1)
    assert state.to_move == CHANCE
    probs = state.chance_outcomes()
    assert abs(sum(p for _, p in probs) - 1) < 1e-9
    import random

    resolve_chance(state, random.Random(4))
    assert len(state.history) == 1


def test_record_json_and_pgn_round_trip(toys):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "a2", "b1", "b2", "c1"])
    record = Record.from_state(state, names=["Ann", "Bob"])
    for text in (record.to_json(), record.to_pgn()):
        again = loads(text)
        assert again.moves == ["a1", "a2", "b1", "b2", "c1"]
        assert again.names == ["Ann", "Bob"]
        assert again.replay().outcome.winners == (0,)
    assert "1. a1 a2 2. b1 b2 3. c1 1-0" in record.to_pgn()


def test_record_errors_name_the_ply(toys, tmp_path):
    record = Record("toy-ttt", moves=["a1", "a2", "a1"])
    with pytest.raises(RecordError) as err:
        record.replay()
    assert err.value.ply == 3
    for text in ("not json", "{", json.dumps([1, 2]), json.dumps({"game": 3}), "[Game toy]"):
        with pytest.raises(RecordError):
            loads(text)
    path = tmp_path / "g.json"
    path.write_text(json.dumps({"game": "toy-ttt", "moves": ["a1", "zz"]}))
    with pytest.raises(RecordError, match="ply 2"):
        qipan.records.load(path)
    with pytest.raises(RecordError, match="cannot read"):
        qipan.records.load(tmp_path / "missing.json")


def test_record_result_must_agree_with_rules(toys):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "a2", "b1", "b2", "c1"])
    data = Record.from_state(state).to_dict()
    data["result"]["winners"] = [1]
    with pytest.raises(RecordError, match="record says"):
        Record.from_dict(data).replay()


def test_save_and_load_files(toys, tmp_path):
    state = qipan.load("toy-ttt").new()
    state.play_many(["a1", "b2"])
    for name in ("g.json", "g.pgn"):
        qipan.records.save(state, tmp_path / name)
        assert qipan.records.load(tmp_path / name).replay().key() == state.key()


def test_one_player_outcomes():
    from qipan.core import Outcome

    lost = Outcome((), (120.0,), "the flow spilled")
    won = Outcome.win((0,), 1, "distance reached")
    assert lost.reward(0) == 0.0 and not lost.is_draw and lost.result_text() == "lost"
    assert won.reward(0) == 1.0 and won.result_text() == "won"
    assert Outcome.draw(2, "agreed").is_draw
    for outcome in (lost, won):
        record = Record("g", players=1, moves=["x"], result=outcome)
        assert loads(record.to_pgn()).result == outcome


def test_an_option_can_narrow_the_player_counts():
    game = qipan.load("tantrix", doubles=True)
    assert game.players == (4,)
    assert game.new(seed=1).num_players == 4
    assert qipan.load("modx-3").players == (3,)


def test_pgn_moves_that_look_like_tags_or_comments_are_quoted():
    from qipan.core.outcome import Outcome

    moves = ["[000", "{x}", '"q"', "1.", "1-0"] * 6  # long enough to wrap lines
    names = ["line\u2028separator", "Bob"]  # str.splitlines() would split the first
    record = Record(
        "g", players=2, names=names, moves=list(moves), result=Outcome.win((1,), 2, "resignation")
    )
    again = loads(record.to_pgn())
    assert again.moves == moves and again.names == names
