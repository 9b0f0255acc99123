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

from .. import agents as _agents
from ..core import spec
from .accounts import Account, Accounts, SharedLimiter, check_display_name
from .chat import RATE_COUNT, RATE_WINDOW, Chat
from .errors import ApiError
from .fair_play import Addresses
from .leavers import Leavers
from .login_limits import LoginLimits
from .manager import Manager
from .rematch import Rematches, turned
from .seeks import Seeks, admits, lapsed, same_setup
from .session import Session
from .sitedb import accounts, game_accounts, seeks
from .standings import Standings
from .storage import games_table
from .tournaments import Runner, Tournaments

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
        redis, prefix = manager.cluster.redis, manager.cluster.prefix
        self.login_by_ip = SharedLimiter(30, 300, redis, f"{prefix}:login-ip")
        self.login_failures = LoginLimits(redis, prefix)  # per (username, address): login_limits.py
        self.signups_by_ip = SharedLimiter(20, 3600, redis, f"{prefix}:signup-ip")
        self.chat_rate = SharedLimiter(RATE_COUNT, RATE_WINDOW, redis, f"{prefix}:chat")
        self.addresses = Addresses(engine)
        self._rated_seen: set[str] = set()
        manager.on_change.append(self._changed)
        manager.is_rated = self.is_rated
        self.rematches = Rematches(engine)
        self.leavers = Leavers(self)
        self.tournaments = Tournaments(engine)
        self.runner = Runner(self, self.tournaments)
        manager.on_change.append(self.runner.game_changed)

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
        self.runner.start()
        self.leavers.start()

    # -- ratings -------------------------------------------------------------------------
    async def is_rated(self, game_id: str) -> bool:
        terms = (await self.db(self.standings.terms, [game_id])).get(game_id)
        return bool(terms and terms["rated"])

    def _changed(self, session: Session) -> None:
        if session.status == "over" and session.result is not None and session.id not in self._rated_seen:
            self._rated_seen.add(session.id)
            # Ended before each side moved (resigned, aborted, out of time): not rated.
            counts = session.every_side_moved()
            self.manager._spawn(self._rate(session.id, session.result, counts))

    async def _rate(self, game_id: str, result, counts: bool = True) -> None:
        try:
            changes = await self.db(self.standings.apply, game_id, result, counts)
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
        await self.manager.bind_account(game_id, seat, account.username)
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
        return [{"seat": seat, "token": session.seats[seat].token} for seat in sorted(mine)]

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

    async def waiting(self, account_id: int) -> list[dict]:
        """The account's games waiting for its move, for the notices on every page: which
        game, and whether it is a correspondence or a tournament game (those may ask for a
        browser notification)."""
        out = []
        for game_id in await self.your_turn(account_id):
            session = await self.manager.get(game_id)
            event = await self.db(self.tournaments.event_of_game, game_id)
            out.append(
                {
                    "id": game_id,
                    "game": session.stored.game,
                    "correspondence": bool(session.clock and session.clock.wall),
                    "tournament": event,
                }
            )
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
        family, variant = session.game.family, session.stored.game
        players = []
        for seat, username in sorted(owners.items()):
            entry: dict = {"seat": seat, "username": username}
            if terms and terms["time_class"] != "untimed":
                rating = await self.db(self.standings.rating, seat_ids[seat], variant, terms["time_class"])
                entry |= {"rating": round(rating.rating), "provisional": rating.provisional}
                entry["change"] = await self.db(self.standings.change_in, game_id, seat_ids[seat])
            players.append(entry)
        return {"terms": terms, "family": family, "variant": variant, "players": players}

    # -- rematches -----------------------------------------------------------------------
    async def rematch(self, game_id: str, token: str | None, action: str) -> dict:
        """Offer (or decline) the same game again; the offer that completes them starts it:
        seats turned one place (colours swap), same terms, same accounts."""
        session = await self.manager.get(game_id)
        seat = session.require_seat(token)
        if session.status != "over":
            raise ApiError(409, "a rematch is offered once the game is over")
        if action == "decline":
            await self.db(self.rematches.decline, game_id)
            return await self.db(self.rematches.state, game_id)
        humans = [i for i, s in enumerate(session.seats) if s.human and not s.left]
        if not await self.db(self.rematches.offer, game_id, seat, humans):
            return await self.db(self.rematches.state, game_id)
        try:
            new = await self._start_rematch(session)
        except BaseException:
            await self.db(self.rematches.started, game_id, None)
            raise
        await self.db(self.rematches.started, game_id, new.id)
        mine = turned(seat, session.stored.players)
        return {"offered": humans, "game": new.id, "seat": mine, "token": new.seats[mine].token}

    async def _start_rematch(self, old: Session):
        owners, terms = await self.db(self.rematches.terms, old.id)
        players = old.stored.players
        seats: list[dict] = [{}] * players
        for i, s in enumerate(old.seats):
            keep = {"name": s.name}
            if s.bot and not s.left:
                keep |= {"kind": "bot", "agent": s.agent, "limits": s.limits}
            else:
                keep |= {"kind": "human", "join": True}
            seats[turned(i, players)] = keep
        clock = None
        if old.stored.clock:
            clock = {
                k: old.stored.clock[k]
                for k in ("mode", "initial", "increment", "wall")
                if k in old.stored.clock
            }
        request = {
            "game": old.stored.game,
            "options": old.stored.options,
            "players": players,
            "public": old.stored.public,
            "clock": clock,
            "seats": seats,
        }
        if old.stored.realtime is not None:
            request["realtime"] = old.stored.realtime
        if old.stored.position is not None:  # a game from an edited position: again from there
            request["position"] = old.stored.position
        accounts = {turned(i, players): a for i, a in owners.items()}
        rated = bool(terms and terms["rated"])
        return await self.start_game(request, accounts, rated, terms["days"] if terms else None)

    # -- seeks ---------------------------------------------------------------------------
    async def rating_for(self, account: Account, seek: dict) -> float:
        return (await self.db(self.standings.rating, account.id, seek["game"], seek["time_class"])).rating

    async def accept(self, account: Account, seek_id: str, address: str | None = None) -> dict:
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
        if address is not None:
            await self.db(self.addresses.seen, account.id, address)
        if seek["rated"]:
            why = await self.db(self.addresses.why_not_rated, seek["account_id"], account.id)
            if why:
                raise ApiError(403, f"no rated game between these two accounts: {why} (play it casual)")
        if not await self.db(self.seeks.claim, seek_id, account):
            raise ApiError(409, "the seek was accepted by someone else")
        try:
            return await self._start_paired(seek, account)
        except BaseException:
            await self.db(self.seeks.release, seek_id)
            raise

    async def start_game(
        self, request: dict, seat_accounts: dict[int, int], rated: bool, days: int | None = None
    ) -> Session:
        """Create a game (``request`` as ``Manager.create`` takes it) whose seats belong to
        accounts (seat -> account id), with its terms for the ratings: seeks, tournaments
        and rematches start their games here."""
        from .ratings import time_class

        session, _ = await self.manager.create(request)
        game_spec = spec(request["game"])
        klass = time_class(request.get("clock"), days) or "untimed"

        def record(engine=self.manager.storage.engine) -> None:
            with engine.begin() as conn:
                for seat, account_id in seat_accounts.items():
                    conn.execute(
                        game_accounts.insert().values(game_id=session.id, seat=seat, account_id=account_id)
                    )
                self.standings.register_game(conn, session.id, game_spec, klass, rated, days)

        await self.db(record)
        for seat in seat_accounts:  # an account's seat carries its username, no renames
            await self.manager.bind_account(session.id, seat, request["seats"][seat]["name"])
        return session

    async def _start_paired(self, seek: dict, acceptor: Account) -> dict:
        owner = Account(seek["account_id"], seek["username"])
        order = [owner, acceptor]
        random.shuffle(order)  # who moves first is drawn
        request = {
            "game": seek["game"],
            "options": seek["options"],
            "players": 2,
            "public": True,
            "clock": seek["clock"],
            "seats": [{"kind": "human", "name": a.username, "join": True} for a in order],
        }
        session = await self.start_game(
            request, {seat: a.id for seat, a in enumerate(order)}, seek["rated"], seek["days"]
        )

        def link(engine=self.manager.storage.engine) -> None:
            with engine.begin() as conn:
                conn.execute(seeks.update().where(seeks.c.id == seek["id"]).values(game_id=session.id))

        await self.db(link)
        seat = order.index(acceptor)
        return {"game": session.id, "seat": seat, "token": session.seats[seat].token}

    async def quick(self, account: Account, wanted: dict, address: str | None = None) -> dict:
        """Accept the oldest open seek for the same setup (that the two accounts may play),
        or post one."""
        mine = await self.rating_for(account, wanted)
        for seek in await self.db(self.seeks.open):
            if seek["account_id"] == account.id or not same_setup(seek, wanted) or not admits(seek, mine):
                continue
            try:
                return await self.accept(account, seek["id"], address)
            except ApiError as exc:
                if exc.status not in (403, 409):  # 403: not these two rated (fair_play.py)
                    raise
        return {"seek": await self.db(self.seeks.post, account, wanted)}

    # -- names -----------------------------------------------------------------------------
    async def check_guest_name(self, name: object, login_username: str | None = None) -> None:
        """A guest seat's name follows the username rules on characters and reserved words
        (accounts.check_display_name) and is no other account's username (ApiError)."""
        if not isinstance(name, str):
            return  # the manager says what is wrong with it
        name = check_display_name(name, frozenset(a.name.lower() for a in _agents.agent_specs()))
        if login_username is not None and name.lower() == login_username.lower():
            return  # one's own username
        if len(name) <= 20 and await self.db(self.accounts.find, name) is not None:
            raise ApiError(409, f"the name {name!r} belongs to an account: log in to play under it")

    # -- chat ----------------------------------------------------------------------------
    async def chat_allowed(self, key: str) -> None:
        """Counted over every serving process (with --redis), as the login limits are."""
        wait = await self.chat_rate.blocked(key)
        if wait:
            raise ApiError(429, f"too many messages: wait {max(1, round(wait))} s")
        await self.chat_rate.hit(key)


def bots(game: str | None = None) -> list[dict]:
    """The bots people can play: levels 1-8 of every game (the ``level`` agent). ``rating`` is
    the level's rating on ``game`` (the lobby's featured game when none is given), from the
    same source as the level card of "play the computer" (``levels.level_rating``): the
    ladder's measurement (agents/levels_ladder.json, written by benchmarks/levels_ladder.py),
    else the provisional default (ratings.BOT_RATING). ``ratings``: every measured game's."""
    from ..agents.levels import LEVELS, level_rating, measured_ratings
    from ..core.registry import specs
    from .ratings import BOT_RATING

    known = [s.id for s in specs()]
    if game is None:
        game = next((s.id for s in specs() if s.featured), known[0])
    elif game not in known:
        raise ApiError(400, f"no game {game!r}: bots are listed for one of the site's games")
    out = []
    for lvl in LEVELS:
        shown = level_rating(game, lvl.number)
        out.append(
            {
                "name": f"level {lvl.number}",
                "agent": "level",
                "level": lvl.number,
                "limits": {"level": lvl.number},
                "description": lvl.title,
                "families": None,
                "game": game,
                "rating": BOT_RATING.rating if shown is None else shown["rating"],
                "rd": BOT_RATING.rd if shown is None or shown["rd"] is None else shown["rd"],
                "ratings": measured_ratings(lvl.number),
                "provisional": shown is None,
                "measured": shown is not None,
            }
        )
    return out
