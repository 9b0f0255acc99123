"""An acknowledged real-time move is never lost and never played twice: it waits for its
tick in the store (server/queued.py), so a holder that dies before the tick leaves it to
the process that takes the game over, or to the same server after a restart."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import move_rows, on_postgres, open_seat, serving, until  # noqa: E402
from test_processes import cluster, cluster_db, create  # noqa: E402, F401 (fixtures)

from qipan.server.errors import ApiError  # noqa: E402
from qipan.server.manager import Manager  # noqa: E402
from qipan.server.queued import QueuedMoves  # noqa: E402
from qipan.server.storage import Storage  # noqa: E402

TICKER = {"game": "toy-ticker", "seats": [{"kind": "human", "join": True}]}


def stored_texts(db_url: str, game_id: str) -> list[str]:
    rows = move_rows(db_url, game_id)
    assert [r.ply for r in rows] == list(range(len(rows)))  # one row per ply
    return [r.text for r in rows]


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.timeout(240)
def test_real_time_moves_the_holder_acknowledged_are_played_after_its_sigkill(cluster, cluster_db):  # noqa: F811
    a, b = cluster(2)
    tick = 1.5  # long enough to kill A between two of its ticks on a busy machine
    game_id, tokens = create(a.base, **TICKER, options={"tick": tick, "ticks": 100000})

    async def scenario():
        seat, _ = await open_seat([a.base], game_id, tokens[0])  # A holds the lease
        await seat.wait(lambda s: s["ply"] >= 1)
        ply = seat.state["ply"]
        await seat.wait(lambda s: s["ply"] > ply)  # a tick just came: the next is 1.5 s away
        for request in (1, 2):  # two moves for the next two ticks, acknowledged by A
            await seat.ws.send(json.dumps({"type": "move", "move": "go", "id": request}))
            reply = await seat.reply(request)
            assert reply["type"] == "ok", reply
        a.proc.kill()  # SIGKILL before A's next tick
        a.proc.wait()
        await seat.close()

    asyncio.run(scenario())
    at_kill = stored_texts(cluster_db, game_id)
    assert "go" not in at_kill, "A ticked before it was killed: the test did not test the case"
    # B takes the lease over (within LEASE_SECONDS and a heartbeat) and plays both moves.
    asyncio.run(until(lambda: stored_texts(cluster_db, game_id).count("go") >= 2, timeout=60))
    played = stored_texts(cluster_db, game_id)
    asyncio.run(until(lambda: len(stored_texts(cluster_db, game_id)) >= len(played) + 2, timeout=60))
    texts = stored_texts(cluster_db, game_id)
    assert texts.count("go") == 2, texts  # each once
    assert texts[: len(at_kill)] == at_kill  # after the ticks A stored
    state = httpx.get(f"{b.base}/api/games/{game_id}", timeout=30).json()
    assert [m["text"] for m in state["moves"]][: len(texts)] == texts


def crash(manager: Manager) -> None:
    """Stop a serving process as SIGKILL would: nothing more is stored or given up."""
    for handle in manager.timers.handles.values():
        handle.cancel()
    for task in list(manager.tasks):
        task.cancel()
    manager.bots.pool.shutdown(wait=False, cancel_futures=True)
    manager.db.shutdown(wait=True)


@pytest.mark.timeout(120)
def test_a_real_time_move_acknowledged_before_a_crash_is_played_after_the_restart(db_url):
    tick = 1.0

    async def scenario():
        storage = Storage(db_url)
        first = Manager(storage)
        await first.start()
        session, tickets = await first.create({**TICKER, "options": {"tick": tick, "ticks": 100000}})
        await until(lambda: session.state.ply >= 1)
        ply = session.state.ply
        await until(lambda: session.state.ply > ply)  # a tick just came
        await first.move(session.id, tickets[0]["token"], "go", None)  # acknowledged
        crash(first)
        storage.close()
        assert "go" not in stored_texts(db_url, session.id)

        storage = Storage(db_url)
        second = Manager(storage)
        await second.start()  # resumes the game and plays the move at its first tick
        try:
            resumed = second.sessions[session.id]
            await until(lambda: "go" in [m.text for m in resumed.state.history], timeout=10 * tick + 10)
            at = len(resumed.state.history)
            await until(lambda: resumed.state.ply >= at + 2, timeout=10 * tick + 10)
            assert [m.text for m in resumed.state.history].count("go") == 1
        finally:
            await second.stop()
            storage.close()
        assert stored_texts(db_url, session.id).count("go") == 1

    asyncio.run(scenario())


@on_postgres
def test_at_most_three_moves_wait_per_seat_whichever_processes_they_reach(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            session, tickets = await a.create({**TICKER, "options": {"tick": 30.0, "ticks": 10}})
            token = tickets[0]["token"]
            for manager in (b, a, b):  # B is not the holder: it counts what the store holds
                await manager.move(session.id, token, "go", None)
            for manager in (b, a):
                with pytest.raises(ApiError) as refused:
                    await manager.move(session.id, token, "go", None)
                assert refused.value.status == 409 and "wait" in refused.value.message
            assert len(await asyncio.to_thread(QueuedMoves(a.storage).waiting, session.id)) == 3

    asyncio.run(scenario())
