"""Clocks and real-time ticks of the live games. ``settle`` and ``flag`` change a session
and say what changed; ``Timers`` keeps one timer per game run here, at its clock's deadline
or its next real-time tick, where a flag falls or every human seat acts once (its oldest
move still legal, else the idle move the server plays for it)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from ..core import CHANCE
from . import moves
from .changes import RowChanged
from .errors import ApiError
from .session import QUEUED_MOVES, Session

if TYPE_CHECKING:
    from .manager import Manager

log = logging.getLogger("qipan.server")


def settle(session: Session, now: float) -> bool:
    """Finish a game the rules ended and run the clock of the seat to move. True if that
    changed something to store."""
    changed = False
    if session.state.outcome is not None and session.result is None:
        session.finish(session.state.outcome)
        changed = True
    if session.clock:
        to_move = session.state.to_move
        if session.status == "active" and to_move is not None and to_move != CHANCE:
            if session.clock.running != to_move:
                session.clock.start(to_move, now)
                changed = True
        elif session.clock.running is not None:
            session.clock.start(None, now)
            changed = True
    return changed


def flag(session: Session, now: float) -> RowChanged | None:
    """End the game if the seat to move has run out of time (None if nobody has)."""
    if session.status != "active" or session.clock is None:
        return None
    seat = session.clock.flagged(now)
    if seat is None:
        return None
    session.clock.remaining[seat] = 0.0  # a flagged clock shows 0, not the time of its last start
    session.finish(session.others_win(seat, f"{session.name(seat)} ran out of time"))
    return RowChanged()


class Timers:
    def __init__(self, manager: Manager):
        self.manager = manager
        self.handles: dict[str, asyncio.TimerHandle] = {}
        #: Real-time games whose queued moves must be read from the store before their next
        #: tick (another process left some, or this one just took or resumed the game).
        self.unread: set[str] = set()

    async def check_time(self, session: Session) -> bool:
        """End and store the game if its seat to move has run out of time (under its lock)."""
        change = flag(session, time.time())
        if change is None:
            return False
        await self.manager.store(session, change)
        return True

    def schedule(self, session: Session, now: float, at_least: float = 0.0) -> None:
        """One timer per game: at the clock's deadline, or at the next real-time tick."""
        self.cancel(session.id)
        if session.status != "active":
            return
        deadlines = []
        if session.clock and session.clock.deadline() is not None:
            deadlines.append(session.clock.deadline())
        tick = session.realtime_tick
        to_move = session.state.to_move
        if tick and to_move is not None and to_move >= 0 and session.seats[to_move].human:
            deadlines.append(now + tick)
        if not deadlines:
            return
        delay = max(at_least, min(deadlines) - now)
        loop = asyncio.get_running_loop()
        self.handles[session.id] = loop.call_later(delay + 0.001, self._due, session, session.epoch)

    def cancel(self, game_id: str) -> None:
        handle = self.handles.pop(game_id, None)
        if handle:
            handle.cancel()

    def cancel_all(self) -> None:
        for handle in self.handles.values():
            handle.cancel()

    def _due(self, session: Session, epoch: int) -> None:
        self.handles.pop(session.id, None)
        self.manager._spawn(self.fired(session, epoch))

    async def fired(self, session: Session, epoch: int) -> None:
        """A game's timer is due: a flag falls, or the real-time seats act."""
        manager = self.manager
        retry = 0.0

        async def fire(session: Session) -> bool:
            if not manager.cluster.runs(session):  # the lease went to another process
                return True
            if await self.check_time(session) or session.epoch != epoch or session.status != "active":
                return True
            tick = session.realtime_tick
            seat = session.state.to_move
            if tick and seat is not None and seat >= 0:
                await self._read_queued(session)
                # Every human seat acts once a tick, in the order the game asks them (as the
                # terminal's loop plays them): a tick per seat would run a game of two at
                # half its pace. A seat's move: the first it queued that is still legal, else
                # (it let the tick pass) the server plays its idle move for it.
                acted: set[int] = set()
                while seat is not None and seat >= 0 and seat not in acted and session.status == "active":
                    if not session.seats[seat].human:
                        break  # a bot moves when it has thought
                    text, taken = session.pick_queued(seat)
                    await manager.store(session, moves.play(session, seat, text or session.idle_move, taken))
                    acted.add(seat)
                    seat = session.state.to_move
                return True
            return False

        try:
            if await manager.change(session, fire):
                return
        except ApiError as exc:
            log.warning("game %s: timer: %s", session.id, exc.message)
            retry = 1.0  # e.g. the store is down: try again in a second, not at once
        if session.id not in self.handles:
            self.schedule(session, time.time(), at_least=retry)

    async def _read_queued(self, session: Session) -> None:
        """Before a tick: read the game's queued moves from the store when this process may
        not know them all (another process left some, the game was just taken over or
        resumed, or this process cannot hear the others)."""
        if session.id not in self.unread and not self.manager.cluster.deaf:
            return
        self.unread.discard(session.id)  # a notice from now on sets it again
        try:
            rows = await self.manager._db(self.manager.queue.waiting, session.id)
        except ApiError:
            self.unread.add(session.id)
            raise
        session.set_queued(rows)

    async def queue(self, session: Session, seat: int, text: str) -> None:
        """A real-time move for ``seat``'s next tick: checked here (as the holder would:
        legal now, not too many waiting), then stored (queued.py) before it is acknowledged,
        since the holder may die before that tick. The holder keeps it in memory too;
        another process tells the holder to read the queue before its tick."""
        manager = self.manager
        session.check_queued(seat, text)
        row = await manager._db(manager.queue.add, session.id, seat, text, QUEUED_MOVES)
        if row is None:
            raise ApiError(409, f"{QUEUED_MOVES} moves already wait for your next ticks")
        if manager.cluster.runs(session):
            session.add_queued(seat, row, text)
        else:
            manager.cluster.tell_queued(session.id)
