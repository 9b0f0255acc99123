"""The game site around the games: accounts, seats owned by accounts, seeks and pairing,
ratings of finished rated games, chat. One object per app, beside the game manager; its
database calls run in the manager's storage threads."""

from __future__ import annotations

import logging
import random
import time

import sqlalchemy as sa
from argon2 import PasswordHasher
from sqlalchemy.exc import IntegrityError

from ..core import spec
from .accounts import Account, Accounts, RateLimiter, SharedLimiter
from .chat import RATE_COUNT, RATE_WINDOW, Chat
from .errors import ApiError
from .manager import Manager
from .seeks import Seeks, admits, lapsed, same_setup
from .session import Session
from .sitedb import accounts, game_accounts, seeks
from .standings import Standings
from .storage import games_table

log = logging.getLogger("qipan.server")


class Site:
    def __init__(self, manager: Manager, hasher: PasswordHasher | None = None):
        engine = manager.storage.engine
        self.manager = manager
        self.accounts = Accounts(engine, hasher)
        self.standings = Standings(engine)
        self.seeks = Seeks(engine)
        self.chat = Chat(engine)
        # Counted over every serving process with --redis (accounts.SharedLimiter).
        redis, prefix = manager.redis, manager.redis_prefix
        self.login_by_ip = SharedLimiter(30, 300, redis, f"{prefix}:login-ip")
        self.login_failures = SharedLimiter(5, 300, redis, f"{prefix}:login-failures")
        self.signups_by_ip = SharedLimiter(20, 3600, redis, f"{prefix}:signup-ip")
        self.chat_rate = RateLimiter(RATE_COUNT, RATE_WINDOW)
        self._rated_seen: set[str] = set()
        manager.on_change.append(self._changed)

    async def db(self, call, *args, **kwargs):
        """A blocking call in the storage threads. An ApiError it raises (a refusal such as a
        taken username) reaches the client as it is; any other failure is a 503."""

        def run():
            try:
                return call(*args, **kwargs), None
            except ApiError as exc:
                return None, exc

        value, error = await self.manager._db(run)
        if error is not None:
            raise error
        return value

    async def start(self) -> None:
        """Rate the rated games that ended while no process could (e.g. a crash between
        storing the last move and rating it)."""
        for game_id in await self.db(self.standings.pending):
            try:
                session = await self.manager.get(game_id)
            except ApiError:
                continue
            self._changed(session)

    # -- ratings -------------------------------------------------------------------------
    def _changed(self, session: Session) -> None:
        if session.status == "over" and session.result is not None and session.id not in self._rated_seen:
            self._rated_seen.add(session.id)
            self.manager._spawn(self._rate(session.id, session.result))

    async def _rate(self, game_id: str, result) -> None:
        try:
            changes = await self.db(self.standings.apply, game_id, result)
        except ApiError:
            self._rated_seen.discard(game_id)  # the store failed: the next start tries again
            return
        if changes:
            log.info(
                "game %s rated: %s", game_id, {a: round(after.rating, 1) for a, (_, after) in changes.items()}
            )

    # -- seats owned by accounts ---------------------------------------------------------
    def _link(self, game_id: str, seat: int, account: Account) -> None:
        with self.manager.storage.engine.begin() as conn:
            owner = conn.execute(
                sa.select(game_accounts.c.account_id).where(
                    game_accounts.c.game_id == game_id, game_accounts.c.seat == seat
                )
            ).scalar()
            if owner is None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            game_accounts.insert().values(game_id=game_id, seat=seat, account_id=account.id)
                        )
                except IntegrityError as exc:  # linked by a parallel request
                    raise ApiError(409, f"seat {seat + 1} was just linked") from exc
            elif owner != account.id:
                raise ApiError(409, f"seat {seat + 1} belongs to another account")

    async def link_seat(self, account: Account, game_id: str, token: str | None) -> int:
        session = await self.manager.get(game_id)
        seat = session.require_seat(token)
        await self.db(self._link, game_id, seat, account)
        return seat

    def _seats_of(self, game_id: str, account_id: int | None = None) -> dict[int, int]:
        query = sa.select(game_accounts.c.seat, game_accounts.c.account_id).where(
            game_accounts.c.game_id == game_id
        )
        if account_id is not None:
            query = query.where(game_accounts.c.account_id == account_id)
        with self.manager.storage.engine.connect() as conn:
            return dict(conn.execute(query).all())

    async def seat_accounts(self, game_id: str) -> dict[int, int]:
        return await self.db(self._seats_of, game_id)

    async def my_seats(self, account: Account, game_id: str) -> list[dict]:
        session = await self.manager.get(game_id)
        mine = await self.db(self._seats_of, game_id, account.id)
        return [{"seat": seat, "token": session.seats[seat]["token"]} for seat in sorted(mine)]

    def _game_ids(self, account_id: int, limit: int) -> list[tuple[str, int]]:
        with self.manager.storage.engine.connect() as conn:
            return [
                (r.game_id, r.seat)
                for r in conn.execute(
                    sa.select(game_accounts.c.game_id, game_accounts.c.seat)
                    .join(games_table, games_table.c.id == game_accounts.c.game_id)
                    .where(game_accounts.c.account_id == account_id)
                    .order_by(games_table.c.updated.desc())
                    .limit(limit)
                )
            ]

    def _active_seats(self, account_id: int) -> list[tuple[str, int]]:
        with self.manager.storage.engine.connect() as conn:
            return [
                (r.game_id, r.seat)
                for r in conn.execute(
                    sa.select(game_accounts.c.game_id, game_accounts.c.seat)
                    .join(games_table, games_table.c.id == game_accounts.c.game_id)
                    .where(game_accounts.c.account_id == account_id, games_table.c.status == "active")
                )
            ]

    async def your_turn(self, account_id: int) -> list[str]:
        """The account's games waiting for its move (for the header's marker): only active
        games are looked at, and those are in memory already."""
        out = []
        for game_id, seat in await self.db(self._active_seats, account_id):
            try:
                session = await self.manager.get(game_id)
            except ApiError:
                continue
            if session.status == "active" and session.state.to_move == seat and game_id not in out:
                out.append(game_id)
        return out

    def _usernames(self, game_ids: list[str]) -> dict[str, dict[int, str]]:
        if not game_ids:
            return {}
        out: dict[str, dict[int, str]] = {}
        with self.manager.storage.engine.connect() as conn:
            rows = conn.execute(
                sa.select(game_accounts.c.game_id, game_accounts.c.seat, accounts.c.username)
                .join(accounts, accounts.c.id == game_accounts.c.account_id)
                .where(game_accounts.c.game_id.in_(game_ids))
            )
            for r in rows:
                out.setdefault(r.game_id, {})[r.seat] = r.username
        return out

    async def games_of(self, account_id: int, limit: int = 50) -> list[dict]:
        """The account's games, newest first, with its seats, "your turn" and the terms."""
        pairs = await self.db(self._game_ids, account_id, limit * 4)
        seats: dict[str, list[int]] = {}
        for game_id, seat in pairs:
            seats.setdefault(game_id, []).append(seat)
        ids = list(seats)[:limit]
        summaries = await self.manager.list(None, limit, ids)
        terms = await self.db(self.standings.terms, ids)
        owners = await self.db(self._usernames, ids)
        out = []
        for g in summaries:
            mine = sorted(seats[g["id"]])
            out.append(
                g
                | {
                    "my_seats": mine,
                    "your_turn": g["status"] == "active" and g["to_move"] in mine,
                    "terms": terms.get(g["id"]),
                    # Seats that belong to accounts, by seat (for links to their profiles).
                    "accounts": owners.get(g["id"], {}),
                }
            )
        return out

    async def game_terms(self, game_id: str) -> dict:
        """A game's terms for its page: rated or casual, time class, and each account seat's
        rating (with what the game changed once it is rated)."""
        session = await self.manager.get(game_id)
        terms = (await self.db(self.standings.terms, [game_id])).get(game_id)
        owners = (await self.db(self._usernames, [game_id])).get(game_id, {})
        seat_ids = await self.db(self._seats_of, game_id)
        family = session.game.family
        players = []
        for seat, username in sorted(owners.items()):
            entry: dict = {"seat": seat, "username": username}
            if terms and terms["time_class"] != "untimed":
                rating = await self.db(self.standings.rating, seat_ids[seat], family, terms["time_class"])
                entry |= {"rating": round(rating.rating), "provisional": rating.provisional}
                entry["change"] = await self.db(self.standings.change_in, game_id, seat_ids[seat])
            players.append(entry)
        return {"terms": terms, "family": family, "players": players}

    # -- seeks ---------------------------------------------------------------------------
    async def rating_for(self, account: Account, seek: dict) -> float:
        family = seek.get("family") or spec(seek["game"]).family
        return (await self.db(self.standings.rating, account.id, family, seek["time_class"])).rating

    async def accept(self, account: Account, seek_id: str) -> dict:
        seek = await self.db(self.seeks.get, seek_id)
        if seek is None:
            raise ApiError(404, f"there is no seek {seek_id!r}")
        if seek["account_id"] == account.id:
            raise ApiError(409, "this is your own seek")
        if seek["status"] != "open":
            raise ApiError(409, f"the seek is {seek['status']} already")
        if lapsed(seek, time.time()):
            raise ApiError(409, "the seek has lapsed")
        if not admits(seek, await self.rating_for(account, seek)):
            raise ApiError(403, "your rating is outside the seek's rating range")
        if not await self.db(self.seeks.claim, seek_id, account):
            raise ApiError(409, "the seek was accepted by someone else")
        try:
            return await self._start_paired(seek, account)
        except BaseException:
            await self.db(self.seeks.release, seek_id)
            raise

    async def _start_paired(self, seek: dict, acceptor: Account) -> dict:
        owner = Account(seek["account_id"], seek["username"])
        order = [owner, acceptor]
        random.shuffle(order)  # who moves first is drawn
        game_spec = spec(seek["game"])
        session, tickets = await self.manager.create(
            {
                "game": seek["game"],
                "options": seek["options"],
                "players": 2,
                "public": True,
                "clock": seek["clock"],
                "seats": [{"kind": "human", "name": a.username, "join": True} for a in order],
            }
        )

        def record(conn_engine=self.manager.storage.engine) -> None:
            with conn_engine.begin() as conn:
                for seat, a in enumerate(order):
                    conn.execute(
                        game_accounts.insert().values(game_id=session.id, seat=seat, account_id=a.id)
                    )
                self.standings.register_game(
                    conn, session.id, game_spec.family, seek["time_class"], seek["rated"], seek["days"]
                )
                conn.execute(seeks.update().where(seeks.c.id == seek["id"]).values(game_id=session.id))

        await self.db(record)
        seat = order.index(acceptor)
        token = next(t["token"] for t in tickets if t["seat"] == seat)
        return {"game": session.id, "seat": seat, "token": token}

    async def quick(self, account: Account, wanted: dict) -> dict:
        """Accept the oldest open seek for the same setup, or post one."""
        mine = await self.rating_for(account, wanted)
        for seek in await self.db(self.seeks.open):
            if seek["account_id"] == account.id or not same_setup(seek, wanted) or not admits(seek, mine):
                continue
            try:
                return await self.accept(account, seek["id"])
            except ApiError as exc:
                if exc.status != 409:
                    raise
        return {"seek": await self.db(self.seeks.post, account, wanted)}

    # -- chat ----------------------------------------------------------------------------
    def chat_allowed(self, key: str) -> None:
        wait = self.chat_rate.blocked(key)
        if wait:
            raise ApiError(429, f"too many messages: wait {wait:.0f} s")
        self.chat_rate.hit(key)


def bots() -> list[dict]:
    """The bots people can play: levels 1-8 of every game (the ``level`` agent), with the
    ratings the ladder measured per game (agents/levels_ladder.json, written by
    benchmarks/levels_ladder.py); ``rating`` is their mean over the measured games, the
    provisional default (ratings.BOT_RATING) where no game was measured."""
    from ..agents.levels import LEVELS, measured_ratings
    from .ratings import BOT_RATING

    out = []
    for lvl in LEVELS:
        ratings = measured_ratings(lvl.number)
        mean = sum(r["rating"] for r in ratings.values()) / len(ratings) if ratings else BOT_RATING.rating
        out.append(
            {
                "name": f"level {lvl.number}",
                "agent": "level",
                "level": lvl.number,
                "limits": {"level": lvl.number},
                "description": lvl.title,
                "families": None,
                "rating": mean,
                "rd": BOT_RATING.rd,
                "ratings": ratings,
                "provisional": not ratings,
                "measured": bool(ratings),
            }
        )
    return out
