"""The real-time loop without a terminal: a fake clock and scripted keys."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.agents.random_agent import RandomAgent
from qipan.core import CHANCE, resolve_chance
from qipan.games.pipemania.terminal import KEYS_ONE, RealTimeLoop

LAYOUT = ". . . . . / S:E . . . . / . . . . ."


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def make(players=1, **options):
    opts = dict(
        layout=LAYOUT,
        start_delay=2,
        flow_period=1,
        goal="length",
        min_length=3,
        sequence="H,H,H,V,V,V,V,V,V,V,V",
    )
    opts.update(options)
    return qipan.load("pipemania", **opts).new(players=players)


def test_time_runs_without_input():
    clock = FakeClock()
    loop = RealTimeLoop(make(), tick_seconds=0.5, clock=clock)
    assert loop.update() == 0  # no tick is due yet
    clock.now = 1.0
    assert loop.update() == 2
    assert loop.state.boards[0].tick == 2
    clock.now = 100.0
    loop.update()
    assert loop.state.outcome is not None  # the flow spilled and the level ended on its own
    assert loop.state.outcome.winners == ()


def test_cursor_and_place_play_on_the_next_tick():
    clock = FakeClock()
    loop = RealTimeLoop(make(), tick_seconds=0.5, clock=clock)
    assert loop.cursor[0] == [1, 0]  # starts on the start piece
    for key in ("KEY_RIGHT", " "):
        loop.command(0, KEYS_ONE[key])
    assert loop.pending[0] == "p1,1"
    assert loop.state.boards[0].cells[6] is None  # nothing happens before the tick
    clock.now = 0.5
    loop.update()
    assert loop.state.boards[0].cells[6].id == "H" and loop.pending[0] is None
    for _ in range(2):
        loop.command(0, "right")
        loop.command(0, "place")
        clock.now += 0.5
        loop.update()
    clock.now = 10.0
    loop.update()
    assert loop.state.outcome.winners == (0,) and loop.state.boards[0].length == 3
    assert [m.text for m in loop.state.history if not m.text.startswith("+")][:3] == ["p1,1", "p1,2", "p1,3"]


def test_only_the_last_action_of_a_tick_counts_and_illegal_ones_become_a_pass():
    clock = FakeClock()
    loop = RealTimeLoop(make(start_delay=20), tick_seconds=1.0, clock=clock)
    loop.command(0, "right")
    loop.command(0, "place")
    loop.command(0, "hurry")  # replaces the place
    clock.now = 1.0
    loop.update()
    assert loop.state.boards[0].started and loop.state.boards[0].cells[6] is None
    loop.command(0, "left")
    loop.command(0, "place")  # on the start piece: illegal
    clock.now = 2.0
    loop.update()
    assert "start piece" in loop.messages[-1]
    assert loop.state.history[-1].text == "-"


def test_cursor_wraps_and_cycle_chooses_pieces():
    clock = FakeClock()
    loop = RealTimeLoop(make(supply="choice", choice="free", sequence=""), tick_seconds=1.0, clock=clock)
    loop.command(0, "up")
    loop.command(0, "up")
    assert loop.cursor[0] == [2, 0]
    loop.command(0, "right")
    loop.command(0, "cycle")
    assert loop.selected_piece(0) == "V"
    loop.command(0, "place")
    assert loop.pending[0] == "p2,1:V"


def test_two_players_act_in_the_same_tick():
    clock = FakeClock()
    loop = RealTimeLoop(make(players=2, sequence="H,H,V,V,V,V,V,V,V,V,V,V"), tick_seconds=1.0, clock=clock)
    loop.command(0, "right")
    loop.command(0, "place")
    loop.command(1, "right")
    loop.command(1, "right")
    loop.command(1, "place")
    clock.now = 1.0
    loop.update()
    b = loop.state.boards[0]
    assert b.owner[6] == 0 and b.owner[7] == 1 and b.tick == 1


def test_an_agent_can_take_a_seat_and_pause_stops_time():
    clock = FakeClock()
    loop = RealTimeLoop(
        make(players=2, mode="race", sequence=""),
        tick_seconds=1.0,
        clock=clock,
        seed=3,
        agents={1: RandomAgent(seed=1)},
    )
    loop.paused = True
    clock.now = 5.0
    assert loop.update() == 0
    loop.paused = False
    clock.now = 10.0
    loop.update()
    assert loop.state.boards[1].tick >= 1
    clock.now = 1000.0
    loop.update()
    assert loop.state.outcome is not None


def test_the_loop_runs_at_the_declared_tick_and_idles_with_the_declared_move():
    clock = FakeClock()
    state = make()
    game = state.game
    assert game.realtime_tick == 0.5 and game.idle_move == "-"
    loop = RealTimeLoop(state, clock=clock)
    assert loop.tick_seconds == game.realtime_tick
    clock.now = 3 * game.realtime_tick
    assert loop.update() == 3
    assert [m.text for m in state.history if not m.text.startswith("+")] == [game.idle_move] * 3


@pytest.mark.parametrize("preset", ["pipemania", "pipemania-fixed", "pipemania-2p", "pipemania-race"])
def test_the_idle_move_is_legal_for_every_seat_at_every_tick(preset):
    # The server plays idle_move for a seat that lets a real-time tick pass.
    rng = random.Random(4)
    game = qipan.load(preset)
    state = game.new(players=game.players[-1], seed=4)
    while state.outcome is None and state.ply < 400:
        if state.to_move == CHANCE:
            resolve_chance(state, rng)
            continue
        assert game.parse(game.idle_move, state).text == game.idle_move
        state.play(rng.choice(state.legal_moves()))
