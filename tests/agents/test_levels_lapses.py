"""Levels 4-8 over a strongest agent whose levels are set by lapses (``levels_by_lapses``):
the full time at every level, the level set by lapses that fall level by level and that play
level 3's move; for every other agent levels 4-8 play exactly as before (time shares, the
horizon-1 lapses of levels 4-6)."""

from __future__ import annotations

import random

import pytest

import qipan
from qipan.agents import Budget, RandomAgent, allot, load, strongest_agent_name
from qipan.agents import levels as levels_module
from qipan.agents.levels import LEVELS, LevelAgent

MOVES = 300


class Inner(RandomAgent):
    """A stand-in for the strongest agent that records the time it was given."""

    def select(self, state):
        self.seen = (self.time, self.soft_time)
        return super().select(state)


class SteadyInner(Inner):
    levels_by_lapses = True


class OwnRatesInner(SteadyInner):
    steady_lapses = (0.9, 0.5, 0.25, 0.05)


@pytest.fixture
def softmax_calls(monkeypatch):
    calls = []

    def recorded(state, horizon, temperature, rng, deadline):
        calls.append((horizon, temperature))
        return state.legal_moves()[0]

    monkeypatch.setattr(levels_module, "softmax_move", recorded)
    return calls


def play_level(monkeypatch, inner, number, seed, full=2.0, budget=None):
    """The level's methods over ``MOVES`` moves of one position, and the search's times."""
    monkeypatch.setattr(LevelAgent, "_agent_for", lambda self, state: inner)
    state = qipan.load("nine-mens-morris").new()
    agent = LevelAgent(level=number, time=full, seed=seed)
    methods, times = [], set()  # (time, soft_time) pairs, rounded
    for _ in range(MOVES):
        inner.seen = None
        agent.choose(state, budget)
        methods.append(agent.last_method)
        if inner.seen is not None:
            times.add((round(inner.seen[0], 9), inner.seen[1]))
    return methods, times


def expected_lapses(seed: int, rate: float) -> list[str]:
    rng = random.Random(seed)  # the level's own generator: one draw per move when it lapses
    return ["lapse" if rate and rng.random() < rate else "search" for _ in range(MOVES)]


@pytest.mark.parametrize("number", [4, 5, 6, 7, 8])
def test_an_agent_with_levels_by_time_plays_the_levels_as_before(monkeypatch, softmax_calls, number):
    level = LEVELS[number - 1]
    methods, times = play_level(monkeypatch, Inner(seed=1), number, seed=number)
    assert methods == expected_lapses(number, level.lapse)
    assert times == {(round(2.0 * level.time_share, 9), None)}
    assert softmax_calls == [(1, level.temperature)] * methods.count("lapse")  # horizon 1
    if level.lapse:
        assert 0 < methods.count("lapse") < MOVES


@pytest.mark.parametrize("number", [4, 5, 6, 7, 8])
def test_an_agent_with_levels_by_lapses_gets_all_of_it_and_lapses_as_level_3(
    monkeypatch, softmax_calls, number
):
    level, third = LEVELS[number - 1], LEVELS[2]
    methods, times = play_level(monkeypatch, SteadyInner(seed=1), number, seed=number)
    assert methods == expected_lapses(number, level.steady_lapse)
    assert times == {(2.0, None)}  # no share: the full level's time
    assert softmax_calls == [(third.horizon, third.temperature)] * methods.count("lapse")
    lapses = methods.count("lapse") / MOVES
    assert abs(lapses - level.steady_lapse) < 0.1


def test_under_a_clock_it_gets_the_whole_target(monkeypatch, softmax_calls):
    budget = Budget(50.0)
    state = qipan.load("nine-mens-morris").new()
    target = allot(budget, len(state.legal_moves())).target
    _, times = play_level(monkeypatch, SteadyInner(seed=1), 7, seed=3, full=10.0, budget=budget)
    assert times == {(round(target, 9), None)}


def test_the_lapses_fall_level_by_level():
    steady = [lvl.steady_lapse for lvl in LEVELS[3:]]
    assert all(high < low for low, high in zip(steady, steady[1:], strict=False))
    assert steady[0] < 1 and steady[-1] == 0  # level 4 searches some moves; level 8 all
    assert all(lvl.steady_lapse == 0 for lvl in LEVELS[:3])  # the softmax levels have none


@pytest.mark.parametrize(
    "preset, steady",
    [
        ("modx", True),
        ("tantrix", True),
        ("blackpath", True),
        ("pipemania", True),
        ("trax", False),
        ("nine-mens-morris", False),
        ("pente", False),
    ],
)
def test_which_strongest_agents_have_levels_by_lapses(preset, steady):
    game = qipan.load(preset)
    agent = load(strongest_agent_name(game, 2), game=game, players=2, time=0.1, seed=0)
    assert agent.levels_by_lapses is steady


@pytest.mark.parametrize("number", [4, 5, 6, 7, 8])
def test_an_agent_with_its_own_lapse_rates_lapses_at_those(monkeypatch, softmax_calls, number):
    rate = (0.9, 0.5, 0.25, 0.05, 0.0)[number - 4]
    methods, times = play_level(monkeypatch, OwnRatesInner(seed=1), number, seed=number)
    assert methods == expected_lapses(number, rate)
    assert times == {(2.0, None)}


def test_every_agents_own_lapse_rates_fall_level_by_level():
    for spec in qipan.agents.agent_specs():
        cls = spec.make if isinstance(spec.make, type) else None
        rates = getattr(cls, "steady_lapses", None)
        if rates is not None:
            assert cls.levels_by_lapses, spec.name
            assert len(rates) == 4 and all(0 < r < 1 for r in rates), spec.name
            assert all(high < low for low, high in zip(rates, rates[1:], strict=False)), spec.name
