"""Which seats of a game are online (have a socket open) in any serving process.

Each process counts its own sockets (``Session.online``). With several processes
(``--redis``) it also writes, per game, the seats online here to a Redis hash
(``qipan:<database>:online:<game>``, one field per process: the seats and until when the
entry holds) and tells the others on the change channel. An entry holds for TTL seconds
and is renewed every REFRESH seconds while the seats stay online here, so the entries of
a process that died run out by themselves: the others re-read the hash when an entry they
hold runs out, and drop it if it was not renewed. A process keeps the others' entries only
for the games its own listeners watch (it tells nobody else).

Redis down: this process's marks are written again when it answers; meanwhile each
process shows what it last heard."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable

log = logging.getLogger("qipan.server")

#: Seconds an entry holds without being renewed.
TTL = 15.0
#: Seconds between renewals (and checks of the others' entries).
REFRESH = 5.0


class Presence:
    def __init__(
        self,
        redis,
        prefix: str,
        process: str,
        publish: Callable[[dict], None],
        on_change: Callable[[str, set[int]], None],
    ):
        self.redis, self.prefix, self.process = redis, prefix, process
        self.publish = publish
        #: Called with a game and the seats now online in other processes, when they change.
        self.on_change = on_change
        #: The seats online here, per game (only games with some).
        self.here: dict[str, frozenset[int]] = {}
        #: Games whose entry must be written again (Redis failed).
        self.unwritten: set[str] = set()
        #: Games watched here -> the other processes' entries: process -> (seats, until).
        self.elsewhere: dict[str, dict[str, tuple[frozenset[int], float]]] = {}
        #: Games watched here -> the seats online elsewhere as last told (``on_change``).
        self.shown: dict[str, set[int]] = {}
        #: Games whose entry must be written, or whose hash read, at the next flush: a burst
        #: of sockets (hundreds of games joined at once) becomes one pipeline, not a task and
        #: a pooled connection each.
        self._to_write: set[str] = set()
        self._to_read: set[str] = set()
        self._flusher: asyncio.Task | None = None
        self._task: asyncio.Task | None = None
        self.stopped = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._refresher())

    async def stop(self) -> None:
        """Stop renewing and take this process's entries back (its sockets are closing)."""
        self.stopped = True
        for task in (self._task, self._flusher):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in self.here:
                    pipe.hdel(self._key(game_id), self.process)
                await pipe.execute()
        for game_id in self.here:
            self.publish(
                {"type": "presence", "id": game_id, "process": self.process, "seats": [], "until": 0}
            )

    def _key(self, game_id: str) -> str:
        return f"{self.prefix}:{game_id}"

    # -- this process's sockets --------------------------------------------------------
    def set_here(self, game_id: str, seats: set[int]) -> None:
        """The seats of ``game_id`` online in this process changed to ``seats``."""
        seats = frozenset(seats)
        if self.stopped or self.here.get(game_id, frozenset()) == seats:
            return
        if seats:
            self.here[game_id] = seats
        else:
            self.here.pop(game_id, None)
        self._to_write.add(game_id)
        self._kick()

    def _kick(self) -> None:
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        # Changes that arrive while a pipeline is out go in the next one.
        while (self._to_write or self._to_read) and not self.stopped:
            if self._to_write:
                games, self._to_write = list(self._to_write), set()
                await self._write(games, tell=True)
            if self._to_read:
                games, self._to_read = list(self._to_read), set()
                await self._read(games)

    async def _write(self, game_ids: list[str], tell: bool) -> None:
        until = time.time() + TTL
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in game_ids:
                    seats = self.here.get(game_id)
                    if seats:
                        value = json.dumps({"seats": sorted(seats), "until": until})
                        pipe.hset(self._key(game_id), self.process, value)
                        pipe.expire(self._key(game_id), int(TTL) + 1)
                    else:
                        pipe.hdel(self._key(game_id), self.process)
                await pipe.execute()
        except Exception as exc:
            log.warning("cannot write who is online to Redis (%s); retrying", exc)
            self.unwritten.update(game_ids)
            return
        if tell:
            for game_id in game_ids:
                seats = sorted(self.here.get(game_id, ()))
                self.publish(
                    {
                        "type": "presence",
                        "id": game_id,
                        "process": self.process,
                        "seats": seats,
                        "until": until,
                    }
                )

    # -- the other processes' sockets --------------------------------------------------
    def watch(self, game_id: str) -> None:
        """This process has listeners of ``game_id``: learn who is online elsewhere."""
        if game_id not in self.elsewhere:
            self.elsewhere[game_id] = {}
            self._to_read.add(game_id)
            self._kick()

    def unwatch(self, game_id: str) -> None:
        self.elsewhere.pop(game_id, None)
        self.shown.pop(game_id, None)

    def heard(self, message: dict) -> None:
        """Another process's entry changed (a change-channel message)."""
        game_id, process = message.get("id"), message.get("process")
        entries = self.elsewhere.get(game_id)
        if entries is None or not isinstance(process, str) or process == self.process:
            return
        try:
            seats = frozenset(int(s) for s in message.get("seats", ()))
            until = float(message.get("until", 0))
        except (TypeError, ValueError):
            return
        if seats:
            entries[process] = (seats, until)
        else:
            entries.pop(process, None)
        self._changed(game_id)

    def online_elsewhere(self, game_id: str, now: float | None = None) -> set[int]:
        now = time.time() if now is None else now
        out: set[int] = set()
        for seats, until in self.elsewhere.get(game_id, {}).values():
            if until > now:
                out |= seats
        return out

    def _changed(self, game_id: str) -> None:
        if game_id not in self.elsewhere:
            return
        now = self.online_elsewhere(game_id)
        if now != self.shown.get(game_id, set()):
            self.shown[game_id] = now
            self.on_change(game_id, now)

    async def _read(self, game_ids: list[str]) -> None:
        """Read the other processes' entries of ``game_ids`` (one pipeline)."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for game_id in game_ids:
                    pipe.hgetall(self._key(game_id))
                hashes = await pipe.execute()
        except Exception as exc:
            log.warning("cannot read who is online from Redis (%s)", exc)
            return
        stale: dict[str, list[str]] = {}
        now = time.time()
        for game_id, raw in zip(game_ids, hashes, strict=True):
            entries = self.elsewhere.get(game_id)
            if entries is None:  # no longer watched
                continue
            entries.clear()
            for process, value in raw.items():
                process = process.decode() if isinstance(process, bytes) else process
                if process == self.process:
                    continue
                try:
                    entry = json.loads(value)
                    seats, until = frozenset(int(s) for s in entry["seats"]), float(entry["until"])
                except (ValueError, KeyError, TypeError):
                    stale.setdefault(game_id, []).append(process)
                    continue
                if until > now:
                    entries[process] = (seats, until)
                else:  # a process that stopped renewing (it died): nobody else removes it
                    stale.setdefault(game_id, []).append(process)
            self._changed(game_id)
        if stale:
            with contextlib.suppress(Exception):
                async with self.redis.pipeline(transaction=False) as pipe:
                    for game_id, gone in stale.items():
                        pipe.hdel(self._key(game_id), *gone)
                    await pipe.execute()

    async def _refresher(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            try:
                # Renew ours (and write what Redis missed), then re-read the games where an
                # entry of another process has run out: renewed, or its process is gone.
                retry, self.unwritten = self.unwritten, set()
                if self.here or retry:
                    await self._write(list(set(self.here) | retry), tell=bool(retry))
                now = time.time()
                expiring = []
                for game_id, entries in list(self.elsewhere.items()):
                    if any(until <= now + REFRESH for _, until in entries.values()):
                        expiring.append(game_id)
                    else:
                        self._changed(game_id)
                if expiring:
                    await self._read(expiring)
            except asyncio.CancelledError:
                raise
            except Exception:  # the renewals must go on
                log.exception("keeping who is online failed; trying again")
