"""Ratings in the database: a finished rated game's result applied exactly once, the
ratings and history of an account, leaderboards."""

from __future__ import annotations

import time

import sqlalchemy as sa

from ..core import Outcome
from .ratings import DEFAULT_RATING, DEFAULT_RD, Rating, after_inactivity, rate_game
from .sitedb import accounts, game_accounts, rating_history, ratings, site_games


def first_seat_score(outcome: Outcome) -> float:
    """Seat 0's score in a two-player game: 1 win, 0 loss, 1/2 draw (or both winning)."""
    if len(outcome.winners) == 1:
        return 1.0 if outcome.winners[0] == 0 else 0.0
    return 0.5


class Standings:
    def __init__(self, engine: sa.Engine):
        self.engine = engine

    def rating(self, account_id: int, family: str, time_class: str, conn=None) -> Rating:
        query = sa.select(ratings.c.rating, ratings.c.rd, ratings.c.volatility).where(
            ratings.c.account_id == account_id, ratings.c.family == family, ratings.c.time_class == time_class
        )
        if conn is None:
            with self.engine.connect() as c:
                row = c.execute(query).first()
        else:
            row = conn.execute(query).first()
        return Rating(row.rating, row.rd, row.volatility) if row else Rating()

    def register_game(
        self, conn, game_id: str, family: str, time_class: str, rated: bool, days: int | None
    ) -> None:
        conn.execute(
            site_games.insert().values(
                game_id=game_id, family=family, time_class=time_class, rated=rated, days=days
            )
        )

    def pending(self) -> list[str]:
        """Rated games whose result is not in the ratings yet (finished or not)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(site_games.c.game_id).where(
                    site_games.c.rated.is_(True), site_games.c.rating_applied.is_(None)
                )
            )
            return [r.game_id for r in rows]

    def apply(self, game_id: str, outcome: Outcome) -> dict[int, tuple[Rating, Rating]] | None:
        """Put a finished rated game into both players' ratings, once: the conditional
        UPDATE of ``rating_applied`` lets exactly one caller (thread or process) through, and
        the ratings change in the same transaction. Returns {account: (before, after)}, or
        None if the game is not rated or was applied already."""
        now = time.time()
        with self.engine.begin() as conn:
            claimed = conn.execute(
                site_games.update()
                .where(
                    site_games.c.game_id == game_id,
                    site_games.c.rated.is_(True),
                    site_games.c.rating_applied.is_(None),
                )
                .values(rating_applied=now)
            ).rowcount
            if claimed != 1:
                return None
            terms = conn.execute(site_games.select().where(site_games.c.game_id == game_id)).mappings().one()
            seats = dict(
                conn.execute(
                    sa.select(game_accounts.c.seat, game_accounts.c.account_id).where(
                        game_accounts.c.game_id == game_id
                    )
                ).all()
            )
            if set(seats) != {0, 1} or seats[0] == seats[1]:
                return None  # not two accounts: stays unrated (marked done)
            family, time_class = terms["family"], terms["time_class"]
            before = [self._locked_rating(conn, seats[s], family, time_class, now) for s in (0, 1)]
            after = rate_game(before[0], before[1], first_seat_score(outcome))
            for seat in (0, 1):
                self._store(conn, seats[seat], family, time_class, after[seat], game_id, now)
            return {seats[s]: (before[s], after[s]) for s in (0, 1)}

    def _locked_rating(self, conn, account_id: int, family: str, time_class: str, now: float) -> Rating:
        """The rating going into a game: locked against a parallel game's update, its
        deviation grown for the days since the last rated game."""
        query = sa.select(ratings.c.rating, ratings.c.rd, ratings.c.volatility, ratings.c.updated).where(
            ratings.c.account_id == account_id, ratings.c.family == family, ratings.c.time_class == time_class
        )
        if conn.dialect.name != "sqlite":  # SQLite's one writer already serialises this
            query = query.with_for_update()
        row = conn.execute(query).first()
        if row is None:
            return Rating()
        return after_inactivity(Rating(row.rating, row.rd, row.volatility), (now - row.updated) / 86400)

    def _store(self, conn, account_id, family, time_class, new: Rating, game_id, now) -> None:
        rd = min(new.rd, DEFAULT_RD)
        key = (
            ratings.c.account_id == account_id,
            ratings.c.family == family,
            ratings.c.time_class == time_class,
        )
        changed = conn.execute(
            ratings.update()
            .where(*key)
            .values(
                rating=new.rating, rd=rd, volatility=new.volatility, games=ratings.c.games + 1, updated=now
            )
        ).rowcount
        if not changed:
            conn.execute(
                ratings.insert().values(
                    account_id=account_id,
                    family=family,
                    time_class=time_class,
                    rating=new.rating,
                    rd=rd,
                    volatility=new.volatility,
                    games=1,
                    updated=now,
                )
            )
        conn.execute(
            rating_history.insert().values(
                account_id=account_id,
                family=family,
                time_class=time_class,
                game_id=game_id,
                rating=new.rating,
                rd=rd,
                at=now,
            )
        )

    def of_account(self, account_id: int) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                ratings.select()
                .where(ratings.c.account_id == account_id)
                .order_by(ratings.c.family, ratings.c.time_class)
            ).mappings()
            return [_rating_dict(r) for r in rows]

    def history(self, account_id: int, limit: int = 500) -> list[dict]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                rating_history.select()
                .where(rating_history.c.account_id == account_id)
                .order_by(rating_history.c.at, rating_history.c.id)
                .limit(limit)
            ).mappings()
            return [
                {
                    "family": r["family"],
                    "time_class": r["time_class"],
                    "game_id": r["game_id"],
                    "rating": round(r["rating"], 1),
                    "rd": round(r["rd"], 1),
                    "at": r["at"],
                }
                for r in rows
            ]

    def leaderboard(self, family: str | None, time_class: str | None, limit: int = 50) -> list[dict]:
        query = (
            sa.select(ratings, accounts.c.username)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .order_by(ratings.c.rating.desc())
            .limit(limit)
        )
        if family:
            query = query.where(ratings.c.family == family)
        if time_class:
            query = query.where(ratings.c.time_class == time_class)
        with self.engine.connect() as conn:
            return [_rating_dict(r) | {"username": r["username"]} for r in conn.execute(query).mappings()]

    def change_in(self, game_id: str, account_id: int) -> float | None:
        """How much ``game_id`` moved the account's rating (None: it did not)."""
        with self.engine.connect() as conn:
            after = (
                conn.execute(
                    rating_history.select().where(
                        rating_history.c.game_id == game_id, rating_history.c.account_id == account_id
                    )
                )
                .mappings()
                .first()
            )
            if after is None:
                return None
            before = conn.execute(
                sa.select(rating_history.c.rating)
                .where(
                    rating_history.c.account_id == account_id,
                    rating_history.c.family == after["family"],
                    rating_history.c.time_class == after["time_class"],
                    rating_history.c.id < after["id"],
                )
                .order_by(rating_history.c.id.desc())
                .limit(1)
            ).scalar()
        return round(after["rating"] - (DEFAULT_RATING if before is None else before), 1)

    def terms(self, game_ids: list[str]) -> dict[str, dict]:
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(site_games.select().where(site_games.c.game_id.in_(game_ids))).mappings()
            return {
                r["game_id"]: {"rated": r["rated"], "time_class": r["time_class"], "days": r["days"]}
                for r in rows
            }


def _rating_dict(r) -> dict:
    rating = Rating(r["rating"], r["rd"], r["volatility"])
    return {
        "family": r["family"],
        "time_class": r["time_class"],
        "rating": round(r["rating"], 1),
        "rd": round(r["rd"], 1),
        "volatility": round(r["volatility"], 6),
        "games": r["games"],
        "provisional": rating.provisional,
    }
