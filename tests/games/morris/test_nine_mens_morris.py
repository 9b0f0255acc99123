"""Nine Men's Morris rules (rules file §1.3) and the numbered scenarios 9MM-1 .. 9MM-8."""

from __future__ import annotations

import pytest

import qipan
from qipan.core import IllegalMove


def pos(text: str, preset: str = "nine-mens-morris", **options):
    return qipan.load(preset, **options).position(text)


def texts(state, prefix: str = "") -> set[str]:
    return {m.text for m in state.legal_moves() if m.text.startswith(prefix)}


def test_start_position():
    state = qipan.load("nine-mens-morris").new()
    assert state.to_move == 0 and state.hand == [9, 9]
    assert len(state.legal_moves()) == 24
    assert state.position() == "W: B: hands:9,9 to:W nmove:0 ply:0"


# -- 9MM-1 Double mill removes one stone only (placing) --------------------------------------
NINE_1 = "W:a7,g7,d6,d5 B:a1,g1,b4,f4 hands:5,5 to:W"


def test_9mm_1_double_mill_removes_exactly_one_stone():
    state = pos(NINE_1)
    assert texts(state, "d7") == {"d7xa1", "d7xg1", "d7xb4", "d7xf4"}
    state.play("d7xf4")
    assert state.bb[1].bit_count() == 3 and state.hand[1] == 5 and state.to_move == 1
    assert state.outcome is None


def test_9mm_1_take_two_removes_one_stone_per_mill():
    state = pos(NINE_1, take_per_mill=2)
    moves = texts(state, "d7")
    assert len(moves) == 6 and "d7xa1xg1" in moves and all(m.count("x") == 2 for m in moves)
    state.play("d7xb4xa1")  # lenient: removals in any order
    assert state.history[-1].text == "d7xa1xb4"
    assert state.bb[1].bit_count() == 2 and state.outcome is None  # 2 + 5 in hand
    # One mill closed: still one removal under take 2.
    single = pos("W:a7,g7 B:a1,g1 hands:7,7 to:W", take_per_mill=2)
    assert texts(single, "d7") == {"d7xa1", "d7xg1"}


# -- 9MM-2 Protection (moving phase) ----------------------------------------------------------
NINE_2 = "W:c5,e5,d6,a4,g4,b2,f2 B:a1,d1,g1,f6,c3 to:W"


def test_9mm_2_stones_in_mills_are_protected():
    state = pos(NINE_2)
    assert texts(state, "d6-d5") == {"d6-d5xf6", "d6-d5xc3"}
    before = state.position()
    with pytest.raises(IllegalMove, match="a1 is in a mill and Black has stones outside mills"):
        state.play("d6-d5xa1")
    assert state.position() == before and state.history == []


def test_9mm_2_fallback_when_every_stone_is_in_a_mill():
    state = pos("W:c5,e5,d6,a4,g4,b2,f2 B:a1,d1,g1 to:W")
    assert texts(state, "d6-d5") == {"d6-d5xa1", "d6-d5xd1", "d6-d5xg1"}
    state.play("d6-d5xd1")
    assert state.outcome.winners == (0,) and state.to_move is None
    assert state.legal_moves() == []


def test_always_protected_and_no_protection_options():
    protected = pos("W:c5,e5,d6,a4,g4,b2,f2 B:a1,d1,g1 to:W", protection="always_protected")
    assert texts(protected, "d6-d5") == {"d6-d5"}  # a mill, but nothing may be taken
    with pytest.raises(IllegalMove, match="never removed"):
        protected.play("d6-d5xa1")
    anything = pos(NINE_2, protection="no_mill_protection")
    assert texts(anything, "d6-d5") == {f"d6-d5x{p}" for p in ("a1", "d1", "g1", "f6", "c3")}


# -- 9MM-3 Mill formed by a slide; re-forming the same mill ----------------------------------
def test_9mm_3_reforming_a_mill_removes_again():
    state = pos("W:a4,b4,c3,e3,b2 B:g7,g4,d1,b6,d6 to:B")
    assert texts(state, "d1-g1") == {f"d1-g1x{p}" for p in ("a4", "b4", "c3", "e3", "b2")}
    state.play("d1-g1xc3")
    state.play("e3-e4")
    assert texts(state, "g1-d1") == {"g1-d1"}
    state.play("g1-d1")
    state.play("e4-e3")
    assert texts(state, "d1-g1") == {f"d1-g1x{p}" for p in ("a4", "b4", "e3", "b2")}
    state.play("d1-g1xb2")
    assert state.bb[0].bit_count() == 3


# -- 9MM-4 Existing mill does not trigger -----------------------------------------------------
def test_9mm_4_a_standing_mill_does_not_remove():
    state = pos("W:a7,d7,g7,b6,f2 B:a1,d1,g4,c3,e3 to:W")
    assert texts(state, "b6-") == {"b6-b4", "b6-d6"}
    with pytest.raises(IllegalMove, match="removes nothing: no mill is formed"):
        state.play("b6-b4xa1")
    state.play("b6-b4")
    assert state.bb[1].bit_count() == 5


# -- 9MM-5 Blocked at the start of the moving phase -------------------------------------------
BLOCKED = "b6 a1 f6 a4 f2 d6 b2 f4 c5 d2 d5 b4 e4 e5 e3 d3 c4 c3".split()


def test_9mm_5_blocked_after_the_last_placement_loses():
    state = qipan.load("nine-mens-morris").new()
    state.play_many(BLOCKED)
    assert all("x" not in m.text for m in state.history)
    assert state.outcome.winners == (1,) and "White cannot move" in state.outcome.reason
    same = pos("W:b6,f6,f2,b2,c5,d5,e4,e3,c4 B:a1,a4,d6,f4,d2,b4,e5,d3,c3 to:W")
    assert same.outcome.winners == (1,)


# -- 9MM-6 Flying asymmetry ---------------------------------------------------------------------
NINE_6 = "W:a7,d7,g1 B:b6,d6,f6,b2,f2 to:W"


def test_9mm_6_only_the_side_with_three_stones_flies():
    state = pos(NINE_6)
    assert "g1-c3" in texts(state)
    state.play("g1-c3")
    for move in state.legal_moves():  # Black (5 stones) only slides
        f, to = move.data[0], move.data[1]
        assert state.t.nbr[f] >> to & 1
    with pytest.raises(IllegalMove, match="c4 is not adjacent to b6"):
        state.play("b6-c4")


def test_no_flying_option():
    state = pos(NINE_6, flying=None)
    assert "g1-c3" not in texts(state)
    assert texts(state, "g1-") == {"g1-d1", "g1-g4"}


# -- 9MM-7 Win by reduction -----------------------------------------------------------------------
def test_9mm_7_reduction_to_two_stones_ends_the_game_at_once():
    state = pos("W:a7,d7,g4,b2,d2 B:a1,c3,e3 to:W")
    state.play("g4-g7xa1")
    assert state.outcome.winners == (0,) and state.to_move is None
    assert state.outcome.result_text() == "1-0"
    with pytest.raises(IllegalMove, match="game is over"):
        state.play("c3-c4")
    state.undo()
    assert state.outcome is None and state.to_move == 0


# -- 9MM-8 Re-forming during placement; loss counted on board + hand --------------------------
def test_9mm_8_mill_against_an_empty_board_removes_nothing():
    state = pos("W:a7,d7 B: hands:7,9 to:W")
    assert texts(state, "g7") == {"g7"}
    state.play("g7")
    assert state.to_move == 1 and state.hand == [6, 9]


def test_mill_on_the_last_placement_removes_by_the_right_player():
    """Regression: the player who closed the mill with the last stone in hand removes, and the
    opponent moves next."""
    white = pos("W:a7,d7,b4,c3,e3,f2,b2,d2 B:a1,d1,g4,f4,c5,e5,b6,d6 hands:1,1 to:W")
    white.play("g7xg4")
    assert white.at("g4") is None and white.to_move == 1 and white.hand == [0, 1]
    black = pos("W:a7,d7,b4,c3,e3,f2,b2,d2,a4 B:a1,d1,f4,c5,e5,b6,d6,f6 hands:0,1 to:B")
    assert all(m.text.startswith("g1x") for m in black.legal_moves() if m.text.startswith("g1"))
    black.play("g1xb4")
    assert black.at("b4") is None and black.to_move == 0 and black.hand == [0, 0]
    assert black.phase(0) == "moving"


# -- draws: repetition, n-move rule, ply cap ----------------------------------------------------
SHUFFLE = "W:a7,d7,g7,b6,b2 B:a1,d1,g4,f4,c3,e3 to:W"


def test_threefold_repetition_draws_on_the_third_occurrence():
    state = pos(SHUFFLE)
    cycle = ["b6-d6", "c3-c4", "d6-b6", "c4-c3"]
    state.play_many(cycle)  # start position now seen twice
    assert state.outcome is None
    state.play_many(cycle[:3])
    assert state.outcome is None
    state.play(cycle[3])
    assert state.outcome.is_draw and "repetition" in state.outcome.reason
    state.undo()
    assert state.outcome is None and state.to_move == 1


@pytest.mark.parametrize("count, plies", [(1, 4), (2, 4), (3, 8)])
def test_repetition_count_option(count, plies):
    state = pos(SHUFFLE, repetition_count=count)
    cycle = ["b6-d6", "c3-c4", "d6-b6", "c4-c3"] * 2
    for i, move in enumerate(cycle, start=1):
        state.play(move)
        assert (state.outcome is not None) == (i >= plies)
        if state.outcome:
            break


def test_no_repetition_rule():
    state = pos(SHUFFLE, repetition_count=None)
    state.play_many(["b6-d6", "c3-c4", "d6-b6", "c4-c3"] * 5)
    assert state.outcome is None


def test_n_move_rule_counts_slides_since_the_last_removal():
    state = pos(SHUFFLE, n_move=6, repetition_count=None)
    state.play_many(["b6-d6", "c3-c4", "d6-b6", "c4-c3", "b6-d6"])
    assert state.outcome is None and state.nmove == 5
    state.play("c3-d3")
    assert state.outcome.is_draw and "6 plies without a removal" in state.outcome.reason
    off = pos(SHUFFLE, n_move=0, repetition_count=None)
    off.play_many(["b6-d6", "c3-c4", "d6-b6", "c4-c3"] * 40)
    assert off.outcome is None


def test_n_move_limit_does_not_spoil_a_winning_ply():
    # Black has 3 stones and may not fly; d2-d1 blocks g1, the last Black stone that could move.
    text = "W:d7,a4,g4,d2 B:a7,g7,g1 to:W nmove:3"
    win = pos(text, n_move=4, flying=None)
    win.play("d2-d1")
    assert win.outcome.winners == (0,) and "Black cannot move" in win.outcome.reason
    draw = pos(text, n_move=4, flying=None)
    draw.play("d2-d3")
    assert draw.outcome.is_draw


def test_removal_and_placement_reset_the_n_move_counter():
    state = pos("W:a7,d7,g4,b2,d2 B:a1,c3,e3,f6 to:W nmove:50")
    state.play("g4-g7xf6")
    assert state.nmove == 0
    placing = pos("W:a7 B:a1 hands:3,3 to:W nmove:7")
    placing.play("d2")
    assert placing.nmove == 0


def test_max_plies_cap():
    state = pos(SHUFFLE, max_plies=3, repetition_count=None)
    state.play_many(["b6-d6", "c3-c4"])
    assert state.outcome is None
    state.play("d6-b6")
    assert state.outcome.is_draw and "3-ply cap" in state.outcome.reason


# -- options: first player, stones ------------------------------------------------------------------
def test_first_player_option():
    assert qipan.load("nine-mens-morris", first_player="black").new().to_move == 1
    starts = {qipan.load("nine-mens-morris", first_player="random").new(seed=s).to_move for s in range(20)}
    assert starts == {0, 1}
    a = qipan.load("nine-mens-morris", first_player="random").new(seed=5).to_move
    assert a == qipan.load("nine-mens-morris", first_player="random").new(seed=5).to_move


def test_stones_option():
    state = qipan.load("nine-mens-morris", stones=4).new()
    assert state.hand == [4, 4]
    state.play_many(["a1", "g7", "a4", "g4", "d1", "b6", "b2", "f6"])
    assert state.phase(0) == "moving"
    with pytest.raises(qipan.OptionError):
        qipan.load("nine-mens-morris", stones=13)


# -- the openspiel preset and the registry ---------------------------------------------------------
def test_openspiel_preset_caps_at_200_plies_without_repetition_or_n_move_rules():
    game = qipan.load("openspiel")
    assert (game.rules.max_plies, game.rules.repetition_count, game.rules.n_move) == (200, None, 0)
    state = game.position(SHUFFLE.replace("to:W", "to:W ply:196"))
    state.play_many(["b6-d6", "c3-c4", "d6-b6"])
    assert state.outcome is None
    state.play("c4-c3")  # the 200th ply (and a repeated position: no repetition rule here)
    assert state.outcome.is_draw and "200-ply cap" in state.outcome.reason


def test_registry_lists_every_preset_with_its_options():
    ids = {s.id for s in qipan.specs() if s.family == "morris"}
    assert ids == {
        "three-mens-morris",
        "three-mens-morris-kurna",
        "six-mens-morris",
        "nine-mens-morris",
        "twelve-mens-morris",
        "zhiqi",
        "openspiel",
    }
    nine = {o.name: o for o in qipan.spec("nine-mens-morris").options}
    assert set(nine) >= {
        "flying",
        "take_per_mill",
        "protection",
        "repetition_count",
        "n_move",
        "max_plies",
        "full_board",
        "stones",
        "first_player",
    }
    assert nine["protection"].choices == ("fallback", "always_protected", "no_mill_protection")
    assert nine["flying"].allow_none and nine["n_move"].default == 100
    assert {o.name for o in qipan.spec("zhiqi").options} >= {"dan_gang_moving_only", "stones"}
    assert {o.name for o in qipan.spec("twelve-mens-morris").options} >= {"diagonal_mills", "full_board"}
    assert {o.name for o in qipan.spec("three-mens-morris-kurna").options} >= {
        "move_anywhere",
        "diagonal_lines",
    }
    with pytest.raises(qipan.OptionError, match="one of fallback, always_protected, no_mill_protection"):
        qipan.load("nine-mens-morris", protection="sometimes")
    with pytest.raises(qipan.OptionError, match="no option"):
        qipan.load("three-mens-morris", flying=3)
    assert qipan.load("nine-mens-morris", n_move="50", flying="none").rules.flying is None
