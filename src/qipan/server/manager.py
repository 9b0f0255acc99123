"""The game manager: routes each request to the module of its concern, holds each game's
lock across validate -> change -> store -> tell, stores what changed, publishes it to the
other processes and tells every connected client.

The concerns, each in its own module, change a game and say what changed (changes.py):
moves.py (a move, a resignation, an abort), offers.py (draw, undo), seating.py (seats,
joins), timers.py (clocks and real-time ticks), bots.py (bots think off the event loop),
cluster.py (heartbeats, leases, catching up with other processes), listeners.py (what
each client is sent). Requests are checked by inputs.py.

Game state changes on the event loop thread only. Storage calls run in a small thread pool
(``db_workers``) so one game's database round trips do not stall the others. Each game has
an ``asyncio.Lock`` held across a whole change: a second change of the same game waits for
the first, and readers wait for a change in progress, so nobody sees a change before it is
stored. A failed write rolls the game back. With several processes every write is made
against the game's stored version, so the store serialises the processes' changes of a
game: a change made against an old version is refused, the game catches up from the store
and the change is tried again."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..core import QipanError
from . import moves, offers, seating
from .bots import Bots
from .changes import Change, Played, RowChanged, TakenBack
from .cluster import Cluster
from .creation import new_game
from .errors import ApiError
from .inputs import invite_code, move_text, scrub, seat_name
from .listeners import Connection, Listeners
from .queued import QueuedMoves
from .session import Session, new_game_id
from .storage import GameChanged, StaleMove, Storage
from .timers import Timers, settle

__all__ = ["Connection", "Manager"]

log = logging.getLogger("qipan.server")
MAX_CACHED = 2000
#: Times a change is tried against a game that other processes keep changing meanwhile.
CHANGE_ATTEMPTS = 4


class Manager:
    def __init__(
        self,
        storage: Storage,
        bot_workers: int = 2,
        db_workers: int | None = None,
        redis_url: str | None = None,
    ):
        self.storage = storage
        self.sessions: dict[str, Session] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.db = ThreadPoolExecutor(max_workers=db_workers or storage.workers, thread_name_prefix="qipan-db")
        #: Real-time moves waiting for their tick, in the store (queued.py).
        self.queue = QueuedMoves(storage)
        self.tasks: set[asyncio.Task] = set()
        #: This serving process, in the store's list of processes (heartbeats).
        self.process = new_game_id() + new_game_id()
        #: Called with the session after every stored change (the site rates finished games).
        self.on_change: list = []
        #: ``async (game_id) -> bool``: whether a game is rated (set by the site, site.py).
        self.is_rated = None
        self.listeners = Listeners(self)
        self.timers = Timers(self)
        self.bots = Bots(self, bot_workers)
        self.cluster = Cluster(self, redis_url)

    async def start(self) -> None:
        """Resume the unfinished games this process runs (cluster.py)."""
        await self.cluster.start()

    async def stop(self) -> None:
        self.timers.cancel_all()
        for task in list(self.tasks):
            task.cancel()
        await self.cluster.stop()
        self.bots.stop()
        self.db.shutdown(wait=True)  # writes under way finish

    # -- storage and locks -------------------------------------------------------------
    async def _db(self, call, *args, **kwargs):
        """Run a storage call in the database threads. StaleMove passes through; any other
        failure becomes a 503 (the caller's change is then rolled back)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self.db, functools.partial(call, *args, **kwargs))
        except (StaleMove, GameChanged):
            raise
        except Exception as exc:
            log.exception("storage call %s failed", getattr(call, "__name__", call))
            raise ApiError(
                503, f"the game store failed ({type(exc).__name__}); nothing was changed, try again"
            ) from exc

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self.locks.get(game_id)
        if lock is None:
            lock = self.locks[game_id] = asyncio.Lock()
        return lock

    @contextlib.asynccontextmanager
    async def _changing(self, session: Session):
        """Hold the game's lock for one change; any error rolls the game back."""
        async with self._lock(session.id):
            snap = session.snapshot()
            try:
                yield
            except BaseException:
                session.roll_back(snap)
                raise

    async def change(self, session: Session, body: Callable[[Session], Awaitable[Any]]) -> Any:
        """Run ``await body(session)`` as one change of the game, under its lock. When the
        store refuses the write because another process changed the game since this one
        last heard of it (GameChanged), the game catches up from the store and ``body``
        runs again, against the new position (so it checks again what it checked)."""
        for _ in range(CHANGE_ATTEMPTS):
            try:
                async with self._changing(session):
                    if self.cluster.deaf:
                        await self.cluster.catch_up(session)  # deaf to the others: ask the store
                    return await body(session)
            except GameChanged:
                async with self._lock(session.id):
                    await self.cluster.catch_up(session)
        raise ApiError(503, "the game kept changing while this change was stored; try again")

    async def _run(self, session: Session, act: Callable[[Session], Change]) -> Session:
        """``act(session)`` (checks, changes the game, says what changed) as one stored change."""

        async def body(session: Session) -> None:
            await self.store(session, act(session))

        await self.change(session, body)
        return session

    async def _settled(self, game_id: str) -> None:
        """Wait until a change of this game that is being stored is done (or undone). The
        caller then reads the game before its next await, so it sees a stored state."""
        lock = self.locks.get(game_id)
        if lock is not None and lock.locked():
            async with lock:
                pass

    # -- look-up -----------------------------------------------------------------------
    async def get(self, game_id: str) -> Session:
        """The live game, as stored: read it before the next await."""
        session = await self._load(game_id)
        await self._settled(game_id)
        return session

    async def _load(self, game_id: str) -> Session:
        session = self.sessions.get(game_id)
        if session is None:
            stored = await self._db(self.storage.get_game, game_id)
            session = self.sessions.get(game_id)  # loaded by another request meanwhile?
            if session is not None:
                return session
            if stored is None:
                raise ApiError(404, f"there is no game {game_id!r}")
            for seat in stored.seats:  # stored by a server that did not check names
                seat.name = scrub(seat.name)
            try:
                session = Session.restore(stored)
            except QipanError as exc:  # e.g. its game is no longer installed
                raise ApiError(500, f"game {game_id} cannot be replayed: {exc}") from exc
            self.sessions[game_id] = session
            self._forget_old_games()
            if self.cluster.heard.get(game_id, -1) > session.version:  # changed while we read it
                self._spawn(self.cluster.catch_up_locked(game_id))
        return session

    def _forget_old_games(self) -> None:
        """Keep at most MAX_CACHED games in memory: finished games nobody watches go first
        (they are reloaded from storage when asked for)."""
        excess = len(self.sessions) - MAX_CACHED
        if excess <= 0:
            return
        for game_id in [
            g
            for g, s in self.sessions.items()
            if s.status == "over" and not self.listeners.watched(g) and not self._lock(g).locked()
        ]:
            del self.sessions[game_id]
            self.locks.pop(game_id, None)
            excess -= 1
            if excess <= 0:
                break

    async def list(self, status: str | None, limit: int, ids: list[str] | None = None) -> list[dict]:
        if ids is None:
            games = await self._db(self.storage.list_games, status=status, limit=limit, public_only=True)
            ids = [g.id for g in games]
        out = []
        for game_id in ids[:limit]:
            try:
                out.append((await self.get(game_id)).summary())
            except ApiError:  # unknown, or a game that no longer replays: leave it out
                continue
        return out

    # -- requests ----------------------------------------------------------------------
    async def create(self, data: dict) -> tuple[Session, list[dict]]:
        """A new game from a request; returns it and what its creator learns of each human
        seat (seating.tickets)."""
        session = new_game(data)
        stored, now = session.stored, time.time()
        holder = self.process if self.cluster.leases is not None else None
        await self._db(self.storage.create_game, stored, holder)
        self.cluster.took(stored.id)
        session.epoch += 1
        self.sessions[stored.id] = session
        self._notify(session, now)
        return session, seating.tickets(stored.seats)

    async def join(self, game_id: str, token: str | None, seat: Any, name: Any, invite: Any = None) -> dict:
        session = await self._load(game_id)
        name, invite = seat_name(name), invite_code(invite)

        async def join(session: Session) -> dict:
            ticket, change = seating.join(session, token, seat, name, invite)
            await self.store(session, change)
            return ticket

        return await self.change(session, join)

    async def bind_account(self, game_id: str, seat: int, username: str) -> None:
        """The seat belongs to the account ``username`` (site.py), for good."""
        session = await self._load(game_id)

        async def bind(session: Session) -> None:
            change = seating.bind(session, seat, username)
            if change is not None:
                await self.store(session, change)

        await self.change(session, bind)

    async def move(self, game_id: str, token: str | None, text: Any, ply: Any) -> Session:
        session = await self._load(game_id)
        text, ply = move_text(text, ply)

        async def play(session: Session) -> bool:
            # Checked under the lock: a second move for the same ply waits here and then
            # finds the game one ply further.
            seat = session.require_seat(token)
            session.require_active()
            if await self.timers.check_time(session):
                return False
            if session.realtime_tick and session.seats[seat].human:
                # Real time: the move waits for the seat's next tick (the timer plays it),
                # so ticks follow the clock, never the clicks.
                await self.timers.queue(session, seat, text)
                return True
            moves.check_turn(session, seat, ply, self.cluster.shared)
            await self.store(session, moves.play(session, seat, text))
            return True

        if await self.change(session, play):
            return session
        raise ApiError(409, f"the game is over ({session.result.reason})")

    async def resign(self, game_id: str, token: str | None) -> Session:
        session = await self._load(game_id)
        # A rated game resigned before each side has moved is aborted (fair_play.py).
        rated = self.is_rated is not None and await self.is_rated(game_id)
        return await self._run(session, lambda s: moves.resign(s, s.require_seat(token), rated))

    async def abort(self, game_id: str, token: str | None) -> Session:
        session = await self._load(game_id)
        return await self._run(session, lambda s: moves.abort(s, s.require_seat(token)))

    async def draw(self, game_id: str, token: str | None, action: Any) -> Session:
        session = await self._load(game_id)
        return await self._run(session, lambda s: offers.draw(s, s.require_seat(token), action))

    async def undo(self, game_id: str, token: str | None, action: Any) -> Session:
        session = await self._load(game_id)
        return await self._run(session, lambda s: offers.undo(s, s.require_seat(token), action, time.time()))

    async def amend(self, game_id: str, change: Callable[[Session], None]) -> Session:
        """Run ``change(session)`` (a synchronous edit of its seats, clock or result, which
        checks what it needs and raises ApiError to refuse) as one stored change of the
        game, under its lock. The site's features outside the rules use it: an arena's
        berserk, an abandoned seat (leavers.py)."""

        def act(session: Session) -> RowChanged:
            change(session)
            return RowChanged()

        return await self._run(await self._load(game_id), act)

    # -- after every change ------------------------------------------------------------
    async def store(self, session: Session, change: Change) -> None:
        """Store what a change did, with what settling the game changes (a finish, the next
        seat's clock) in the same write; publish it, then tell everyone. The caller holds
        the game's lock (``change``), which rolls the game back if the write fails."""
        now = time.time()
        settled = settle(session, now)
        row = session.stored
        if isinstance(change, Played):
            await self._append(session, change, now)
        elif isinstance(change, TakenBack):
            await self._db(self.storage.truncate_moves, session.id, change.keep, **_row(session))
            row.version += 1
            self.cluster.publish(session, change.keep, now)
        elif change is not None or settled:
            await self._db(
                self.storage.update_game, session.id, **_row(session), offers=session.stored_offers()
            )
            row.version += 1
            self.cluster.publish(session, len(row.moves), now)
        self._notify(session, now)

    async def _append(self, session: Session, played: Played, now: float) -> None:
        """Store moves added to the record (and the real-time moves a tick took, in the same
        write), then publish them."""
        args = (
            session.id,
            played.first,
            played.moves,
            session.status,
            session.stored_result(),
            session.stored_clock(),
            session.version,
        )
        try:
            if played.taken:
                await self._db(self.queue.append_taking, *args, played.taken)
            else:
                await self._db(self.storage.append_moves, *args)
        except StaleMove as exc:
            raise ApiError(409, f"stale move: {exc}") from exc
        except GameChanged:
            if played.taken:  # another process may have played them: read the queue again
                self.timers.unread.add(session.id)
            raise
        if played.taken:
            session.drop_queued(played.taken)
        session.stored.version += 1
        session.stored.moves.extend(played.moves)
        session.epoch += 1
        self.cluster.publish(session, played.first, now)

    def _notify(self, session: Session, now: float) -> None:
        """After a stored change: schedule timers and bots, tell the listeners."""
        self._schedule(session, now)
        self._spawn(self.listeners.broadcast(session))
        for hook in self.on_change:
            hook(session)

    def _schedule(self, session: Session, now: float) -> None:
        """Timers and bots, where this process runs the game."""
        if not self.cluster.runs(session):
            return
        self.timers.schedule(session, now)
        self.bots.schedule(session)
        if session.status == "over":
            self.cluster.over(session)

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def _row(session: Session) -> dict:
    """The game row's changeable fields, written against the version this process holds."""
    return {
        "version": session.version,
        "status": session.status,
        "seats": session.seats,
        "result": session.stored_result(),
        "clock": session.stored_clock(),
    }
