"""Levels over the API: /api/specs lists levels 1-8 per game, a bot seat may ask for a
level, bad levels are refused with nothing created, and a level bot under a clock moves."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, create, wait_for  # noqa: E402


def test_specs_list_the_levels_of_every_game(client):
    games = client.get("/api/specs").json()["games"]
    for g in games:
        levels = g["levels"]
        assert [lv["level"] for lv in levels] == list(range(1, 9)), g["id"]
        assert all(lv["agent"] == "level" and lv["limits"] == {"level": lv["level"]} for lv in levels)
        assert all((lv["rating"] is not None) == lv["measured"] for lv in levels)


def test_a_level_seat_plays_under_a_clock(client):
    gid, tokens = create(
        client,
        [{"kind": "human", "name": "Ann", "join": True}, {"kind": "bot", "level": 2}],
        clock={"mode": "total", "initial": 30, "increment": 1},
    )
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    bot = next(s for s in seats if s["kind"] == "bot")
    assert bot["name"] == "level 2" and bot["agent"] == "level"
    r = client.post(f"/api/games/{gid}/move", json={"move": "b2"}, headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    state = wait_for(lambda: (s := client.get(f"/api/games/{gid}").json())["ply"] >= 2 and s)
    assert state["status"] == "active" and state["clock"]["remaining"][1] > 0


@pytest.mark.parametrize(
    ("seat", "words"),
    [
        ({"kind": "bot", "level": 9}, "1..8"),
        ({"kind": "bot", "level": 0}, "1..8"),
        ({"kind": "bot", "level": "strong"}, "level"),
        ({"kind": "bot", "level": 3, "agent": "mcts"}, "not both"),
        ({"kind": "bot", "level": 3, "limits": [1]}, "must be an object"),
        ({"kind": "bot", "level": 3, "limits": {"depth": 3}}, "horizon"),
        ({"kind": "bot", "level": 3, "limits": {"time": 120}}, "at most 60"),
    ],
)
def test_bad_level_seats_are_refused_and_nothing_is_created(client, seat, words):
    before = client.get("/api/games").json()
    r = client.post("/api/games", json={"game": "toy-ttt", "seats": [{"kind": "human"}, seat]})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert client.get("/api/games").json() == before


def test_the_level_card_and_the_bots_list_agree_for_every_game(client):
    """One rating per level per game: the levels of "play the computer" (``/api/specs``) and
    the bots' list for that game (``/api/bots?game=``) show the same number, measured where
    the ladder measured the game and the provisional default elsewhere."""
    from qipan.agents.levels import ladder
    from qipan.server.ratings import BOT_RATING

    measured = ladder()["games"]
    for g in client.get("/api/specs").json()["games"]:
        card = g["levels"]
        r = client.get("/api/bots", params={"game": g["id"]})
        assert r.status_code == 200, r.text
        listed = r.json()["bots"]
        assert [b["level"] for b in listed] == [lv["level"] for lv in card], g["id"]
        for lv, bot in zip(card, listed, strict=True):
            assert bot["game"] == g["id"] and bot["measured"] == lv["measured"], (g["id"], lv["level"])
            if g["id"] in measured:
                # A measured game shows its ladder, never the provisional default.
                assert lv["measured"] and not bot["provisional"], (g["id"], lv["level"])
                assert bot["rating"] == lv["rating"] == measured[g["id"]]["ratings"][str(lv["level"])]
                assert bot["ratings"][g["id"]]["rating"] == lv["rating"]
            else:
                assert lv["rating"] is None and bot["provisional"]
                assert bot["rating"] == BOT_RATING.rating
