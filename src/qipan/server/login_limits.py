"""How wrong passwords are limited without letting anyone lock an account out.

Failures count per (username, address): after FREE_FAILURES of them, that address waits
before its next attempt at that username, twice as long after each further failure (2 s,
4 s, 8 s ... at most MAX_DELAY), until an hour passes without a failure or the right
password is given from it. Someone guessing from one address is slowed down; the owner,
from any other address, logs in as usual.

Guessing from many addresses at once meets a high cap per username (GLOBAL_FAILURES an
hour over every address): past it, the username can be logged into only from an address
it was logged into from before (in the last KNOWN_SECONDS), until the hour passes.

With several serving processes (``--redis``) everything is counted in Redis, so the limits
hold whichever process an attempt reaches; while Redis does not answer, each process
counts its own attempts (as ``accounts.SharedLimiter`` does)."""

from __future__ import annotations

import logging
import time

from .accounts import SharedLimiter

log = logging.getLogger("qipan.server")

#: Failures from one address at one username before it has to wait.
FREE_FAILURES = 5
#: The longest wait between two attempts (seconds).
MAX_DELAY = 15 * 60
#: A (username, address)'s failures are forgotten this long after its last one.
FORGET_SECONDS = 3600
#: Failures at one username from all addresses together, per GLOBAL_WINDOW seconds.
GLOBAL_FAILURES, GLOBAL_WINDOW = 100, 3600
#: How long an address the account logged in from stays known.
KNOWN_SECONDS = 30 * 86400


def delay_after(failures: int) -> float:
    """Seconds to wait after ``failures`` failures before the next attempt."""
    if failures < FREE_FAILURES:
        return 0.0
    return float(min(MAX_DELAY, 2 ** (failures - FREE_FAILURES + 1)))


class LoginLimits:
    """The login limits of one site (``redis`` None: this process only)."""

    RETRY_SECONDS = 1.0

    def __init__(self, redis=None, prefix: str = "qipan"):
        self.redis, self.prefix = redis, prefix
        self.per_username = SharedLimiter(GLOBAL_FAILURES, GLOBAL_WINDOW, redis, f"{prefix}:login-failures")
        #: (username, address) -> (failures, time of the last) in this process.
        self.local: dict[str, tuple[int, float]] = {}
        #: username -> {address: until} in this process.
        self.local_known: dict[str, dict[str, float]] = {}
        self.down_until = 0.0

    async def wait(self, username: str, address: str, now: float | None = None) -> float:
        """Seconds until ``address`` may try a password for ``username`` (0: now)."""
        now = time.time() if now is None else now
        failures, last = await self._failures(username, address, now)
        wait = last + delay_after(failures) - now
        if wait > 0:
            return wait
        busy = await self.per_username.blocked(username)
        if busy and not await self._known(username, address, now):
            return busy
        return 0.0

    async def failed(self, username: str, address: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        key = f"{username}|{address}"
        failures, _ = self.local.get(key, (0, now))
        self.local[key] = (failures + 1, now)
        self._forget_old(now)
        await self._redis(self._hit_shared, f"{self.prefix}:login-delay:{key}", now)
        await self.per_username.hit(username)

    async def succeeded(self, username: str, address: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        key = f"{username}|{address}"
        self.local.pop(key, None)
        self.local_known.setdefault(username, {})[address] = now + KNOWN_SECONDS
        await self._redis(self._succeed_shared, key, username, address, now)

    # -- in Redis ----------------------------------------------------------------------
    async def _hit_shared(self, name: str, now: float) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hincrby(name, "n", 1).hset(name, "last", now).expire(name, FORGET_SECONDS)
            await pipe.execute()

    async def _succeed_shared(self, key: str, username: str, address: str, now: float) -> None:
        known = f"{self.prefix}:login-known:{username}"
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(f"{self.prefix}:login-delay:{key}")
            pipe.zadd(known, {address: now + KNOWN_SECONDS}).zremrangebyscore(known, "-inf", now)
            pipe.expire(known, KNOWN_SECONDS)
            await pipe.execute()

    async def _failures(self, username: str, address: str, now: float) -> tuple[int, float]:
        key = f"{username}|{address}"

        async def shared():
            n, last = await self.redis.hmget(f"{self.prefix}:login-delay:{key}", "n", "last")
            return (int(n), float(last)) if n is not None and last is not None else (0, now)

        found = await self._redis(shared)
        if found is None:
            failures, last = self.local.get(key, (0, now))
            return (failures, last) if last > now - FORGET_SECONDS else (0, now)
        return found

    async def _known(self, username: str, address: str, now: float) -> bool:
        async def shared():
            until = await self.redis.zscore(f"{self.prefix}:login-known:{username}", address)
            return until is not None and until > now

        found = await self._redis(shared)
        if found is None:
            return self.local_known.get(username, {}).get(address, 0.0) > now
        return found

    async def _redis(self, call, *args):
        """``call``'s answer, or None without Redis (or while it does not answer)."""
        if self.redis is None or time.monotonic() < self.down_until:
            return None
        try:
            return await call(*args)
        except Exception as exc:
            log.warning("login limits in Redis unavailable (%s): counting in this process", exc)
            self.down_until = time.monotonic() + self.RETRY_SECONDS
            return None

    def _forget_old(self, now: float) -> None:
        if len(self.local) > 50_000:  # bounded memory
            self.local = {k: v for k, v in self.local.items() if v[1] > now - FORGET_SECONDS}
        if len(self.local_known) > 50_000:
            self.local_known.clear()
