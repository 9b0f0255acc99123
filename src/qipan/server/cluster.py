"""This serving process among the others that share the game store: heartbeats, the
leases of the games it runs, and catching up with what the others store.

Every process records a heartbeat every HEARTBEAT_SECONDS (also alone: a restart charges
running clocks only for the time some process served). With ``redis_url`` several
processes serve one PostgreSQL database (docs/server.md, "Several processes"): every
stored change is published (pubsub.py) and the others apply it to their copy of the game
and tell their own listeners; a game's bots, clocks and ticks run only in the process
holding its lease (lease.py), and a process takes over the games of one that stopped
beating. Which seats are online and whether a game's bot thinks travel the same way."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

from ..core import QipanError
from .changes import RowChanged
from .errors import ApiError
from .inputs import scrub
from .lease import LEASE_SECONDS, Leases, served
from .presence import Presence
from .seats import seats_from_dicts, seats_to_dicts
from .session import Session
from .storage import StoredGame, StoredMove

if TYPE_CHECKING:
    from .manager import Manager

log = logging.getLogger("qipan.server")
#: How often a process records that it is alive, i.e. how much downtime a crash may leave
#: uncounted on running clocks at most.
HEARTBEAT_SECONDS = 1.0
#: Processes silent for longer than this are forgotten.
PROCESS_MEMORY = 7 * 24 * 3600.0


class Cluster:
    def __init__(self, manager: Manager, redis_url: str | None):
        self.manager = manager
        #: With several processes: the change messages (Redis), this process's leases and
        #: the seats online in the other processes.
        self.bus = None
        self.leases: Leases | None = None
        self.presence: Presence | None = None
        #: With several processes: a Redis client for short commands that must not hang
        #: (0.5 s timeout; the site's login limits), and this database's key prefix.
        self.redis = None
        self.prefix = ""
        #: The latest version heard of each game (also of games not loaded here).
        self.heard: dict[str, int] = {}
        #: Games whose bot thinks in this process, told to the others (renewed every beat).
        self.thinking_here: set[str] = set()
        if redis_url:
            from .pubsub import Bus, channel_for, redis_client

            channel = channel_for(manager.storage.engine.url.database)
            self.bus = Bus(redis_url, manager.process, self._heard_change, self._catch_up_all, channel)
            self.leases = Leases(manager.process)
            self.prefix = channel.rsplit(":", 1)[0]
            self.presence = Presence(
                self.bus.redis,
                self.prefix + ":online",
                manager.process,
                self.bus.publish,
                self._online_elsewhere,
            )
            self.redis = redis_client(redis_url, timeout=0.5)

    @property
    def shared(self) -> bool:
        """Whether other processes may serve the same games."""
        return self.bus is not None

    @property
    def deaf(self) -> bool:
        """Whether this process cannot hear the others now (the store is then asked)."""
        return self.bus is not None and not self.bus.connected

    def runs(self, session: Session) -> bool:
        """Whether this process runs the game's bots, clocks and ticks (its lease)."""
        return self.leases is None or self.leases.holds(session.id)

    # -- lifecycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Resume every unfinished game: replay it, restart its clock, wake its bots. With
        several processes, only the games whose lease nobody alive holds."""
        manager, storage = self.manager, self.manager.storage
        now = time.time()
        # When the server ran (before this process): the time since a clock started that
        # no process served is not charged to it (see ``resume``).
        periods = await manager._db(storage.process_periods, manager.process)
        await manager._db(storage.heartbeat, manager.process, now, now - PROCESS_MEMORY)
        if self.bus is not None:
            self.leases.beat(now)
            await self.bus.start()
            self.presence.start()
            game_ids = await manager._db(storage.claim_orphans, manager.process, now - LEASE_SECONDS, None)
            self.leases.held.update(game_ids)
        else:
            game_ids = await manager._db(storage.unfinished_ids)
        manager._spawn(self._heartbeats())
        for game_id in game_ids:
            await self.resume(game_id, periods)

    async def resume(self, game_id: str, periods: list[tuple[float, float]] | None) -> None:
        """Start running a game here: at start (``periods``: when the server ran before this
        process), or taken over from a process that died (None: the server ran meanwhile,
        so its clocks ran too)."""
        manager = self.manager
        manager.timers.unread.add(game_id)  # moves left for the old holder (or before a restart)
        try:
            session = await manager._load(game_id)
            if self.bus is not None:  # it may have changed since this process loaded it
                async with manager._lock(game_id):
                    await self.catch_up(session)
        except Exception:  # a game whose rules changed must not stop the server
            log.exception("cannot resume game %s", game_id)
            return

        async def resume(session: Session) -> None:
            clock = session.clock
            resumed = False
            if periods and clock and clock.since is not None and not clock.wall:
                # Time does not run while every process is down (except a correspondence
                # clock's): charged is only the time some process served since the turn began.
                since, now = clock.since, time.time()
                clock.resume(now, since + served(since, now, periods))
                resumed = clock.since != since
            await manager.store(session, RowChanged() if resumed and self.bus is not None else None)

        try:
            await manager.change(session, resume)
        except ApiError as exc:
            log.warning("game %s: cannot resume it now: %s", game_id, exc.message)
            if self.leases is not None:  # given up, so that the next beat (anyone's) retries
                self.leases.held.discard(game_id)
                await self.release(game_id)

    async def stop(self) -> None:
        manager = self.manager
        with contextlib.suppress(ApiError):  # the last moment clocks ran here
            await manager._db(manager.storage.heartbeat, manager.process, time.time())
        if self.bus is not None:
            await self.presence.stop()
            await self.bus.stop()
            with contextlib.suppress(Exception):
                await self.redis.aclose()
            with contextlib.suppress(ApiError):  # the others take our games over at once
                await manager._db(manager.storage.release_lease, None, manager.process)

    async def _heartbeats(self) -> None:
        """Tell the store every HEARTBEAT_SECONDS that this process runs (see ``start``);
        with several processes that renews our leases, and we take over the games of
        processes that stopped beating."""
        manager = self.manager
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            with contextlib.suppress(ApiError):  # the store is down: the next beat retries
                now = time.time()
                await manager._db(manager.storage.heartbeat, manager.process, now)
                if self.leases is not None:
                    try:
                        await self._keep_leases(now)
                    except ApiError:
                        raise
                    except Exception:  # one game's trouble must not stop the heartbeat
                        log.exception("keeping the leases failed; the next beat tries again")
                    self._renew_thinking()

    async def _keep_leases(self, now: float) -> None:
        manager = self.manager
        if self.leases.beat(now):  # late: some of our games may have been taken over
            still = await manager._db(manager.storage.leases_of, manager.process)
            for game_id in self.leases.keep_only(still):
                log.warning("game %s: its lease went to another process", game_id)
                manager.timers.cancel(game_id)
            for game_id in self.leases.held:  # still ours: a timer or bot skipped while the
                session = manager.sessions.get(game_id)  # lease was unconfirmed runs again
                if session is not None and game_id not in manager.timers.handles:
                    manager._schedule(session, time.time())
        claimed = await manager._db(manager.storage.claim_orphans, manager.process, now - LEASE_SECONDS)
        for game_id in claimed:
            log.info("game %s: taken over from a process that stopped", game_id)
            self.leases.held.add(game_id)
            await self.resume(game_id, None)

    def took(self, game_id: str) -> None:
        """This process created the game: it holds its lease."""
        if self.leases is not None:
            self.leases.held.add(game_id)

    def over(self, session: Session) -> None:
        """The game is over: its lease is given back."""
        if self.leases is not None:
            self.leases.held.discard(session.id)
            self.manager._spawn(self.release(session.id, queued=bool(session.realtime_tick)))

    async def release(self, game_id: str, queued: bool = False) -> None:
        manager = self.manager
        with contextlib.suppress(ApiError):  # left over: claims skip finished games
            await manager._db(manager.storage.release_lease, game_id, manager.process)
            if queued:  # real-time moves nobody will play now
                await manager._db(manager.storage.take_queued, game_id)
            manager.timers.unread.discard(game_id)

    # -- telling the others ------------------------------------------------------------
    def publish(self, session: Session, moves_from: int, now: float) -> None:
        """Tell the other processes a change just stored: the game row, the moves from
        ``moves_from`` on (an undo sends none from the point it went back to), the offers."""
        if self.bus is None:
            return
        self.heard[session.id] = session.version
        row = session.stored
        self.bus.publish(
            {
                "id": row.id,
                "version": row.version,
                "moves_from": moves_from,
                "moves": [[m.text, m.player, m.spent] for m in row.moves[moves_from:]],
                "status": row.status,
                "public": row.public,
                "seats": seats_to_dicts(row.seats),
                "clock": row.clock if session.clock is None else session.clock.to_dict(),
                "result": session.stored_result(),
                "updated": now,
                "offers": session.stored_offers(),
            }
        )

    def tell_queued(self, game_id: str) -> None:
        """A real-time move stored here for the tick holder: it reads the queue before its
        next tick."""
        self.bus.publish({"type": "queued", "id": game_id})
        # This process may be the holder whose lease was only unconfirmed (a late heartbeat):
        # it does not hear its own message.
        self.manager.timers.unread.add(game_id)

    def tell_thinking(self, session: Session) -> None:
        """Tell the other processes whether this game's bot thinks here: until this
        process's leases may lapse (``Leases.fresh_until``), renewed by every heartbeat
        while it thinks, so a thinker that dies stops showing when its lease ends."""
        if self.bus is None:
            return
        if session.bot_thinking:
            self.thinking_here.add(session.id)
            until = self.leases.fresh_until
        else:
            self.thinking_here.discard(session.id)
            until = 0.0
        self.bus.publish({"type": "thinking", "id": session.id, "version": session.version, "until": until})

    def _renew_thinking(self) -> None:
        for game_id in list(self.thinking_here):
            session = self.manager.sessions.get(game_id)
            if session is not None and session.bot_thinking and self.runs(session):
                self.tell_thinking(session)
            else:  # ended, or the lease went elsewhere: the others' marks run out
                self.thinking_here.discard(game_id)

    def online_here(self, session: Session) -> None:
        """Tell the others which seats are online here, and learn who is online elsewhere
        while this process has listeners of the game."""
        if self.presence is None:
            return
        if self.manager.listeners.watched(session.id):
            self.presence.watch(session.id)
        else:
            self.presence.unwatch(session.id)
            session.online_elsewhere = set()
        self.presence.set_here(session.id, {seat for seat, count in session.online.items() if count > 0})

    # -- hearing the others ------------------------------------------------------------
    def _online_elsewhere(self, game_id: str, seats: set[int]) -> None:
        session = self.manager.sessions.get(game_id)
        if session is not None and session.online_elsewhere != seats:
            session.online_elsewhere = set(seats)
            self.manager._spawn(self.manager.listeners.broadcast(session))

    def _heard_change(self, message: dict) -> None:
        """A change another process stored (from the bus), or a real-time move it left
        for the game's tick holder."""
        if message.get("type") == "queued":
            if isinstance(message.get("id"), str):
                self.manager.timers.unread.add(message["id"])
            return
        if message.get("type") == "presence":
            self.presence.heard(message)
            return
        if message.get("type") == "thinking":
            self._heard_thinking(message)
            return
        game_id, version = message.get("id"), message.get("version")
        if not isinstance(game_id, str) or not isinstance(version, int):
            return
        if len(self.heard) > 100_000:  # only a hint for games being loaded: start afresh
            self.heard.clear()
        self.heard[game_id] = max(version, self.heard.get(game_id, -1))
        session = self.manager.sessions.get(game_id)
        if session is not None and version > session.version:
            self.manager._spawn(self._apply_heard(session, message))

    def _heard_thinking(self, message: dict) -> None:
        """The lease holder's bot started or stopped thinking (or renewed it): show it to
        this process's listeners, and stop showing it when it runs out unrenewed."""
        session = self.manager.sessions.get(message.get("id"))
        version, until = message.get("version"), message.get("until")
        if session is None or not isinstance(version, int) or not isinstance(until, int | float):
            return
        now = time.time()
        shown = session.thinking(now)
        entry = (version, float(until)) if until > now else None
        session.thinking_elsewhere = entry
        if session.thinking(now) != shown:
            self.manager._spawn(self.manager.listeners.broadcast(session))
        if entry is not None:
            asyncio.get_running_loop().call_later(until - now + 0.01, self._thinking_ran_out, session, entry)

    def _thinking_ran_out(self, session: Session, entry: tuple[int, float]) -> None:
        if session.thinking_elsewhere is entry:  # not renewed nor ended: its holder is gone
            session.thinking_elsewhere = None
            if not session.bot_thinking and entry[0] == session.version:  # it was shown
                self.manager._spawn(self.manager.listeners.broadcast(session))

    async def _apply_heard(self, session: Session, message: dict) -> None:
        async with self.manager._lock(session.id):
            if message["version"] <= session.version:  # already caught up from the store
                return
            if message["version"] != session.version + 1:  # a change was missed: ask the store
                await self.catch_up(session)
                return
            row = session.stored
            stored = StoredGame(
                row.id,
                row.game,
                row.options,
                row.players,
                row.seed,
                message["status"],
                message["public"],
                seats_from_dicts(message["seats"]),
                message["clock"],
                message["result"],
                row.realtime,
                row.created,
                message["updated"],
                [StoredMove(message["moves_from"] + i, *m) for i, m in enumerate(message["moves"])],
                message["version"],
                message["offers"],
            )
            try:
                session.catch_up(stored, message["moves_from"])
            except QipanError:
                log.exception("game %s: a change heard does not replay; reading the store", session.id)
                await self.catch_up(session)
                return
            self._after_catch_up(session)

    async def catch_up(self, session: Session) -> None:
        """Bring the game to what the store holds (the caller holds its lock)."""
        stored = await self.manager._db(self.manager.storage.get_game, session.id)
        if stored is None or stored.version == session.version:
            return
        for seat in stored.seats:
            seat.name = scrub(seat.name)
        try:
            session.catch_up(stored)
        except QipanError:
            log.exception("game %s no longer replays; forgetting it here", session.id)
            self.manager.sessions.pop(session.id, None)
            return
        self._after_catch_up(session)

    async def catch_up_locked(self, game_id: str) -> None:
        session = self.manager.sessions.get(game_id)
        if session is not None:
            with contextlib.suppress(ApiError):
                async with self.manager._lock(game_id):
                    await self.catch_up(session)

    def _after_catch_up(self, session: Session) -> None:
        """Another process changed the game: run what is ours to run, tell our listeners."""
        self.manager._schedule(session, time.time())
        self.manager._spawn(self.manager.listeners.broadcast(session))

    async def _catch_up_all(self) -> None:
        """After (re)subscribing: every game loaded here catches up with the store (changes
        told while this process could not hear them are in the store)."""
        sessions = self.manager.sessions
        ids = list(sessions)
        self.manager.timers.unread.update(g for g in ids if sessions[g].realtime_tick)  # notices missed
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            stored = await self.manager._db(self.manager.storage.versions, chunk)
            for game_id in chunk:
                session = sessions.get(game_id)
                if session is not None and stored.get(game_id, session.version) != session.version:
                    await self.catch_up_locked(game_id)
