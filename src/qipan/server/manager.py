"""The game manager: creates, loads and changes live games, persists every change,
runs bots off the event loop, enforces clocks and real-time ticks, and tells every
connected client.

Game state changes on the event loop thread only. Storage calls run in a small thread
pool (``db_workers``) so one game's database round trips do not stall the others. Each
game has an ``asyncio.Lock`` held across validate -> change -> store -> tell: a second
change of the same game waits for the first, and readers wait for a change in progress,
so nobody sees a change before it is stored. A failed write rolls the game back.

With ``redis_url`` several processes serve one PostgreSQL database (docs/server.md, "Several
processes"): every write is made against the game's stored version, so the store serialises
the processes' changes of a game (a change made against an old version is refused, the
game catches up from the store and the change is tried again); every stored change is
published (pubsub.py) and the other processes apply it to their copy of the game and tell
their own listeners; a game's bots, clocks and ticks run only in the process holding its
lease (lease.py)."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from .. import agents as _agents
from ..core import CHANCE, Game, OptionError, Outcome, QipanError, load, spec
from . import updates
from .clock import Clock, ClockError
from .errors import ApiError
from .inputs import scrub
from .lease import LEASE_SECONDS, Leases, served
from .presence import Presence
from .queued import QueuedMoves
from .session import (
    QUEUED_MOVES,
    Session,
    bot_limits,
    bot_name,
    bot_request,
    new_game_id,
    new_token,
    no_offers,
)
from .storage import GameChanged, StaleMove, Storage, StoredGame, StoredMove

log = logging.getLogger("qipan.server")
#: JSON without the spaces after "," and ":" (a tenth of a per-move message).
COMPACT = (",", ":")

MAX_NAME = 40
MAX_CACHED = 2000
#: How often a process records that it is alive, i.e. how much downtime a crash may leave
#: uncounted on running clocks at most.
HEARTBEAT_SECONDS = 1.0
#: Processes silent for longer than this are forgotten.
PROCESS_MEMORY = 7 * 24 * 3600.0
#: Times a change is tried against a game that other processes keep changing meanwhile.
CHANGE_ATTEMPTS = 4


class Connection:
    """A client listening to one game: a seat's player or a spectator (seat None)."""

    def __init__(self, send, seat: int | None):
        self.send = send
        self.seat = seat
        #: The state this client holds (the last one sent), which updates are made against.
        self.last: dict | None = None


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
        self.listeners: dict[str, set[Connection]] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.pool = ThreadPoolExecutor(max_workers=bot_workers, thread_name_prefix="qipan-bot")
        self.db = ThreadPoolExecutor(max_workers=db_workers or storage.workers, thread_name_prefix="qipan-db")
        #: Real-time moves waiting for their tick, in the store (queued.py).
        self.queue = QueuedMoves(storage)
        self.tasks: set[asyncio.Task] = set()
        #: This serving process, in the store's list of processes (heartbeats).
        self.process = new_game_id() + new_game_id()
        #: Called with the session after every stored change (the site rates finished games).
        self.on_change: list = []
        #: With several processes: the change messages (Redis), this process's leases and
        #: the seats online in the other processes.
        self.bus = None
        self.leases: Leases | None = None
        self.presence: Presence | None = None
        #: With several processes: a Redis client for short commands that must not hang
        #: (0.5 s timeout; the site's login limits), and this database's key prefix.
        self.redis = None
        self.redis_prefix = ""
        #: The latest version heard of each game (also of games not loaded here).
        self.heard: dict[str, int] = {}
        #: Games whose bot thinks in this process, told to the others (renewed every beat).
        self.thinking_here: set[str] = set()
        #: Real-time games whose queued moves this process must read from the store before
        #: their next tick (another process left some, or this one just took the game).
        self.queued_elsewhere: set[str] = set()
        if redis_url:
            from .pubsub import Bus, channel_for, redis_client

            channel = channel_for(storage.engine.url.database)
            self.bus = Bus(redis_url, self.process, self._heard_change, self._catch_up_all, channel)
            self.leases = Leases(self.process)
            self.redis_prefix = channel.rsplit(":", 1)[0]
            self.presence = Presence(
                self.bus.redis,
                self.redis_prefix + ":online",
                self.process,
                self.bus.publish,
                self._online_elsewhere,
            )
            self.redis = redis_client(redis_url, timeout=0.5)

    # -- lifecycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Resume every unfinished game: replay it, restart its clock, wake its bots. With
        several processes, only the games whose lease nobody alive holds."""
        now = time.time()
        # When the server ran (before this process): the time since a clock started that
        # no process served is not charged to it (see ``_resume``).
        periods = await self._db(self.storage.process_periods, self.process)
        await self._db(self.storage.heartbeat, self.process, now, now - PROCESS_MEMORY)
        if self.bus is not None:
            self.leases.beat(now)
            await self.bus.start()
            self.presence.start()
            game_ids = await self._db(self.storage.claim_orphans, self.process, now - LEASE_SECONDS, None)
            self.leases.held.update(game_ids)
        else:
            game_ids = await self._db(self.storage.unfinished_ids)
        self._spawn(self._heartbeats())
        for game_id in game_ids:
            await self._resume(game_id, periods)

    async def _resume(self, game_id: str, periods: list[tuple[float, float]] | None) -> None:
        """Start running a game here: at start (``periods``: when the server ran before this
        process), or taken over from a process that died (None: the server ran meanwhile,
        so its clocks ran too)."""
        self.queued_elsewhere.add(game_id)  # moves left for the old holder (or before a restart)
        try:
            session = await self._load(game_id)
            if self.bus is not None:  # it may have changed since this process loaded it
                async with self._lock(game_id):
                    await self._catch_up(session)
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
            await self._commit(session, persist=resumed and self.bus is not None)

        try:
            await self._change(session, resume)
        except ApiError as exc:
            log.warning("game %s: cannot resume it now: %s", game_id, exc.message)
            if self.leases is not None:  # given up, so that the next beat (anyone's) retries
                self.leases.held.discard(game_id)
                await self._release(game_id)

    async def stop(self) -> None:
        for handle in self.timers.values():
            handle.cancel()
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(ApiError):  # the last moment clocks ran here
            await self._db(self.storage.heartbeat, self.process, time.time())
        if self.bus is not None:
            await self.presence.stop()
            await self.bus.stop()
            with contextlib.suppress(Exception):
                await self.redis.aclose()
            with contextlib.suppress(ApiError):  # the others take our games over at once
                await self._db(self.storage.release_lease, None, self.process)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.db.shutdown(wait=True)  # writes under way finish

    async def _heartbeats(self) -> None:
        """Tell the store every HEARTBEAT_SECONDS that this process runs (see ``start``);
        with several processes that renews our leases, and we take over the games of
        processes that stopped beating."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            with contextlib.suppress(ApiError):  # the store is down: the next beat retries
                now = time.time()
                await self._db(self.storage.heartbeat, self.process, now)
                if self.leases is not None:
                    try:
                        await self._keep_leases(now)
                    except ApiError:
                        raise
                    except Exception:  # one game's trouble must not stop the heartbeat
                        log.exception("keeping the leases failed; the next beat tries again")
                    self._renew_thinking()

    async def _keep_leases(self, now: float) -> None:
        if self.leases.beat(now):  # late: some of our games may have been taken over
            still = await self._db(self.storage.leases_of, self.process)
            for game_id in self.leases.keep_only(still):
                log.warning("game %s: its lease went to another process", game_id)
                handle = self.timers.pop(game_id, None)
                if handle:
                    handle.cancel()
            for game_id in self.leases.held:  # still ours: a timer or bot skipped while the
                session = self.sessions.get(game_id)  # lease was unconfirmed runs again
                if session is not None and game_id not in self.timers:
                    self._schedule(session, time.time())
        claimed = await self._db(self.storage.claim_orphans, self.process, now - LEASE_SECONDS)
        for game_id in claimed:
            log.info("game %s: taken over from a process that stopped", game_id)
            self.leases.held.add(game_id)
            await self._resume(game_id, None)

    def _runs(self, session: Session) -> bool:
        """Whether this process runs the game's bots, clocks and ticks (its lease)."""
        return self.leases is None or self.leases.holds(session.id)

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

    async def _change(self, session: Session, body):
        """Run ``await body(session)`` as one change of the game, under its lock. When the
        store refuses the write because another process changed the game since this one
        last heard of it (GameChanged), the game catches up from the store and ``body``
        runs again, against the new position (so it checks again what it checked)."""
        for _ in range(CHANGE_ATTEMPTS):
            try:
                async with self._changing(session):
                    if self.bus is not None and not self.bus.connected:
                        await self._catch_up(session)  # deaf to the others: ask the store
                    return await body(session)
            except GameChanged:
                async with self._lock(session.id):
                    await self._catch_up(session)
        raise ApiError(503, "the game kept changing while this change was stored; try again")

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
                seat["name"] = scrub(seat.get("name"))
            try:
                session = Session.restore(stored)
            except QipanError as exc:  # e.g. its game is no longer installed
                raise ApiError(500, f"game {game_id} cannot be replayed: {exc}") from exc
            self.sessions[game_id] = session
            self._forget_old_games()
            if self.heard.get(game_id, -1) > session.version:  # changed while we read it
                self._spawn(self._catch_up_locked(game_id))
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
            if s.status == "over" and not self.listeners.get(g) and not self._lock(g).locked()
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

    # -- create and join ---------------------------------------------------------------
    async def create(self, data: dict) -> tuple[Session, list[dict]]:
        name = data.get("game")
        if not isinstance(name, str) or not name:
            raise ApiError(400, 'say which game to play: {"game": "<id>"}')
        options = data.get("options")
        options = {} if options is None else options
        if not isinstance(options, dict):
            raise ApiError(400, "options must be an object")
        try:
            game_spec = spec(name)
            game = load(game_spec.id, **options)
        except (OptionError, QipanError) as exc:
            raise ApiError(400, str(exc)) from exc
        players = data.get("players", game_spec.players[0])
        if isinstance(players, bool) or not isinstance(players, int) or players not in game_spec.players:
            allowed = ", ".join(map(str, game_spec.players))
            raise ApiError(400, f"{game_spec.title} is played by {allowed} players, not {players!r}")
        seed = data.get("seed")
        if seed is None:
            seed = random.randrange(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**62:
            raise ApiError(400, "seed must be a non-negative whole number")
        seats = self._seats(data.get("seats"), players, game)
        clock = None
        if data.get("clock"):
            if not isinstance(data["clock"], dict):
                raise ApiError(400, 'clock must be an object such as {"mode": "total", "initial": 300}')
            try:
                clock = Clock.from_request(data["clock"], players)
            except ClockError as exc:
                raise ApiError(400, str(exc)) from exc
        public = data.get("public", True)
        if not isinstance(public, bool):
            raise ApiError(400, "public must be true or false")
        try:
            state = game.new(players=players, seed=seed)
        except QipanError as exc:
            raise ApiError(400, str(exc)) from exc
        realtime = data.get("realtime")
        if realtime is not None and (
            isinstance(realtime, bool) or not isinstance(realtime, int | float) or not 0.01 <= realtime <= 600
        ):
            raise ApiError(400, "realtime is the number of seconds per tick (0.01 to 600), or null")
        status = "active" if all(s["joined"] for s in seats) else "open"
        stored = StoredGame(
            new_game_id(),
            game_spec.id,
            dict(game.options),
            players,
            seed,
            status,
            public,
            seats,
            clock.to_dict() if clock else None,
            realtime=float(realtime) if realtime is not None else None,
        )
        session = Session(stored, game, state, clock)
        opening = session.resolve_chance()
        if session.realtime_tick and state.to_move is not None and state.to_move >= 0:
            try:
                game.parse(session.idle_move, state)
            except QipanError as exc:
                raise ApiError(
                    400,
                    f"{game.title} cannot be played in real time: a player cannot pass "
                    f"with {session.idle_move!r} ({exc})",
                ) from exc
        now = time.time()
        self._settle(session, now)
        stored.clock, stored.result = _clock(session), _result(session)
        stored.moves = opening
        holder = self.process if self.leases is not None else None
        await self._db(self.storage.create_game, stored, holder)
        if self.leases is not None:
            self.leases.held.add(stored.id)
        session.epoch += 1
        self.sessions[stored.id] = session
        self._notify(session, now)
        tickets = [
            # A seat taken at creation gets its token; a free seat only its one-time invite.
            {"seat": i, "token": s["token"] if s["joined"] else None, "joined": s["joined"]}
            | ({"invite": s["invite"]} if "invite" in s else {})
            for i, s in enumerate(seats)
            if s["kind"] == "human"
        ]
        return session, tickets

    def _seats(self, raw: Any, players: int, game: Game) -> list[dict]:
        if raw is None:
            raw = [{"kind": "human"} for _ in range(players)]
        if not isinstance(raw, list) or len(raw) != players:
            raise ApiError(400, f"seats must be a list of {players} seats")
        known = {a.name: a for a in _agents.agent_specs()}
        seats = []
        for i, s in enumerate(raw):
            if not isinstance(s, dict):
                raise ApiError(400, f"seat {i + 1} must be an object")
            kind = s.get("kind", "human")
            name = _name(s.get("name"))
            if kind == "human":
                seat = {"kind": "human", "name": name, "token": new_token(), "joined": bool(s.get("join"))}
                if not seat["joined"]:
                    # The invite is not the seat's token: whoever uses it gets a fresh one.
                    seat["invite"] = new_token()
                seats.append(seat)
            elif kind == "bot":
                agent, raw_limits = bot_request(s)
                if agent not in known:
                    raise ApiError(400, f"unknown agent {agent!r}; known agents: {', '.join(sorted(known))}")
                why = known[agent].refusal(game, players)
                if why is not None:
                    able = ", ".join(a.name for a in _agents.agents_for(game, players))
                    raise ApiError(400, f"{why}; agents that do: {able}")
                limits = bot_limits(known[agent], raw_limits)
                try:
                    _agents.load(agent, **limits)
                except (OptionError, QipanError) as exc:
                    raise ApiError(400, str(exc)) from exc
                seats.append(
                    {
                        "kind": "bot",
                        "name": name or bot_name(agent, limits),
                        "agent": agent,
                        "limits": limits,
                        "joined": True,
                    }
                )
            else:
                raise ApiError(400, f"seat {i + 1}: kind must be 'human' or 'bot', not {kind!r}")
        return seats

    async def join(self, game_id: str, token: str | None, seat: Any, name: Any, invite: Any = None) -> dict:
        session = await self._load(game_id)
        name = _name(name)
        if invite is not None and (not isinstance(invite, str) or not invite):
            raise ApiError(400, "invite must be the code from an invite link")
        return await self._change(session, lambda s: self._join(s, token, seat, name, invite))

    async def _join(
        self, session: Session, token: str | None, seat: Any, name: str | None, invite: str | None = None
    ) -> dict:
        if token:
            index = session.require_seat(token)
            if session.status == "over" and name and name != session.seats[index].get("name"):
                raise ApiError(409, "the game is over: its seat names are final")
            return await self._take_seat(session, index, name)
        if invite is not None:
            index = session.seat_of_invite(invite)
            if session.seats[index]["joined"]:
                raise ApiError(409, f"seat {index + 1} is taken: this invite link was used already")
        else:
            if session.status != "open":
                raise ApiError(409, "this game has no free seat")
            if not session.stored.public:
                raise ApiError(403, "this game is private: join it through its invite link")
            free = [i for i in session.human_seats() if not session.seats[i]["joined"]]
            if seat is not None:
                if (
                    isinstance(seat, bool)
                    or not isinstance(seat, int)
                    or not 0 <= seat < session.stored.players
                ):
                    raise ApiError(400, f"seat must be a number from 0 to {session.stored.players - 1}")
                if seat not in free:
                    raise ApiError(409, f"seat {seat + 1} is not free")
                free = [seat]
            if not free:
                raise ApiError(409, "this game has no free seat")
            index = free[0]
        # A fresh token for the person taking the seat: nobody else (not even whoever holds
        # the invite link) knows it.
        session.seats[index]["token"] = new_token()
        return await self._take_seat(session, index, name)

    async def _take_seat(self, session: Session, index: int, name: str | None) -> dict:
        entry = session.seats[index]
        entry["joined"] = True
        if name:
            entry["name"] = name
        if session.status == "open" and all(s["joined"] for s in session.seats):
            session.stored.status = "active"
            session.turn_started = time.time()
        await self._commit(session, persist=True)
        return {"seat": index, "token": entry["token"]}

    # -- actions -----------------------------------------------------------------------
    async def move(self, game_id: str, token: str | None, text: Any, ply: Any) -> Session:
        session = await self._load(game_id)
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, 'send the move as notation text: {"move": "d2", "ply": 0}')
        if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)):
            raise ApiError(400, "ply must be a whole number (the number of moves played so far)")

        async def play(session: Session) -> bool:
            # Checked under the lock: a second move for the same ply waits here and then
            # finds the game one ply further.
            seat = session.require_seat(token)
            session.require_active()
            if await self._check_time(session):
                return False
            if session.realtime_tick and session.seats[seat]["kind"] == "human":
                # Real time: the move waits for the seat's next tick (the timer plays it),
                # so ticks follow the clock, never the clicks. Stored before it is
                # acknowledged: the holder may die before that tick.
                await self._queue(session, seat, text)
                return True
            if ply is not None and ply > session.state.ply and self.bus is not None:
                # The client saw a later position (through another process) than we have
                # heard of yet: catch up from the store and check again.
                raise GameChanged(f"the client is at ply {ply}, this process at {session.state.ply}")
            if ply is not None and ply != session.state.ply:
                raise ApiError(
                    409,
                    f"stale move: it was sent for ply {ply} but the game is at ply {session.state.ply}",
                )
            if session.state.to_move != seat:
                raise ApiError(403, f"it is not your turn: {session.name(session.state.to_move)} is to move")
            await self._play(session, seat, text)
            return True

        if await self._change(session, play):
            return session
        raise ApiError(409, f"the game is over ({session.result.reason})")

    async def _play(self, session: Session, seat: int, text: str, taken: list[int] | None = None) -> None:
        """Play, store, then tell. The caller holds the game's lock (``_changing``), which
        rolls the move back if storing it fails. ``taken``: the queued real-time moves
        (row ids) this tick plays or drops, deleted in the same write."""
        first = session.state.ply
        played = session.play(seat, text, time.time())
        session.offers = no_offers()  # the store clears them with the move
        now = time.time()
        self._settle(session, now)  # result and the next seat's clock go in the same write
        args = (session.id, first, played, session.status, _result(session), _clock(session), session.version)
        try:
            if taken:
                await self._db(self.queue.append_taking, *args, taken)
            else:
                await self._db(self.storage.append_moves, *args)
        except StaleMove as exc:
            raise ApiError(409, f"stale move: {exc}") from exc
        except GameChanged:
            if taken:  # another process may have played them: read the queue again
                self.queued_elsewhere.add(session.id)
            raise
        if taken:
            session.drop_queued(taken)
        session.stored.version += 1
        session.stored.moves.extend(played)
        session.epoch += 1
        self._publish(session, first, now)
        self._notify(session, now)

    async def resign(self, game_id: str, token: str | None) -> Session:
        session = await self._load(game_id)

        async def resign(session: Session) -> None:
            seat = session.require_seat(token)
            session.require_active()
            session.finish(session.others_win(seat, f"{session.name(seat)} resigned"))
            await self._commit(session, persist=True)

        await self._change(session, resign)
        return session

    async def draw(self, game_id: str, token: str | None, action: Any) -> Session:
        session = await self._load(game_id)
        await self._change(session, lambda s: self._draw(s, token, action))
        return session

    async def _draw(self, session: Session, token: str | None, action: Any) -> None:
        seat = session.require_seat(token)
        session.require_active()
        offers = session.offers["draw"]
        if action in ("offer", "accept"):
            offers.add(seat)
            bots = [i for i, s in enumerate(session.seats) if s["kind"] == "bot"]
            if bots:
                offers.clear()
                raise ApiError(409, "bots do not agree to draws; resign or play on")
            if set(session.human_seats()) <= offers:
                session.finish(Outcome.draw(session.stored.players, "draw agreed"))
        elif action == "decline":
            offers.clear()
        else:
            raise ApiError(400, "action must be 'offer', 'accept' or 'decline'")
        await self._commit(session, persist=True)

    async def undo(self, game_id: str, token: str | None, action: Any) -> Session:
        """Take back moves by agreement: to just before the asking seat's last move.
        Bots always agree."""
        session = await self._load(game_id)
        await self._change(session, lambda s: self._undo(s, token, action))
        return session

    async def _undo(self, session: Session, token: str | None, action: Any) -> None:
        seat = session.require_seat(token)
        session.require_active()
        offers = session.offers
        if action == "decline":
            offers["undo"].clear()
            offers["undo_to"] = None
        elif action in ("offer", "accept"):
            if offers["undo_to"] is None:
                mine = [m.ply for m in session.stored.moves if m.player == seat]
                if not mine:
                    raise ApiError(409, "you have no move to take back")
                offers["undo_to"] = mine[-1]
            offers["undo"].add(seat)
            if set(session.human_seats()) <= offers["undo"]:
                keep = offers["undo_to"]
                session.take_back(session.state.ply - keep)
                session.stored.moves = session.stored.moves[:keep]
                session.offers = no_offers()  # the store clears them with the undo
                session.epoch += 1
                session.turn_started = now = time.time()
                self._settle(session, now)
                await self._db(
                    self.storage.truncate_moves,
                    session.id,
                    keep,
                    version=session.version,
                    status=session.status,
                    seats=session.seats,
                    result=_result(session),
                    clock=_clock(session),
                )
                session.stored.version += 1
                self._publish(session, keep, now)
                self._notify(session, now)
                return
        else:
            raise ApiError(400, "action must be 'offer', 'accept' or 'decline'")
        await self._commit(session, persist=True)

    # -- after every change ------------------------------------------------------------
    def _settle(self, session: Session, now: float) -> bool:
        """Finish a game the rules ended and run the clock of the seat to move. True if
        that changed something to store."""
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

    async def _commit(self, session: Session, persist: bool = False) -> None:
        """Settle, store the game row if anything changed, then tell everyone. The caller
        holds the game's lock (``_changing``)."""
        now = time.time()
        if self._settle(session, now) or persist:
            await self._db(
                self.storage.update_game,
                session.id,
                version=session.version,
                status=session.status,
                seats=session.seats,
                result=_result(session),
                clock=_clock(session),
                offers=session.stored_offers(),
            )
            session.stored.version += 1
            self._publish(session, len(session.stored.moves), now)
        self._notify(session, now)

    def _notify(self, session: Session, now: float) -> None:
        """After a stored change: schedule timers and bots, tell the listeners."""
        self._schedule(session, now)
        self._spawn(self.broadcast(session))
        for hook in self.on_change:
            hook(session)

    def _schedule(self, session: Session, now: float) -> None:
        """Timers and bots, where this process runs the game."""
        if not self._runs(session):
            return
        self._schedule_timer(session, now)
        self._schedule_bot(session)
        if session.status == "over" and self.leases is not None:
            self.leases.held.discard(session.id)
            self._spawn(self._release(session.id, queued=bool(session.realtime_tick)))

    async def _release(self, game_id: str, queued: bool = False) -> None:
        with contextlib.suppress(ApiError):  # left over: claims skip finished games
            await self._db(self.storage.release_lease, game_id, self.process)
            if queued:  # real-time moves nobody will play now
                await self._db(self.storage.take_queued, game_id)
            self.queued_elsewhere.discard(game_id)

    # -- several processes -------------------------------------------------------------
    def _publish(self, session: Session, moves_from: int, now: float) -> None:
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
                "seats": row.seats,
                "clock": row.clock if session.clock is None else session.clock.to_dict(),
                "result": _result(session),
                "updated": now,
                "offers": session.stored_offers(),
            }
        )

    async def _queue(self, session: Session, seat: int, text: str) -> None:
        """A real-time move for ``seat``'s next tick: checked here (as the holder would:
        legal now, not too many waiting), then stored (queued.py). The holder keeps it in
        memory too; another process tells the holder to read the queue before its tick."""
        session.check_queued(seat, text)
        row = await self._db(self.queue.add, session.id, seat, text, QUEUED_MOVES)
        if row is None:
            raise ApiError(409, f"{QUEUED_MOVES} moves already wait for your next ticks")
        if self._runs(session):
            session.add_queued(seat, row, text)
            return
        self.bus.publish({"type": "queued", "id": session.id})
        # This process may be the holder whose lease was only unconfirmed (a late heartbeat):
        # it does not hear its own message.
        self.queued_elsewhere.add(session.id)

    def _tell_thinking(self, session: Session) -> None:
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
            session = self.sessions.get(game_id)
            if session is not None and session.bot_thinking and self._runs(session):
                self._tell_thinking(session)
            else:  # ended, or the lease went elsewhere: the others' marks run out
                self.thinking_here.discard(game_id)

    def _heard_thinking(self, message: dict) -> None:
        """The lease holder's bot started or stopped thinking (or renewed it): show it to
        this process's listeners, and stop showing it when it runs out unrenewed."""
        session = self.sessions.get(message.get("id"))
        version, until = message.get("version"), message.get("until")
        if session is None or not isinstance(version, int) or not isinstance(until, int | float):
            return
        now = time.time()
        shown = session.thinking(now)
        entry = (version, float(until)) if until > now else None
        session.thinking_elsewhere = entry
        if session.thinking(now) != shown:
            self._spawn(self.broadcast(session))
        if entry is not None:
            asyncio.get_running_loop().call_later(until - now + 0.01, self._thinking_ran_out, session, entry)

    def _thinking_ran_out(self, session: Session, entry: tuple[int, float]) -> None:
        if session.thinking_elsewhere is entry:  # not renewed nor ended: its holder is gone
            session.thinking_elsewhere = None
            if not session.bot_thinking and entry[0] == session.version:  # it was shown
                self._spawn(self.broadcast(session))

    async def _read_queued(self, session: Session) -> None:
        """Before a tick: read the game's queued moves from the store when this process may
        not know them all (another process left some, the game was just taken over or
        resumed, or this process cannot hear the others)."""
        deaf = self.bus is not None and not self.bus.connected
        if session.id not in self.queued_elsewhere and not deaf:
            return
        self.queued_elsewhere.discard(session.id)  # a notice from now on sets it again
        try:
            rows = await self._db(self.queue.waiting, session.id)
        except ApiError:
            self.queued_elsewhere.add(session.id)
            raise
        session.set_queued(rows)

    def _heard_change(self, message: dict) -> None:
        """A change another process stored (from the bus), or a real-time move it left
        for the game's tick holder."""
        if message.get("type") == "queued":
            if isinstance(message.get("id"), str):
                self.queued_elsewhere.add(message["id"])
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
        session = self.sessions.get(game_id)
        if session is not None and version > session.version:
            self._spawn(self._apply_heard(session, message))

    async def _apply_heard(self, session: Session, message: dict) -> None:
        async with self._lock(session.id):
            if message["version"] <= session.version:  # already caught up from the store
                return
            if message["version"] != session.version + 1:  # a change was missed: ask the store
                await self._catch_up(session)
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
                message["seats"],
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
                await self._catch_up(session)
                return
            self._after_catch_up(session)

    async def _catch_up(self, session: Session) -> None:
        """Bring the game to what the store holds (the caller holds its lock)."""
        stored = await self._db(self.storage.get_game, session.id)
        if stored is None or stored.version == session.version:
            return
        for seat in stored.seats:
            seat["name"] = scrub(seat.get("name"))
        try:
            session.catch_up(stored)
        except QipanError:
            log.exception("game %s no longer replays; forgetting it here", session.id)
            self.sessions.pop(session.id, None)
            return
        self._after_catch_up(session)

    async def _catch_up_locked(self, game_id: str) -> None:
        session = self.sessions.get(game_id)
        if session is not None:
            with contextlib.suppress(ApiError):
                async with self._lock(game_id):
                    await self._catch_up(session)

    def _after_catch_up(self, session: Session) -> None:
        """Another process changed the game: run what is ours to run, tell our listeners."""
        self._schedule(session, time.time())
        self._spawn(self.broadcast(session))

    async def _catch_up_all(self) -> None:
        """After (re)subscribing: every game loaded here catches up with the store (changes
        told while this process could not hear them are in the store)."""
        ids = list(self.sessions)
        self.queued_elsewhere.update(g for g in ids if self.sessions[g].realtime_tick)  # notices missed
        for i in range(0, len(ids), 500):
            chunk = ids[i : i + 500]
            stored = await self._db(self.storage.versions, chunk)
            for game_id in chunk:
                session = self.sessions.get(game_id)
                if session is not None and stored.get(game_id, session.version) != session.version:
                    await self._catch_up_locked(game_id)

    async def _check_time(self, session: Session) -> bool:
        """End the game if the seat to move has run out of time (under the game's lock)."""
        if session.status != "active" or session.clock is None:
            return False
        seat = session.clock.flagged(time.time())
        if seat is None:
            return False
        session.clock.remaining[seat] = 0.0  # a flagged clock shows 0, not the time of its last start
        session.finish(session.others_win(seat, f"{session.name(seat)} ran out of time"))
        await self._commit(session, persist=True)
        return True

    def _schedule_timer(self, session: Session, now: float, at_least: float = 0.0) -> None:
        """One timer per game: at the clock's deadline, or at the next real-time tick."""
        old = self.timers.pop(session.id, None)
        if old:
            old.cancel()
        if session.status != "active":
            return
        deadlines = []
        if session.clock and session.clock.deadline() is not None:
            deadlines.append(session.clock.deadline())
        tick = session.realtime_tick
        to_move = session.state.to_move
        if tick and to_move is not None and to_move >= 0 and session.seats[to_move]["kind"] == "human":
            deadlines.append(now + tick)
        if not deadlines:
            return
        delay = max(at_least, min(deadlines) - now)
        loop = asyncio.get_running_loop()
        epoch = session.epoch
        self.timers[session.id] = loop.call_later(delay + 0.001, self._on_timer, session, epoch)

    def _on_timer(self, session: Session, epoch: int) -> None:
        self.timers.pop(session.id, None)
        self._spawn(self._timer_fired(session, epoch))

    async def _timer_fired(self, session: Session, epoch: int) -> None:
        retry = 0.0

        async def fire(session: Session) -> bool:
            if not self._runs(session):  # the lease went to another process
                return True
            if await self._check_time(session) or session.epoch != epoch or session.status != "active":
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
                    if session.seats[seat]["kind"] != "human":
                        break  # a bot moves when it has thought
                    text, taken = session.pick_queued(seat)
                    await self._play(session, seat, text or session.idle_move, taken)
                    acted.add(seat)
                    seat = session.state.to_move
                return True
            return False

        try:
            if await self._change(session, fire):
                return
        except ApiError as exc:
            log.warning("game %s: timer: %s", session.id, exc.message)
            retry = 1.0  # e.g. the store is down: try again in a second, not at once
        if session.id not in self.timers:
            self._schedule_timer(session, time.time(), at_least=retry)

    def _schedule_bot(self, session: Session) -> None:
        seat = session.state.to_move
        if session.status != "active" or session.bot_thinking or seat is None or seat < 0:
            return
        if session.seats[seat]["kind"] != "bot":
            return
        session.bot_thinking = True
        self._tell_thinking(session)
        self._spawn(self._bot_move(session, seat, session.epoch))

    async def _bot_move(self, session: Session, seat: int, epoch: int) -> None:
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
            self._tell_thinking(session)

        async def play(session: Session) -> None:
            if not self._runs(session):  # the lease went to another process
                return
            if session.epoch != epoch or session.status != "active" or session.state.to_move != seat:
                self._schedule_bot(session)  # the position changed meanwhile (undo, resignation)
                return
            if await self._check_time(session):
                return
            await self._play(session, seat, text)

        try:
            await self._change(session, play)
        except ApiError as exc:
            log.error("game %s: the bot's move %r was rejected: %s", session.id, text, exc.message)
            if exc.status >= 500:  # not stored: think again in a second
                asyncio.get_running_loop().call_later(1.0, self._schedule_bot, session)

    # -- listeners ---------------------------------------------------------------------
    def subscribe(self, session: Session, conn: Connection) -> str:
        """Add a listener; returns the state to send it first. Call it right after
        ``get`` (no await between), so that state is a stored one."""
        self.listeners.setdefault(session.id, set()).add(conn)
        if conn.seat is not None:
            session.online[conn.seat] = session.online.get(conn.seat, 0) + 1
        self._online_here(session)
        return self.full_state(session, conn)

    def full_state(self, session: Session, conn: Connection) -> str:
        """The whole state for ``conn`` (on connect and resync); later changes go to it as
        updates against this one."""
        viewer = conn.seat if session.game.hides_information else None
        conn.last = session.describe(viewer)
        return json.dumps(conn.last, ensure_ascii=False, separators=COMPACT)

    def unsubscribe(self, game_id: str, conn: Connection) -> None:
        self.listeners.get(game_id, set()).discard(conn)
        session = self.sessions.get(game_id)
        if session and conn.seat is not None:
            session.online[conn.seat] = max(0, session.online.get(conn.seat, 0) - 1)
            self._spawn(self.broadcast(session))
        if session:
            self._online_here(session)

    def _online_here(self, session: Session) -> None:
        """With several processes: tell them which seats are online here, and learn who is
        online elsewhere while this process has listeners of the game."""
        if self.presence is None:
            return
        if self.listeners.get(session.id):
            self.presence.watch(session.id)
        else:
            self.presence.unwatch(session.id)
            session.online_elsewhere = set()
        self.presence.set_here(session.id, {seat for seat, count in session.online.items() if count > 0})

    def _online_elsewhere(self, game_id: str, seats: set[int]) -> None:
        session = self.sessions.get(game_id)
        if session is not None and session.online_elsewhere != seats:
            session.online_elsewhere = set(seats)
            self._spawn(self.broadcast(session))

    async def broadcast(self, session: Session) -> None:
        conns = list(self.listeners.get(session.id, ()))
        if not conns:
            return
        await self._settled(session.id)
        # Every text is made before the first send (an await), from one stored state: an
        # update against what each connection holds (listeners in step share one text).
        conns = list(self.listeners.get(session.id, ()))
        now = time.time()
        hidden = session.game.hides_information
        states: dict[int | None, dict] = {}
        texts: dict[tuple, str] = {}
        patches: dict = {}
        out = []
        for conn in conns:
            viewer = conn.seat if hidden else None
            if viewer not in states:
                states[viewer] = session.describe(viewer, now)
            new = states[viewer]
            mover = conn.seat is not None and conn.seat == new["to_move"]
            key = (viewer, id(conn.last), mover)
            if key not in texts:
                message = new if conn.last is None else updates.update(conn.last, new, patches, mover)
                texts[key] = json.dumps(message, ensure_ascii=False, separators=COMPACT)
            out.append((conn, texts[key]))
        for conn, _ in out:
            conn.last = states[conn.seat if hidden else None]
        for conn, text in out:
            try:
                await conn.send(text)
            except Exception:  # a closed socket; its handler unsubscribes it
                self.listeners.get(session.id, set()).discard(conn)

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


def _name(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ApiError(400, "a name must be text")
    value = " ".join(value.split())
    if len(value) > MAX_NAME:
        raise ApiError(400, f"a name has at most {MAX_NAME} characters")
    return value or None


def _result(session: Session) -> dict | None:
    return session.result.to_dict() if session.result else None


def _clock(session: Session) -> dict | None:
    return session.clock.to_dict() if session.clock else None
