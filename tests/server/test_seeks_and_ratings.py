"""Seeks, quick pairing, rated games and their Glicko-2 result (applied exactly once),
leaderboards, profiles and correspondence clocks, over the API on SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
import sys
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer  # noqa: E402
from site_helpers import csrf, new_browser, signup, site_client  # noqa: E402

from qipan.core import Outcome  # noqa: E402
from qipan.server.ratings import Rating, rate_game  # noqa: E402

BLITZ = {"mode": "total", "initial": 300, "increment": 2}
WIN_FOR_FIRST = ["a1", "a2", "b1", "b2", "c1"]


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


#: Each person browses from an address of his own: two accounts seen at one address are
#: not paired rated (server/fair_play.py).
ADDRESSES = itertools.count(1)


def person(site, name):
    number = next(ADDRESSES)
    browser = new_browser(site, f"10.0.{number // 250}.{number % 250 + 1}")
    return browser, signup(browser, name)


def count(site, table: str, where: str = "") -> int:
    with site.app.state.manager.storage.engine.connect() as conn:
        return conn.execute(sa.text(f"select count(*) from {table} {where}")).scalar_one()


def post_seek(browser, token, **body):
    body.setdefault("game", "toy-ttt")
    r = browser.post("/api/seeks", json=body, headers=csrf(token))
    assert r.status_code == 201, r.text
    return r.json()["id"]


def play(site, game_id, tokens_by_seat, moves):
    for ply, move in enumerate(moves):
        seat = site.get(f"/api/games/{game_id}").json()["to_move"]
        r = site.post(
            f"/api/games/{game_id}/move",
            json={"move": move, "ply": ply},
            headers=bearer(tokens_by_seat[seat]),
        )
        assert r.status_code == 200, r.text


def paired_game(site, rated=True, clock=BLITZ, **seek):
    ann, ann_csrf = person(site, "ann")
    bob, bob_csrf = person(site, "bob")
    seek_id = post_seek(ann, ann_csrf, clock=clock, rated=rated, **seek)
    accepted = bob.post(f"/api/seeks/{seek_id}/accept", headers=csrf(bob_csrf)).json()
    game_id = accepted["game"]
    tokens = {s["seat"]: s["token"] for s in ann.get(f"/api/account/games/{game_id}/seats").json()["seats"]}
    tokens[accepted["seat"]] = accepted["token"]
    names = {s["seat"]: s["name"] for s in site.get(f"/api/games/{game_id}").json()["seats"]}
    return game_id, tokens, names, (ann, ann_csrf), (bob, bob_csrf)


def ratings_of(site, name, family="toy", time_class="blitz"):
    data = site.get(f"/api/users/{name}").json()
    return [r for r in data["ratings"] if r["family"] == family and r["time_class"] == time_class]


def wait_rated(site, game_id):
    from server_helpers import wait_for

    wait_for(lambda: count(site, "site_games", f"where game_id = '{game_id}' and rating_applied is not null"))


def test_a_seek_is_listed_accepted_and_becomes_a_game(site):
    ann, ann_csrf = person(site, "ann")
    bob, bob_csrf = person(site, "bob")
    seek_id = post_seek(ann, ann_csrf, clock=BLITZ, rated=True)
    listed = site.get("/api/seeks").json()["seeks"]
    assert [(s["id"], s["username"], s["time_class"], s["rated"], s["rating"]) for s in listed] == [
        (seek_id, "ann", "blitz", True, 1500)
    ]
    r = bob.post(f"/api/seeks/{seek_id}/accept", headers=csrf(bob_csrf))
    assert r.status_code == 200, r.text
    game_id, seat = r.json()["game"], r.json()["seat"]
    state = site.get(f"/api/games/{game_id}").json()
    assert state["status"] == "active" and state["clock"]["initial"] == 300
    assert {s["name"] for s in state["seats"]} == {"ann", "bob"} and state["seats"][seat]["name"] == "bob"
    assert site.get("/api/seeks").json()["seeks"] == []
    mine = ann.get("/api/account/seeks").json()["seeks"]
    assert mine[0]["status"] == "accepted" and mine[0]["game_id"] == game_id
    # Each side finds its seat (and token) through its account.
    assert [s["seat"] for s in ann.get(f"/api/account/games/{game_id}/seats").json()["seats"]] == [1 - seat]
    games = bob.get("/api/account/games").json()["games"]
    assert games[0]["id"] == game_id and games[0]["terms"] == {
        "rated": True,
        "time_class": "blitz",
        "days": None,
    }
    assert games[0]["accounts"] == {str(seat): "bob", str(1 - seat): "ann"}


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "no-such-game"}, "no-such-game"),
        ({"game": "toy-ttt", "options": {"coin": "maybe"}}, "coin"),
        ({"game": "toy-ticker"}, "two players"),
        ({"game": "toy-ttt", "days": 2}, "days per move"),
        ({"game": "toy-ttt", "days": 3, "clock": BLITZ}, "not both"),
        ({"game": "toy-ttt", "rated": True}, "needs a clock"),
        ({"game": "toy-ttt", "rated": "yes", "clock": BLITZ}, "rated must be"),
        ({"game": "toy-ttt", "clock": {"initial": -5}}, "positive"),
        ({"game": "toy-ttt", "clock": BLITZ, "rating_min": 1800, "rating_max": 1200}, "above"),
        ({"game": "toy-ttt", "clock": BLITZ, "rating_min": "low"}, "whole number"),
    ],
)
def test_bad_seeks_are_refused(site, body, words):
    ann, token = person(site, "ann")
    r = ann.post("/api/seeks", json=body, headers=csrf(token))
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert count(site, "seeks") == 0


def test_seek_refusals(site):
    ann, ann_csrf = person(site, "ann")
    bob, bob_csrf = person(site, "bob")
    assert site.post("/api/seeks", json={"game": "toy-ttt"}).status_code == 401  # guests cannot seek
    seek_id = post_seek(ann, ann_csrf, clock=BLITZ, rating_min=1600)
    r = ann.post(f"/api/seeks/{seek_id}/accept", headers=csrf(ann_csrf))
    assert r.status_code == 409 and "your own" in r.json()["error"]
    r = bob.post(f"/api/seeks/{seek_id}/accept", headers=csrf(bob_csrf))
    assert r.status_code == 403 and "rating range" in r.json()["error"]
    assert bob.post("/api/seeks/nope/accept", headers=csrf(bob_csrf)).status_code == 404
    assert bob.delete(f"/api/seeks/{seek_id}", headers=csrf(bob_csrf)).status_code == 403
    assert count(site, "games") == 0 and count(site, "seeks", "where status = 'open'") == 1
    assert ann.delete(f"/api/seeks/{seek_id}", headers=csrf(ann_csrf)).status_code == 200
    assert ann.delete(f"/api/seeks/{seek_id}", headers=csrf(ann_csrf)).status_code == 409
    for _ in range(5):
        post_seek(ann, ann_csrf)
    r = ann.post("/api/seeks", json={"game": "toy-ttt"}, headers=csrf(ann_csrf))
    assert r.status_code == 409 and "open seeks" in r.json()["error"]


def test_a_seek_accepted_twice_at_once_gives_one_game(site):
    ann, ann_csrf = person(site, "ann")
    takers = [person(site, name) for name in ("bob", "cat", "dan")]
    seek_id = post_seek(ann, ann_csrf, clock=BLITZ, rated=True)
    barrier = threading.Barrier(len(takers))
    statuses = []

    def take(browser, token):
        barrier.wait()
        statuses.append(browser.post(f"/api/seeks/{seek_id}/accept", headers=csrf(token)).status_code)

    threads = [threading.Thread(target=take, args=t) for t in takers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(statuses) == [200, 409, 409]
    assert count(site, "games") == 1 and count(site, "game_accounts") == 2


def test_a_rated_result_moves_both_ratings_as_glicko2_says_once(site):
    game_id, tokens, names, (ann, _), _ = paired_game(site)
    play(site, game_id, tokens, WIN_FOR_FIRST)
    wait_rated(site, game_id)
    winner, loser = names[0], names[1]
    expected_w, expected_l = rate_game(Rating(), Rating(), 1.0)
    (w,) = ratings_of(site, winner)
    (loss,) = ratings_of(site, loser)
    assert (
        w["rating"] == round(expected_w.rating, 1) and w["rd"] == round(expected_w.rd, 1) and w["games"] == 1
    )
    assert loss["rating"] == round(expected_l.rating, 1) and loss["rd"] == round(expected_l.rd, 1)
    # The game page shows what the game did to each rating.
    shown = {p["username"]: p for p in site.get(f"/api/games/{game_id}/terms").json()["players"]}
    assert shown[winner]["change"] == round(expected_w.rating - 1500, 1) > 0
    assert shown[loser]["change"] == round(expected_l.rating - 1500, 1) < 0
    assert shown[winner]["rating"] == round(expected_w.rating)
    # Applying the result again, from several threads at once, changes nothing.
    standings = site.app.state.site.standings
    results = []
    threads = [
        threading.Thread(
            target=lambda: results.append(standings.apply(game_id, Outcome.win([0], 2, "again")))
        )
        for _ in range(4)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [None] * 4
    assert ratings_of(site, winner) == [w] and count(site, "rating_history") == 2
    # A finished game refuses more results (resigning after the end).
    r = site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[0]))
    assert r.status_code == 409 and ratings_of(site, loser) == [loss]
    # History for the profile plot; the leaderboard.
    history = site.get(f"/api/users/{winner}").json()["history"]
    assert [(h["game_id"], h["rating"]) for h in history] == [(game_id, w["rating"])]
    board = site.get("/api/leaderboard?family=toy&time_class=blitz").json()["players"]
    assert [p["username"] for p in board] == [winner, loser]


def test_a_resignation_is_rated_and_a_casual_game_is_not(site):
    game_id, tokens, names, _, _ = paired_game(site, rated=False)
    site.post(f"/api/games/{game_id}/resign", headers=bearer(tokens[0]))
    assert site.get(f"/api/games/{game_id}").json()["status"] == "over"
    assert ratings_of(site, "ann") == [] and count(site, "rating_history") == 0
    terms = site.get(f"/api/games/{game_id}/terms").json()
    assert terms["terms"]["rated"] is False and {p["change"] for p in terms["players"]} == {None}


def test_quick_pairing_joins_a_matching_seek_or_posts_one(site):
    ann, ann_csrf = person(site, "ann")
    bob, bob_csrf = person(site, "bob")
    setup = {"game": "toy-ttt", "clock": BLITZ, "rated": True}
    first = ann.post("/api/quick", json=setup, headers=csrf(ann_csrf)).json()
    assert set(first) == {"seek"}
    other = bob.post("/api/quick", json=setup | {"rated": False}, headers=csrf(bob_csrf)).json()
    assert set(other) == {"seek"}  # casual does not match rated
    paired = bob.post("/api/quick", json=setup, headers=csrf(bob_csrf)).json()
    assert set(paired) == {"game", "seat", "token"}
    assert site.get(f"/api/games/{paired['game']}").json()["status"] == "active"


def test_leaderboard_and_profile_refusals(site):
    assert site.get("/api/leaderboard?family=nope").status_code == 400
    assert site.get("/api/leaderboard?time_class=hyper").status_code == 400
    assert site.get("/api/users/nobody42").status_code == 404
    bots = site.get("/api/bots").json()["bots"]
    # The bots are the levels; measured where the ladder measured them, else provisional.
    assert [b["level"] for b in bots] == list(range(1, 9))
    assert all(b["measured"] == bool(b["ratings"]) == (not b["provisional"]) for b in bots)


def test_correspondence_clock_counts_wall_time_across_restarts(db_url):
    with site_client(db_url) as site:
        game_id, tokens, _, (ann, _), _ = paired_game(site, clock=None, days=3)
        state = site.get(f"/api/games/{game_id}").json()
        assert state["clock"]["mode"] == "move" and state["clock"]["initial"] == 3 * 86400
        to_move = state["to_move"]
    # The server is down for an hour (moved back in the stored clock).
    engine = sa.create_engine(db_url)
    with engine.begin() as conn:
        clock = conn.execute(sa.text(f"select clock from games where id = '{game_id}'")).scalar_one()
        import json

        clock = json.loads(clock) if isinstance(clock, str) else clock
        assert clock["wall"] is True
        clock["since"] -= 3600
        conn.execute(
            sa.text("update games set clock = :c where id = :g"), {"c": json.dumps(clock), "g": game_id}
        )
    engine.dispose()
    with site_client(db_url) as site:
        state = site.get(f"/api/games/{game_id}").json()
        left = state["clock"]["remaining"][to_move]
        assert 3 * 86400 - 3700 < left < 3 * 86400 - 3600
        # "Your turn" for the account to move.
        me = new_browser(site)
        name = state["seats"][to_move]["name"]
        me.post("/api/account/login", json={"username": name, "password": "correct horse battery"})
        assert me.get("/api/account/me").json()["your_turn"] == [game_id]


def test_an_unanswered_seek_lapses(site):
    ann, ann_csrf = person(site, "ann")
    bob, bob_csrf = person(site, "bob")
    live = post_seek(ann, ann_csrf, clock=BLITZ)
    post_seek(ann, ann_csrf, days=7)
    with site.app.state.manager.storage.engine.begin() as conn:  # 31 minutes and 6 days old
        conn.execute(sa.text("update seeks set created = created - 1860"))
        conn.execute(sa.text("update seeks set created = created - 6 * 86400 where days is not null"))
    listed = site.get("/api/seeks").json()["seeks"]
    assert [s["days"] for s in listed] == [7]
    r = bob.post(f"/api/seeks/{live}/accept", headers=csrf(bob_csrf))
    assert r.status_code == 409 and "lapsed" in r.json()["error"]
    assert count(site, "games") == 0
    assert {s["status"] for s in ann.get("/api/account/seeks").json()["seeks"]} == {"lapsed", "open"}
    # A lapsed seek does not count against the five open ones.
    for _ in range(4):
        post_seek(ann, ann_csrf)


def test_seek_options_are_kept_as_differences_from_the_defaults(site):
    ann, ann_csrf = person(site, "ann")
    post_seek(ann, ann_csrf, options={"coin": False})
    post_seek(ann, ann_csrf, options={"coin": True})
    assert [s["options"] for s in site.get("/api/seeks").json()["seeks"]] == [{}, {"coin": True}]


def test_a_rated_game_that_ended_unrated_is_rated_at_the_next_start(db_url):
    """A crash between storing the last move and rating it: the next start rates it, once."""
    with site_client(db_url) as site:
        site.app.state.manager.on_change.clear()  # as if the process died before rating
        game_id, tokens, names, _, _ = paired_game(site)
        play(site, game_id, tokens, WIN_FOR_FIRST)
        assert site.get(f"/api/games/{game_id}").json()["status"] == "over"
        assert count(site, "rating_history") == 0
    for _ in range(2):  # two restarts: rated by the first only
        with site_client(db_url) as site:
            wait_rated(site, game_id)
            expected, _ = rate_game(Rating(), Rating(), 1.0)
            (rating,) = ratings_of(site, names[0])
            assert rating["rating"] == round(expected.rating, 1) and rating["games"] == 1
            assert count(site, "rating_history") == 2


def test_a_long_break_widens_the_deviation_before_the_next_game(site):
    game_id, tokens, names, (ann, ann_csrf), (bob, bob_csrf) = paired_game(site)
    play(site, game_id, tokens, WIN_FOR_FIRST)
    wait_rated(site, game_id)
    (first,) = ratings_of(site, names[0])
    with site.app.state.manager.storage.engine.begin() as conn:  # as if 60 days ago
        conn.execute(sa.text("update ratings set updated = updated - 60 * 86400"))
    seek_id = post_seek(ann, ann_csrf, clock=BLITZ, rated=True)
    again = bob.post(f"/api/seeks/{seek_id}/accept", headers=csrf(bob_csrf)).json()["game"]
    seats = {s["name"]: s["seat"] for s in site.get(f"/api/games/{again}").json()["seats"]}
    tokens = {seats["ann"]: ann.get(f"/api/account/games/{again}/seats").json()["seats"][0]["token"]}
    tokens[seats["bob"]] = bob.get(f"/api/account/games/{again}/seats").json()["seats"][0]["token"]
    play(site, again, tokens, WIN_FOR_FIRST[:2])  # each side moves: a resignation is rated
    site.post(f"/api/games/{again}/resign", headers=bearer(tokens[seats[names[1]]]))
    wait_rated(site, again)
    from qipan.server.ratings import after_inactivity

    (second,) = ratings_of(site, names[0])
    before = after_inactivity(Rating(first["rating"], first["rd"], first["volatility"]), 60)
    (other,) = ratings_of(site, names[1])
    assert second["games"] == 2 and second["rating"] > first["rating"]
    # Computed from the widened deviation (rounding of the stored figures aside).
    loser_before = [
        h for h in site.get(f"/api/users/{names[1]}").json()["history"] if h["game_id"] == game_id
    ][0]
    expected, _ = rate_game(
        before, after_inactivity(Rating(loser_before["rating"], loser_before["rd"]), 60), 1.0
    )
    assert second["rating"] == pytest.approx(expected.rating, abs=0.5)
    assert second["rd"] == pytest.approx(expected.rd, abs=0.5)
    assert other["games"] == 2
