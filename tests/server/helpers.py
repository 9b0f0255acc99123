"""Small helpers shared by the server tests."""

from __future__ import annotations

import time


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(client, seats=None, **body) -> tuple[str, list[str]]:
    """Create a toy game; returns its id and the human seats' tokens by seat."""
    body.setdefault("game", "toy-ttt")
    if seats is not None:
        body["seats"] = seats
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    tokens = [None] * data["state"]["players"]
    for s in data["seats"]:
        tokens[s["seat"]] = s["token"]
    return data["id"], tokens


def two_humans(client, **body) -> tuple[str, list[str]]:
    return create(
        client,
        [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human", "name": "Bob", "join": True}],
        **body,
    )


def wait_for(predicate, timeout: float = 10.0, step: float = 0.02):
    """Poll until ``predicate()`` is truthy (bots and timers run in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(step)
