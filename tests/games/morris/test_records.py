"""Records: the reference games (9MM-8, 9MM-9, 12MM-3) replayed to their stored final boards,
the JSON/PGN record round trip, and the traditional move list (Malom / WMD)."""

from __future__ import annotations

import json

import pytest
from tests.data import DATA

import qipan
from qipan.games.morris import records as movelist
from qipan.records import Record, read_records_text

DATA = DATA / "morris"
GAMES = {g["id"]: g for g in json.loads((DATA / "morris_reference_games.json").read_text())}


def board_rows(state) -> list[str]:
    """The final board in the data file's layout: rank 7 to 1, one character per file."""
    rows = []
    for rank in range(7, 0, -1):
        row = [" "] * 7
        for name in state.t.names:
            if int(name[1]) == rank:
                owner = state.at(name)
                row[ord(name[0]) - 97] = "." if owner is None else "WB"[owner]
        rows.append("".join(row))
    return rows


PRESET = {
    "malom_fig6_morabaraba_perfect": "twelve-mens-morris",
    "malom_fig8_9mm_vs_master": "nine-mens-morris",
    "malom_fig9_9mm_vs_strongest": "nine-mens-morris",
    "loewer_fig12_contrived": "nine-mens-morris",
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_reference_games_replay_to_the_stored_final_board(game_id):
    data = GAMES[game_id]
    state = qipan.load(PRESET[game_id]).new().play_many(data["moves"])
    assert state.ply == len(data["moves"])
    assert board_rows(state) == data["final_board_rank7_to_1"]
    final = data["final"]
    assert state.bb[0].bit_count() == final["white_on_board"]
    assert state.bb[1].bit_count() == final["black_on_board"]
    if final["terminal"] is None:
        assert state.outcome is None and state.to_move == "WB".index(final["side_to_move"])
    else:
        assert state.outcome.winners == (0,) and "fewer than three" in state.outcome.reason
    # The moves in the record are our canonical notation.
    assert [m.text for m in state.history] == data["moves"]


def test_9mm_8_loewer_final_position_is_not_terminal():
    state = qipan.load("nine-mens-morris").new().play_many(GAMES["loewer_fig12_contrived"]["moves"])
    assert state.bb[1].bit_count() == 2 and state.hand == [0, 1]
    assert state.outcome is None and state.to_move == 1
    # 19 empty points; e5 re-forms c5-d5-e5 and may take any White stone (all are in a mill).
    assert {m.text for m in state.legal_moves() if m.text.startswith("e5")} == {"e5xa7", "e5xd7", "e5xg7"}
    assert len(state.legal_moves()) == 18 + 3


def test_12mm_3_malom_perfect_game_has_49_plies_and_white_wins():
    moves = GAMES["malom_fig6_morabaraba_perfect"]["moves"]
    assert len(moves) == 49 and moves[-1] == "f4-g4xd2"
    state = qipan.load("twelve-mens-morris").new().play_many(moves)
    assert state.outcome.result_text() == "1-0"


def test_record_round_trip_and_bad_record():
    state = qipan.load("nine-mens-morris").new().play_many(GAMES["malom_fig8_9mm_vs_master"]["moves"])
    record = Record.from_state(state)
    again = Record.from_json(record.to_json()).replay()
    assert again.key() == state.key()
    assert Record.from_pgn(record.to_pgn()).replay().key() == state.key()
    bad = Record.from_state(state)
    bad.moves = bad.moves[:16] + ["b2xd7"] + bad.moves[17:]  # d7 is White's own stone
    with pytest.raises(qipan.RecordError, match="ply 17"):
        bad.replay()


# -- the traditional move list (Malom / WMD) ----------------------------------------------------


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_malom_move_lists_read_and_replay(game_id):
    data = GAMES[game_id]
    text = (
        data["text"]
        if game_id != "malom_fig6_morabaraba_perfect"
        else "# twelve-mens-morris\n" + data["text"]
    )
    (record,) = read_records_text(text)
    assert record.game == PRESET[game_id] and record.moves == data["moves"]
    assert board_rows(record.replay()) == data["final_board_rank7_to_1"]


def test_numbered_move_list_with_options_and_result_round_trips():
    text = "# nine-mens-morris flying=none n_move=50\n1. d6 f4 2. d2 b4 3. f6 1/2-1/2"
    assert movelist.sniff(text)
    (record,) = movelist.read(text)
    assert record.options == {"flying": "none", "n_move": "50"} and record.moves == [
        "d6",
        "f4",
        "d2",
        "b4",
        "f6",
    ]
    assert record.result.is_draw
    state = record.replay()
    assert state.game.rules.flying is None and state.game.rules.n_move == 50
    again = movelist.read(movelist.write([record]))[0]
    assert (again.game, again.moves, again.result.is_draw) == (record.game, record.moves, True)


def test_move_list_sniffing_and_errors():
    assert not movelist.sniff('[Game "nine-mens-morris"]\n\n1. d2 *')  # qipan's PGN-like form
    assert not movelist.sniff('{"game": "nine-mens-morris"}')
    assert not movelist.sniff("1. K10 L9 2. M8")  # Pente coordinates
    assert not movelist.sniff("d2")  # one bare token: too little to claim a file
    with pytest.raises(qipan.RecordError, match="not a Morris move"):
        movelist.read("# nine-mens-morris\nd2, d3; h9")
    (bad,) = movelist.read("d2, d3; d2")
    with pytest.raises(qipan.RecordError, match="ply 3"):
        bad.replay()
