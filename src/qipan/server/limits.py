"""Limits on what one client may make the server do: request body size and read time, and
how many requests and WebSocket messages per second (the socket layer's own limits, on
headers, handshakes, frames and open connections, are set from here too: connections.py).

Pure ASGI middleware, so they cover every route (also the ones other modules add) before
the route runs. A body announced larger than the limit is refused without reading it, a
streamed body is refused as soon as it passes the limit, and a body that stops arriving
is refused after ``body_timeout`` seconds rather than holding its connection forever.
Rates are token buckets: per client address for HTTP requests and WebSocket handshakes
(429 with Retry-After), per connection and per address for WebSocket messages (an error
message; the connection stays open). A connection's messages cost by size: one token and
one more per ``ws_bytes_per_token`` bytes, so large frames spend its rate sooner. With several serving processes (``--redis``) the
per-address rates count over all of them (``SharedCounts``); a connection lives in one
process, so its own rate stays local."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
from dataclasses import dataclass

log = logging.getLogger("qipan.server")


@dataclass(frozen=True)
class Limits:
    #: Largest request body in bytes (the API's own bodies are well under 1 KiB).
    max_body: int = 64 * 1024
    #: Seconds a client has to send the whole body once the headers are in.
    body_timeout: float = 10.0
    #: HTTP requests (and WebSocket handshakes) per second per client address, and the
    #: burst allowed above it (a page load fetches a dozen files). None: no limit.
    http_rate: float | None = 50.0
    http_burst: int = 200
    #: WebSocket messages per second on one connection, and per address over all of its
    #: connections (several players in one browser, or behind one router).
    ws_rate: float | None = 20.0
    ws_burst: int = 40
    ws_address_rate: float | None = 200.0
    ws_address_burst: int = 400
    #: A WebSocket message's cost on its connection's rate: 1 token + 1 per this many bytes.
    ws_bytes_per_token: int = 4096
    #: Largest WebSocket frame (the API's messages are under 1 KiB); a larger one closes
    #: the connection (1009) before its payload is read.
    max_frame: int = 64 * 1024
    #: Seconds a connection has to send a request's headers, and a WebSocket upgrade to
    #: complete its handshake.
    header_timeout: float = 5.0
    #: Connections one address may hold open in one process (the reverse proxy's own
    #: connections excepted: connections.py). None: no cap.
    connections_per_address: int | None = 64
    #: New WebSocket connections one address may have set up a second in one process, after
    #: a burst; the others wait their turn, up to ``ws_setup_wait`` seconds, and are then
    #: refused (socket_pace.py; the reverse proxy's connections excepted). None: no pace.
    ws_setup_rate: float | None = 5.0
    ws_setup_burst: int = 10
    ws_setup_wait: float = 3.0

    @classmethod
    def unlimited_rates(cls) -> Limits:
        """No rate limits (load tests from one address on loopback); sizes still apply."""
        return cls(http_rate=None, ws_rate=None, ws_address_rate=None, ws_setup_rate=None)


class TokenBuckets:
    """One token bucket per key: ``rate`` tokens a second, at most ``burst`` saved up."""

    #: Keys kept at most; beyond that, buckets that have filled up again are dropped.
    MAX_KEYS = 50_000

    def __init__(self, rate: float | None, burst: int):
        self.rate, self.burst = rate, burst
        self.buckets: dict[object, tuple[float, float]] = {}

    def wait(self, key: object, now: float | None = None, cost: float = 1.0) -> float:
        """0 if ``key`` may act now (and takes ``cost`` tokens), else the seconds until it
        may. A cost above the burst is taken once the bucket is full (it goes into debt)."""
        if self.rate is None:
            return 0.0
        now = time.monotonic() if now is None else now
        tokens, last = self.buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        need = min(cost, float(self.burst))
        if tokens < need:
            self.buckets[key] = (tokens, now)
            return (need - tokens) / self.rate
        self.buckets[key] = (tokens - cost, now)
        if len(self.buckets) > self.MAX_KEYS:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [k for k, (t, last) in self.buckets.items() if t + (now - last) * self.rate >= self.burst]
        for key in full:
            del self.buckets[key]


#: Take ARGV[1] counts from the counter KEYS[1]; a new counter (a new window) expires after
#: ARGV[2] ms. Returns the count and the milliseconds left in the window (one round trip,
#: atomic: two processes cannot both start the window).
TAKE_COUNTS = """
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
if total == tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return {total, redis.call('PTTL', KEYS[1])}
"""


class SharedCounts:
    """A per-key rate counted over every serving process, in Redis: a counter per key that
    expires ``window`` seconds after the first request counted in it, at most ``limit``
    requests per window. For a token bucket of ``rate`` and ``burst``: limit = burst,
    window = burst / rate (the same burst, the same rate over time).

    A process takes counts ``chunk`` (a tenth of the limit) at a time and spends them
    itself: a round trip costs ~0.5-0.7 ms of CPU in redis-py, so most requests must not
    make one. Counts a process took but did not use are lost to the others for that window
    (at most ``chunk`` per process). A key refused in a window
    is refused here without asking again until the window ends. While Redis does not
    answer, ``wait`` returns None and the caller's own buckets decide."""

    #: Seconds without asking Redis after it failed.
    RETRY_SECONDS = 1.0
    #: Keys remembered at most (expired ones are dropped beyond that).
    MAX_KEYS = 50_000

    def __init__(self, redis, prefix: str, rate: float, burst: int):
        self.redis, self.prefix = redis, prefix
        self.limit = max(1, burst)
        self.window = self.limit / rate
        self.chunk = max(1, self.limit // 10)
        self.take = redis.register_script(TAKE_COUNTS)
        #: key -> (counts left here, monotonic time the window ends)
        self.local: dict[object, tuple[int, float]] = {}
        self.down_until = 0.0

    async def wait(self, key: object, now: float | None = None) -> float | None:
        """0 if ``key`` may act now (and counts it), the seconds until it may, or None
        if Redis cannot be asked."""
        now = time.monotonic() if now is None else now
        left, ends = self.local.get(key, (0, 0.0))
        if now < ends:
            if left > 0:
                self.local[key] = (left - 1, ends)
                return 0.0
            if left < 0:  # refused in this window already
                return ends - now
        if now < self.down_until:
            return None
        name = f"{self.prefix}:{key}"
        try:
            total, ttl = await self.take(keys=[name], args=[self.chunk, max(1, int(self.window * 1000))])
        except Exception as exc:
            log.warning("rate counts in Redis unavailable (%s): counting in this process", exc)
            self.down_until = now + self.RETRY_SECONDS
            return None
        ends = now + (ttl / 1000 if ttl > 0 else self.window)
        granted = min(self.chunk, self.limit - (total - self.chunk))
        if len(self.local) > self.MAX_KEYS:
            self.local = {k: v for k, v in self.local.items() if v[1] > now}
        if granted <= 0:
            self.local[key] = (-1, ends)
            return ends - now
        self.local[key] = (granted - 1, ends)
        return 0.0


class AddressRate:
    """A rate per client address: this process's token buckets, or with ``share`` the
    count over every process (SharedCounts), falling back to the buckets while Redis is
    unreachable."""

    def __init__(self, rate: float | None, burst: int, kind: str):
        self.buckets = TokenBuckets(rate, burst)
        self.kind = kind
        self.shared: SharedCounts | None = None

    def share(self, redis, prefix: str) -> None:
        if self.buckets.rate is not None:
            self.shared = SharedCounts(redis, f"{prefix}:{self.kind}", self.buckets.rate, self.buckets.burst)

    async def wait(self, address: str) -> float:
        if self.shared is not None:
            wait = await self.shared.wait(address)
            if wait is not None:
                return wait
        return self.buckets.wait(address)


def client_address(scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class RateLimit:
    """HTTP requests and WebSocket handshakes per client address."""

    def __init__(self, app, rate: AddressRate):
        self.app = app
        self.rate = rate

    async def __call__(self, scope, receive, send):
        if scope["type"] in ("http", "websocket"):
            wait = await self.rate.wait(client_address(scope))
            if wait:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4429})
                else:
                    await _refuse(send, 429, f"too many requests: try again in {wait:.1f} s", retry=wait)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    def __init__(self, app, limits: Limits):
        self.app = app
        self.limits = limits

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.max_body
        announced = _content_length(scope)
        if announced is not None and announced > limit:
            await _refuse(send, 413, f"the request body is larger than {limit // 1024} KiB")
            return
        chunks, size = [], 0
        try:
            async with asyncio.timeout(self.limits.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > limit:
                        await _refuse(send, 413, f"the request body is larger than {limit // 1024} KiB")
                        return
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            await _refuse(send, 408, f"the request body did not arrive within {self.limits.body_timeout:g} s")
            return
        body = b"".join(chunks)
        replayed = False

        async def replay():
            # The route reads the body we already have; after that, the real channel
            # (which reports a disconnect).
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None  # the HTTP server itself refuses a malformed length
    return None


async def _refuse(send, status: int, message: str, retry: float | None = None) -> None:
    body = json.dumps({"error": message}).encode()
    # The unread rest of a body must not be taken for the next request: close.
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    if retry is not None:
        headers.append((b"retry-after", str(math.ceil(retry)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
