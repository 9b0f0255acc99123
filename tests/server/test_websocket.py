"""WebSocket play: two players and a spectator on one game."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, two_humans  # noqa: E402


def until(ws, predicate):
    """Read messages until one satisfies ``predicate``; returns it and what came before."""
    seen = []
    for _ in range(50):
        message = ws.receive_json()
        if predicate(message):
            return message, seen
        seen.append(message)
    raise AssertionError(f"no matching message among {seen}")


def state_at(ply):
    return lambda m: m["type"] == "state" and m["ply"] == ply


def test_two_players_and_a_spectator(client):
    gid, (ann, bob) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as a,
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(bob)) as b,
        client.websocket_connect(f"/ws/games/{gid}") as spectator,
    ):
        assert a.receive_json() == {"type": "hello", "seat": 0}
        assert b.receive_json() == {"type": "hello", "seat": 1}
        assert spectator.receive_json() == {"type": "hello", "seat": None}
        for ws in (a, b, spectator):
            until(ws, state_at(0))
        script = [(a, "a1"), (b, "a2"), (a, "b1"), (b, "b2"), (a, "c1")]
        for ply, (ws, move) in enumerate(script):
            ws.send_json({"type": "move", "move": move, "ply": ply, "id": ply})
            for listener in (a, b, spectator):
                message, _ = until(listener, state_at(ply + 1))
                assert message["moves"][-1]["text"] == move
        assert message["status"] == "over" and message["result"]["winners"] == [0]


def test_errors_go_to_the_sender_only_and_change_nothing(client):
    gid, (ann, bob) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as a,
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(bob)) as b,
        client.websocket_connect(f"/ws/games/{gid}") as spectator,
    ):
        until(a, state_at(0))
        until(b, state_at(0))
        until(spectator, state_at(0))

        def error(ws, payload):
            if isinstance(payload, str):
                ws.send_text(payload)
            else:
                ws.send_json(payload)
            message, _ = until(ws, lambda m: m["type"] == "error")
            return message

        assert error(b, {"type": "move", "move": "a1", "ply": 0})["status"] == 403  # wrong turn
        assert error(a, {"type": "move", "move": "q7", "ply": 0})["status"] == 400  # illegal
        assert error(a, {"type": "move", "move": "a1", "ply": 4})["status"] == 409  # stale
        assert error(a, "{nope")["status"] == 400  # malformed JSON
        assert error(a, "[1]")["status"] == 400
        assert error(a, {"type": "dance"})["status"] == 400
        assert error(spectator, {"type": "move", "move": "a1", "ply": 0})["status"] == 401  # read-only
        assert error(spectator, {"type": "resign"})["status"] == 401
        a.send_bytes(b"\xff\xfe")  # binary garbage
        assert until(a, lambda m: m["type"] == "error")[0]["status"] == 400
        a.send_json({"type": "move", "move": "c3", "ply": 0, "id": "m1"})
        assert until(a, lambda m: m["type"] == "ok")[0]["id"] == "m1"
        a.send_json({"type": "undo", "action": "offer"})
        b.send_json({"type": "undo", "action": "accept"})
        until(a, lambda m: m["type"] == "state" and m["ply"] == 0 and m["offers"]["undo"] == [])
        a.send_json({"type": "ping", "id": 7})
        assert until(a, lambda m: m["type"] == "pong")[0]["id"] == 7
        s = client.get(f"/api/games/{gid}").json()
        assert s["ply"] == 0 and s["status"] == "active"
        # Now a real move: everyone gets the new state.
        a.send_json({"type": "move", "move": "b2", "ply": 0})
        for ws in (a, b, spectator):
            until(ws, lambda m: m["type"] == "state" and [x["text"] for x in m["moves"]] == ["b2"])


def test_resign_draw_and_undo_over_websocket(client):
    gid, (ann, bob) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as a,
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(bob)) as b,
    ):
        until(a, state_at(0))
        a.send_json({"type": "move", "move": "a1", "ply": 0})
        until(b, state_at(1))
        a.send_json({"type": "undo", "action": "offer"})
        until(b, lambda m: m["type"] == "state" and m["offers"]["undo"] == [0])
        b.send_json({"type": "undo", "action": "accept"})
        until(a, lambda m: m["type"] == "state" and m["ply"] == 0 and m["moves"] == [])
        a.send_json({"type": "draw", "action": "offer"})
        until(b, lambda m: m["type"] == "state" and m["offers"]["draw"] == [0])
        b.send_json({"type": "resign"})
        final, _ = until(a, lambda m: m["type"] == "state" and m["status"] == "over")
        assert final["result"]["winners"] == [0]


def test_unknown_game_and_bad_token_are_refused(client):
    with client.websocket_connect("/ws/games/nope") as ws:
        message = ws.receive_json()
        assert message["type"] == "error" and message["status"] == 404
    gid, _ = two_humans(client)
    with client.websocket_connect(f"/ws/games/{gid}", headers=bearer("forged")) as ws:
        assert ws.receive_json()["status"] == 401


def test_presence_is_shown(client):
    gid, (ann, bob) = two_humans(client)
    with client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as a:
        until(a, lambda m: m["type"] == "state" and m["seats"][0]["online"] and not m["seats"][1]["online"])
        with client.websocket_connect(f"/ws/games/{gid}", headers=bearer(bob)):
            until(a, lambda m: m["type"] == "state" and m["seats"][1]["online"])
        until(a, lambda m: m["type"] == "state" and not m["seats"][1]["online"])
