"""Every stored change of a game, told to every serving process over Redis pub/sub.

One channel for all games of a database (as lila-ws does), named after the database, so
test runs and deployments sharing a Redis do not hear each other: each process hears
every change and applies the ones of games it has loaded, then pushes them to its own
WebSocket clients. A message
is ``"<origin process> <json>"``, so a process skips its own without parsing them.

Redis is a messenger, not a store: a change is published after it is stored, and a
message that is lost (Redis restarted, a connection dropped) costs nothing but time. The
receiver notices a gap by the change's base version, and after every (re)connection it
asks ``on_connect`` to catch up with the store, so no change is missed for good."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger("qipan.server")


def channel_for(database: str | None) -> str:
    """The channel of the processes serving one database."""
    return f"qipan:{database or 'default'}:changes"


#: Messages kept while Redis cannot be reached; older ones are dropped (the receivers then
#: see a gap and read the game from the store).
MAX_QUEUED = 10_000
#: Seconds between attempts to reach Redis again.
RETRY_SECONDS = 0.5


def redis_client(url: str, timeout: float | None = None):
    """A redis-py asyncio client that reports a dropped connection at once (no silent
    retries), with ``timeout`` seconds per command if given."""
    try:
        import redis.asyncio as redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
    except ImportError as exc:  # pragma: no cover - the server extra installs it
        raise RuntimeError(f"--redis needs redis-py: pip install 'qipan[server]' ({exc})") from exc
    return redis.Redis.from_url(
        url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=timeout or 2, socket_timeout=timeout
    )


class Bus:
    """Publish this process's changes and hear the other processes' (``redis://`` URL)."""

    def __init__(
        self,
        url: str,
        process: str,
        on_message: Callable[[dict], None],
        on_connect: Callable[[], Awaitable[None]],
        channel: str = channel_for(None),
    ):
        self.url = url
        self.channel = channel
        self.process = process
        self.on_message = on_message
        self.on_connect = on_connect
        # No silent reconnection inside redis-py: a dropped connection must reach us, so
        # that the process catches up with the store after it. (Also the client of the
        # presence marks, presence.py.)
        self.redis = redis_client(url)
        self._queue: collections.deque[str] = collections.deque()
        self._queued = asyncio.Event()
        self._tasks: list[asyncio.Task] = []
        #: True while this process is subscribed, i.e. hears every change as it is made.
        self.connected = False
        #: Times the subscription was (re)established (for tests and the log).
        self.connections = 0

    async def start(self) -> None:
        """Start publishing and listening; returns once subscribed (or after the first
        failure: the process serves without Redis until it comes back)."""
        subscribed = asyncio.Event()
        self._tasks = [
            asyncio.get_running_loop().create_task(self._publisher()),
            asyncio.get_running_loop().create_task(self._listener(subscribed)),
        ]
        await subscribed.wait()

    async def stop(self) -> None:
        """Stop, after sending what is queued (for up to a second)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                while self._queue and self.connected:
                    await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def publish(self, message: dict) -> None:
        """Queue a stored change for the other processes (sent in order, in batches)."""
        self._queue.append(f"{self.process} {json.dumps(message, ensure_ascii=False, separators=(',', ':'))}")
        while len(self._queue) > MAX_QUEUED:
            self._queue.popleft()
        self._queued.set()

    async def _publisher(self) -> None:
        while True:
            await self._queued.wait()
            self._queued.clear()
            while self._queue:
                batch = list(self._queue)
                try:
                    if len(batch) == 1:  # the usual case: a pipeline costs 1.5x the command's CPU
                        await self.redis.execute_command("PUBLISH", self.channel, batch[0])
                    else:
                        async with self.redis.pipeline(transaction=False) as pipe:
                            for text in batch:
                                pipe.publish(self.channel, text)
                            await pipe.execute()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    log.warning("cannot publish %d changes on Redis (%s); retrying", len(batch), exc)
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                for _ in batch:  # sent: those may since have been joined by new ones
                    self._queue.popleft()

    async def _listener(self, subscribed: asyncio.Event) -> None:
        prefix = self.process + " "
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                self.connected = True
                self.connections += 1
                subscribed.set()
                # Subscribed first, then caught up: a change stored meanwhile is either in
                # the store when we look or arrives as a message (or both: harmless).
                if self.connections > 1:
                    log.info("Redis reached again: catching up with the store")
                await self.on_connect()
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is None or message.get("type") != "message":
                        continue
                    data = message["data"]
                    text = data.decode() if isinstance(data, bytes) else data
                    if text.startswith(prefix):
                        continue
                    try:
                        self.on_message(json.loads(text.split(" ", 1)[1]))
                    except Exception:
                        log.exception("a change message could not be applied")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self.connected or not subscribed.is_set():
                    log.warning("Redis pub/sub at %s unavailable (%s); retrying", self.url, exc)
                self.connected = False
                subscribed.set()
                await asyncio.sleep(RETRY_SECONDS)
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
