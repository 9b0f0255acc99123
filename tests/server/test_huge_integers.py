"""Integers of more than a few dozen digits are refused as bad input (server/inputs.py):
400 on every JSON route, an error message on the WebSocket, which stays open. Python's own
limit (4,300 digits) made them a 500 and closed the socket (1006)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, two_humans  # noqa: E402

HUGE = "9" * 5000  # past Python's int-conversion limit
LONG = "9" * 41  # one past inputs.MAX_DIGITS


@pytest.mark.parametrize("digits", [HUGE, LONG, "-" + HUGE])
def test_http_bodies_with_huge_integers_are_400(client, digits):
    game_id, tokens = two_humans(client)
    for path, body, headers in [
        ("/api/games", f'{{"game": "toy-ttt", "players": {digits}}}', {}),
        (f"/api/games/{game_id}/move", f'{{"move": "a1", "ply": {digits}}}', bearer(tokens[0])),
        (f"/api/games/{game_id}/join", f'{{"seat": {digits}}}', {}),
        ("/api/account/login", f'{{"username": "ann", "password": {digits}}}', {}),
        ("/api/analysis/position", f'{{"record": {digits}}}', {}),
    ]:
        r = client.post(path, content=body, headers={"content-type": "application/json"} | headers)
        assert r.status_code == 400, (path, r.status_code, r.text[:200])
        assert "digits" in r.json()["error"]
    assert client.get(f"/api/games/{game_id}").json()["ply"] == 0  # nothing changed


def test_a_huge_integer_on_the_socket_is_an_error_and_the_socket_stays(client):
    game_id, tokens = two_humans(client)
    with client.websocket_connect(f"/ws/games/{game_id}", headers=bearer(tokens[0])) as ws:
        assert ws.receive_json()["type"] == "hello"
        ws.receive_json()  # the state
        ws.send_text(f'{{"type": "move", "move": "a1", "ply": {HUGE}, "id": 1}}')
        reply = ws.receive_json()
        while reply["type"] == "update":  # a seat came online
            reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "digits" in reply["error"]
        ws.send_text(json.dumps({"type": "ping", "id": 2}))
        assert ws.receive_json() == {"type": "pong", "id": 2}
