"""WebSocket frames on the real server (``qipan serve``'s uvicorn with server/socket_reads.py):
a frame over 64 KiB closes its connection (1009) without an "Exception in ASGI application"
traceback, even when the app is still answering a message read before it; a connection's
message rate weighs the messages' bytes."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_helpers import ServerProcess  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]

MAX_FRAME = 64 * 1024
SEATS = [{"kind": "human", "join": True}, {"kind": "human", "join": True}]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = f"sqlite:///{tmp_path_factory.mktemp('frames')}/frames.sqlite3"
    server = ServerProcess(db, env={"QIPAN_KERNELS": "0"}).start()
    yield server
    server.kill()


def new_game(server) -> tuple[str, str]:
    created = httpx.post(
        server.base + "/api/games", json={"game": "toy-ttt", "seats": SEATS}, timeout=30
    ).json()
    return created["id"], created["seats"][0]["token"]


async def opened(server, game_id: str, token: str):
    ws = await connect(
        server.base.replace("http", "ws", 1) + f"/ws/games/{game_id}",
        additional_headers={"Authorization": f"Bearer {token}"},
        max_size=None,
    )
    for _ in range(2):  # hello and the state
        await asyncio.wait_for(ws.recv(), 30)
    return ws


async def close_code(ws) -> int | None:
    """Read until the server closes the connection (at most 30 s); its close code."""
    try:
        async with asyncio.timeout(30):
            async for _ in ws:
                pass
    except ConnectionClosed:
        pass
    return ws.close_code


def test_a_frame_over_64_kib_closes_its_connection_without_a_traceback(server):
    game_id, token = new_game(server)

    async def scenario():
        ws = await opened(server, game_id, token)
        # A message the app answers, then an over-size frame in the same breath: the
        # answer is sent after the connection closed.
        await ws.send(json.dumps({"type": "ping", "id": 1}))
        await ws.send(json.dumps({"type": "ping", "pad": "x" * (MAX_FRAME + 1024)}))
        assert await close_code(ws) == 1009
        # Another connection of the same game is unaffected.
        other = await opened(server, game_id, token)
        await other.send(json.dumps({"type": "ping", "id": 2}))
        async with asyncio.timeout(30):
            while json.loads(await other.recv()).get("type") != "pong":
                pass
        await other.close()

    for _ in range(5):
        asyncio.run(scenario())
    assert httpx.get(server.base + "/healthz", timeout=10).status_code == 200
    log = server.output()
    assert "Exception in ASGI application" not in log and "Traceback" not in log, log[-3000:]


def test_large_messages_spend_a_connections_rate_sooner(server):
    game_id, token = new_game(server)

    async def scenario() -> list[dict]:
        ws = await opened(server, game_id, token)
        pad = "x" * (60 * 1024)
        for i in range(12):  # far fewer messages than the burst of 40
            await ws.send(json.dumps({"type": "ping", "id": i, "pad": pad}))
        replies = []
        async with asyncio.timeout(60):
            while len(replies) < 12:
                reply = json.loads(await ws.recv())
                if reply.get("type") in ("pong", "error"):
                    replies.append(reply)
        await ws.close()
        return replies

    replies = asyncio.run(scenario())
    refused = [r for r in replies if r["type"] == "error"]
    assert refused and all(r["status"] == 429 for r in refused)
    assert replies[0] == {"type": "pong", "id": 0}
