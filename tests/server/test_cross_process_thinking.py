"""A bot thinking in the process holding its game's lease shows in every process: its
listeners see "thinking" start and end, also when the thinker dies (it runs out with the
lease) — Managers in one test process on the machine's PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_helpers import on_postgres, serving, until  # noqa: E402

from qipan.server.lease import LEASE_SECONDS  # noqa: E402
from qipan.server.listeners import Connection  # noqa: E402
from qipan.server.updates import apply  # noqa: E402

BOT_GAME = {
    "game": "toy-ttt",
    "seats": [{"kind": "human", "name": "Ann", "join": True}, {"kind": "bot", "agent": "random"}],
}


class Watcher:
    """A spectator's socket stand-in: the states it is sent, in order, with their times."""

    def __init__(self, manager, session):
        self.session = session
        self.states: list[tuple[float, dict]] = []
        self.conn = Connection(self.send, None)
        self.states.append((time.time(), json.loads(manager.listeners.subscribe(session, self.conn))))

    async def send(self, text: str) -> None:
        message = json.loads(text)
        state = message if message["type"] == "state" else apply(self.states[-1][1], message)
        self.states.append((time.time(), state))

    def shown(self) -> list[tuple[int, bool]]:
        """(ply, thinking) as the page showed them, repeats left out."""
        out = []
        for _, s in self.states:
            if not out or out[-1] != (s["ply"], s["bot_thinking"]):
                out.append((s["ply"], s["bot_thinking"]))
        return out


class SlowAgent:
    """Thinks until released (then plays the first legal move)."""

    def __init__(self):
        self.release = threading.Event()

    def choose(self, state, budget=None):
        self.release.wait(60)
        return state.legal_moves()[0]


def heartbeat_task(manager) -> asyncio.Task:
    return next(t for t in manager.tasks if t.get_coro().__name__ == "_heartbeats")


@on_postgres
def test_a_bot_thinking_in_one_process_shows_in_another_and_ends_with_its_move(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            session, tickets = await a.create(BOT_GAME)  # A holds the lease: A runs the bot
            slow = SlowAgent()
            session.agents[1] = slow
            watcher = Watcher(b, await b.get(session.id))  # a spectator on B
            await a.move(session.id, tickets[0]["token"], "a1", 0)
            await until(lambda: watcher.shown()[-1] == (1, True))
            first = watcher.session.thinking_elsewhere
            # Past the time the first mark ran to: A's heartbeats renewed it meanwhile.
            await until(lambda: time.time() > first[1] + 0.1)
            assert watcher.session.thinking_elsewhere[1] > first[1]
            assert watcher.shown()[-1] == (1, True)
            slow.release.set()
            await until(lambda: watcher.shown()[-1] == (2, False))
            assert (1, True) in watcher.shown()

    asyncio.run(scenario())


@on_postgres
def test_thinking_shown_elsewhere_ends_when_the_thinkers_lease_runs_out(db_url, redis_url):
    async def scenario():
        async with serving(db_url, redis_url) as a, serving(db_url, redis_url) as b:
            session, tickets = await a.create(BOT_GAME)
            slow = SlowAgent()
            session.agents[1] = slow  # A's bot hangs; B's copy of the game has the fast one
            watcher = Watcher(b, await b.get(session.id))
            try:
                await a.move(session.id, tickets[0]["token"], "a1", 0)
                await until(lambda: watcher.shown()[-1] == (1, True))
                heartbeat_task(a).cancel()  # A stops beating, as if it died mid-think
                # B's spectator sees the thinking end when A's lease could end, before B
                # takes the game over (LEASE_SECONDS after A's last beat) and its bot moves.
                await until(lambda: watcher.shown()[-1] == (1, False), timeout=LEASE_SECONDS + 5)
                assert not b.cluster.leases.holds(session.id)
                await until(lambda: watcher.shown()[-1][0] == 2, timeout=30)
                assert b.cluster.leases.holds(session.id)
                assert watcher.shown()[-1] == (2, False)
            finally:
                slow.release.set()

    asyncio.run(scenario())
