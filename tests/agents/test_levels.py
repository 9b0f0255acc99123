"""Levels 1-8: every game plays every level, beginners blunder plausibly (better moves more
often, wins in one nearly always, not uniformly), level 8 is the strongest agent, bad
levels are refused, the ladder data is what the site reads."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise

import pytest

import qipan
from qipan.agents import Budget, RandomAgent, allot, load, strongest_agent_name
from qipan.agents.arena import play_game
from qipan.agents.levels import (
    LEVELS,
    LevelAgent,
    describe_levels,
    ladder,
    ladder_entrants,
    level_of_entrant,
    level_rating,
    measured_rating,
    parse_levels,
    score_moves,
)
from qipan.core.errors import OptionError

#: One preset of each family, and the ones without an evaluation or with n players.
PRESETS = [
    "three-mens-morris",
    "nine-mens-morris",
    "pente",
    "trax-8x8",
    "tantrix",
    "tantrix-solitaire",
    "modx-3",
    "pipemania",
    "blackpath",
]


@pytest.fixture(autouse=True)
def reference_rules(monkeypatch):
    # The levels are under test, not the compiled kernels (no compile time in the tests).
    monkeypatch.setenv("QIPAN_KERNELS", "0")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_level_plays_legal_moves_in_every_game(preset):
    game = qipan.load(preset)
    players = game.players[0]
    for lvl in LEVELS:
        agents = [load("level", game=game, level=lvl.number, time=0.01, seed=s) for s in range(players)]
        state = play_game(game, agents, seed=lvl.number, players=players, max_plies=4)
        assert state.ply >= 1 or state.outcome is not None


def test_every_preset_offers_the_levels():
    for spec in qipan.specs():
        game = qipan.load(spec.id)
        assert "level" in {a.name for a in qipan.agents.agents_for(game)}, spec.id


def _position(preset: str, plies: int, seed: int):
    game = qipan.load(preset)
    state = game.new(seed=seed)
    rng = random.Random(seed)
    while state.ply < plies:
        state.play(rng.choice(state.legal_moves()))
    return state


def test_a_beginner_prefers_better_moves_but_not_always_the_best():
    state = _position("nine-mens-morris", 6, 3)
    values = {m: v for v, m in score_moves(state, 1, random.Random(0), None)}
    picks = Counter(LevelAgent(level=1, seed=s).choose(state) for s in range(200))
    mean_all = sum(values.values()) / len(values)
    mean_picked = sum(values[m] * n for m, n in picks.items()) / 200
    assert mean_picked > mean_all  # skewed towards good moves ...
    assert len(picks) >= 4  # ... yet varied: a beginner, not an engine
    best = max(values, key=values.get)
    worst = min(values, key=values.get)
    assert picks[best] > picks[worst]


def test_higher_softmax_levels_are_sharper():
    state = _position("nine-mens-morris", 8, 5)
    spread = {}
    for number in (1, 2):
        picks = Counter(LevelAgent(level=number, seed=s).choose(state) for s in range(150))
        spread[number] = picks.most_common(1)[0][1]
    assert spread[2] > spread[1]


def _wins(state, move) -> bool:
    after = state.copy()
    after.play(move)
    return after.outcome is not None and after.outcome.reward(state.to_move) == 1.0


def test_a_win_in_one_is_nearly_always_seen():
    # Three Men's Morris: X a1 b1 _, O a2 b2 _: X to move wins with c1.
    game = qipan.load("three-mens-morris")
    state = game.new()
    for text in ("a1", "a2", "b1", "b2"):
        state.play(text)
    winning = [m for m in state.legal_moves() if _wins(state, m)]
    assert winning
    picks = [LevelAgent(level=1, seed=s).choose(state) for s in range(60)]
    share = sum(p in winning for p in picks) / len(picks)
    assert share >= 0.9  # uniform choice would find it 1 time in len(legal_moves)
    assert len(state.legal_moves()) >= 4


def test_level_three_blocks_a_win_in_one_more_often_than_level_one():
    game = qipan.load("three-mens-morris")
    state = game.new()
    for text in ("a1", "a2", "b1"):  # O to move: X threatens c1 (a1 b1 c1)
        state.play(text)
    blocked = {1: 0, 3: 0}
    for number in blocked:
        for s in range(40):
            move = LevelAgent(level=number, seed=s).choose(state)
            blocked[number] += move.text == "c1"
    assert blocked[3] > blocked[1]


def test_level_eight_is_the_strongest_agent():
    for preset in ("nine-mens-morris", "pente", "trax", "modx"):
        game = qipan.load(preset)
        agent = LevelAgent(level=8, time=0.01, seed=1)
        state = game.new(seed=1)
        agent.choose(state)
        if agent.last_method == "search":
            assert agent._inner.name == strongest_agent_name(game, state.num_players)


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"level": 0}, "1..8"),
        ({"level": 9}, "1..8"),
        ({"level": "hard"}, "level"),
        ({"level": 3, "depth": 2}, "horizon"),
        ({"level": 3, "iterations": 20}, "horizon"),
        ({"level": 3, "time": -1}, "time"),
    ],
)
def test_bad_levels_are_refused(params, words):
    with pytest.raises(OptionError, match=words):
        load("level", **params)


def test_level_ranges_and_entrants():
    assert parse_levels("1-3,8") == [1, 2, 3, 8]
    assert parse_levels("2,2,4") == [2, 4]
    for bad in ("1", "0-3", "x", "7-9", ""):
        with pytest.raises(OptionError):
            parse_levels(bad)
    entrants = ladder_entrants([1, 8], 0.05)
    assert entrants == ["level:level=1,time=0.05", "level:level=8,time=0.05"]
    assert [level_of_entrant(e) for e in entrants] == [1, 8]
    assert level_of_entrant("mcts:time=1") is None


def test_the_levels_the_site_shows_come_from_the_ladder_data():
    data = ladder()
    for preset, entry in data["games"].items():
        for number, rating in entry["ratings"].items():
            assert measured_rating(preset, int(number)) == rating
        shown = describe_levels(preset)
        assert all(lv["measured"] for lv in shown if str(lv["level"]) in entry["ratings"])
    assert measured_rating("no-such-game", 3) is None
    assert not any(lv["measured"] for lv in describe_levels("no-such-game"))
    assert [lv["level"] for lv in describe_levels()] == list(range(1, 9))


def test_every_measured_ladder_rises_level_by_level():
    # Levels 4 and 5 once showed one Nine Men's Morris rating: each level a player picks
    # must be shown as stronger than the one below it.
    for preset, entry in ladder()["games"].items():
        ratings = [entry["ratings"][n] for n in sorted(entry["ratings"], key=int)]
        assert all(low < high for low, high in pairwise(ratings)), (preset, ratings)
    assert "nine-mens-morris" in ladder()["games"]


def test_the_level_card_and_the_bots_list_show_one_rating_per_level_and_game():
    """Level 3 read 1302 on the card (the game's) and 1251 in the list (a mean over games):
    both now come from ``level_rating``."""
    pytest.importorskip("sqlalchemy")
    from qipan.server.errors import ApiError
    from qipan.server.ratings import BOT_RATING
    from qipan.server.site import bots

    for preset in [*ladder()["games"], "trax"]:
        card = describe_levels(preset)
        listed = bots(preset)
        for shown, bot in zip(card, listed, strict=True):
            assert bot["level"] == shown["level"] and bot["game"] == preset
            assert bot["measured"] == shown["measured"]
            if shown["measured"]:
                assert bot["rating"] == shown["rating"] == level_rating(preset, shown["level"])["rating"]
            else:
                assert bot["rating"] == BOT_RATING.rating and bot["provisional"]
    featured = next(s.id for s in qipan.specs() if s.featured)
    assert bots() == bots(featured)
    with pytest.raises(ApiError, match="no game"):
        bots("no-such-game")


class Recording(RandomAgent):
    def select(self, state):
        self.seen = (self.time, self.soft_time)
        return super().select(state)


def test_under_a_clock_a_level_gives_its_search_the_target_times_its_share(monkeypatch):
    inner = Recording(seed=1)
    monkeypatch.setattr(LevelAgent, "_agent_for", lambda self, state: inner)
    state = qipan.load("nine-mens-morris").new()
    budget = Budget(50.0)
    target = allot(budget, len(state.legal_moves())).target
    for number in (7, 8):
        agent = LevelAgent(level=number, time=10.0, seed=1)
        agent.choose(state, budget)
        assert inner.seen == (pytest.approx(target * agent.level.time_share), None)
        assert agent.time == 10.0  # its own limit is back after the move
    # Without a clock the search gets the level's share of the full time.
    LevelAgent(level=7, time=10.0, seed=1).choose(state)
    assert inner.seen == (pytest.approx(10.0 / 2.5), None)
