"""Tournaments over the HTTP API on SQLite and PostgreSQL: a Swiss event of six paired as
the FIDE Dutch system (caissify-pairings) pairs it, an arena with bots run to its end,
and every bad request refused without a change."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, wait_for  # noqa: E402
from site_helpers import csrf, new_browser, signup, site_client  # noqa: E402
from tournament_refs import read_trf  # noqa: E402

from qipan.server.tournament_rules import Entrant, swiss_pairings  # noqa: E402

BLITZ = {"mode": "total", "initial": 300, "increment": 2}


@pytest.fixture
def site(db_url):
    with site_client(db_url) as client:
        yield client


def person(site, name):
    browser = new_browser(site)
    return browser, signup(browser, name)


def create(browser, token, **event):
    body = {"name": "Test event", "game": "toy-ttt", "clock": BLITZ, "starts": time.time() + 0.5} | event
    r = browser.post("/api/tournaments", json=body, headers=csrf(token))
    assert r.status_code == 201, r.text
    return r.json()["id"]


def event_of(site, event_id):
    r = site.get(f"/api/tournaments/{event_id}")
    assert r.status_code == 200, r.text
    return r.json()


def count(site, table: str) -> int:
    with site.app.state.manager.storage.engine.connect() as conn:
        return conn.execute(sa.text(f"select count(*) from {table}")).scalar_one()


def set_rating(site, username: str, rating: float) -> None:
    from qipan.server.sitedb import accounts, ratings

    with site.app.state.manager.storage.engine.begin() as conn:
        account_id = conn.execute(
            sa.select(accounts.c.id).where(accounts.c.username == username)
        ).scalar_one()
        conn.execute(
            ratings.insert().values(
                account_id=account_id, variant="toy-ttt", family="toy", time_class="blitz", rating=rating, rd=60.0,
                volatility=0.06, games=10, updated=time.time(),
            )
        )  # fmt: skip


def seat_token(browser, game_id):
    seats = browser.get(f"/api/account/games/{game_id}/seats").json()["seats"]
    return seats[0]["token"]


def test_a_six_entrant_swiss_pairs_three_rounds_as_the_dutch_system(site):
    """The six players of bbpPairings' C.5 test, with its ratings: round 1 is the Dutch
    system's (1-4, 5-2, 3-6, the top seed white); each later round is what the library
    pairs from the results so far (read back from the event), with entrant 4 withdrawn
    before round 3 (absent, as in the test): an odd field, so one bye."""
    entrants, trf_games, _ = read_trf("dutch_2025_C5.input")
    people = {}
    for e in entrants:
        people[e.number] = person(site, f"player{e.number}")
        set_rating(site, f"player{e.number}", e.rating)
    browser, token = people[1]
    event_id = create(browser, token, kind="swiss", rounds=3)
    for n in sorted(people):
        b, t = people[n]
        assert b.post(f"/api/tournaments/{event_id}/join", headers=csrf(t)).json()["number"] == n
    name_to_number = {f"player{n}": n for n in people}
    played: list[dict] = []
    for rnd in (1, 2, 3):

        def paired(rnd=rnd):  # three tables each round: the games made, or the bye
            e = event_of(site, event_id)
            games = [g for g in e["games"] if g["round"] == rnd]
            return e["round"] == rnd and len(games) == 3 and games

        games = wait_for(paired, timeout=60)
        pairs = {tuple(g["entrants"]) for g in games}
        field = [Entrant(e.number, e.rating, withdrawn=rnd == 3 and e.number == 4) for e in entrants]
        assert pairs == {tuple(p) for p in swiss_pairings(field, played, rnd, 3)}
        if rnd == 1:
            assert pairs == {(1, 4), (5, 2), (3, 6)}
        if rnd == 2:  # before round 2 ends: absent from round 3 on
            b, t = people[4]
            assert b.post(f"/api/tournaments/{event_id}/withdraw", headers=csrf(t)).status_code == 200
        for g in games:
            if g["game_id"] is None:  # the bye
                assert g["scores"] == [1.0]
                played.append(g | {"scores": [1.0]})
                continue
            white, black = g["entrants"]
            loser = black if (white + black + rnd) % 3 else white  # mixed results
            b, _ = people[loser]
            names = site.get(f"/api/games/{g['game_id']}").json()["seats"]
            assert [name_to_number[s["name"]] for s in names] == [white, black]  # white moves first
            r = b.post(f"/api/games/{g['game_id']}/resign", headers=bearer(seat_token(b, g["game_id"])))
            assert r.status_code == 200, r.text
            played.append(g | {"scores": [0.0, 1.0] if loser == white else [1.0, 0.0]})
    done = wait_for(lambda: (e := event_of(site, event_id))["status"] == "finished" and e, timeout=60)
    assert done["round"] == 3
    table = done["standings"]
    points = {}
    for g in played:
        for n, p in zip(g["entrants"], g["scores"], strict=True):
            points[n] = points.get(n, 0) + p
    assert {r["number"]: r["points"] for r in table} == {n: points.get(n, 0.0) for n in people}
    assert [r["points"] for r in table] == sorted((r["points"] for r in table), reverse=True)
    # The bye of round 3 went to one of the entrants present.
    assert any(g["round"] == 3 and len(g["entrants"]) == 1 and g["entrants"][0] != 4 for g in done["games"])


def test_an_arena_with_bots_runs_to_its_end(site):
    """Two bots (level 1) in a one-minute arena with one account: games are paired as they
    end, berserk halves the clock once, and the event ends with its standings kept."""
    ann, ann_token = person(site, "ann")
    event_id = create(ann, ann_token, kind="arena", minutes=1, bots_allowed=True, berserk=True)
    for level in (1, 1):
        assert (
            ann.post(
                f"/api/tournaments/{event_id}/bots", json={"level": level}, headers=csrf(ann_token)
            ).status_code
            == 200
        )
    assert ann.post(f"/api/tournaments/{event_id}/join", headers=csrf(ann_token)).status_code == 200
    event = wait_for(
        lambda: (e := event_of(site, event_id))["status"] == "running" and e["games"] and e, timeout=20
    )
    assert event["you"] is None  # the test client has no login
    # The account's game (if it was paired first): berserk, then resign it.
    mine = wait_for(lambda: ann.get("/api/account/games").json()["games"], timeout=60)
    game_id = mine[0]["id"]
    r = ann.post(f"/api/tournaments/{event_id}/berserk", json={"game": game_id}, headers=csrf(ann_token))
    assert r.status_code == 200, r.text
    assert site.get(f"/api/games/{game_id}").json()["clock"]["remaining"][mine[0]["my_seats"][0]] <= 150
    r = ann.post(f"/api/tournaments/{event_id}/berserk", json={"game": game_id}, headers=csrf(ann_token))
    assert r.status_code == 409
    ann.post(f"/api/games/{game_id}/resign", headers=bearer(seat_token(ann, game_id)))
    # A new game comes as soon as the last ended.
    wait_for(lambda: len(ann.get("/api/account/games").json()["games"]) >= 2, timeout=60)
    # Its minute is up (moved back in the store rather than waited for): no new pairings,
    # and it ends once the games under way have ended.
    with site.app.state.manager.storage.engine.begin() as conn:
        conn.execute(sa.text(f"update tournaments set starts = starts - 120 where id = '{event_id}'"))
    for g in ann.get("/api/account/games").json()["games"]:
        if g["status"] == "active":
            ann.post(f"/api/games/{g['id']}/resign", headers=bearer(seat_token(ann, g["id"])))
    done = wait_for(lambda: (e := event_of(site, event_id))["status"] == "finished" and e, timeout=60)
    table = done["standings"]
    assert {r["name"] for r in table} == {"ann", "level 1"} and len(table) == 3
    ann_row = next(r for r in table if r["name"] == "ann")
    assert ann_row["points"] == 0 and ann_row["losses"] >= 2 and table[-1]["name"] == "ann"
    assert all(g["scores"] is not None for g in done["games"])


def test_bad_tournament_requests_change_nothing(site):
    ann, ann_token = person(site, "ann")
    bob, bob_token = person(site, "bob")
    now = time.time()
    bad = [
        ({"kind": "arena", "minutes": 30, "starts": now - 3600}, "in the past"),
        ({"kind": "swiss", "rounds": 0}, "rounds"),
        ({"kind": "swiss", "rounds": 3, "game": "toy-ticker"}, "two players"),
        ({"kind": "arena", "minutes": 30, "game": "nope"}, "nope"),
        ({"kind": "arena", "minutes": 30, "days": 3}, "played live"),
        ({"kind": "arena", "minutes": 30, "rated": True, "clock": None}, "needs a clock"),
    ]
    for change, words in bad:
        r = ann.post("/api/tournaments", json={"name": "x", "game": "toy-ttt", "clock": BLITZ, "starts": now + 60} | change,
                     headers=csrf(ann_token))  # fmt: skip
        assert r.status_code == 400 and words in r.json()["error"], (change, r.text)
    assert count(site, "tournaments") == 0
    assert site.post("/api/tournaments", json={"name": "x"}).status_code == 401
    event_id = create(ann, ann_token, kind="swiss", rounds=3, max_entrants=2, starts=now + 3600)
    assert ann.post(f"/api/tournaments/{event_id}/join", headers=csrf(ann_token)).status_code == 200
    r = ann.post(f"/api/tournaments/{event_id}/join", headers=csrf(ann_token))
    assert r.status_code == 409 and "already" in r.json()["error"]
    r = ann.post(f"/api/tournaments/{event_id}/bots", json={"level": 3}, headers=csrf(ann_token))
    assert r.status_code == 403 and "people only" in r.json()["error"]
    assert bob.post(f"/api/tournaments/{event_id}/join", headers=csrf(bob_token)).status_code == 200
    carl, carl_token = person(site, "carl")
    r = carl.post(f"/api/tournaments/{event_id}/join", headers=csrf(carl_token))
    assert r.status_code == 409 and "full" in r.json()["error"]
    assert count(site, "tournament_entrants") == 2
    assert site.get("/api/tournaments/nope").status_code == 404
    r = carl.post(f"/api/tournaments/{event_id}/withdraw", headers=csrf(carl_token))
    assert r.status_code == 409 and "not in" in r.json()["error"]
    # A finished event takes nobody.
    with site.app.state.manager.storage.engine.begin() as conn:
        conn.execute(sa.text(f"update tournaments set status = 'finished' where id = '{event_id}'"))
    r = carl.post(f"/api/tournaments/{event_id}/join", headers=csrf(carl_token))
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert count(site, "tournament_entrants") == 2
