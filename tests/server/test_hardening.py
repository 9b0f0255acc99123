"""Hostile input: each test here reproduces one defect of issue 21 against the HTTP or
WebSocket API, and checks that the request is refused clearly and changes nothing."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import bearer, create, free_port, wait_for  # noqa: E402

LONE_SURROGATE_NAME = b'{"game": "toy-ttt", "seats": [{"name": "\\ud800"}, {}]}'


def post_raw(client, path, body: bytes, headers=None):
    return client.post(path, content=body, headers={"Content-Type": "application/json", **(headers or {})})


# -- 1. text that is not valid UTF-8 -----------------------------------------------------
def test_a_lone_surrogate_in_a_name_is_refused_and_stores_nothing(client):
    r = post_raw(client, "/api/games", LONE_SURROGATE_NAME)
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]
    r = client.get("/api/games")
    assert r.status_code == 200 and r.json()["games"] == []


def test_a_stranger_cannot_join_a_public_game_with_a_lone_surrogate(client):
    gid, _ = create(client, [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human"}])
    r = post_raw(client, f"/api/games/{gid}/join", b'{"name": "x\\udfff"}')
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["joined"] is False
    assert client.get("/api/games").status_code == 200


def test_a_surrogate_anywhere_in_a_body_or_socket_message_is_refused(client):
    gid, tokens = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
    r = post_raw(client, f"/api/games/{gid}/move", b'{"move": "\\ud83d", "ply": 0}', bearer(tokens[0]))
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]
    r = post_raw(client, "/api/games", b'{"game": "toy-ttt", "options": {"\\udc00": 1}}')
    assert r.status_code == 400 and "UTF-8" in r.json()["error"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_text('{"type": "ping", "id": "\\ud800"}')
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "UTF-8" in reply["error"]


def test_a_name_stored_before_the_fix_does_not_break_the_lists(client):
    """Games stored with a lone surrogate (by an older server) are still listed and shown."""
    gid, _ = create(client, [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human"}])
    mgr = client.app.state.manager
    seats = mgr.storage.get_game(gid).seats
    seats[0].name = "\ud800Ann"
    mgr.storage.update_game(gid, seats=seats)
    mgr.sessions.clear()
    r = client.get("/api/games")
    assert r.status_code == 200 and r.json()["games"][0]["seats"][0]["name"] == "\ufffdAnn"
    assert client.get(f"/api/games/{gid}").status_code == 200


# -- 2. bot limits: finite and within the documented bounds ------------------------------
def bot_game(limits: bytes) -> bytes:
    return b'{"game": "toy-ttt", "seats": [{"kind": "bot", "limits": ' + limits + b'}, {"kind": "human"}]}'


@pytest.mark.parametrize(
    "limits",
    [
        b'{"time": NaN}',
        b'{"time": Infinity}',
        b'{"time": -Infinity}',
        b'{"time": 1e999}',
        b'{"time": -1}',
        b'{"iterations": 1e15}',
        b'{"iterations": 1000000000000000}',
        b'{"depth": 1000000000000000000000000000000}',
        b'{"depth": -3}',
    ],
)
def test_unbounded_bot_limits_are_refused_on_every_backend(db_url, limits):
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    with TestClient(create_app(db_url)) as client:
        r = post_raw(client, "/api/games", bot_game(limits))
        assert r.status_code == 400, r.text
        assert client.get("/api/games").json()["games"] == []
        # The server still answers (no 503 "try again" from a value the database refused).
        assert post_raw(client, "/api/games", bot_game(b'{"time": 0.05}')).status_code == 201


@pytest.mark.parametrize(
    ("game", "agent", "limits", "time"),
    [
        ("toy-ttt", "alphabeta", {"depth": 32}, "cap"),
        ("toy-ttt", "mcts", {"iterations": 1_000_000}, "cap"),
        ("toy-ttt", "mcts", {"depth": 5}, "cap"),
        ("toy-ttt", "alphabeta", {"depth": 3, "time": 0.5}, 0.5),
        ("toy-ttt", "mcts", {}, None),
        # Untimed, the exact solver would think for hours on 8x8.
        ("blackpath", "blackpath-solver", {}, "cap"),
    ],
)
def test_a_bot_that_could_think_for_minutes_is_stopped_by_the_longest_think(
    client, game, agent, limits, time
):
    from qipan import agents
    from qipan.server.session import MAX_BOT_SECONDS

    seats = [{"kind": "human", "join": True}, {"kind": "bot", "agent": agent, "limits": limits}]
    gid, _ = create(client, seats, game=game)
    session = client.portal.call(client.app.state.manager.get, gid)
    bot = session.agent(1)
    assert bot.time == (MAX_BOT_SECONDS if time == "cap" else time)
    # The agent's own defaults stay: an mcts bot with a depth alone still stops at its
    # default playouts, long before the cap.
    plain = agents.load(agent, **limits)
    assert (bot.depth, bot.iterations) == (plain.depth, plain.iterations)
    # The stored seat keeps what was asked for: the cap is the server's, not the player's.
    assert client.get(f"/api/games/{gid}").json()["seats"][1].get("limits", limits) == limits


# -- 3. deeply nested JSON -------------------------------------------------------------
DEEP = b'{"game": "toy-ttt", "options": ' + b"[" * 3000 + b"]" * 3000 + b"}"
MIDDLE = b'{"game": "toy-ttt", "seats": ' + b"[" * 100 + b"]" * 100 + b"}"


@pytest.mark.parametrize("body", [DEEP, MIDDLE], ids=["3000 deep", "100 deep"])
def test_deeply_nested_bodies_are_refused(client, body):
    r = post_raw(client, "/api/games", body)
    assert r.status_code == 400 and "nested" in r.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_a_deeply_nested_socket_message_gets_an_error_and_the_socket_stays_open(client):
    gid, _ = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_text(DEEP.decode())
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "nested" in reply["error"]
        ws.send_json({"type": "ping", "id": 7})
        assert ws.receive_json() == {"type": "pong", "id": 7}


# -- 4. request bodies: size limit before and while reading, and a read timeout ------------
@pytest.fixture
def live_server(tmp_path):
    """The app under a real uvicorn (in a thread) on a loopback port, with a short body
    timeout, for tests that need real sockets."""
    import threading

    import uvicorn

    from qipan.server import create_app
    from qipan.server.limits import Limits

    app = create_app(f"sqlite:///{tmp_path / 'live.sqlite3'}", limits=Limits(body_timeout=0.5))
    config = uvicorn.Config(app, host="127.0.0.1", port=free_port(), log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for(lambda: server.started, timeout=20)
    yield config.port
    server.should_exit = True
    thread.join(timeout=20)


def raw_request(port: int, head: bytes, body_parts=(), wait: float = 10.0) -> bytes:
    """Send a request's head and then some body parts; return what the server answers
    within ``wait`` seconds (b"" if nothing)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(head)
        for part in body_parts:
            try:
                sock.sendall(part)
            except (BrokenPipeError, ConnectionResetError):  # the server refused early
                break
        try:
            return sock.recv(65536)
        except TimeoutError:
            return b""


def status_of(reply: bytes) -> int | None:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else None


def test_a_body_announced_too_large_is_refused_before_it_is_read(live_server):
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 50000000\r\n\r\n"
    )
    reply = raw_request(live_server, head, [b'{"game":'])
    assert status_of(reply) == 413 and b"64 KiB" in reply


def test_a_streamed_body_is_refused_once_it_passes_the_limit(live_server):
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"%x\r\n%s\r\n" % (16384, b" " * 16384)
    # 80 KiB sent, and the body never ends: the answer must not wait for its end.
    reply = raw_request(live_server, head, [chunk] * 5)
    assert status_of(reply) == 413


def test_a_body_that_stops_arriving_times_out(live_server):
    head = (
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n"
    )
    reply = raw_request(live_server, head, [b'{"game": "toy-ttt"'])
    assert status_of(reply) == 408
    # And the server still serves everyone else.
    reply = raw_request(live_server, b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
    assert status_of(reply) == 200


# -- 6. invite links are used once; names are final when the game ends -------------------
def invite_game(client, **body):
    r = client.post(
        "/api/games",
        json={"game": "toy-ttt", "seats": [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human"}]}
        | body,
    )
    assert r.status_code == 201
    created = r.json()
    ann, free = created["seats"]
    return created["id"], ann["token"], free


def test_an_invite_link_is_no_seat_token_and_works_once(client):
    gid, ann, free = invite_game(client)
    assert free["token"] is None and "token=" not in free["invite"]
    code = free["invite"].partition("invite=")[2]
    # The invite itself does not act for the seat.
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(code))
    assert r.status_code == 401
    r = client.post(f"/api/games/{gid}/join", json={"invite": code, "name": "Bob"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    bob = r.json()["token"]
    assert bob not in (code, ann)
    # Used: the link now says the seat is taken, and hands out nothing.
    r = client.post(f"/api/games/{gid}/join", json={"invite": code, "name": "Mallory"})
    assert r.status_code == 409 and "taken" in r.json()["error"] and "token" not in r.json()
    seats = client.get(f"/api/games/{gid}").json()["seats"]
    assert seats[1]["name"] == "Bob"
    client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    r = client.post(f"/api/games/{gid}/move", json={"move": "b2", "ply": 1}, headers=bearer(bob))
    assert r.status_code == 200
    r = client.post(f"/api/games/{gid}/join", json={"invite": "not-an-invite"})
    assert r.status_code == 401


def test_claiming_a_public_seat_gives_a_fresh_token_and_ends_the_invite(client):
    gid, ann, free = invite_game(client)
    code = free["invite"].partition("invite=")[2]
    r = client.post(f"/api/games/{gid}/join", json={"name": "Cy"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    cy = r.json()["token"]
    assert cy not in (code, ann)
    r = client.post(f"/api/games/{gid}/join", json={"invite": code})
    assert r.status_code == 409 and "taken" in r.json()["error"]


def test_seat_names_are_final_when_the_game_ends(client):
    gid, ann, free = invite_game(client)
    code = free["invite"].partition("invite=")[2]
    bob = client.post(f"/api/games/{gid}/join", json={"invite": code, "name": "Bob"}).json()["token"]
    client.post(f"/api/games/{gid}/resign", headers=bearer(ann))
    r = client.post(f"/api/games/{gid}/join", json={"name": "Winner of all"}, headers=bearer(bob))
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert [s["name"] for s in client.get(f"/api/games/{gid}").json()["seats"]] == ["Ann", "Bob"]


# -- 7. clocks across a restart: time used before the server stopped is not refunded ------
def clock_game(client) -> tuple[str, str]:
    gid, (ann, bob) = create(
        client,
        [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human", "name": "Bob", "join": True}],
        clock={"mode": "total", "initial": 30},
    )
    r = client.post(f"/api/games/{gid}/move", json={"move": "a1", "ply": 0}, headers=bearer(ann))
    assert r.status_code == 200
    return gid, bob


def restart_after(sqlite_url, gid, thought: float, down: float):
    """Stop the server; pretend Bob's turn had been running ``thought`` seconds when the
    server went down and that it stayed down ``down`` seconds; start it again."""
    import time

    from fastapi.testclient import TestClient

    from qipan.server import create_app
    from qipan.server.storage import Storage, games_table, processes_table

    storage = Storage(sqlite_url)
    stored = storage.get_game(gid)
    now = time.time()
    clock = dict(stored.clock, since=now - thought - down)
    with storage.engine.begin() as conn:
        conn.execute(games_table.update().where(games_table.c.id == gid).values(clock=clock))
        # The serving process ran from before Bob's turn began until it went down.
        conn.execute(processes_table.update().values(started=now - thought - down - 1.0, alive=now - down))
    storage.close()
    return TestClient(create_app(sqlite_url))


@pytest.mark.parametrize("thought, down", [(5.0, 0.0), (5.0, 20.0), (2.0, 600.0)])
def test_a_restart_keeps_the_time_used_and_does_not_count_the_downtime(
    sqlite_url, thought, down, monkeypatch
):
    import time

    from fastapi.testclient import TestClient

    from qipan.server import create_app

    # The server's clock stands still, so the figures are exact on any machine: what the
    # clocks show is the time ``restart_after`` says was used before the server went down.
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now)
    with TestClient(create_app(sqlite_url)) as client:
        gid, bob = clock_game(client)
    with restart_after(sqlite_url, gid, thought, down) as client:
        s = client.get(f"/api/games/{gid}").json()
        assert s["status"] == "active" and s["clock"]["running"] == 1
        left = s["clock"]["remaining"][1]
        # Within a second of the heartbeat; the downtime not counted.
        assert 30 - thought - 1.0 <= left <= 30 - thought, left
        assert s["clock"]["remaining"][0] == 30  # Ann's clock is not running


# -- 8. rate limits, tokens out of URLs, short error messages --------------------------------
def limited_client(sqlite_url, **limits):
    from fastapi.testclient import TestClient

    from qipan.server import create_app
    from qipan.server.limits import Limits

    return TestClient(create_app(sqlite_url, limits=Limits(**limits)))


def test_http_requests_are_limited_per_address(sqlite_url):
    with limited_client(sqlite_url, http_rate=0.5, http_burst=3) as client:
        replies = [client.get("/api/games") for _ in range(8)]
    assert [r.status_code for r in replies[:3]] == [200, 200, 200]
    refused = [r for r in replies[3:] if r.status_code == 429]
    assert refused and "too many requests" in refused[0].json()["error"]
    assert int(refused[0].headers["retry-after"]) >= 1


def test_socket_messages_are_limited_per_connection_and_it_stays_open(sqlite_url):
    with limited_client(sqlite_url, ws_rate=0.5, ws_burst=3) as client:
        gid, _ = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
        with client.websocket_connect(f"/ws/games/{gid}") as ws:
            ws.receive_json()
            ws.receive_json()
            for i in range(8):
                ws.send_json({"type": "ping", "id": i})
            replies = [ws.receive_json() for _ in range(8)]
    assert [r["type"] for r in replies[:3]] == ["pong"] * 3
    refused = [r for r in replies[3:] if r["type"] == "error"]
    assert refused and refused[0]["status"] == 429 and refused[0]["id"] is not None


def test_socket_messages_are_limited_per_address(sqlite_url):
    with limited_client(sqlite_url, ws_address_rate=0.5, ws_address_burst=4) as client:
        gid, _ = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
        with (
            client.websocket_connect(f"/ws/games/{gid}") as a,
            client.websocket_connect(f"/ws/games/{gid}") as b,
        ):
            for ws in (a, b):
                ws.receive_json()
                ws.receive_json()
            kinds = []
            for i in range(4):
                for ws in (a, b):
                    ws.send_json({"type": "ping", "id": i})
                    kinds.append(ws.receive_json()["type"])
    assert kinds[:4] == ["pong"] * 4 and "error" in kinds[4:]


def test_tokens_in_urls_are_refused(client):
    gid, (ann, _) = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
    r = client.post(f"/api/games/{gid}/move?token={ann}", json={"move": "a1", "ply": 0})
    assert r.status_code == 400 and "Authorization" in r.json()["error"]
    assert client.get(f"/api/games/{gid}").json()["ply"] == 0
    with client.websocket_connect(f"/ws/games/{gid}?token={ann}") as ws:
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400 and "auth" in reply["error"]


def test_a_socket_takes_its_seat_from_the_first_message_or_a_header(client):
    gid, (ann, bob) = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        assert ws.receive_json() == {"type": "hello", "seat": None}
        ws.receive_json()
        ws.send_json({"type": "auth", "token": ann})
        assert ws.receive_json() == {"type": "hello", "seat": 0}
        ws.send_json({"type": "move", "move": "a1", "ply": 0, "id": 1})
        for _ in range(10):
            if ws.receive_json() == {"type": "ok", "id": 1}:
                break
        else:
            raise AssertionError("the move was not acknowledged")
        ws.send_json({"type": "auth", "token": "forged"})
        for _ in range(10):
            reply = ws.receive_json()
            if reply["type"] == "error":
                assert reply["status"] == 401
                break
    with client.websocket_connect(f"/ws/games/{gid}", headers=bearer(bob)) as ws:
        assert ws.receive_json() == {"type": "hello", "seat": 1}
    assert client.get(f"/api/games/{gid}").json()["ply"] == 1


def test_errors_do_not_echo_long_inputs(client):
    gid, (ann, _) = create(client, [{"kind": "human", "join": True}, {"kind": "human", "join": True}])
    long = "q" * 60_000
    r = client.post(f"/api/games/{gid}/move", json={"move": long, "ply": 0}, headers=bearer(ann))
    assert r.status_code == 400 and len(r.json()["error"]) < 400
    r = client.post("/api/games", json={"game": long})
    assert r.status_code == 400 and len(r.json()["error"]) < 400
    r = client.post("/api/games", json={"game": "toy-ttt", "seats": [{"kind": "bot", "agent": long}, {}]})
    assert r.status_code == 400 and len(r.json()["error"]) < 400
    with client.websocket_connect(f"/ws/games/{gid}", headers=bearer(ann)) as ws:
        ws.receive_json()
        ws.receive_json()
        ws.send_json({"type": long})
        reply = next(m for m in iter(ws.receive_json, None) if m["type"] == "error")
        assert len(reply["error"]) < 400


# -- 2 (after a restart): bot limits stored by an older server are bounded when loaded ------
@pytest.mark.slow
def test_unbounded_limits_stored_before_the_fix_do_not_stall_the_bot(server_process, tmp_path):
    import httpx

    from qipan.server.storage import Storage

    db = f"sqlite:///{tmp_path / 'limits.sqlite3'}"
    server = server_process(db)
    created = httpx.post(
        server.base + "/api/games",
        json={
            "game": "toy-ttt",
            "seats": [
                {"kind": "human", "join": True},
                {"kind": "bot", "agent": "mcts", "limits": {"iterations": 50}},
            ],
        },
    ).json()
    gid, token = created["id"], created["seats"][0]["token"]
    server.kill()
    storage = Storage(db)
    seats = storage.get_game(gid).seats
    seats[1].limits = {"iterations": 10**15}  # as an unchecked server stored it
    storage.update_game(gid, seats=seats)
    storage.close()
    server = server_process(db, port=server.port)
    r = httpx.post(
        f"{server.base}/api/games/{gid}/move", json={"move": "b2", "ply": 0}, headers=bearer(token)
    )
    assert r.status_code == 200
    wait_for(lambda: httpx.get(f"{server.base}/api/games/{gid}").json()["ply"] == 2, timeout=20)
