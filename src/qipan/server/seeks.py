"""Seeks: an account offers a two-player game (game, options, time control, rated or
casual, rating range) and another account accepts it. Acceptance is one conditional
UPDATE (open -> accepted), so two people accepting at once cannot both get the game.
Quick pairing accepts the oldest matching seek, or posts one."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from ..core import load
from .accounts import Account
from .errors import ApiError
from .inputs import game_and_options, game_clock, player_count, yes_or_no
from .ratings import CORRESPONDENCE_DAYS, time_class
from .session import new_game_id
from .sitedb import accounts, seeks

MAX_OPEN_SEEKS = 5
#: An unanswered seek lapses: a live one after 30 minutes (its seeker has likely left), a
#: correspondence one after a week.
LIVE_SEEK_SECONDS = 30 * 60
CORRESPONDENCE_SEEK_SECONDS = 7 * 86400
RATING_BOUNDS = (0, 4000)


def parse_seek(data: dict) -> dict:
    """A validated seek from a request body (ApiError 400 saying what is wrong)."""
    terms = parse_terms(data, 2)
    low, high = (_rating_bound(data.get(k), k) for k in ("rating_min", "rating_max"))
    if low is not None and high is not None and low > high:
        raise ApiError(400, "rating_min is above rating_max")
    del terms["players"]
    return terms | {"rating_min": low, "rating_max": high}


def parse_terms(data: dict, players: int | None = None) -> dict:
    """A game's terms from a request body (seeks, tournaments): game, options, players
    (``players`` when the caller fixes it, else the request's or the game's first),
    clock or days per move, rated; ApiError 400 saying what is wrong."""
    game_spec, game = game_and_options(data)
    defaults = load(game_spec.id).options
    if players == 2 and 2 not in game_spec.players:
        raise ApiError(400, f"seeks are for two players; {game_spec.title} is played by {game_spec.players}")
    if players is None:
        players = player_count(data, game_spec, least=2)
    clock, days = data.get("clock"), data.get("days")
    if clock is not None and days is not None:
        raise ApiError(400, "a seek has a clock or days per move, not both")
    if days is not None:
        if isinstance(days, bool) or days not in CORRESPONDENCE_DAYS:
            raise ApiError(400, f"days per move must be one of {', '.join(map(str, CORRESPONDENCE_DAYS))}")
        clock = {"mode": "move", "initial": days * 86400, "wall": True}
    elif clock is not None:
        if isinstance(clock, dict) and clock.get("wall"):
            raise ApiError(400, "for correspondence give days per move")
        clock = game_clock(clock, 2, '{"initial": 300, "increment": 3}').to_dict()
        clock = {k: clock[k] for k in ("mode", "initial", "increment")}
    rated = yes_or_no(data, "rated", False)
    klass = time_class(clock, days)
    if rated and klass is None:
        raise ApiError(400, "a rated game needs a clock or days per move")
    return {
        "game": game_spec.id,
        "family": game_spec.family,
        # Only what differs from the defaults, so equal setups compare equal (quick pairing).
        "options": {k: v for k, v in game.options.items() if defaults.get(k, object()) != v},
        "players": players,
        "clock": clock,
        "days": days,
        "time_class": klass or "untimed",
        "rated": rated,
    }


def _rating_bound(value: Any, name: str) -> int | None:
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not RATING_BOUNDS[0] <= value <= RATING_BOUNDS[1]
    ):
        raise ApiError(400, f"{name} must be a whole number from {RATING_BOUNDS[0]} to {RATING_BOUNDS[1]}")
    return value


def admits(seek: dict, rating: float) -> bool:
    low, high = seek["rating_min"], seek["rating_max"]
    return (low is None or rating >= low) and (high is None or rating <= high)


def lapsed(seek: dict, now: float) -> bool:
    ttl = LIVE_SEEK_SECONDS if seek["days"] is None else CORRESPONDENCE_SEEK_SECONDS
    return seek["status"] == "open" and seek["created"] <= now - ttl


def _current(now: float):
    """Open seeks that have not lapsed."""
    return sa.and_(
        seeks.c.status == "open",
        sa.or_(
            sa.and_(seeks.c.days.is_(None), seeks.c.created > now - LIVE_SEEK_SECONDS),
            sa.and_(seeks.c.days.is_not(None), seeks.c.created > now - CORRESPONDENCE_SEEK_SECONDS),
        ),
    )


class Seeks:
    """Seeks in the database (blocking calls: run them in the storage threads)."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine

    def post(self, account: Account, seek: dict) -> str:
        seek_id = new_game_id()
        with self.engine.begin() as conn:
            mine = conn.execute(
                sa.select(sa.func.count())
                .select_from(seeks)
                .where(seeks.c.account_id == account.id, _current(time.time()))
            ).scalar_one()
            if mine >= MAX_OPEN_SEEKS:
                raise ApiError(409, f"you have {MAX_OPEN_SEEKS} open seeks already; cancel one first")
            conn.execute(
                seeks.insert().values(
                    id=seek_id,
                    account_id=account.id,
                    status="open",
                    created=time.time(),
                    **{k: v for k, v in seek.items() if k != "family"},
                )
            )
        return seek_id

    def get(self, seek_id: str) -> dict | None:
        with self.engine.connect() as conn:
            row = conn.execute(self._query().where(seeks.c.id == seek_id)).mappings().first()
        return dict(row) if row else None

    def open(self, limit: int = 100) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                self._query().where(_current(time.time())).order_by(seeks.c.created).limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

    def of_account(self, account_id: int, limit: int = 20) -> list[dict]:
        """The account's open seeks and the recently accepted ones (to find their game)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                self._query()
                .where(seeks.c.account_id == account_id, seeks.c.status.in_(("open", "accepted")))
                .order_by(seeks.c.created.desc())
                .limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

    def claim(self, seek_id: str, account: Account) -> bool:
        """open -> accepted by ``account``; False if someone else got there first."""
        with self.engine.begin() as conn:
            return (
                conn.execute(
                    seeks.update()
                    .where(seeks.c.id == seek_id, _current(time.time()))
                    .values(status="accepted", accepted_by=account.id)
                ).rowcount
                == 1
            )

    def release(self, seek_id: str) -> None:
        """Back to open (the game could not be created after the claim)."""
        with self.engine.begin() as conn:
            conn.execute(
                seeks.update()
                .where(seeks.c.id == seek_id, seeks.c.status == "accepted")
                .values(status="open", accepted_by=None)
            )

    def cancel(self, seek_id: str, account: Account) -> None:
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(seeks.c.account_id, seeks.c.status).where(seeks.c.id == seek_id)
            ).first()
            if row is None:
                raise ApiError(404, f"there is no seek {seek_id!r}")
            if row.account_id != account.id:
                raise ApiError(403, "only the account that posted a seek can cancel it")
            changed = conn.execute(
                seeks.update()
                .where(seeks.c.id == seek_id, seeks.c.status == "open")
                .values(status="cancelled")
            ).rowcount
            if not changed:
                raise ApiError(409, f"the seek is {row.status} already")

    def _query(self):
        return sa.select(seeks, accounts.c.username).join(accounts, accounts.c.id == seeks.c.account_id)


def same_setup(seek: dict, wanted: dict) -> bool:
    """True if an open seek offers the game ``wanted`` asks for (quick pairing)."""
    return all(seek[k] == wanted[k] for k in ("game", "options", "clock", "days", "rated"))
