"""Accounts: username rules, Argon2id password hashes, login sessions (a cookie holding a
random token; the database keeps only its SHA-256), CSRF tokens and login rate limits
(counted over every serving process with ``--redis``: ``SharedLimiter``).

Guests keep playing with seat tokens; an account only adds an identity to seats."""

from __future__ import annotations

import functools
import hashlib
import hmac
import itertools
import logging
import re
import secrets
import time
import unicodedata
from collections import deque
from dataclasses import dataclass

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy.exc import IntegrityError

from .errors import ApiError
from .sitedb import accounts, auth_sessions

log = logging.getLogger("qipan.server")

COOKIE = "qipan_session"
CSRF_HEADER = "x-csrf-token"
SESSION_SECONDS = 30 * 24 * 3600
USERNAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{2,19}")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
#: Names that would let someone pass for the site, its staff or a bot (agent names are
#: added at check time, so a new agent is reserved too).
RESERVED = frozenset(
    "admin administrator root system qipan server site staff moderator mod support help "
    "guest anonymous anon nobody null none undefined me you api www mail bot bots computer "
    "engine official owner".split()
)


@dataclass(frozen=True)
class Account:
    id: int
    username: str


@dataclass(frozen=True)
class LoginSession:
    account: Account
    csrf: str
    token_hash: str


def check_username(name: object, reserved_extra: frozenset[str] = frozenset()) -> str:
    """The username as given if it follows the rules, else ApiError(400) saying which."""
    if not isinstance(name, str):
        raise ApiError(400, "username must be text")
    if not USERNAME.fullmatch(name):
        raise ApiError(
            400,
            "a username has 3 to 20 characters: letters, digits, '_' and '-', starting with a letter",
        )
    if name.lower() in RESERVED or name.lower() in reserved_extra:
        raise ApiError(400, f"the username {name!r} is reserved")
    return name


def check_display_name(name: str, reserved_extra: frozenset[str] = frozenset()) -> str:
    """A guest's seat name with its spaces tidied, if it has no control, format (bidi
    overrides, zero-width), private or unassigned characters and is not a reserved word;
    else ApiError(400). Any script's letters are fine: a guest name is not a username."""
    for c in name:
        if unicodedata.category(c)[0] == "C" and c not in "\t\n\r":
            raise ApiError(400, f"a name cannot hold the invisible or control character U+{ord(c):04X}")
    tidy = " ".join(name.split())
    if tidy.lower() in RESERVED or tidy.lower() in reserved_extra:
        raise ApiError(400, f"the name {tidy!r} is reserved")
    return tidy


def check_password(password: object, username: str | None = None) -> str:
    if not isinstance(password, str):
        raise ApiError(400, "password must be text")
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ApiError(400, f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if username and password.lower() == username.lower():
        raise ApiError(400, "the password must not be the username")
    return password


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class RateLimiter:
    """At most ``limit`` events per key in any ``window`` seconds (in this process)."""

    def __init__(self, limit: int, window: float):
        self.limit, self.window = limit, window
        self.events: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        events = self.events.setdefault(key, deque())
        while events and events[0] <= now - self.window:
            events.popleft()
        return events

    def blocked(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = time.monotonic()
        events = self._recent(key, now)
        if len(events) < self.limit:
            return 0.0
        return max(0.0, events[0] + self.window - now)

    def hit(self, key: str) -> None:
        self._recent(key, time.monotonic()).append(time.monotonic())
        if len(self.events) > 50_000:  # bounded memory: forget idle keys
            for k in [k for k, v in self.events.items() if not v][:25_000]:
                del self.events[k]

    def clear(self, key: str) -> None:
        self.events.pop(key, None)


#: RateLimiter's rule over a Redis sorted set per key (members scored by their wall time):
#: forget the events of KEYS[1] older than ARGV[2] seconds before ARGV[1] (now); then with
#: ARGV[4] a member, add it (an event now), else return the seconds until the key may act
#: again (ARGV[3] the limit), as text (Lua numbers would reach Redis as whole numbers).
SLIDING_WINDOW = """
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if ARGV[4] then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('PEXPIRE', KEYS[1], math.ceil(window * 1000))
  return '0'
end
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then return '0' end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tostring(math.max(0, oldest[2] + window - now))
"""


class SharedLimiter:
    """``RateLimiter``'s rule counted over every serving process: with ``redis`` (several
    processes) the events of a key are a Redis sorted set (``<prefix>:<key>``), so an
    address or a username has one limit whichever processes its requests reach. Each
    process also counts its own events, and decides by them alone while Redis does not
    answer (the client's timeout, then RETRY_SECONDS without asking). Wall times: the
    processes' clocks must agree (NTP), as for game clocks."""

    RETRY_SECONDS = 1.0
    _serial = itertools.count()

    def __init__(self, limit: int, window: float, redis=None, prefix: str = ""):
        self.local = RateLimiter(limit, window)
        self.limit, self.window = limit, window
        self.redis, self.prefix = redis, prefix
        self.script = redis.register_script(SLIDING_WINDOW) if redis is not None else None
        self.down_until = 0.0
        self.tag = secrets.token_hex(4)  # members of two processes never collide

    async def _ask(self, op: str, key: str, member: str | None = None) -> float | None:
        """The Redis answer, or None while Redis does not answer."""
        if self.redis is None or time.monotonic() < self.down_until:
            return None
        name = f"{self.prefix}:{key}"
        try:
            if op == "clear":
                await self.redis.delete(name)
                return 0.0
            args = [time.time(), self.window, self.limit] + ([member] if member else [])
            return float(await self.script(keys=[name], args=args))
        except Exception as exc:
            log.warning("login limits in Redis unavailable (%s): counting in this process", exc)
            self.down_until = time.monotonic() + self.RETRY_SECONDS
            return None

    async def blocked(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        shared = await self._ask("blocked", key)
        return self.local.blocked(key) if shared is None else shared

    async def hit(self, key: str) -> None:
        self.local.hit(key)
        await self._ask("hit", key, f"{self.tag}:{next(self._serial)}")

    async def clear(self, key: str) -> None:
        self.local.clear(key)
        await self._ask("clear", key)


class Accounts:
    """Accounts and login sessions in the database. Methods are blocking (call them in
    the storage threads); hashing is slow on purpose (call it in a worker thread)."""

    def __init__(self, engine: sa.Engine, hasher: PasswordHasher | None = None):
        self.engine = engine
        # argon2-cffi's defaults are Argon2id with RFC 9106's low-memory profile.
        self.hasher = hasher or PasswordHasher()

    @functools.cached_property
    def dummy_hash(self) -> str:
        """Verified against when a username does not exist, so failing takes as long either
        way. Made at the first such login, not at start: a hash costs a start half a second,
        and the first unknown name's login pays it once."""
        return self.hasher.hash(secrets.token_urlsafe(16))

    # -- passwords (CPU-bound) -----------------------------------------------------------
    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, stored_hash: str | None, password: str) -> bool:
        try:
            return self.hasher.verify(stored_hash or self.dummy_hash, password) and stored_hash is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    # -- accounts ------------------------------------------------------------------------
    def create(self, username: str, password_hash: str) -> Account:
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    accounts.insert().values(
                        username=username,
                        username_key=username.lower(),
                        password_hash=password_hash,
                        created=time.time(),
                    )
                )
                return Account(result.inserted_primary_key[0], username)
        except IntegrityError as exc:
            raise ApiError(409, f"the username {username!r} is taken") from exc

    def find(self, username: str) -> tuple[Account, str] | None:
        """The account and its password hash, by username in any case."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(accounts.c.id, accounts.c.username, accounts.c.password_hash).where(
                    accounts.c.username_key == username.lower()
                )
            ).first()
        return (Account(row.id, row.username), row.password_hash) if row else None

    def by_ids(self, ids: list[int]) -> dict[int, Account]:
        if not ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(accounts.c.id, accounts.c.username).where(accounts.c.id.in_(set(ids)))
            )
            return {r.id: Account(r.id, r.username) for r in rows}

    def set_password(self, account_id: int, password_hash: str, keep_session: str) -> None:
        """New password; every other login session of the account ends."""
        with self.engine.begin() as conn:
            conn.execute(
                accounts.update().where(accounts.c.id == account_id).values(password_hash=password_hash)
            )
            conn.execute(
                auth_sessions.delete().where(
                    auth_sessions.c.account_id == account_id, auth_sessions.c.token_hash != keep_session
                )
            )

    # -- login sessions ------------------------------------------------------------------
    def open_session(self, account: Account) -> tuple[str, str]:
        """A new login session: (cookie token, CSRF token)."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(
                auth_sessions.insert().values(
                    token_hash=token_hash(token),
                    account_id=account.id,
                    csrf=csrf,
                    created=now,
                    expires=now + SESSION_SECONDS,
                )
            )
        return token, csrf

    def session(self, token: str) -> LoginSession | None:
        hashed = token_hash(token)
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(auth_sessions.c.csrf, auth_sessions.c.expires, accounts.c.id, accounts.c.username)
                .join(accounts, accounts.c.id == auth_sessions.c.account_id)
                .where(auth_sessions.c.token_hash == hashed)
            ).first()
        if row is None or row.expires < time.time():
            return None
        return LoginSession(Account(row.id, row.username), row.csrf, hashed)

    def close_session(self, hashed: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(auth_sessions.delete().where(auth_sessions.c.token_hash == hashed))


def csrf_ok(login: LoginSession, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(login.csrf, sent)
