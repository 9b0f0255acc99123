"""Rematches (offer, accept, seats turned, same terms) and abandoned seats (a claimed
win or draw in a two-player game, a bot of the strongest level in a game of four, the
leaver's rating counting a loss), over the API."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, wait_for  # noqa: E402
from site_helpers import new_browser, paired, site_client  # noqa: E402

from qipan.server.ratings import Rating, update  # noqa: E402

BLITZ = {"mode": "total", "initial": 300, "increment": 2}


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def test_a_rematch_swaps_colours_and_keeps_the_terms(site):
    game_id, tokens, names = paired(site)
    r = site.post(f"/api/games/{game_id}/rematch", json={"action": "offer"}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and "over" in r.json()["error"]  # not before the end
    site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[0]))
    r = site.post(f"/api/games/{game_id}/rematch", json={"action": "offer"}, headers=bearer(tokens[0]))
    assert r.json() == {"offered": [0], "game": None}
    assert site.post(f"/api/games/{game_id}/rematch", json={"action": "offer"}).status_code == 401
    r = site.post(f"/api/games/{game_id}/rematch", json={"action": "offer"}, headers=bearer(tokens[1]))
    new = r.json()
    assert new["game"] and new["seat"] == 0  # seat 1 plays first now
    state = site.get(f"/api/games/{new['game']}").json()
    assert [s["name"] for s in state["seats"]] == [names[1], names[0]]
    old_terms = site.get(f"/api/games/{game_id}/terms").json()["terms"]
    assert site.get(f"/api/games/{new['game']}/terms").json()["terms"] == old_terms
    assert state["clock"]["initial"] == 300 and state["clock"]["increment"] == 2
    # The other player finds it too (with their own new token), and it is made once.
    other = site.get(f"/api/games/{game_id}/rematch", headers=bearer(tokens[0])).json()
    assert other["game"] == new["game"] and other["seat"] == 1
    r = site.post(
        f"/api/games/{new['game']}/move", json={"move": "a1", "ply": 0}, headers=bearer(other["token"])
    )
    assert r.status_code == 403  # not their turn: seat 0 (the old seat 1) moves first
    r = site.post(
        f"/api/games/{new['game']}/move", json={"move": "a1", "ply": 0}, headers=bearer(new["token"])
    )
    assert r.status_code == 200, r.text
    r = site.post(f"/api/games/{game_id}/rematch", json={"action": "offer"}, headers=bearer(tokens[1]))
    assert r.status_code == 409 and "started already" in r.json()["error"]


def both_move(site, game_id, tokens) -> None:
    """Each side makes a move (a rated game that ends before that is aborted, unrated)."""
    for ply, move in enumerate(("a1", "b2")):
        r = site.post(
            f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=bearer(tokens[ply])
        )
        assert r.status_code == 200, r.text


def test_a_two_player_leaver_loses_after_the_grace_period(site):
    site.app.state.site.leavers.grace = 0.3
    game_id, tokens, names = paired(site)
    both_move(site, game_id, tokens)  # before that a leaver's game is aborted, unrated
    with site.websocket_connect(f"/ws/games/{game_id}", headers=bearer(tokens[1])):
        wait_for(lambda: site.get(f"/api/games/{game_id}").json()["seats"][1]["online"])  # bob came
    with site.websocket_connect(f"/ws/games/{game_id}", headers=bearer(tokens[0])):
        presence = site.get(f"/api/games/{game_id}/presence").json()
        assert presence["grace"] == 0.3 and "0" not in presence["gone"]
        # Shown to a tenth of a second: 0.4 shown is past the 0.3 s grace for sure.
        wait_for(lambda: site.get(f"/api/games/{game_id}/presence").json()["gone"].get("1", 0) >= 0.4)
        r = site.post(f"/api/games/{game_id}/abandoned", json={"action": "maybe"}, headers=bearer(tokens[0]))
        assert r.status_code == 400
        r = site.post(f"/api/games/{game_id}/abandoned", json={"action": "draw"}, headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
        assert r.json()["result"]["winners"] == [] and "left" in r.json()["result"]["reason"]

    # The draw was claimed, but the leaver's rating counts a loss.
    def rating(name):
        rows = site.get(f"/api/users/{name}").json()["ratings"]
        return rows[0]["rating"] if rows else None

    wait_for(lambda: rating(names[1]) is not None)
    assert rating(names[1]) == pytest.approx(round(update(Rating(), [(Rating(), 0.0)]).rating, 1))
    assert rating(names[0]) == pytest.approx(round(update(Rating(), [(Rating(), 0.5)]).rating, 1))


def test_a_claim_before_the_grace_period_is_refused(site):
    """Also against a seat played over plain HTTP (never connected): it cannot leave."""
    site.app.state.site.leavers.grace = 0.01
    game_id, tokens, _ = paired(site)
    r = site.post(f"/api/games/{game_id}/abandoned", json={"action": "win"}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and "wait" in r.json()["error"]
    site.app.state.site.leavers.grace = 60
    with site.websocket_connect(f"/ws/games/{game_id}", headers=bearer(tokens[1])):
        wait_for(lambda: site.get(f"/api/games/{game_id}").json()["seats"][1]["online"])
    r = site.post(f"/api/games/{game_id}/abandoned", json={"action": "win"}, headers=bearer(tokens[0]))
    assert r.status_code == 409 and "wait" in r.json()["error"]
    assert site.get(f"/api/games/{game_id}").json()["status"] == "active"


def test_in_a_game_of_four_a_bot_takes_the_seat_of_who_left(site):
    site.app.state.site.leavers.grace = 0.3
    r = site.post(
        "/api/games",
        json={
            "game": "pente-4",
            "players": 4,
            "seats": [{"kind": "human", "join": True, "name": n} for n in "abcd"],
        },
    )
    game = r.json()
    tokens = {t["seat"]: t["token"] for t in game["seats"]}
    with site.websocket_connect(f"/ws/games/{game['id']}", headers=bearer(tokens[1])):  # b comes, then goes
        wait_for(lambda: site.get(f"/api/games/{game['id']}").json()["seats"][1]["online"])
    sockets = [
        site.websocket_connect(f"/ws/games/{game['id']}", headers=bearer(tokens[i])) for i in (0, 2, 3)
    ]
    for s in sockets:
        s.__enter__()
    try:
        state = wait_for(
            lambda: (g := site.get(f"/api/games/{game['id']}").json())["seats"][1]["left"] and g, timeout=20
        )
        seat = state["seats"][1]
        assert seat["kind"] == "bot" and seat["limits"] == {"level": 8} and seat["name"].startswith("level 8")
        assert [s["left"] for s in state["seats"]] == [False, True, False, False]
        for i in (0, 2, 3):  # the others are still there
            assert state["seats"][i]["kind"] == "human"
        chat = lambda: site.get(f"/api/games/{game['id']}/chat?room=spectators").json()["messages"]  # noqa: E731
        wait_for(lambda: any("b left the game" in m["text"] for m in chat()))
        assert state["status"] == "active"
    finally:
        for s in sockets:
            s.__exit__(None, None, None)


def test_the_games_waiting_for_an_account_say_what_they_are(site):
    """GET /api/account/me lists the games waiting for the account's move (for the notices
    of every page), and forgets a game once it is over."""
    game_id, tokens, names = paired(site, rated=False)
    # the test client has no login; log in as the player to move
    state = site.get(f"/api/games/{game_id}").json()
    mover = names[state["to_move"]]
    browser = new_browser(site)
    browser.post("/api/account/login", json={"username": mover, "password": "correct horse battery"})
    me = browser.get("/api/account/me").json()
    assert me["your_turn"] == [game_id]
    assert me["waiting"] == [{"id": game_id, "game": "toy-ttt", "correspondence": False, "tournament": None}]
    site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[0]))
    assert browser.get("/api/account/me").json()["waiting"] == []
