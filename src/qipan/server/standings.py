"""Ratings in the database: a finished rated game's result applied exactly once, the
ratings and history of an account, leaderboards.

A rating belongs to a variant (the preset a game is created as: Nine Men's Morris, 直棋
and Three Men's Morris are rated apart, as lichess rates each chess variant) and a time
class; the family only groups variants on the leaderboard."""

from __future__ import annotations

import time
from dataclasses import dataclass

import sqlalchemy as sa

from ..core import Outcome
from .ratings import DEFAULT_RATING, DEFAULT_RD, Rating, after_inactivity, update
from .sitedb import accounts, game_accounts, rating_history, ratings, site_games, skill_ratings
from .skill import Skill, ranks, sides
from .skill import rate as rate_skills
from .storage import games_table


def first_seat_score(outcome: Outcome) -> float:
    """Seat 0's score in a two-player game: 1 win, 0 loss, 1/2 draw (or both winning)."""
    if len(outcome.winners) == 1:
        return 1.0 if outcome.winners[0] == 0 else 0.0
    return 0.5


@dataclass(frozen=True)
class _Variant:
    """What a rating is kept for: a variant (preset id) in a time class, and its family."""

    id: str
    family: str
    time_class: str


class Standings:
    def __init__(self, engine: sa.Engine):
        self.engine = engine

    def rating(self, account_id: int, variant: str, time_class: str, conn=None) -> Rating:
        query = sa.select(ratings.c.rating, ratings.c.rd, ratings.c.volatility).where(
            ratings.c.account_id == account_id,
            ratings.c.variant == variant,
            ratings.c.time_class == time_class,
        )
        if conn is None:
            with self.engine.connect() as c:
                row = c.execute(query).first()
        else:
            row = conn.execute(query).first()
        return Rating(row.rating, row.rd, row.volatility) if row else Rating()

    def register_game(
        self, conn, game_id: str, game_spec, time_class: str, rated: bool, days: int | None
    ) -> None:
        conn.execute(
            site_games.insert().values(
                game_id=game_id,
                family=game_spec.family,
                variant=game_spec.id,
                time_class=time_class,
                rated=rated,
                days=days,
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

    def apply(
        self, game_id: str, outcome: Outcome, counts: bool = True
    ) -> dict[int, tuple[Rating, Rating]] | None:
        """Put a finished rated game into both players' ratings, once: the conditional
        UPDATE of ``rating_applied`` lets exactly one caller (thread or process) through, and
        the ratings change in the same transaction. Returns {account: (before, after)}, or
        None if the game is not rated, was applied already, or does not ``count`` (it ended
        before each side had moved: aborted, marked done unrated)."""
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
            if claimed != 1 or not counts:
                return None
            terms = conn.execute(site_games.select().where(site_games.c.game_id == game_id)).mappings().one()
            seats = dict(
                conn.execute(
                    sa.select(game_accounts.c.seat, game_accounts.c.account_id).where(
                        game_accounts.c.game_id == game_id
                    )
                ).all()
            )
            game = conn.execute(
                sa.select(games_table.c.players, games_table.c.options, games_table.c.seats).where(
                    games_table.c.id == game_id
                )
            ).one()
            variant = _Variant(terms["variant"] or terms["family"], terms["family"], terms["time_class"])
            teams = sides(game.players, game.options or {})
            if set(seats) != set(range(game.players)) or len(set(seats.values())) != game.players:
                return None  # a seat without an account (a bot, a guest): stays unrated (marked done)
            left = {i for i, seat in enumerate(game.seats or []) if seat.get("left")}
            if game.players != 2:
                return self._apply_skills(conn, seats, teams, outcome, left, variant, now)
            before = [self._locked_rating(conn, seats[s], variant, now) for s in (0, 1)]
            scores = [first_seat_score(outcome), 1.0 - first_seat_score(outcome)]
            for seat in left:  # whoever left lost, even when the other claimed a draw
                scores[seat] = 0.0
            after = [update(before[s], [(before[1 - s], scores[s])]) for s in (0, 1)]
            for seat in (0, 1):
                self._store(conn, seats[seat], variant, after[seat], game_id, now)
            return {seats[s]: (before[s], after[s]) for s in (0, 1)}

    def _apply_skills(self, conn, seats, teams, outcome: Outcome, left: set[int], variant: _Variant, now):
        """A game of three or four sides, or of teams: OpenSkill (skill.py) over the ranking."""
        result = {"winners": list(outcome.winners)}
        key = (skill_ratings.c.variant == variant.id, skill_ratings.c.time_class == variant.time_class)
        before = []
        for team in teams:
            side = []
            for seat in team:
                query = sa.select(skill_ratings.c.mu, skill_ratings.c.sigma).where(
                    skill_ratings.c.account_id == seats[seat], *key
                )
                if conn.dialect.name != "sqlite":
                    query = query.with_for_update()
                row = conn.execute(query).first()
                side.append(Skill(row.mu, row.sigma) if row else Skill())
            before.append(side)
        after = rate_skills(before, ranks(result, teams, left))
        out = {}
        for team, old, new in zip(teams, before, after, strict=True):
            for seat, was, now_skill in zip(team, old, new, strict=True):
                account = seats[seat]
                changed = conn.execute(
                    skill_ratings.update()
                    .where(skill_ratings.c.account_id == account, *key)
                    .values(
                        mu=now_skill.mu, sigma=now_skill.sigma, games=skill_ratings.c.games + 1, updated=now
                    )
                ).rowcount
                if not changed:
                    conn.execute(
                        skill_ratings.insert().values(
                            account_id=account, variant=variant.id, time_class=variant.time_class,
                            family=variant.family, mu=now_skill.mu, sigma=now_skill.sigma, games=1, updated=now,
                        )
                    )  # fmt: skip
                out[account] = (was, now_skill)
        return out

    def skills_of(self, account_id: int) -> list[dict]:
        """The account's OpenSkill ratings (3-4 player and team games)."""
        return [_skill_dict(r) for r in self._rows_of(skill_ratings, account_id)]

    def _locked_rating(self, conn, account_id: int, variant: _Variant, now: float) -> Rating:
        """The rating going into a game: locked against a parallel game's update, its
        deviation grown for the days since the last rated game."""
        query = sa.select(ratings.c.rating, ratings.c.rd, ratings.c.volatility, ratings.c.updated).where(
            ratings.c.account_id == account_id,
            ratings.c.variant == variant.id,
            ratings.c.time_class == variant.time_class,
        )
        if conn.dialect.name != "sqlite":  # SQLite's one writer already serialises this
            query = query.with_for_update()
        row = conn.execute(query).first()
        if row is None:
            return Rating()
        return after_inactivity(Rating(row.rating, row.rd, row.volatility), (now - row.updated) / 86400)

    def _store(self, conn, account_id, variant: _Variant, new: Rating, game_id, now) -> None:
        rd = min(new.rd, DEFAULT_RD)
        family, time_class = variant.family, variant.time_class
        key = (
            ratings.c.account_id == account_id,
            ratings.c.variant == variant.id,
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
                    variant=variant.id,
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
                variant=variant.id,
                time_class=time_class,
                game_id=game_id,
                rating=new.rating,
                rd=rd,
                at=now,
            )
        )

    def of_account(self, account_id: int) -> list[dict]:
        """The account's Glicko-2 ratings."""
        return [_rating_dict(r) for r in self._rows_of(ratings, account_id)]

    def _rows_of(self, table: sa.Table, account_id: int) -> list:
        """An account's rows of a ratings table, by family, variant and time class."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    table.select()
                    .where(table.c.account_id == account_id)
                    .order_by(table.c.family, table.c.variant, table.c.time_class)
                ).mappings()
            )

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
                    "variant": r["variant"] or r["family"],
                    "time_class": r["time_class"],
                    "game_id": r["game_id"],
                    "rating": round(r["rating"], 1),
                    "rd": round(r["rd"], 1),
                    "at": r["at"],
                }
                for r in rows
            ]

    def leaderboard(
        self, family: str | None, time_class: str | None, limit: int = 50, variant: str | None = None
    ) -> list[dict]:
        """The best ratings of a variant, or of every variant of a family (each row says
        which variant it is): families group variants, they are not rated as one."""
        query = (
            sa.select(ratings, accounts.c.username)
            .join(accounts, accounts.c.id == ratings.c.account_id)
            .order_by(ratings.c.rating.desc())
            .limit(limit)
        )
        if family:
            query = query.where(ratings.c.family == family)
        if variant:
            query = query.where(ratings.c.variant == variant)
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
                    rating_history.c.variant == after["variant"],
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


def _skill_dict(r) -> dict:
    skill = Skill(r["mu"], r["sigma"])
    return {
        "family": r["family"],
        "variant": r["variant"],
        "time_class": r["time_class"],
        "mu": round(skill.mu, 3),
        "sigma": round(skill.sigma, 3),
        "ordinal": round(skill.ordinal, 2),
        "games": r["games"],
    }


def _rating_dict(r) -> dict:
    rating = Rating(r["rating"], r["rd"], r["volatility"])
    return {
        "family": r["family"],
        "variant": r["variant"],
        "time_class": r["time_class"],
        "rating": round(r["rating"], 1),
        "rd": round(r["rd"], 1),
        "volatility": round(r["volatility"], 6),
        "games": r["games"],
        "provisional": rating.provisional,
    }
