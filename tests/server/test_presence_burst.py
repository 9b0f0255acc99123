"""Hundreds of games joined at once: the online marks reach Redis in a few pipelines, not a
connection each (redis-py refused the 101st with "Too many connections" and the marks
waited for the next renewal)."""

from __future__ import annotations

import asyncio
import json
import uuid

from qipan.server.presence import Presence
from qipan.server.pubsub import redis_client

GAMES = 300


def test_a_burst_of_sockets_is_written_and_read_without_running_out_of_connections(redis_url):
    prefix = f"qipan:test-burst:{uuid.uuid4().hex}"

    async def scenario():
        import redis.asyncio as redis

        pool = redis.BlockingConnectionPool.from_url(redis_url, max_connections=4, timeout=0.05)
        tight = redis.Redis(connection_pool=pool)  # four connections: a task each would fail
        told: list[dict] = []
        here = Presence(tight, prefix, "a", told.append, lambda *_: None)
        seen: dict[str, set[int]] = {}
        there = Presence(tight, prefix, "b", lambda _: None, lambda g, s: seen.__setitem__(g, s))
        games = [f"g{i}" for i in range(GAMES)]
        for game_id in games:
            here.set_here(game_id, {0, 1})
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(told) == GAMES:
                break
        assert not here.unwritten and len(told) == GAMES
        for game_id in games:  # another process's listeners arrive at once too
            there.watch(game_id)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if len(seen) == GAMES:
                break
        assert seen == {game_id: {0, 1} for game_id in games}
        check = redis_client(redis_url)
        entry = json.loads((await check.hgetall(f"{prefix}:{games[-1]}"))[b"a"])
        assert entry["seats"] == [0, 1]
        await here.stop()  # takes its marks back
        assert await check.hgetall(f"{prefix}:{games[0]}") == {}
        await there.stop()
        await check.aclose()
        await tight.aclose()

    asyncio.run(scenario())
