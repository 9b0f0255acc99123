"""Tournaments in the database and the process that runs each one.

An event is created for a start time; accounts join (and withdraw), and bots when the
creator allows them. From the start, one serving process at a time runs it: it holds
the event's row in ``tournament_leases``, which lasts, like a game's lease (lease.py),
while that process's heartbeat is fresh, and any other process takes it over when the
heartbeat stops. Every write that pairs (new games, the next round, the end) first locks
the lease row and checks it still names this process, so two processes never pair one
event. The runner looks at its events every TICK_SECONDS and at once when one of their
games ends here; it reads the games' results from the store (a game may end in any
process), so it needs nothing from the process where the game was played."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import sqlalchemy as sa

from ..core import spec
from .accounts import Account
from .errors import ApiError
from .lease import LEASE_SECONDS
from .session import new_game_id
from .sitedb import accounts, tournament_entrants, tournament_games, tournament_leases, tournaments
from .storage import games_table, processes_table
from .tournament_rules import (
    BYE_POINTS,
    Entrant,
    arena_groups,
    round_robin_pairings,
    round_robin_rounds,
    seat_points,
    standings,
    swiss_pairings,
)

log = logging.getLogger("qipan.server")
TICK_SECONDS = 1.0
#: A game row reserved by a pairing whose game was never created (the process died
#: between the two) is let go after this long.
RESERVED_SECONDS = 30.0
LEVELS = range(1, 9)


def _entrant(row) -> Entrant:
    return Entrant(row.number, row.rating, row.withdrawn)


def _game(row) -> dict:
    return {
        "round": row.round,
        "game_id": row.game_id,
        "entrants": list(row.entrants),
        "scores": row.scores,
        "berserk": list(row.berserk or []),
        "started": row.started,
        "finished": row.finished,
    }


class Tournaments:
    """Events in the database (blocking calls: run them in the storage threads)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine

    # -- creating and entering ---------------------------------------------------------
    def create(self, account: Account, event: dict) -> str:
        event_id = new_game_id()
        with self.engine.begin() as conn:
            conn.execute(
                tournaments.insert().values(
                    id=event_id,
                    status="scheduled",
                    round=0,
                    creator=account.id,
                    created=time.time(),
                    **event,
                )
            )
        return event_id

    def _event(self, conn, event_id: str, lock: bool = False):
        query = tournaments.select().where(tournaments.c.id == event_id)
        if lock and conn.dialect.name != "sqlite":
            query = query.with_for_update()
        row = conn.execute(query).mappings().first()
        if row is None:
            raise ApiError(404, f"there is no tournament {event_id!r}")
        return row

    def _open_for_entries(self, conn, event_id: str):
        """The event, locked, if it still takes entrants (409 otherwise)."""
        event = self._event(conn, event_id, lock=True)
        if event["status"] == "finished":
            raise ApiError(409, "the tournament is over")
        if event["status"] == "running" and event["kind"] != "arena":
            raise ApiError(409, "the tournament has started: only an arena takes late entrants")
        count = conn.execute(
            sa.select(sa.func.count())
            .select_from(tournament_entrants)
            .where(
                tournament_entrants.c.tournament_id == event_id, tournament_entrants.c.withdrawn.is_(False)
            )
        ).scalar_one()
        if count >= event["max_entrants"]:
            raise ApiError(409, f"the tournament is full ({event['max_entrants']} entrants)")
        return event

    def _add(self, conn, event_id: str, **values) -> int:
        number = (
            conn.execute(
                sa.select(sa.func.max(tournament_entrants.c.number)).where(
                    tournament_entrants.c.tournament_id == event_id
                )
            ).scalar()
            or 0
        ) + 1
        conn.execute(
            tournament_entrants.insert().values(
                tournament_id=event_id, number=number, withdrawn=False, joined=time.time(), **values
            )
        )
        return number

    def join(self, event_id: str, account: Account, rating: float) -> int:
        with self.engine.begin() as conn:
            self._open_for_entries(conn, event_id)
            mine = conn.execute(
                sa.select(tournament_entrants.c.number, tournament_entrants.c.withdrawn).where(
                    tournament_entrants.c.tournament_id == event_id,
                    tournament_entrants.c.account_id == account.id,
                )
            ).first()
            if mine is not None:
                if not mine.withdrawn:
                    raise ApiError(409, "you have joined this tournament already")
                raise ApiError(409, "you withdrew from this tournament: an entrant who left cannot come back")
            return self._add(conn, event_id, account_id=account.id, name=account.username, rating=rating)

    def add_bot(self, event_id: str, account: Account, level: object) -> int:
        if isinstance(level, bool) or level not in LEVELS:
            raise ApiError(400, "level must be a whole number from 1 to 8")
        from .site import bots

        rating = next(b["rating"] for b in bots() if b["level"] == level)
        with self.engine.begin() as conn:
            event = self._open_for_entries(conn, event_id)
            if event["creator"] != account.id:
                raise ApiError(403, "only the tournament's creator enters bots")
            if not event["bots_allowed"]:
                raise ApiError(403, "this tournament is for people only (its creator did not allow bots)")
            return self._add(conn, event_id, bot_level=level, name=f"level {level}", rating=rating)

    def withdraw(self, event_id: str, account: Account) -> None:
        with self.engine.begin() as conn:
            event = self._event(conn, event_id, lock=True)
            if event["status"] == "finished":
                raise ApiError(409, "the tournament is over")
            changed = conn.execute(
                tournament_entrants.update()
                .where(
                    tournament_entrants.c.tournament_id == event_id,
                    tournament_entrants.c.account_id == account.id,
                    tournament_entrants.c.withdrawn.is_(False),
                )
                .values(withdrawn=True)
            ).rowcount
            if not changed:
                raise ApiError(409, "you are not in this tournament")

    # -- reading -----------------------------------------------------------------------
    def list(self, limit: int = 50) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tournaments, sa.func.count(tournament_entrants.c.number).label("entrants"))
                .outerjoin(tournament_entrants, tournament_entrants.c.tournament_id == tournaments.c.id)
                .group_by(tournaments.c.id)
                .order_by(
                    sa.case((tournaments.c.status == "finished", 1), else_=0), tournaments.c.starts.desc()
                )
                .limit(limit)
            ).mappings()
            return [_summary(r) | {"entrants": r["entrants"]} for r in rows]

    def get(self, event_id: str) -> dict:
        with self.engine.connect() as conn:
            event = self._event(conn, event_id)
            entrants = conn.execute(
                sa.select(tournament_entrants, accounts.c.username)
                .outerjoin(accounts, accounts.c.id == tournament_entrants.c.account_id)
                .where(tournament_entrants.c.tournament_id == event_id)
                .order_by(tournament_entrants.c.number)
            ).all()
            games = [_game(g) for g in self._games(conn, event_id)]
        names = {e.number: e.name for e in entrants}
        table = standings(event["kind"], [_entrant(e) for e in entrants], games)
        by_number = {e.number: e for e in entrants}
        for row in table:
            e = by_number[row["number"]]
            row |= {"name": e.name, "bot": e.bot_level is not None, "rating": round(e.rating)}
        return _summary(event) | {
            "standings": table,
            "entrants": [
                {
                    "number": e.number,
                    "name": e.name,
                    "bot": e.bot_level is not None,
                    "withdrawn": e.withdrawn,
                    "username": e.username,
                }
                for e in entrants
            ],  # fmt: skip
            "games": [
                g | {"names": [names.get(n) for n in g["entrants"]]}
                for g in games
                if g["game_id"] or g["scores"]
            ],
        }

    def _games(self, conn, event_id: str):
        return conn.execute(
            tournament_games.select()
            .where(tournament_games.c.tournament_id == event_id)
            .order_by(tournament_games.c.id)
        ).all()

    # -- leases ------------------------------------------------------------------------
    def claim(self, holder: str, now: float) -> list[str]:
        """Take the events due to run whose lease nobody alive holds; returns every event
        ``holder`` runs now. Each claim is conditional on the old holder (as
        Storage.claim_orphans does for games), so exactly one process gets each."""
        live = sa.select(processes_table.c.id).where(processes_table.c.alive >= now - LEASE_SECONDS)
        due = sa.and_(tournaments.c.status != "finished", tournaments.c.starts <= now + TICK_SECONDS)
        with self.engine.begin() as conn:
            for event_id, old in conn.execute(
                sa.select(tournament_leases.c.tournament_id, tournament_leases.c.holder)
                .join(tournaments, tournaments.c.id == tournament_leases.c.tournament_id)
                .where(due, tournament_leases.c.holder.not_in(live), tournament_leases.c.holder != holder)
            ).all():
                conn.execute(
                    tournament_leases.update()
                    .where(tournament_leases.c.tournament_id == event_id, tournament_leases.c.holder == old)
                    .values(holder=holder, since=now)
                )
            for (event_id,) in conn.execute(
                sa.select(tournaments.c.id)
                .outerjoin(tournament_leases, tournament_leases.c.tournament_id == tournaments.c.id)
                .where(due, tournament_leases.c.tournament_id.is_(None))
            ).all():
                with contextlib.suppress(sa.exc.IntegrityError), conn.begin_nested():
                    conn.execute(
                        tournament_leases.insert().values(tournament_id=event_id, holder=holder, since=now)
                    )
            return [
                r.tournament_id
                for r in conn.execute(
                    sa.select(tournament_leases.c.tournament_id)
                    .join(tournaments, tournaments.c.id == tournament_leases.c.tournament_id)
                    .where(tournament_leases.c.holder == holder, tournaments.c.status != "finished")
                )
            ]

    def _hold(self, conn, event_id: str, holder: str) -> bool:
        """Lock the event's lease row for this transaction; False if another process has it."""
        query = sa.select(tournament_leases.c.holder).where(tournament_leases.c.tournament_id == event_id)
        if conn.dialect.name != "sqlite":
            query = query.with_for_update()
        return conn.execute(query).scalar() == holder

    # -- running -----------------------------------------------------------------------
    def step(self, event_id: str, holder: str, now: float) -> list[dict]:
        """One look at a running (or due) event: record the games that ended, start it,
        pair what is due, end it. Returns the games to create: ``{"row", "entrants":
        [{"number", "account_id", "bot_level", "name"} by seat]}`` (their rows are reserved
        here; ``attach`` names the game once it exists)."""
        with self.engine.begin() as conn:
            if not self._hold(conn, event_id, holder):
                return []
            event = self._event(conn, event_id, lock=True)
            if event["status"] == "finished":
                return []
            self._record_results(conn, event_id, now)
            rows = conn.execute(
                tournament_entrants.select().where(tournament_entrants.c.tournament_id == event_id)
            ).all()
            by_number = {r.number: r for r in rows}
            entrants = [_entrant(r) for r in rows]
            games = [_game(g) for g in self._games(conn, event_id)]
            if event["status"] == "scheduled":
                if now < event["starts"]:
                    return []
                present = [e for e in entrants if not e.withdrawn]
                if len(present) < max(2, event["players"]):
                    self._finish(conn, event_id, now)
                    return []
                self._update(conn, event_id, status="running")
            pairs: list[list[int]] = []
            if event["kind"] == "arena":
                if now >= event["starts"] + event["minutes"] * 60:
                    if all(g["scores"] is not None or g["game_id"] is None for g in games):
                        self._finish(conn, event_id, now)
                    return []
                busy = {n for g in games if g["scores"] is None for n in g["entrants"]}
                waiting = [e.number for e in entrants if not e.withdrawn and e.number not in busy]
                table = standings("arena", entrants, games)
                points = {r["number"]: r["points"] for r in table}
                last: dict[int, set] = {}
                for g in games:  # in order: the last game wins
                    for n in g["entrants"]:
                        last[n] = set(g["entrants"]) - {n}
                ratings = {e.number: e.rating for e in entrants}
                pairs = arena_groups(waiting, points, ratings, last, event["players"])
                rnd = event["round"]
            else:
                if any(g["scores"] is None for g in games):
                    return []  # the round is being played
                total = event["rounds"] if event["kind"] == "swiss" else round_robin_rounds(len(entrants))
                rnd = event["round"] + 1
                present = [e for e in entrants if not e.withdrawn]
                if rnd > total or len(present) < 2:
                    self._finish(conn, event_id, now)
                    return []
                if event["kind"] == "swiss":
                    pairs = swiss_pairings(entrants, games, rnd, total)
                else:
                    pairs = round_robin_pairings(entrants, rnd)
                self._update(conn, event_id, round=rnd)
            out = []
            for pair in pairs:
                if len(pair) == 1:  # a bye: scored at once
                    conn.execute(
                        tournament_games.insert().values(
                            tournament_id=event_id, round=rnd, game_id=None, entrants=pair,
                            scores=[BYE_POINTS], berserk=[], started=now, finished=now,
                        )
                    )  # fmt: skip
                    continue
                row = conn.execute(
                    tournament_games.insert().values(
                        tournament_id=event_id, round=rnd, game_id=None, entrants=pair,
                        scores=None, berserk=[], started=now, finished=None,
                    )
                ).inserted_primary_key[0]  # fmt: skip
                seats = [
                    {"number": n, "account_id": by_number[n].account_id, "bot_level": by_number[n].bot_level,
                     "name": by_number[n].name}
                    for n in pair
                ]  # fmt: skip
                out.append({"row": row, "entrants": seats})
            return out

    def _record_results(self, conn, event_id: str, now: float) -> None:
        playing = conn.execute(
            sa.select(tournament_games.c.id, tournament_games.c.game_id, tournament_games.c.started,
                      games_table.c.status, games_table.c.result, games_table.c.players)
            .outerjoin(games_table, games_table.c.id == tournament_games.c.game_id)
            .where(tournament_games.c.tournament_id == event_id, tournament_games.c.finished.is_(None))
        ).all()  # fmt: skip
        for g in playing:
            if g.game_id is None:
                if g.started < now - RESERVED_SECONDS:  # its game was never made
                    conn.execute(tournament_games.delete().where(tournament_games.c.id == g.id))
                continue
            if g.status == "over":
                conn.execute(
                    tournament_games.update()
                    .where(tournament_games.c.id == g.id)
                    .values(scores=seat_points(g.result, g.players), finished=now)
                )

    def _update(self, conn, event_id: str, **values) -> None:
        conn.execute(tournaments.update().where(tournaments.c.id == event_id).values(**values))

    def _finish(self, conn, event_id: str, now: float) -> None:
        self._update(conn, event_id, status="finished", finished=now)
        conn.execute(tournament_leases.delete().where(tournament_leases.c.tournament_id == event_id))

    def attach(self, row: int, game_id: str | None) -> None:
        """The game of a reserved row exists (or could not be made: None lets it go)."""
        with self.engine.begin() as conn:
            if game_id is None:
                conn.execute(tournament_games.delete().where(tournament_games.c.id == row))
            else:
                conn.execute(
                    tournament_games.update().where(tournament_games.c.id == row).values(game_id=game_id)
                )

    def berserk(self, event_id: str, game_id: str, seat: int) -> None:
        with self.engine.begin() as conn:
            event = self._event(conn, event_id)
            if event["kind"] != "arena" or not event["berserk"]:
                raise ApiError(409, "this tournament has no berserk")
            row = conn.execute(
                tournament_games.select().where(
                    tournament_games.c.tournament_id == event_id, tournament_games.c.game_id == game_id
                )
            ).first()
            if row is None:
                raise ApiError(404, "that game is not one of this tournament's")
            if seat in (row.berserk or []):
                raise ApiError(409, "you went berserk already")
            conn.execute(
                tournament_games.update()
                .where(tournament_games.c.id == row.id)
                .values(berserk=[*(row.berserk or []), seat])
            )

    def event_of_game(self, game_id: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(
                sa.select(tournament_games.c.tournament_id).where(tournament_games.c.game_id == game_id)
            ).scalar()


def _summary(row) -> dict:
    return {
        k: row[k]
        for k in (
            "id", "name", "kind", "game", "options", "players", "clock", "rated", "starts", "minutes",
            "rounds", "max_entrants", "bots_allowed", "berserk", "status", "round", "finished",
        )
    } | {"family": spec(row["game"]).family if _known(row["game"]) else None}  # fmt: skip


def _known(game: str) -> bool:
    try:
        spec(game)
        return True
    except Exception:
        return False


class Runner:
    """Runs the events this process holds: claims them, pairs them, creates their games
    (through the site, so their seats belong to the entrants' accounts and rated events
    count)."""

    def __init__(self, site, store: Tournaments):
        self.site = site
        self.store = store
        self.wake = asyncio.Event()

    def start(self) -> None:
        """Run in the manager's tasks: stopping the manager stops it."""
        self.site.manager._spawn(self._loop())

    def game_changed(self, session) -> None:
        if session.status == "over":
            self.wake.set()

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), TICK_SECONDS)
            self.wake.clear()
            try:
                await self.tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad look must not stop the events
                log.exception("running the tournaments failed; the next tick tries again")

    async def tick(self) -> None:
        holder = self.site.manager.process
        now = time.time()
        for event_id in await self.site.db(self.store.claim, holder, now):
            for game in await self.site.db(self.store.step, event_id, holder, now):
                await self._start_game(event_id, game)

    async def _start_game(self, event_id: str, game: dict) -> None:
        event = await self.site.db(self.store.get, event_id)
        seats = []
        for e in game["entrants"]:
            if e["bot_level"] is not None:
                seats.append(
                    {"kind": "bot", "agent": "level", "limits": {"level": e["bot_level"]}, "name": e["name"]}
                )
            else:
                seats.append({"kind": "human", "name": e["name"], "join": True})
        try:
            session = await self.site.start_game(
                {
                    "game": event["game"],
                    "options": event["options"],
                    "players": event["players"],
                    "public": True,
                    "clock": event["clock"],
                    "seats": seats,
                },
                {i: e["account_id"] for i, e in enumerate(game["entrants"]) if e["account_id"] is not None},
                event["rated"],
            )
        except ApiError as exc:
            log.error("tournament %s: cannot create a game: %s", event_id, exc.message)
            await self.site.db(self.store.attach, game["row"], None)
            return
        await self.site.db(self.store.attach, game["row"], session.id)
