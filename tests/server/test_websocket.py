"""WebSocket play: two players and a spectator on one game."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, two_humans  # noqa: E402

from qipan.server.updates import apply  # noqa: E402

#: The state each socket's client holds: the first full state, then updates applied.
HELD: dict[int, dict] = {}


def until(ws, predicate):
    """Read messages until one satisfies ``predicate``; returns it and what came before.
    An update is handed to ``predicate`` as the state it leads to (as the page sees it)."""
    seen = []
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == "state":
            HELD[id(ws)] = message
        elif message["type"] == "update":
            message = HELD[id(ws)] = apply(HELD[id(ws)], message)
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


# -- per-move messages ------------------------------------------------------------------
def test_after_the_first_state_each_change_is_an_update_that_rebuilds_the_state(client):
    gid, (ann, bob) = two_humans(client)
    with (
        client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as a,
        client.websocket_connect(f"/ws/games/{gid}") as spectator,
    ):
        held = {}
        for name, ws in (("a", a), ("spectator", spectator)):
            ws.receive_json()
            held[name] = ws.receive_json()
            assert held[name]["type"] == "state"
        script = [(ann, "a1"), (bob, "b2"), (ann, "a2"), (bob, "c3"), (ann, "a3")]
        for ply, (token, move) in enumerate(script):
            r = client.post(f"/api/games/{gid}/move", json={"move": move, "ply": ply}, headers=bearer(token))
            assert r.status_code == 200
            truth = client.get(f"/api/games/{gid}").json()
            for name, ws in (("a", a), ("spectator", spectator)):
                while held[name]["ply"] < ply + 1:
                    message = ws.receive_json()
                    assert message["type"] == "update" and "svg" not in message
                    held[name] = apply(held[name], message)
                got = held[name]
                for key in ("ply", "to_move", "status", "moves", "svg", "result", "seats", "version"):
                    assert got[key] == truth[key], (name, key)
                mover = name == "a" and truth["to_move"] == 0
                assert got["legal"] == (truth["legal"] if mover else [])
        assert held["a"]["status"] == "over" and held["a"]["result"]["winners"] == [0]


def test_a_client_that_lost_track_asks_for_the_whole_state(client):
    gid, (ann, _) = two_humans(client)
    with client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_json({"type": "resync"})
        message = next(m for m in iter(ws.receive_json, None) if m["type"] != "update")
        assert message["type"] == "state" and message["ply"] == 0 and message["svg"]
