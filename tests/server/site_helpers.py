"""Helpers for the game-site tests: an app with fast password hashing, accounts."""

from __future__ import annotations

import contextlib

from argon2 import PasswordHasher

#: Argon2id still, with small costs so tests do not spend seconds hashing.
FAST_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
PASSWORD = "correct horse battery"


@contextlib.contextmanager
def site_client(db_url: str):
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    with TestClient(create_app(db_url)) as client:
        client.app.state.site.accounts.hasher = FAST_HASHER
        yield client


def new_browser(client, address: str = "testclient"):
    """A second client on the same app with its own cookie jar (another person), from
    ``address`` (the same as the first client's unless given)."""
    from fastapi.testclient import TestClient

    other = TestClient(client.app, client=(address, 50000))
    other.portal = client.portal  # share the running app (lifespan already started)
    return other


def signup(client, username: str, password: str = PASSWORD) -> str:
    """Sign up (the client keeps the cookie); returns the CSRF token."""
    r = client.post("/api/account/signup", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["csrf"]


def csrf(token: str) -> dict:
    return {"X-CSRF-Token": token}


def paired(site, rated: bool = True, clock: dict | None = None, game: str = "toy-ttt"):
    """Ann and Bob (new accounts) paired through Ann's seek: the game id, each seat's token
    and each seat's name."""
    clock = clock or {"mode": "total", "initial": 300, "increment": 2}
    people = []
    for number, name in enumerate(("ann", "bob"), 1):  # two people, two addresses (fair_play.py)
        browser = new_browser(site, f"10.0.9.{number}")
        people.append((browser, signup(browser, name)))
    (ann, ann_csrf), (bob, bob_csrf) = people
    seek = ann.post("/api/seeks", json={"game": game, "clock": clock, "rated": rated}, headers=csrf(ann_csrf))
    accepted = bob.post(f"/api/seeks/{seek.json()['id']}/accept", headers=csrf(bob_csrf)).json()
    game_id = accepted["game"]
    tokens = {s["seat"]: s["token"] for s in ann.get(f"/api/account/games/{game_id}/seats").json()["seats"]}
    tokens[accepted["seat"]] = accepted["token"]
    names = {s["seat"]: s["name"] for s in site.get(f"/api/games/{game_id}").json()["seats"]}
    return game_id, tokens, names
