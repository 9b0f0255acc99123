"""Several real server processes (``qipan serve --redis``) on the machine's PostgreSQL and
Redis: a move through one reaches spectators on another, concurrent moves through two are
serialised, a process SIGKILLed under load loses nothing (its clients go on through the
others, its bots, clocks and ticks are taken over), and a Redis restart costs no change.

Skipped where PostgreSQL or Redis is absent (a user's machine); CI runs them."""

from __future__ import annotations

import asyncio
import itertools
import random
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import (  # noqa: E402
    REDIS_URL,
    TWO_HUMANS,
    PrivateRedis,
    absent,
    move_rows,
    open_seat,
    play_random_move,
    redis_answers,
    start_processes,
    tick_gaps_around,
)
from server_helpers import bearer, wait_for  # noqa: E402

from conftest import PG_ADMIN_URL, postgres_available  # noqa: E402
from qipan.server.cluster import HEARTBEAT_SECONDS  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.timeout(240)]


@pytest.fixture
def cluster_db():
    """A fresh PostgreSQL database for the processes of one test."""
    if not postgres_available():
        absent(f"PostgreSQL is not reachable at {PG_ADMIN_URL}")
    name = f"qipan_cluster_{uuid.uuid4().hex[:10]}"
    admin = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = PG_ADMIN_URL.rsplit("/", 1)[0] + "/" + name
    yield url
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def cluster(cluster_db):
    """``cluster(n, redis_url, rates)``: n processes on the test's database (``rates``: with
    the default rate limits); killed at the end."""
    started = []

    def start(count: int, redis_url: str = REDIS_URL, rates: bool = True):
        if not redis_answers(redis_url):
            absent(f"Redis is not answering at {redis_url}")
        servers = start_processes(cluster_db, redis_url, count, rates=rates)
        started.extend(servers)
        return servers

    yield start
    for i, server in enumerate(started):
        server.kill()
        print(f"--- log of process {i} ---\n{server.output()[-4000:]}")  # shown when a test fails


def create(base: str, **body) -> tuple[str, dict[int, str]]:
    body.setdefault("game", "toy-ttt")
    body.setdefault("seats", TWO_HUMANS)
    r = httpx.post(base + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {s["seat"]: s["token"] for s in data["seats"]}


def stored_moves(db_url: str, game_id: str) -> list[tuple[int, str]]:
    return [(r.ply, r.text) for r in move_rows(db_url, game_id)]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def test_a_move_through_one_process_reaches_spectators_on_another(cluster):
    a, b = cluster(2)
    delays: list[float] = []

    async def scenario():
        for game in range(6):
            game_id, tokens = create(a.base if game % 2 else b.base)
            watcher, _ = await open_seat([b.base], game_id, None)
            rng = random.Random(game)
            async with httpx.AsyncClient(timeout=30) as http:
                state = (await http.get(f"{a.base}/api/games/{game_id}")).json()
                while state["status"] == "active":
                    # Each move through the other process than the last one.
                    via = a.base if state["ply"] % 2 == 0 else b.base
                    move = rng.choice(state["legal"])["text"]
                    ply = state["ply"]
                    sent = time.perf_counter()
                    r = await http.post(
                        f"{via}/api/games/{game_id}/move",
                        json={"move": move, "ply": ply},
                        headers=bearer(tokens[state["to_move"]]),
                    )
                    assert r.status_code == 200, r.text
                    state = r.json()
                    if via == a.base:  # a move through A, seen by the spectator on B
                        await watcher.wait(lambda s, ply=ply: s["ply"] > ply)
                        arrived = next(t for t, p in watcher.arrivals if p > ply)
                        delays.append(arrived - sent)
                await watcher.wait(lambda s, final=state: s["version"] == final["version"])
            seen = watcher.state
            for key in ("moves", "ply", "status", "result", "svg", "seats", "version"):
                assert seen[key] == state[key], key
            await watcher.close()

    asyncio.run(scenario())
    assert delays
    print(
        f"\nmove through A -> spectator on B: {len(delays)} moves, delay ms "
        f"p50 {1000 * percentile(delays, 0.5):.1f} p99 {1000 * percentile(delays, 0.99):.1f} "
        f"max {1000 * max(delays):.1f}"
    )


def test_the_same_move_sent_to_two_processes_is_applied_once(cluster, cluster_db):
    a, b = cluster(2)
    for _ in range(6):
        game_id, tokens = create(a.base)
        state = httpx.get(f"{b.base}/api/games/{game_id}").json()  # B holds the game too
        seat = state["to_move"]

        async def both(game_id=game_id, seat=seat, tokens=tokens):
            async with httpx.AsyncClient(timeout=30) as http:
                return await asyncio.gather(
                    *(
                        http.post(
                            f"{base}/api/games/{game_id}/move",
                            json={"move": move, "ply": 0},
                            headers=bearer(tokens[seat]),
                        )
                        for base, move in ((a.base, "a1"), (b.base, "b2"))
                    )
                )

        answers = asyncio.run(both())
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], [r.text for r in answers]
        won = next(r for r in answers if r.status_code == 200).json()["moves"]
        assert stored_moves(cluster_db, game_id) == [(0, won[0]["text"])]
        for base in (a.base, b.base):  # both processes agree on what was stored
            wait_for(
                lambda base=base, game_id=game_id, won=won: (
                    httpx.get(f"{base}/api/games/{game_id}").json()["moves"] == won
                )
            )


def clock_of(response) -> dict:
    """The game's clock from a game read; a read without one fails with what came instead
    (a run once read a game without its clock here, and the error said only KeyError)."""
    data = response.json()
    assert response.status_code == 200 and "clock" in data, (response.status_code, response.text[:500])
    return data["clock"]


def test_a_process_killed_under_load_loses_nothing(cluster, cluster_db):
    # No rate limits: the load comes from one address, and a fresh-clone run once had a read
    # refused (429) mid-test; what is tested is durability, not the limits.
    a, b, c = cluster(3, rates=False)
    others = [b.base, c.base]
    humans = [create(a.base) for _ in range(8)]
    bot_game, bot_tokens = create(
        a.base, seats=[{"kind": "human", "name": "Ann", "join": True}, {"kind": "bot", "agent": "random"}]
    )
    clock_game, clock_tokens = create(a.base, clock={"mode": "total", "initial": 300})
    ticker, _ = create(
        a.base,
        game="toy-ticker",
        options={"tick": 0.25, "ticks": 100000},
        seats=[{"kind": "human", "join": True}],
    )
    sent: dict[str, dict[int, str]] = {}  # every move a client sent, by game and ply
    acked: dict[str, dict[int, str]] = {}  # the ones acknowledged
    killed = asyncio.Event()

    async def play_game(index: int, game_id: str, tokens: dict[int, str]):
        """Two seats play the game to its end; when their process dies they reconnect to
        another one (their own choice of B or C) and go on from the state it gives."""
        rng = random.Random(index)
        sent[game_id], acked[game_id] = {}, {}
        bases = [a.base] + others[index % 2 :] + others[: index % 2]
        seats = {i: (await open_seat(bases, game_id, t))[0] for i, t in tokens.items()}
        request = 0
        while True:
            try:
                state = seats[0].state
                if state["status"] != "active":
                    break
                request += 1
                ply, move = await play_random_move(seats, rng, request, sent[game_id])
                acked[game_id][ply] = move
                await asyncio.sleep(0.1 if not killed.is_set() else 0.02)
            except AssertionError:
                raise
            except Exception:  # the process died under the socket: go on through another
                for seat in seats.values():
                    await seat.close()
                bases = bases[1:] if bases[0] == a.base else bases
                seats = {i: (await open_seat(bases, game_id, t))[0] for i, t in tokens.items()}
        for seat in seats.values():
            await seat.close()

    async def scenario():
        async with httpx.AsyncClient(timeout=30) as http:
            # The bot game: Ann moves, the bot (run by A) answers.
            r = await http.post(
                f"{a.base}/api/games/{bot_game}/move",
                json={"move": "a1", "ply": 0},
                headers=bearer(bot_tokens[0]),
            )
            assert r.status_code == 200, r.text
            await asyncio.sleep(0)
            r = await http.post(
                f"{a.base}/api/games/{clock_game}/move",
                json={"move": "a1", "ply": 0},
                headers=bearer(clock_tokens[0]),
            )
            assert r.status_code == 200, r.text
        games = [asyncio.create_task(play_game(i, gid, tokens)) for i, (gid, tokens) in enumerate(humans)]
        await asyncio.sleep(1.0)
        async with httpx.AsyncClient(timeout=30) as http:
            # Each clock read lies between the two times around it: bounds, not a stopwatch.
            asked = time.time()
            clock_before = clock_of(await http.get(f"{a.base}/api/games/{clock_game}"))
            clock_before_at = (asked, time.time())
            ticks_before = (await http.get(f"{b.base}/api/games/{ticker}")).json()["ply"]
            a.proc.kill()  # SIGKILL, mid-game, while the clients play
            killed.set()
            a.proc.wait()
            # The bot's game: its human moves through B; the bot answers once B or C has
            # taken A's lease over.
            await asyncio.to_thread(
                wait_for, lambda: httpx.get(f"{b.base}/api/games/{bot_game}").json()["ply"] == 2, 30
            )
            state = (await http.get(f"{b.base}/api/games/{bot_game}")).json()
            move = next(m["text"] for m in state["legal"])
            r = await http.post(
                f"{b.base}/api/games/{bot_game}/move",
                json={"move": move, "ply": 2},
                headers=bearer(bot_tokens[0]),
            )
            assert r.status_code == 200, r.text
            # The bot answers once B or C has taken A's lease over.
            await asyncio.to_thread(
                wait_for, lambda: httpx.get(f"{c.base}/api/games/{bot_game}").json()["ply"] >= 4, 30
            )
            # Ticks go on after the take-over (their pace is checked on the stored rows).
            taken_over = ticks_before + 8
            await asyncio.to_thread(
                wait_for,
                lambda: httpx.get(f"{c.base}/api/games/{ticker}").json()["ply"] > taken_over + 8,
                30,
            )
            # The clock: it ran on through the take-over (no refund) and runs once.
            asked = time.time()
            clock_after = clock_of(await http.get(f"{c.base}/api/games/{clock_game}"))
            clock_read = (asked, time.time())
        await asyncio.gather(*games)
        return taken_over, clock_before, clock_before_at, clock_after, clock_read

    taken_over, before, before_at, after, read_at = asyncio.run(scenario())

    for game_id, _ in humans:
        final = httpx.get(f"{b.base}/api/games/{game_id}").json()
        assert final["status"] == "over"
        moves = [m["text"] for m in final["moves"]]
        stored = stored_moves(cluster_db, game_id)
        assert stored == list(enumerate(moves))  # one row per ply: nothing applied twice
        for ply, move in acked[game_id].items():  # every acknowledged move is there
            assert moves[ply] == move, (game_id, ply)
        for ply, move in enumerate(moves):  # and nothing nobody sent
            assert sent[game_id][ply] == move
        assert httpx.get(f"{c.base}/api/games/{game_id}").json()["moves"] == final["moves"]
    assert sum(len(v) for v in acked.values()) > 20

    # One process ticks once the lease is taken over: the stored ticks (the servers' own
    # times) never come faster than one per 0.25 s.
    ticks = [r.at for r in move_rows(cluster_db, ticker) if r.ply >= taken_over]
    gaps = [t1 - t0 for t0, t1 in itertools.pairwise(ticks)]
    assert len(gaps) >= 8 and min(gaps) >= 0.25 * 0.95, gaps
    # Seat 1's clock ran from before the kill to the read, once: not refunded, not doubled.
    # Between the two reads at least (earliest second read - latest first read) and at most
    # (latest second read - earliest first read) went by; the take-over charges the time up
    # to the killed process's last heartbeat or two (``lease.served``), not more.
    assert before["running"] == after["running"] == 1
    used = before["remaining"][1] - after["remaining"][1]
    shortest, longest = read_at[0] - before_at[1], read_at[1] - before_at[0]
    assert shortest - 2 * HEARTBEAT_SECONDS <= used <= longest + 1e-6, (used, shortest, longest)


def test_a_redis_restart_loses_no_change(cluster, cluster_db):
    redis = PrivateRedis().start()
    try:
        a, b = cluster(2, redis.url)
        game_id, tokens = create(a.base)

        async def scenario():
            ann, _ = await open_seat([a.base], game_id, tokens[0])
            bob, _ = await open_seat([b.base], game_id, tokens[1])
            request = 0

            async def move(seat, text: str, ply: int):
                nonlocal request
                request += 1
                await seat.ws.send(f'{{"type": "move", "move": "{text}", "ply": {ply}, "id": {request}}}')
                reply = await seat.reply(request)
                assert reply["type"] == "ok", reply

            await move(ann, "a1", 0)
            await bob.wait(lambda s: s["ply"] == 1)
            redis.kill()  # Redis goes away mid-game
            await asyncio.sleep(0.3)
            await move(bob, "b1", 1)  # stored through B; A cannot hear of it
            # Ann's next move through A, which is behind: it reads the store before the
            # change (it knows it cannot hear the others), so the move is taken.
            async with httpx.AsyncClient(timeout=30) as http:
                r = await http.post(
                    f"{a.base}/api/games/{game_id}/move",
                    json={"move": "a2", "ply": 2},
                    headers=bearer(tokens[0]),
                )
                assert r.status_code == 200, r.text
            redis.start()  # Redis comes back on the same port
            # Both processes resubscribe and catch up: each socket sees the other's move.
            await bob.wait(lambda s: s["ply"] == 3, timeout=30)
            await ann.wait(lambda s: s["ply"] == 3, timeout=30)
            await move(bob, "b2", 3)
            await ann.wait(lambda s: s["ply"] == 4, timeout=30)
            await move(ann, "a3", 4)  # a1 a2 a3: Ann wins
            await bob.wait(lambda s: s["status"] == "over", timeout=30)
            await ann.wait(lambda s: s["status"] == "over", timeout=30)
            states = (ann.state, bob.state)
            await ann.close()
            await bob.close()
            return states

        ann_state, bob_state = asyncio.run(scenario())
        played = ["a1", "b1", "a2", "b2", "a3"]
        assert [m["text"] for m in ann_state["moves"]] == played
        for key in ("moves", "status", "result", "svg", "version"):
            assert ann_state[key] == bob_state[key], key
        assert stored_moves(cluster_db, game_id) == list(enumerate(played))
    finally:
        redis.kill()


def test_offers_real_time_moves_and_online_marks_hold_across_processes(cluster, cluster_db):
    a, b = cluster(2)
    game_id, tokens = create(a.base)
    tick = 0.3
    ticker, ticker_tokens = create(
        a.base,
        game="toy-ticker",
        options={"tick": tick, "ticks": 100000},
        seats=[{"kind": "human", "join": True}],
    )

    async def scenario():
        ann, _ = await open_seat([a.base], game_id, tokens[0])
        bob, _ = await open_seat([b.base], game_id, tokens[1])
        # Each sees the other online, although the other's socket is on the other process.
        await ann.wait(lambda s: [seat["online"] for seat in s["seats"]] == [True, True])
        await bob.wait(lambda s: [seat["online"] for seat in s["seats"]] == [True, True])
        async with httpx.AsyncClient(timeout=30) as http:
            r = await http.post(
                f"{a.base}/api/games/{game_id}/draw", json={"action": "offer"}, headers=bearer(tokens[0])
            )
            assert r.status_code == 200, r.text
            await bob.wait(lambda s: s["offers"]["draw"] == [0])
            r = await http.post(
                f"{b.base}/api/games/{game_id}/draw", json={"action": "accept"}, headers=bearer(tokens[1])
            )
            assert r.status_code == 200, r.text
            await ann.wait(lambda s: s["status"] == "over")
            assert ann.state["result"]["reason"] == "draw agreed"
            await bob.close()  # Bob leaves: Ann's process shows him offline
            await ann.wait(lambda s: [seat["online"] for seat in s["seats"]] == [True, False])
            await ann.close()
            # A real-time move through B, which does not run the ticks: played at A's tick.
            r = await http.post(
                f"{b.base}/api/games/{ticker}/move", json={"move": "go"}, headers=bearer(ticker_tokens[0])
            )
            assert r.status_code == 200, r.text
            assert "go" not in [m["text"] for m in r.json()["moves"]]  # waits for a tick
        await asyncio.to_thread(
            wait_for,
            lambda: "go" in [m["text"] for m in httpx.get(f"{b.base}/api/games/{ticker}").json()["moves"]],
            30,
        )

    asyncio.run(scenario())
    # The ticker's clock starts with its first move ("go"): wait for the two ticks after it.
    wait_for(lambda: len(move_rows(cluster_db, ticker)) >= 3, 30)
    _, gaps = tick_gaps_around(cluster_db, ticker, "go")
    assert gaps and min(gaps) >= tick * 0.95, gaps  # the ticks kept their pace
