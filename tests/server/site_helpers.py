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


def new_browser(client):
    """A second client on the same app with its own cookie jar (another person)."""
    from fastapi.testclient import TestClient

    other = TestClient(client.app)
    other.portal = client.portal  # share the running app (lifespan already started)
    return other


def signup(client, username: str, password: str = PASSWORD) -> str:
    """Sign up (the client keeps the cookie); returns the CSRF token."""
    r = client.post("/api/account/signup", json={"username": username, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["csrf"]


def csrf(token: str) -> dict:
    return {"X-CSRF-Token": token}
