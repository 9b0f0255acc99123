"""A real preset played in real time (Pipe Mania) ticks from the moment the game starts —
its creation with every seat taken, or the join that takes the last seat — not from its
first move: the rules' countdown (``start_delay`` ticks, rules file §3.2) runs whether or
not the player has acted. Nobody moves in these games; the server's ticks are its moves."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import move_rows, serving, until  # noqa: E402

from qipan.core import CHANCE  # noqa: E402


def ticks_of(db_url: str, game_id: str) -> list[float]:
    """When each stored tick (a seat's pass, "-") was stored."""
    return [r.at for r in move_rows(db_url, game_id) if r.text == "-"]


def first_tick(manager, session) -> float:
    """When the game's timer is due (event loop time): its next real-time tick."""
    return manager.timers.handles[session.id].when()


@pytest.mark.timeout(120)
def test_pipe_mania_ticks_from_its_creation_without_a_move(sqlite_url):
    async def scenario():
        async with serving(sqlite_url) as manager:
            loop = asyncio.get_running_loop()
            before = loop.time()
            session, _ = await manager.create(
                {"game": "pipemania", "seats": [{"kind": "human", "join": True}]}
            )
            after = loop.time()
            tick = session.realtime_tick
            assert tick == 0.5
            # The first tick is set one tick after the creation, not after a first move.
            assert before + tick <= first_tick(manager, session) <= after + tick + 0.01
            await until(lambda: len(ticks_of(sqlite_url, session.id)) >= 4)
            players = [m.player for m in session.stored.moves]
            assert set(players) <= {0, CHANCE}  # the server's passes for seat 0, and refills

    asyncio.run(scenario())


@pytest.mark.timeout(120)
def test_pipe_mania_waits_for_its_players_then_ticks_from_the_join(sqlite_url):
    async def scenario():
        async with serving(sqlite_url) as manager:
            session, tickets = await manager.create(
                {"game": "pipemania-2p", "seats": [{"kind": "human", "join": True}, {"kind": "human"}]}
            )
            assert session.status == "open"
            assert session.id not in manager.timers.handles  # no clock before the game starts
            assert ticks_of(sqlite_url, session.id) == []
            invite = next(t["invite"] for t in tickets if t["seat"] == 1)
            loop = asyncio.get_running_loop()
            before = loop.time()
            await manager.join(session.id, None, None, "Bob", invite)
            after = loop.time()
            assert session.status == "active"
            tick = session.realtime_tick
            assert before + tick <= first_tick(manager, session) <= after + tick + 0.01
            await until(lambda: len(ticks_of(sqlite_url, session.id)) >= 2)

    asyncio.run(scenario())
