"""Ratings cannot be farmed (server/fair_play.py): a rated game that ends before each side
has moved is aborted and unrated (either player may abort then, and a resignation then is
an abort); two accounts seen at one address today, or created from one address within a
day, are not paired rated; ``qipan admin pairings`` lists lopsided repeated pairings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer  # noqa: E402
from site_helpers import csrf, new_browser, signup, site_client  # noqa: E402

from qipan.cli.main import cli  # noqa: E402

BLITZ = {"mode": "total", "initial": 300, "increment": 2}
RATED = {"game": "toy-ttt", "clock": BLITZ, "rated": True}


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def person(site, name: str, address: str):
    browser = new_browser(site, address)
    return browser, signup(browser, name)


def pair(site, owner, acceptor, body=RATED):
    """``owner`` posts a seek, ``acceptor`` accepts it: the game, each one's token, the reply."""
    (a, a_csrf), (b, b_csrf) = owner, acceptor
    seek_id = a.post("/api/seeks", json=body, headers=csrf(a_csrf)).json()["id"]
    r = b.post(f"/api/seeks/{seek_id}/accept", headers=csrf(b_csrf))
    if r.status_code != 200:
        return None, None, r
    game_id = r.json()["game"]
    mine = a.get(f"/api/account/games/{game_id}/seats").json()["seats"][0]
    tokens = {mine["seat"]: mine["token"], r.json()["seat"]: r.json()["token"]}
    return game_id, tokens, r


def rating(site, name: str) -> list[float]:
    return [r["rating"] for r in site.get(f"/api/users/{name}").json()["ratings"]]


def rated_done(site, game_id) -> bool:
    with site.app.state.manager.storage.engine.connect() as conn:
        return (
            conn.execute(
                sa.text("select rating_applied from site_games where game_id = :g"), {"g": game_id}
            ).scalar_one()
            is not None
        )


def test_five_resignations_before_any_move_leave_the_ratings_unchanged(site):
    from server_helpers import wait_for

    ann, bob = person(site, "ann", "10.0.1.1"), person(site, "bob", "10.0.1.2")
    for _ in range(5):
        game_id, tokens, accepted = pair(site, ann, bob)
        bob_seat = accepted.json()["seat"]
        r = bob[0].post(f"/api/games/{game_id}/resign", headers=bearer(tokens[bob_seat]))
        assert r.status_code == 200
        assert r.json()["result"]["winners"] == [] and "aborted" in r.json()["result"]["reason"]
        wait_for(lambda game_id=game_id: rated_done(site, game_id))
    assert rating(site, "ann") == rating(site, "bob") == []  # still the default 1500, no games
    print("ann's ratings after five ply-0 resignations:", rating(site, "ann") or "none (1500 default)")


def test_either_player_may_abort_until_each_side_has_moved(site):
    ann, bob = person(site, "ann", "10.0.1.1"), person(site, "bob", "10.0.1.2")
    game_id, tokens, _ = pair(site, ann, bob)
    assert site.post(f"/api/games/{game_id}/abort").status_code == 401  # a spectator may not
    first = site.get(f"/api/games/{game_id}").json()["to_move"]
    # The first mover moved; the other side has not: the second player may still abort.
    r = site.post(f"/api/games/{game_id}/move", json={"move": "a1", "ply": 0}, headers=bearer(tokens[first]))
    assert r.status_code == 200
    r = site.post(f"/api/games/{game_id}/abort", headers=bearer(tokens[1 - first]))
    assert r.status_code == 200 and "aborted" in r.json()["result"]["reason"]
    # Once each side has moved, aborting is refused and changes nothing.
    game_id, tokens, _ = pair(site, ann, bob)
    first = site.get(f"/api/games/{game_id}").json()["to_move"]
    for ply, (seat, move) in enumerate([(first, "a1"), (1 - first, "a2")]):
        site.post(f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=bearer(tokens[seat]))
    r = site.post(f"/api/games/{game_id}/abort", headers=bearer(tokens[first]))
    assert r.status_code == 409 and "resign instead" in r.json()["error"]
    assert site.get(f"/api/games/{game_id}").json()["status"] == "active"


def test_accounts_seen_at_one_address_today_are_not_paired_rated(site):
    ann, bob = person(site, "ann", "10.0.2.1"), person(site, "bob", "10.0.2.2")
    # Bob logs in from Ann's address too.
    again = new_browser(site, "10.0.2.1")
    r = again.post("/api/account/login", json={"username": "bob", "password": "correct horse battery"})
    assert r.status_code == 200
    game_id, _, r = pair(site, ann, bob)
    assert game_id is None and r.status_code == 403 and "same address" in r.json()["error"]
    game_id, _, r = pair(site, ann, bob, RATED | {"rated": False})  # casual is fine
    assert r.status_code == 200
    # Quick pairing passes over the rated seek it may not take, and posts one instead.
    ann_seek = ann[0].post("/api/seeks", json=RATED, headers=csrf(ann[1])).json()["id"]
    quick = bob[0].post("/api/quick", json=RATED, headers=csrf(bob[1])).json()
    assert set(quick) == {"seek"} and quick["seek"] != ann_seek


def test_accounts_created_from_one_address_within_a_day_are_never_paired_rated(site):
    ann, bob = person(site, "ann", "10.0.3.1"), person(site, "bob", "10.0.3.1")
    with site.app.state.manager.storage.engine.begin() as conn:  # as if they signed up last week
        conn.execute(sa.text("update account_addresses set last_seen = last_seen - 7 * 86400"))
    ann = (new_browser(site, "10.0.3.2"), ann[1])
    bob = (new_browser(site, "10.0.3.3"), bob[1])
    for browser, name in ((ann[0], "ann"), (bob[0], "bob")):
        r = browser.post("/api/account/login", json={"username": name, "password": "correct horse battery"})
        assert r.status_code == 200
    ann, bob = (ann[0], r_csrf(ann[0])), (bob[0], r_csrf(bob[0]))
    game_id, _, r = pair(site, ann, bob)
    assert game_id is None and r.status_code == 403 and "created from the same address" in r.json()["error"]


def r_csrf(browser) -> str:
    return browser.get("/api/account/me").json()["csrf"]


def test_admin_lists_lopsided_repeated_pairings(site, db_url):
    ann, bob = person(site, "ann", "10.0.4.1"), person(site, "bob", "10.0.4.2")
    carl = person(site, "carl", "10.0.4.3")
    from server_helpers import wait_for

    def play_out(owner, acceptor, loser_is_acceptor: bool):
        game_id, tokens, accepted = pair(site, owner, acceptor)
        first = site.get(f"/api/games/{game_id}").json()["to_move"]
        for ply, (seat, move) in enumerate([(first, "a1"), (1 - first, "a2")]):
            site.post(
                f"/api/games/{game_id}/move", json={"move": move, "ply": ply}, headers=bearer(tokens[seat])
            )
        acceptor_seat = accepted.json()["seat"]
        loser = acceptor_seat if loser_is_acceptor else 1 - acceptor_seat
        site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[loser]))
        wait_for(lambda: rated_done(site, game_id))

    for _ in range(5):
        play_out(ann, bob, loser_is_acceptor=True)  # bob loses five times to ann
    for i in range(5):
        play_out(ann, carl, loser_is_acceptor=i % 2 == 0)  # ann and carl share their games
    result = CliRunner().invoke(cli, ["admin", "pairings", "--db", db_url])
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines() if "ann" in line]
    assert len(rows) == 1 and rows[0][1:7] == ["ann", "│", "bob", "│", "5", "│"], result.output
    result = CliRunner().invoke(cli, ["admin", "pairings", "--db", db_url, "--min-games", "6"])
    assert "no pair of accounts" in result.output
