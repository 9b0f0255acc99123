"""Glicko-2 against the worked example of Glickman's paper, and the time classes."""

from __future__ import annotations

import pytest

from qipan.server.ratings import PERIODS_PER_DAY, Rating, after_inactivity, rate_game, time_class, update


def test_glickman_worked_example():
    player = Rating(1500, 200, 0.06)
    games = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    new = update(player, games)
    # The paper rounds mu' to -0.2069 before converting back (1464.06); unrounded the
    # same steps give 1464.0507.
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert round(new.rating, 4) == 1464.0507
    assert round(new.rd, 2) == 151.52
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert round(new.volatility, 6) == 0.059996


def test_no_games_only_widens_the_deviation():
    new = update(Rating(1500, 200, 0.06), [])
    assert new.rating == 1500 and 200 < new.rd < 201 and new.volatility == 0.06


def test_one_game_moves_both_players_opposite_ways():
    a, b = rate_game(Rating(), Rating(), 1.0)
    assert a.rating > 1500 > b.rating
    assert a.rating - 1500 == pytest.approx(1500 - b.rating)
    assert a.rd < 350 and b.rd < 350
    drawn_a, drawn_b = rate_game(Rating(1600, 80), Rating(1400, 80), 0.5)
    assert drawn_a.rating < 1600 and drawn_b.rating > 1400


@pytest.mark.parametrize(
    "clock, days, expected",
    [
        ({"mode": "total", "initial": 60, "increment": 0}, None, "bullet"),
        ({"mode": "total", "initial": 120, "increment": 1}, None, "bullet"),
        ({"mode": "total", "initial": 180, "increment": 0}, None, "blitz"),
        ({"mode": "total", "initial": 300, "increment": 3}, None, "blitz"),
        ({"mode": "total", "initial": 600, "increment": 0}, None, "rapid"),
        ({"mode": "total", "initial": 1800, "increment": 0}, None, "classical"),
        ({"mode": "move", "initial": 10}, None, "blitz"),
        ({"mode": "move", "initial": 30}, None, "rapid"),
        (None, 3, "correspondence"),
        (None, None, None),
    ],
)
def test_time_classes(clock, days, expected):
    assert time_class(clock, days) == expected


def test_inactivity_widens_the_deviation_up_to_the_start_value():
    player = Rating(1700, 60, 0.06)
    assert after_inactivity(player, 0) == player
    month = after_inactivity(player, 30)
    assert month.rating == 1700 and month.volatility == 0.06
    # Step 6 for t periods: phi^2 + t sigma^2 on Glicko-2's scale.
    expected = 173.7178 * ((60 / 173.7178) ** 2 + 30 * PERIODS_PER_DAY * 0.06**2) ** 0.5
    assert month.rd == pytest.approx(expected) and month.rd > 60
    assert after_inactivity(player, 100_000).rd == 350
