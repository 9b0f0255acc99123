"""A real-time tick lets every seat act once, as the terminal's loop does: Pipe Mania for
two ran at half its pace on the server when each seat had a tick of its own."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import serving  # noqa: E402

from qipan.core import CHANCE  # noqa: E402

TWO = [{"kind": "human", "join": True}, {"kind": "human", "join": True}]


@pytest.mark.timeout(120)
def test_one_tick_plays_both_seats_of_a_two_player_game(sqlite_url):
    async def scenario():
        async with serving(sqlite_url) as manager:
            # Ticks of a minute: only the tick fired below plays.
            session, tickets = await manager.create({"game": "pipemania-2p", "seats": TWO, "realtime": 60})
            assert session.status == "active" and session.state.to_move == 0
            token = {t["seat"]: t["token"] for t in tickets}
            after = session.state.copy()
            after.play(session.idle_move)  # what seat 1 will see at its turn in the tick
            queued = next(m.text for m in after.legal_moves() if m.text != session.idle_move)
            await manager.move(session.id, token[1], queued, session.state.ply)
            before = len(session.stored.moves)
            await manager.timers.fired(session, session.epoch)
            tick = [m for m in session.stored.moves[before:] if m.player != CHANCE]
            assert [m.player for m in tick] == [0, 1]
            assert tick[0].text == session.idle_move  # seat 0 let the tick pass
            assert tick[1].text != session.idle_move  # seat 1's queued move was played
            assert session.state.to_move in (0, CHANCE)  # the next tick starts again at seat 0
            fresh = manager.storage.get_game(session.id)
            assert [m.text for m in fresh.moves] == [m.text for m in session.stored.moves]

    asyncio.run(scenario())
