"""The bots of the live games run here: a bot to move thinks in a thread of its own pool
(off the event loop), then plays through the game's lock like anyone else, unless the
position changed meanwhile (an undo, a resignation)."""

from __future__ import annotations

import asyncio
import logging
import random
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from . import moves
from .errors import ApiError
from .session import Session

if TYPE_CHECKING:
    from .manager import Manager

log = logging.getLogger("qipan.server")


class Bots:
    def __init__(self, manager: Manager, workers: int):
        self.manager = manager
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="qipan-bot")

    def schedule(self, session: Session) -> None:
        """Start the bot to move thinking, if one is to move and none thinks yet."""
        seat = session.state.to_move
        if session.status != "active" or session.bot_thinking or seat is None or seat < 0:
            return
        if not session.seats[seat].bot:
            return
        session.bot_thinking = True
        self.manager.cluster.tell_thinking(session)
        self.manager._spawn(self._move(session, seat, session.epoch))

    def stop(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)

    async def _move(self, session: Session, seat: int, epoch: int) -> None:
        manager = self.manager
        state = session.state.view(seat) if session.game.hides_information else session.state.copy()
        loop = asyncio.get_running_loop()
        try:
            agent = session.agent(seat)
            # With a clock the bot spends a share of its remaining time (agents/budget.py).
            move = await loop.run_in_executor(self.pool, agent.choose, state, session.bot_budget(seat))
            text = move.text
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: the bot in seat %d failed; it plays a random move", session.id, seat)
            text = random.Random(epoch).choice(session.state.legal_moves()).text
        finally:
            session.bot_thinking = False
            manager.cluster.tell_thinking(session)

        async def play(session: Session) -> None:
            if not manager.cluster.runs(session):  # the lease went to another process
                return
            if session.epoch != epoch or session.status != "active" or session.state.to_move != seat:
                self.schedule(session)  # the position changed meanwhile (undo, resignation)
                return
            if await manager.timers.check_time(session):
                return
            await manager.store(session, moves.play(session, seat, text))

        try:
            await manager.change(session, play)
        except ApiError as exc:
            log.error("game %s: the bot's move %r was rejected: %s", session.id, text, exc.message)
            if exc.status >= 500:  # not stored: think again in a second
                asyncio.get_running_loop().call_later(1.0, self.schedule, session)
