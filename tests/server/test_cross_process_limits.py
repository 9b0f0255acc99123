"""What several serving processes count together through Redis (the machine's): the
per-address rate limits, the site's login and sign-up limits and which seats are online. Without Redis (or while it does not
answer) each process counts alone, as a single server does."""

from __future__ import annotations

import asyncio
import signal
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import PrivateRedis, on_postgres, serving, two_player_game, until  # noqa: E402
from server_helpers import free_port  # noqa: E402

from qipan.server import presence  # noqa: E402
from qipan.server.accounts import SharedLimiter  # noqa: E402
from qipan.server.limits import AddressRate, Limits, SharedCounts  # noqa: E402
from qipan.server.listeners import Connection  # noqa: E402
from qipan.server.pubsub import redis_client  # noqa: E402


# -- rate limits -------------------------------------------------------------------------
def test_a_rate_is_counted_over_every_process(redis_url):
    async def scenario():
        prefix = f"qipan:test-{uuid.uuid4().hex}:rate:http"
        clients = [redis_client(redis_url, timeout=2) for _ in range(2)]
        # Two processes' counters: 200 requests per window of 10 s (rate 20/s, burst 200).
        counts = [SharedCounts(c, prefix, rate=20.0, burst=200) for c in clients]
        allowed = 0
        for i in range(300):
            if await counts[i % 2].wait("10.0.0.1") == 0:
                allowed += 1
        # At most the burst, and no more lost than one chunk per process.
        assert 200 - 2 * counts[0].chunk <= allowed <= 200, allowed
        wait = await counts[1].wait("10.0.0.1")
        assert 0 < wait <= 10.0
        assert await counts[0].wait("10.0.0.2") == 0  # another address has its own count
        for c in clients:
            await c.aclose()

    asyncio.run(scenario())


def test_without_redis_each_process_counts_alone():
    async def scenario():
        dead = redis_client(f"redis://127.0.0.1:{free_port()}", timeout=0.5)
        rate = AddressRate(1.0, 3, "http")
        rate.share(dead, "qipan:test:rate")
        assert await rate.shared.wait("10.0.0.1") is None  # Redis does not answer
        # The process's own bucket: a burst of 3, then refused.
        waits = [await rate.wait("10.0.0.1") for _ in range(4)]
        assert waits[:3] == [0, 0, 0] and waits[3] > 0
        await dead.aclose()

    asyncio.run(scenario())


@on_postgres
def test_http_requests_over_the_limit_through_either_process_get_429(db_url, redis_url, monkeypatch):
    from fastapi.testclient import TestClient

    from qipan.server import create_app

    monkeypatch.setenv("QIPAN_KERNELS", "0")
    limits = Limits(http_rate=1.0, http_burst=10)
    apps = [create_app(db_url, limits=limits, redis_url=redis_url) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        codes = [(a if i % 2 else b).get("/healthz").status_code for i in range(16)]
        refused = a.get("/api/specs")
    assert codes[:10] == [200] * 10, codes  # the burst of 10, shared
    assert codes[10:] == [429] * 6, codes
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "too many requests" in refused.json()["error"]


# -- login and sign-up limits ----------------------------------------------------------------
def test_login_limits_count_every_processs_attempts(redis_url):
    async def scenario():
        prefix = f"qipan:test-{uuid.uuid4().hex}:login"
        clients = [redis_client(redis_url, timeout=2) for _ in range(2)]
        a, b = (SharedLimiter(3, 1.0, c, prefix) for c in clients)  # 3 a second
        for limiter in (a, b, a):
            assert await limiter.blocked("heidi") == 0
            await limiter.hit("heidi")
        assert 0 < await b.blocked("heidi") <= 1.0  # the third attempt was through A
        assert 0 < await a.blocked("heidi") <= 1.0
        assert await b.blocked("ivan") == 0  # each key has its own count
        await asyncio.sleep(1.05)  # the window slid past the three
        assert await b.blocked("heidi") == 0
        for limiter in (a, b, b):
            await limiter.hit("heidi")
        await a.clear("heidi")  # a good password ends the count everywhere
        assert await b.blocked("heidi") == 0
        for c in clients:
            await c.aclose()

    asyncio.run(scenario())


def test_login_limits_count_in_the_process_while_redis_is_silent():
    async def scenario():
        redis = PrivateRedis().start()
        try:
            client = redis_client(redis.url, timeout=0.5)
            limiter = SharedLimiter(2, 300, client, "qipan:test:login")
            await limiter.hit("heidi")
            await limiter.hit("heidi")
            assert limiter.down_until == 0 and await limiter.blocked("heidi") > 0  # Redis says
            await limiter.clear("heidi")
            await limiter.hit("heidi")
            redis.proc.send_signal(signal.SIGSTOP)  # Redis stops answering (not refusing)
            await limiter.hit("heidi")  # counted here, once the client's timeout gave up on Redis
            assert limiter.down_until > 0  # Redis is not asked again for a while (not waited on)
            assert await limiter.blocked("heidi") > 0  # by this process's own two
            await client.aclose()
        finally:
            if redis.proc is not None:
                redis.proc.send_signal(signal.SIGCONT)
            redis.kill()
        dead = redis_client(f"redis://127.0.0.1:{free_port()}", timeout=0.5)  # and refusing
        limiter = SharedLimiter(1, 300, dead, "qipan:test:login")
        await limiter.hit("ivan")
        assert await limiter.blocked("ivan") > 0
        await dead.aclose()

    asyncio.run(scenario())


@on_postgres
def test_login_and_signup_limits_hold_through_either_process(db_url, redis_url, monkeypatch):
    from fastapi.testclient import TestClient
    from site_helpers import FAST_HASHER

    from qipan.server import create_app

    monkeypatch.setenv("QIPAN_KERNELS", "0")
    apps = [create_app(db_url, limits=Limits.unlimited_rates(), redis_url=redis_url) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        for client in (a, b):
            client.app.state.site.accounts.hasher = FAST_HASHER
        password = "correct horse battery"
        # Sign-ups: 20 an hour from one address, counted through both processes.
        codes = [
            (a, b)[i % 2].post("/api/account/signup", json={"username": f"user{i}", "password": password})
            for i in range(21)
        ]
        assert [r.status_code for r in codes] == [201] * 20 + [429], [r.text for r in codes[-2:]]
        # Wrong passwords: 5 per username, whichever process each attempt reached.
        wrong = {"username": "user0", "password": "wrong-wrong"}
        tries = [(a, b)[i % 2].post("/api/account/login", json=wrong) for i in range(5)]
        assert [r.status_code for r in tries] == [401] * 5
        refused = a.post("/api/account/login", json={"username": "user0", "password": password})
        assert refused.status_code == 429 and "try again" in refused.json()["error"]
        other = b.post("/api/account/login", json={"username": "user1", "password": password})
        assert other.status_code == 200  # another username from the same address may
        # The owner, from another address, gets in through either process.
        for app in apps:
            with TestClient(app, client=("10.0.0.7", 50000)) as owner:
                r = owner.post("/api/account/login", json={"username": "user0", "password": password})
                assert r.status_code == 200, r.text


@on_postgres
def test_the_chat_rate_holds_through_either_process(db_url, redis_url, monkeypatch):
    from fastapi.testclient import TestClient

    from qipan.server import create_app
    from qipan.server.chat import RATE_COUNT

    monkeypatch.setenv("QIPAN_KERNELS", "0")
    apps = [create_app(db_url, limits=Limits.unlimited_rates(), redis_url=redis_url) for _ in range(2)]
    with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
        seats = [{"kind": "human", "name": n, "join": True} for n in ("Ann", "Bob")]
        created = a.post("/api/games", json={"game": "toy-ttt", "seats": seats}).json()
        token = created["seats"][0]["token"]
        codes = [
            (a, b)[i % 2]
            .post(
                f"/api/games/{created['id']}/chat",
                json={"room": "players", "text": f"hello {i}"},
                headers={"Authorization": f"Bearer {token}"},
            )
            .status_code
            for i in range(RATE_COUNT + 2)
        ]
        assert codes == [201] * RATE_COUNT + [429, 429], codes


# -- who is online -------------------------------------------------------------------------
class Listener:
    """A socket's stand-in: it keeps what the server sends it."""

    def __init__(self, seat):
        self.sent: list[str] = []
        self.conn = Connection(self.send, seat)

    async def send(self, text: str) -> None:
        self.sent.append(text)


def online(manager, game_id: str) -> list[bool]:
    return [s["online"] for s in manager.sessions[game_id].summary()["seats"]]


@on_postgres
def test_a_seat_online_through_one_process_is_online_in_the_others(db_url, redis_url, monkeypatch):
    monkeypatch.setattr(presence, "TTL", 1.5)
    monkeypatch.setattr(presence, "REFRESH", 0.3)

    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            game_id, _ = await two_player_game(a)
            ann, bob, watcher = Listener(0), Listener(1), Listener(None)
            b.listeners.subscribe(await b.get(game_id), watcher.conn)  # a spectator on B
            a.listeners.subscribe(await a.get(game_id), ann.conn)  # Ann's socket on A
            await until(lambda: online(b, game_id) == [True, False])
            b.listeners.subscribe(await b.get(game_id), bob.conn)  # Bob's on B: A sees him
            await until(lambda: online(a, game_id) == [True, True])
            told = len(watcher.sent)
            a.listeners.unsubscribe(game_id, ann.conn)  # Ann closes her page
            await until(lambda: online(b, game_id) == [False, True])
            await until(lambda: len(watcher.sent) > told)  # B's spectator was told
            # Ann is back, then her process stops renewing (as if it died): her mark runs
            # out after TTL seconds without anyone removing it.
            a.listeners.subscribe(await a.get(game_id), ann.conn)
            await until(lambda: online(b, game_id) == [True, True])
            a.cluster.presence._task.cancel()
            await until(lambda: online(b, game_id) == [False, True], timeout=10)
            assert 0 in a.cluster.presence.here[game_id]  # A never took her off: her entry ran out
            a.cluster.presence.here.clear()  # nothing to take back at the stop

    asyncio.run(scenario())
