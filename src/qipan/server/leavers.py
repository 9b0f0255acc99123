"""Abandoned seats: a player who was connected to the game and whose seat has then had no
connection, in any serving process, for longer than the game's grace period has left. In a two-player game the opponent may
then claim the win or a draw; in a game of three or four a bot of the strongest level
takes the seat (everyone is told in the chat) and the game goes on. Either way the seat
is marked ``left`` and the leaver's rating counts the game as lost (standings.py).

A correspondence game has no grace period: its days-per-move clock decides."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time

from ..agents.levels import LEVELS
from ..core import Outcome
from .errors import ApiError
from .session import Session

log = logging.getLogger("qipan.server")
#: How long a live game's seat may be without a connection before it counts as left
#: (QIPAN_GRACE_SECONDS sets another: the browser tests use a few seconds).
GRACE_SECONDS = float(os.environ.get("QIPAN_GRACE_SECONDS", "60"))
WATCH_SECONDS = 1.0
STRONGEST = max(lvl.number for lvl in LEVELS)


def grace(session: Session) -> float | None:
    """The game's grace period in seconds; None for correspondence (no abandonment)."""
    if session.clock is not None and session.clock.wall:
        return None
    return GRACE_SECONDS


class Leavers:
    """Watches the live games loaded in this process: since when each human seat has had
    no connection anywhere."""

    def __init__(self, site):
        self.site = site
        self.grace = GRACE_SECONDS
        #: (game id, seat) -> when this process first saw the seat without a connection.
        self.gone: dict[tuple[str, int], float] = {}
        #: (game id, seat) seen connected at some time: only those can leave.
        self.came: set[tuple[str, int]] = set()

    def start(self) -> None:
        self.site.manager._spawn(self._loop())

    def grace_of(self, session: Session) -> float | None:
        return None if grace(session) is None else self.grace

    def _online(self, session: Session, seat: int) -> bool:
        return session.online.get(seat, 0) > 0 or seat in session.online_elsewhere

    def _came(self, session: Session, seat: int) -> bool:
        """Whether the seat's player was ever connected (as this process knows): a seat
        played over plain HTTP (a program, a test) never connects and is never judged."""
        if seat in session.online or seat in session.online_elsewhere:
            self.came.add((session.id, seat))
        return (session.id, seat) in self.came

    def look(self, now: float) -> list[tuple[Session, int]]:
        """Update who is gone; returns the seats of 3-4 player games (run here) gone for
        longer than the grace period."""
        seen = set()
        due = []
        for session in list(self.site.manager.sessions.values()):
            if session.status != "active" or self.grace_of(session) is None:
                continue
            for seat, s in enumerate(session.seats):
                if not s.human:
                    continue
                key = (session.id, seat)
                if self._online(session, seat) or not self._came(session, seat):
                    continue
                seen.add(key)
                since = self.gone.setdefault(key, now)
                if (
                    session.stored.players > 2
                    and now - since >= self.grace
                    and self.site.manager.cluster.runs(session)
                ):
                    due.append((session, seat))
        for key in set(self.gone) - seen:
            del self.gone[key]
        live = {
            (s.id, seat)
            for s in self.site.manager.sessions.values()
            if s.status == "active"
            for seat in range(len(s.seats))
        }
        self.came &= live
        return due

    def gone_for(self, session: Session, now: float) -> dict[int, float]:
        """Seconds each human seat has been without a connection (as seen here)."""
        out = {}
        for seat, s in enumerate(session.seats):
            if s.human and not self._online(session, seat) and self._came(session, seat):
                out[seat] = now - self.gone.get((session.id, seat), now)
        return out

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                for session, seat in self.look(time.time()):
                    await self.replace(session.id, seat)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("watching for abandoned seats failed; the next look tries again")

    async def replace(self, game_id: str, seat: int) -> None:
        """A bot of the strongest level takes the seat; the players are told in the chat."""
        name = None

        def take(session: Session) -> None:
            nonlocal name
            s = session.seats[seat]
            if session.status != "active" or not s.human:
                raise ApiError(409, "that seat is not a player's any more")
            name = session.name(seat)
            s.kind, s.agent, s.limits, s.left = "bot", "level", {"level": STRONGEST}, True
            s.name = f"level {STRONGEST} (for {name})"
            session.agents.pop(seat, None)

        with contextlib.suppress(ApiError):
            await self.site.manager.amend(game_id, take)
            self.gone.pop((game_id, seat), None)
            text = f"{name} left the game: level {STRONGEST} plays their seat from now on"
            for room in ("players", "spectators"):
                await self.site.db(self.site.chat.post, game_id, room, "qipan", text, None, None)

    async def claim(self, game_id: str, token: str | None, action: object) -> Session:
        """Two players: the one still here ends the game, a win or a draw, once the other
        has been gone for longer than the grace period."""
        if action not in ("win", "draw"):
            raise ApiError(400, "action must be 'win' or 'draw'")
        now = time.time()

        def end(session: Session) -> None:
            mine = session.require_seat(token)
            session.require_active()
            if session.stored.players != 2:
                raise ApiError(409, "in a game of three or four a bot takes an abandoned seat")
            limit = self.grace_of(session)
            if limit is None:
                raise ApiError(409, "a correspondence game is decided by its clock")
            other = 1 - mine
            gone = self.gone_for(session, now).get(other)
            if gone is None or gone < limit:
                left = 0 if gone is None else limit - gone
                raise ApiError(
                    409, f"{session.name(other)} is still here or may come back: wait {left:.0f} s more"
                )
            session.seats[other].left = True
            reason = f"{session.name(other)} left the game"
            session.finish(session.others_win(other, reason) if action == "win" else Outcome.draw(2, reason))

        return await self.site.manager.amend(game_id, end)
