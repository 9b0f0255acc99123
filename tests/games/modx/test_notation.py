"""MOD X notation (rules §3.9), positions, records, text board and SVG; bad input changes nothing."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.core import IllegalMove, NotationError
from qipan.games.modx.board import NAMES
from qipan.records import Record, loads

FILES = "ABCDEFGH"


def make(cells: dict[str, str], turn="R", phase="play", players=2, game="modx"):
    grid = dict.fromkeys(NAMES, ".")
    grid.update(cells)
    rows = [" ".join(grid[f"{f}{r}"] for f in FILES) for r in range(8, 0, -1)]
    return qipan.load(game).position("\n".join([f"{players} {turn} {phase}", *rows]))


def snapshot(state):
    return state.key(), state.position(), [m.text for m in state.legal_moves()], state.to_move, state.outcome


def test_setup_placement_and_relocation_notation_round_trips():
    state = qipan.load("modx").new()
    game = state.game
    assert game.parse("j@c3", state).text == "J@C3"
    assert game.parse("c3", state).text == "J@C3"  # a bare square means the move of the phase
    assert game.parse(" J @ C3 ", state).path == ("C3",)
    state.play_many(["J@C3", "J@F6", "J@A8", "J@H1", "J@H8"])
    assert game.parse("e4", state).text == "E4"
    board = {"A1": "R", "B2": "R", "D4": "R", "C3": "J", "H8": "J"}
    state = make(board)
    move = game.parse("e5", state)
    assert move.text == "E5 {A1 B2 C3 D4 E5}" and move.path == ("E5",)
    assert game.parse("E5 {A1 B2 C3 D4 E5}", state) == move
    assert game.parse("e5 {e5 d4 c3 b2 a1}", state) == move  # any order, any case
    state.play(move)
    assert game.parse("j>c3", state).text == "J>C3"
    assert game.parse("C3", state).text == "J>C3"
    for m in state.legal_moves():
        assert game.parse(str(m), state) == m


@pytest.mark.parametrize(
    "text", ["", "Z9", "I1", "E9", "J@", "J#C3", "E4 {E4 Z1}", "E4 {", "J@C3 {C3}", "XX"]
)
def test_malformed_notation_raises_and_changes_nothing(text):
    state = make({"A1": "R", "H8": "J"})
    before = snapshot(state)
    with pytest.raises((NotationError, IllegalMove)):
        state.play(text)
    assert snapshot(state) == before


def test_wrong_scored_set_is_rejected():
    state = make({"A1": "R", "B2": "R", "D4": "R", "C3": "J", "H8": "J"})
    before = snapshot(state)
    with pytest.raises(IllegalMove, match=r"scores \{A1 B2 C3 D4 E5\}"):
        state.play("E5 {A1 B2}")
    with pytest.raises(IllegalMove, match="scores nothing"):
        state.play("G7 {G7}")
    assert snapshot(state) == before
    with pytest.raises(IllegalMove, match="did you mean"):
        from qipan.core import Move

        state.play(Move("E5", ("E5",), ("place", NAMES.index("E5"))))
    assert snapshot(state) == before


def test_moves_of_the_wrong_phase_are_illegal():
    state = qipan.load("modx").new()
    with pytest.raises(IllegalMove, match="jokers first"):
        state.play("J>C3")
    with pytest.raises(IllegalMove, match="jokers first"):
        state.play("E4 {E4}")
    state = make({"A1": "R", "H8": "J"})
    with pytest.raises(IllegalMove, match="no joker to relocate"):
        state.play("J>C3")


def test_game_over_rejects_moves():
    state = make({"B2": "J", "C3": "J", "D4": "J", "E5": "J"}, phase="relocate 1")
    state.play("J>F6")
    before = snapshot(state)
    for text in ("A2", "J>A2", "nonsense"):
        with pytest.raises((IllegalMove, NotationError)):
            state.play(text)
    assert snapshot(state) == before


# -- positions ---------------------------------------------------------------------------


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


# -- records -------------------------------------------------------------------------------


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


# -- rendering -----------------------------------------------------------------------------


def test_text_board_shows_stacks_and_status():
    state = make({"D3": "bR", "E4": "J", "A1": "rbr", "H8": "B"})
    text = state.text()
    lines = text.splitlines()
    assert lines[0].split() == list(FILES)
    row3 = next(line for line in lines if line.startswith(" 3"))
    assert row3.split() == ["3", ".", ".", ".", "bR", ".", ".", ".", "."]
    row1 = next(line for line in lines if line.startswith(" 1"))
    assert row1.split()[1] == "rbr"
    assert "R red 1 pts" in text and "B black 1 pts" in text
    assert "red to place an X" in text


def test_svg_has_every_square_pieces_jokers_and_covered_markers():
    state = make({"D3": "bR", "E4": "J", "A1": "rbr", "H8": "B"})
    svg = state.svg()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    for name in NAMES:
        assert svg.count(f'data-target="{name}"') == 1
    assert svg.count('class="joker"') == 1
    assert svg.count('class="xpiece"') == 2
    assert svg.count('class="marker"') == 2  # the top markers of D3 and A1
    assert svg.count('class="covered-marker"') == 2  # r and b under A1's top r


# -- one line per turn (rules §3.9) ----------------------------------------------------------


def _scored_game():
    state = qipan.load("modx").new()
    state.play_many(["J@C3", "J@A8", "J@H8", "J@H1", "J@F7"])
    state.play_many(["H4", "A1", "H5", "B2", "H6", "D4", "G2", "E5 {A1 B2 C3 D4 E5}", "J>C3", "G3"])
    return state


def test_turn_lines_format_round_trips():
    from qipan.games.modx.records import FORMAT, turn_lines
    from qipan.records import read_records_text

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
    from qipan.games.modx.records import FORMAT

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
    from qipan.games.modx.records import FORMAT

    with pytest.raises(qipan.RecordError, match=why):
        FORMAT.read('[Game "modx"]\n[Players "2"]\n\n' + body + "\n")


def test_illegal_turn_lines_are_rejected_on_replay_with_the_ply():
    from qipan.games.modx.records import FORMAT

    (record,) = FORMAT.read('[Game "modx"]\n[Players "2"]\n\nR J@C3 D4 A8 H1 H8\n')
    with pytest.raises(qipan.RecordError) as err:
        record.replay()
    assert err.value.ply == 2
