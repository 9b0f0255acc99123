"""Several server processes on one PostgreSQL database and one Redis, for the
multi-process tests: fixtures' helpers, a private redis-server, WebSocket players, and
serving "processes" inside the test process (Managers with their own storage and Redis
connections: fast to start)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import time

from server_helpers import ServerProcess, free_port
from websockets.asyncio.client import connect

from qipan.server.manager import Manager
from qipan.server.storage import Storage
from qipan.server.updates import apply

REDIS_URL = os.environ.get("QIPAN_TEST_REDIS", "redis://127.0.0.1:6379")
TWO_HUMANS = [{"kind": "human", "name": "Ann", "join": True}, {"kind": "human", "name": "Bob", "join": True}]


def absent(what: str):
    """Skip on a machine without the service (a user's), fail in CI, which must run these."""
    import pytest

    if os.environ.get("CI"):
        pytest.fail(f"{what}: CI runs the multi-process tests (.ci/run starts the services)")
    pytest.skip(f"{what}: the multi-process tests need PostgreSQL and Redis on 127.0.0.1")


def redis_answers(url: str) -> bool:
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1)
        client.ping()
        client.close()
        return True
    except Exception:
        return False


def start_processes(db_url: str, redis_url: str, count: int, rates: bool = True) -> list[ServerProcess]:
    """``count`` server processes started together (kernels off: toy games only); ``rates``:
    with the default rate limits (else none, see serve_toys.py)."""
    env = {"QIPAN_KERNELS": "0"} | ({} if rates else {"QIPAN_TOY_RATES": "unlimited"})
    servers = [ServerProcess(db_url, redis_url=redis_url, env=env).start(wait=False) for _ in range(count)]
    for server in servers:
        server.wait_ready()
    return servers


class PrivateRedis:
    """A redis-server of our own on a free port (never the machine's), to stop and restart."""

    def __init__(self):
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> PrivateRedis:
        binary = shutil.which("redis-server")
        if binary is None:
            absent("redis-server is not installed")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while not redis_answers(self.url):
            if time.monotonic() > deadline:
                raise RuntimeError("the private redis-server did not start")
            time.sleep(0.05)
        return self

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


class Seat:
    """One WebSocket of a game (a seat's or a spectator's): the state it holds, kept up to
    date from the updates, and the acknowledgements of its moves."""

    def __init__(self, base: str, game_id: str, token: str | None = None):
        self.url = base.replace("http", "ws", 1) + f"/ws/games/{game_id}"
        self.token = token
        self.state: dict | None = None
        self.changed = asyncio.Event()
        self.replies: dict[int, dict] = {}
        #: (arrival time, ply) of every state or update.
        self.arrivals: list[tuple[float, int]] = []
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.closed = False

    async def open(self) -> Seat:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        self.ws = await connect(self.url, additional_headers=headers, open_timeout=30)
        self.closed = False
        self.state = None
        self.reader = asyncio.create_task(self._read())
        await self.wait(lambda s: True)
        return self

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    self.state = message
                elif kind == "update":
                    try:
                        self.state = apply(self.state, message)
                    except ValueError:  # out of step: ask for the whole state
                        await self.ws.send(json.dumps({"type": "resync"}))
                        continue
                elif kind in ("ok", "error") and message.get("id") is not None:
                    self.replies[message["id"]] = message
                else:
                    continue
                if kind in ("state", "update"):
                    self.arrivals.append((time.perf_counter(), self.state["ply"]))
                self.changed.set()
        except Exception:
            pass
        finally:
            self.closed = True
            self.changed.set()

    async def wait(self, predicate, timeout: float = 60.0) -> None:
        """Until ``predicate(state)``; ConnectionError if the socket closes first."""
        deadline = time.monotonic() + timeout
        while not (self.state is not None and predicate(self.state)):
            if self.closed:
                raise ConnectionError("the socket closed")
            self.changed.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"state not reached; holding {self.state and self.state.get('ply')}")
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                pass

    async def reply(self, request_id: int, timeout: float = 60.0) -> dict:
        await self.wait(lambda s: request_id in self.replies, timeout)
        return self.replies.pop(request_id)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


async def play_random_move(
    seats: dict[int, Seat], rng, request: int, sent: dict[int, str]
) -> tuple[int, str]:
    """The seat to move plays a random legal move (request id ``request``, put in ``sent``
    by ply before it goes), acknowledged, and every seat sees it. Returns (ply, move)."""
    state = seats[0].state
    mover = seats[state["to_move"]]
    await mover.wait(lambda s, ply=state["ply"]: s["ply"] == ply and s["legal"])
    ply = mover.state["ply"]
    move = rng.choice(mover.state["legal"])["text"]
    sent[ply] = move
    await mover.ws.send(f'{{"type": "move", "move": "{move}", "ply": {ply}, "id": {request}}}')
    reply = await mover.reply(request)
    assert reply["type"] == "ok", reply
    for seat in seats.values():
        await seat.wait(lambda s, ply=ply: s["ply"] > ply or s["status"] != "active")
    return ply, move


async def open_seat(bases: list[str], game_id: str, token: str | None, start: int = 0) -> tuple[Seat, int]:
    """A seat's socket on the first of ``bases`` (from ``start``) that answers."""
    for attempt in range(200):
        index = (start + attempt) % len(bases)
        try:
            return await Seat(bases[index], game_id, token).open(), index
        except (OSError, ConnectionError, TimeoutError) as exc:
            last = exc
            await asyncio.sleep(0.1)
        except Exception as exc:  # a refused handshake while a process dies
            last = exc
            await asyncio.sleep(0.1)
    raise RuntimeError(f"no process took the socket: {last}")


# -- serving processes inside the test process ------------------------------------------
def on_postgres(test):
    """The test takes conftest's ``db_url`` on PostgreSQL only (processes share one)."""
    import pytest

    param = pytest.param("postgres", marks=pytest.mark.postgres)
    return pytest.mark.parametrize("db_url", [param], indirect=True)(test)


@contextlib.asynccontextmanager
async def serving(db_url: str, redis_url: str | None = None):
    """One serving process (a Manager on its own storage), stopped at the end."""
    storage = Storage(db_url)
    manager = Manager(storage, redis_url=redis_url)
    await manager.start()
    try:
        yield manager
    finally:
        await manager.stop()
        storage.close()


async def until(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)


async def two_player_game(manager: Manager, **body) -> tuple[str, dict[int, str]]:
    session, tickets = await manager.create({"game": "toy-ttt", "seats": TWO_HUMANS, **body})
    return session.id, {t["seat"]: t["token"] for t in tickets}


# -- what the store holds ------------------------------------------------------------------
def move_rows(db_url: str, game_id: str) -> list:
    """The stored moves of a game (ply, text, at), in order."""
    import sqlalchemy as sa

    engine = sa.create_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT ply, text, at FROM moves WHERE game_id = :g ORDER BY ply"), {"g": game_id}
        ).all()
    engine.dispose()
    return rows


def tick_gaps_around(db_url: str, game_id: str, text: str) -> tuple[int, list[float]]:
    """Where the first move ``text`` of a real-time game was stored, and the seconds
    between the stored ticks from two before it to two after it."""
    rows = move_rows(db_url, game_id)
    played = [r.text for r in rows].index(text)
    around = [r.at for r in rows[max(0, played - 2) : played + 3]]
    return played, [t1 - t0 for t0, t1 in itertools.pairwise(around)]
