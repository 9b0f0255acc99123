"""Pipe Mania: every scenario of rules file §3.8 and the rules of §3.1-3.5."""

from __future__ import annotations

import json
import random

import pytest
from pipemania_helpers import CROSS_LOOP, FILLER, act, cell, make, until_over

import qipan
from qipan.core import CHANCE, IllegalMove, resolve_chance
from qipan.records import Record


def test_scenario_1_straight_run_timing_and_length():
    state = make().new()
    act(state, "p1,1", "p1,2", "p1,3")  # ticks 0-2
    b = state.boards[0]
    assert b.started and b.tick == 3 and cell(state, 1, 0)[1] == 1  # the start filled at tick 2
    assert b.length == 0
    act(state, "-")  # tick 3
    assert cell(state, 1, 1)[1] == 1 and cell(state, 1, 2)[1] == 0
    act(state, "-")  # tick 4
    assert cell(state, 1, 2)[1] == 1
    act(state, "-")  # tick 5
    assert cell(state, 1, 3)[1] == 1 and state.outcome is None
    act(state, "-")  # tick 6: spill into the empty (1,4)
    assert state.outcome is not None and b.length == 3
    assert "spills into the empty cell 1,4" in state.outcome.reason
    assert state.outcome.winners == (0,)  # min_length 3: success
    assert state.outcome.scores == (150,)
    failed = until_over(act(make(min_length=4).new(), "p1,1", "p1,2", "p1,3"))
    assert failed.outcome.winners == () and "fails" in failed.outcome.reason


def test_scenario_2_wrong_connector_spills_at_first_advance():
    state = until_over(act(make(sequence="V," + FILLER).new(), "p1,1"))
    assert state.boards[0].length == 0
    assert state.boards[0].results[-1][:3] == (1, False, 0)
    assert "1,1" in state.outcome.reason


def test_scenario_3_cross_twice_is_one_crossover():
    state = make(sequence=CROSS_LOOP, min_length=3).new()
    act(state, "p1,1", "p1,2", "p1,3", "p0,3", "p0,2")
    state = until_over(state)
    b = state.boards[0]
    assert cell(state, 1, 2) == (qipan.games.pipemania.board.BY_ID["X"], 3)  # both channels flooded
    assert b.crossovers == 1 and b.length == 6
    # 3 x 50 up to min_length, 3 x 100 after it, +500 for the crossover
    assert state.scores == [3 * 50 + 3 * 100 + 500]
    assert "spills into the empty cell 2,2" in state.outcome.reason


def test_scenario_3_a_third_pass_through_a_cross_spills():
    state = make(sequence=CROSS_LOOP, min_length=3).new()
    act(state, "p1,1", "p1,2", "p1,3", "p0,3", "p0,2")
    while state.boards[0].crossovers == 0:
        act(state, "-")
    # Rewrite the position so that the flow heads back into the cross horizontally, from (1,1).
    data = json.loads(state.position())
    data["boards"][0]["head"] = [6, 1]  # cell (1,1), leaving through E
    data["boards"][0]["flow_period"] = 1
    again = state.game.position(json.dumps(data))
    until_over(again)
    assert "no open channel there" in again.outcome.reason and "1,2" in again.outcome.reason
    assert again.boards[0].crossovers == 1


def test_scenario_4_replacement_costs_points_and_ticks():
    state = make(sequence="H,V," + FILLER, start_delay=10).new()
    act(state, "p1,1", "p1,1")  # tick 1 replaces the H by the V
    assert cell(state, 1, 1)[0].id == "V"
    assert state.scores == [-50] and state.lost == [2]
    for _ in range(2):  # the next two ticks are lost
        assert [m.text for m in state.legal_moves()] == ["-"]
        with pytest.raises(IllegalMove, match="lost this tick"):
            state.play("p0,0")
        act(state, "-")
    assert "p0,0" in state.legal_move_texts()


def test_scenario_4_flooded_start_and_fixed_pieces_cannot_be_replaced():
    state = act(make().new(), "p1,1", "p1,2", "p1,3", "-")  # the flow is in (1,1)
    before = state.key()
    with pytest.raises(IllegalMove, match="flooded"):
        state.play("p1,1")
    with pytest.raises(IllegalMove, match="start piece"):
        state.play("p1,0")
    assert state.key() == before
    assert "p1,2" not in state.legal_move_texts() or cell(state, 1, 2)[1] == 0
    fixed = make(layout=". . . . . / S:E H # . . / . . . . .").new()
    with pytest.raises(IllegalMove, match="fixed piece"):
        fixed.play("p1,1")
    with pytest.raises(IllegalMove, match="blocked"):
        fixed.play("p1,2")


def test_scenario_5_unused_pieces_cost_100_each():
    state = until_over(act(make().new(), "p0,0", "p0,1", "p0,2"))
    assert state.boards[0].length == 0
    assert state.scores == [-300]


def test_scenario_6_goal_connect():
    layout = ". . . . . / S:E . . . D:W / . . . . ."
    state = until_over(act(make(layout=layout, goal="connect", min_length=0).new(), "p1,1", "p1,2", "p1,3"))
    assert state.outcome.winners == (0,) and "reaches the drain at 1,4" in state.outcome.reason
    assert state.boards[0].tick == 7  # the flow entered the drain at tick 6
    closed = ". . . . . / S:E . . . D:N / . . . . ."
    state = until_over(act(make(layout=closed, goal="connect", min_length=0).new(), "p1,1", "p1,2", "p1,3"))
    assert state.outcome.winners == () and "closed side of the drain" in state.outcome.reason


def test_connect_needs_a_drain():
    with pytest.raises(qipan.OptionError, match="drain"):
        make(goal="connect")


def test_scenario_7_fixed_supply_runs_out():
    state = make(supply="fixed", fixed="H,H", sequence="").new()
    assert state.to_move == 0  # no dispenser, no chance
    act(state, "p1,1:H", "p1,2:H")
    assert [m.text for m in state.legal_moves()] == ["-", "h"]
    before = state.key()
    with pytest.raises(IllegalMove, match="every piece on screen"):
        state.play("p1,3:H")
    assert state.key() == before


def test_fixed_supply_only_offers_pieces_in_stock():
    state = make(supply="fixed", fixed="H,X", sequence="").new()
    texts = state.legal_move_texts()
    assert "p0,0:H" in texts and "p0,0:X" in texts and "p0,0:V" not in texts


def test_scenario_8_queue_order_and_seeded_refill():
    state = make(sequence="V,H", queue_len=2).new()
    assert state.queue(0) == ["V", "H"]
    act(state, "p1,1")
    assert cell(state, 1, 1)[0].id == "V"  # the front piece
    state = make(sequence="V,H", queue_len=2).new()
    state.play("p1,1")
    assert state.to_move == CHANCE  # the dispenser draws the next piece
    assert [(m.text, round(p, 4)) for m, p in state.chance_outcomes()] == [
        (f"+{k}", round(1 / 7, 4)) for k in ("H", "V", "WS", "ES", "NE", "NW", "X")
    ]
    draws = []
    for _ in range(2):
        s = make(sequence="", queue_len=3).new(seed=4)
        rng = random.Random(9)
        while s.to_move == CHANCE:
            resolve_chance(s, rng)
        draws.append(s.queue(0))
    assert draws[0] == draws[1] and len(draws[0]) == 3


def test_weights_shape_the_dispenser():
    state = make(sequence="", weights="0,0,0,0,0,0,1").new()
    assert [m.text for m, _ in state.chance_outcomes()] == ["+X"]
    with pytest.raises(IllegalMove):
        state.play("+H")
    with pytest.raises(qipan.OptionError):
        make(weights="1,2")


def test_scenario_9_two_players_shared_score_their_own_pieces():
    state = make(sequence="H,H," + FILLER).new(players=2)
    assert state.to_move == 0
    act(state, "p1,1", "p1,2")  # tick 0: P1 then P2
    assert state.boards[0].tick == 1
    act(state, "-", "p1,3")  # tick 1: P2 puts the third H
    until_over(state)
    assert state.boards[0].length == 3
    assert state.scores == [50, 100]
    b = state.boards[0]
    assert b.owner[6] == 0 and b.owner[7] == 1 and b.owner[8] == 1


def test_shared_mode_players_may_replace_each_other():
    state = make(sequence="H,V," + FILLER, start_delay=10).new(players=2)
    act(state, "p1,1", "p1,1")  # P2 bombs P1's piece
    assert state.boards[0].owner[6] == 1 and state.scores == [0, -50] and state.lost == [0, 2]


def test_race_mode_two_grids_same_pieces():
    state = make(sequence="", mode="race").new(players=2)
    for piece in ("H", "H", "V", "X", "NE"):
        state.play("+" + piece)
    assert state.to_move == 0 and state.queue(0) == state.queue(1) == ["H", "H", "V", "X", "NE"]
    act(state, "p1,1", "p1,1")
    assert cell(state, 1, 1, 0)[0].id == "H" and cell(state, 1, 1, 1)[0].id == "H"
    svg = state.svg()
    assert 'data-target="1:0,0"' in svg and 'data-target="2:0,0"' not in svg


def test_race_winner_by_score_then_pipeline_length():
    state = make(sequence="H,H,H,H,H,H," + FILLER, mode="race").new(players=2)
    act(state, "p1,1", "p1,1", "p1,2", "p1,2", "p1,3", "-")
    until_over(state)
    assert state.boards[0].length == 3 and state.boards[1].length == 2
    assert state.outcome.winners == (0,) and state.scores == [150, 100]
    tie = make(sequence="H,H,H,H,H,H," + FILLER, mode="race").new(players=2)
    act(tie, "p1,1", "p1,1", "p1,2", "p1,2")
    until_over(tie)
    assert tie.outcome.winners == () and tie.scores == [100, 100]


def test_hurry_starts_the_flow_and_sets_period_1():
    state = make(start_delay=10, flow_period=3).new()
    act(state, "p1,1", "h")  # hurry at tick 1: the start fills at tick 1
    b = state.boards[0]
    assert b.started and b.flow_period == 1 and b.start_delay == 1
    act(state, "-")  # tick 2: into (1,1)
    assert b.length == 1
    assert "h" not in state.legal_move_texts()  # no further effect


def test_flow_period_spaces_the_advances():
    state = make(flow_period=3).new()
    act(state, "p1,1", "p1,2", "p1,3")  # start at tick 2
    lengths = []
    for _ in range(7):
        act(state, "-")
        lengths.append(state.boards[0].length)
    assert lengths == [0, 0, 1, 1, 1, 2, 2]  # advances at ticks 5 and 8 (t - 2 divisible by 3)


def test_reservoir_holds_the_flow_and_scores():
    layout = ". . . . . / S:E R:H . . . / . . . . ."
    state = make(layout=layout, sequence="H,H," + FILLER, reservoir_factor=3).new()
    act(state, "p1,2", "p1,3")
    lengths = []
    for _ in range(6):
        act(state, "-")
        lengths.append(state.boards[0].length)
    # ticks 2-7: the start fills at 2, into the reservoir at 3, held for 3 periods, out at 6
    assert lengths == [0, 1, 1, 1, 2, 3]
    assert state.scores[0] >= 500


def test_one_way_straights_and_bonus_pieces():
    ok = until_over(make(layout=". . . . . / S:E O:E B:H . . / . . . . .", min_length=2).new())
    assert ok.boards[0].length == 2 and ok.scores == [50 + 50 + 500]
    wrong = until_over(make(layout=". . . . . / S:E O:W . . . / . . . . .", min_length=2).new())
    assert wrong.boards[0].length == 0


def test_wrap_openings():
    layout = ". . . / S:S . . / . . ."  # the start faces down into (1,0)... from (0,0)
    layout = "S:W . . / . . . / . . ."
    state = make(layout=layout, sequence="H," + FILLER, wrap="r0", min_length=1).new()
    act(state, "p0,2")  # leaving (0,0) westward wraps into (0,2) from the E side
    until_over(state)
    assert state.boards[0].length == 1 and "spills into the empty cell 0,1" in state.outcome.reason
    with pytest.raises(qipan.OptionError):
        make(wrap="x3")


def test_levels_get_faster_and_a_failure_ends_the_game():
    game = make(levels=3, start_delay=6, flow_period=3, delay_step=2, period_step=1, min_length=1)
    assert [(game.level(n).start_delay, game.level(n).flow_period) for n in (1, 2, 3)] == [
        (6, 3),
        (4, 2),
        (2, 1),
    ]
    state = game.new()
    act(state, "p1,1")
    while state.boards[0].level.number == 1:
        act(state, "-")
    assert state.boards[0].results[0][:2] == (1, True)
    assert state.boards[0].tick == 0 and state.boards[0].start_delay == 4  # level 2 is loaded
    until_over(state)  # nothing placed on level 2: it fails and the game ends
    assert state.outcome.winners == () and "level 2 fails" in state.outcome.reason


def test_crossover_bonus_and_full_grid_bonus():
    state = make(sequence=CROSS_LOOP, crossover_bonus_count=1, crossover_bonus=5000).new()
    act(state, "p1,1", "p1,2", "p1,3", "p0,3", "p0,2")
    until_over(state)
    assert state.scores == [3 * 50 + 3 * 100 + 500 + 5000]
    tiny = make(layout="S:E . D:W", sequence="H," + FILLER, goal="connect", min_length=0, full_bonus=10000)
    state = until_over(act(tiny.new(), "p0,1"))
    assert state.outcome.winners == (0,) and state.scores == [100 + 10000]  # min_length 0: 100 a channel


def test_free_choice_and_two_stacks():
    free = make(supply="choice", choice="free", sequence="").new()
    assert free.to_move == 0 and "p1,1:X" in free.legal_move_texts()
    act(free, "p1,1:x")  # case-insensitive
    assert cell(free, 1, 1)[0].id == "X"
    stacks = make(supply="choice", choice="two_stacks", sequence="").new()
    for piece in ("H", "V", "WS", "ES", "NE", "NW", "X", "H", "V", "WS"):
        stacks.play("+" + piece)
    assert stacks.queue(0, 0) == ["H", "V", "WS", "ES", "NE"] and stacks.queue(0, 1) == [
        "NW",
        "X",
        "H",
        "V",
        "WS",
    ]
    act(stacks, "p1,1@2")
    assert cell(stacks, 1, 1)[0].id == "NW"
    with pytest.raises(IllegalMove, match="say which piece"):
        stacks.play("p0,0")


def test_record_replays_to_the_same_score_without_the_seed():
    game = qipan.load("pipemania-classic")
    state = game.new(seed=3)
    rng = random.Random(3)
    while state.outcome is None:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
        else:
            moves = state.legal_moves()
            state.play(moves[-1] if rng.random() < 0.3 else moves[0])
    record = Record.from_state(state)
    record.seed = None
    again = qipan.records.loads(record.to_json()).replay()
    assert again.scores == state.scores and again.outcome == state.outcome


def test_evaluate_is_bounded():
    state = act(make().new(), "p1,1", "p1,2")
    value = state.game.evaluate(state, 0)
    assert -1.0 <= value <= 1.0
    two = act(make(sequence="H,H," + FILLER, start_delay=10).new(players=2), "p1,1", "p1,1")
    assert two.game.evaluate(two, 0) > 0 > two.game.evaluate(two, 1)


def test_terminal_attribute_points_at_the_runner():
    game = qipan.load("pipemania")
    module, _, func = game.terminal.partition(":")
    import importlib

    assert callable(getattr(importlib.import_module(module), func))


def test_copies_stay_independent_through_undo_of_shared_history():
    state = act(make(sequence="H,H,H,H," + FILLER, start_delay=10).new(), "p1,1", "p1,1")
    twin = state.copy()
    state.undo()
    twin.undo()
    before = twin.key()
    state.play("p0,0")
    assert twin.key() == before and twin.boards[0].cells[0] is None


def test_a_first_real_time_game_leaves_a_newcomer_time():
    """In real time level 1 gives at least 15 s before the flooz moves and 4 s a channel:
    at a quarter of a second a tick a first game in the browser was over in about 10 s."""
    game = qipan.load("pipemania")
    ticks = game.o["start_delay"] * game.realtime_tick
    assert ticks >= 15 and game.o["flow_period"] * game.realtime_tick >= 4
