"""Rematches: when a game is over, its players may offer each other the same game again
(same game, options, clock, rated or casual), seats turned one place so colours swap.
The offers are rows of ``rematches`` (the store), so they hold across serving processes;
the new game is made once, by the request that completes the offers (a conditional
UPDATE lets one through)."""

from __future__ import annotations

import sqlalchemy as sa

from .errors import ApiError
from .sitedb import game_accounts, rematches, site_games


class Rematches:
    def __init__(self, engine: sa.Engine):
        self.engine = engine

    def state(self, game_id: str) -> dict:
        with self.engine.connect() as conn:
            row = conn.execute(rematches.select().where(rematches.c.game_id == game_id)).first()
        return {"offered": list(row.offered) if row else [], "game": row.new_game if row else None}

    def offer(self, game_id: str, seat: int, humans: list[int]) -> bool:
        """Record ``seat``'s offer; True if every human seat has now offered and this call
        is the one to make the new game."""
        with self.engine.begin() as conn:
            query = rematches.select().where(rematches.c.game_id == game_id)
            if conn.dialect.name != "sqlite":
                query = query.with_for_update()
            row = conn.execute(query).first()
            if row is None:
                try:
                    with conn.begin_nested():
                        conn.execute(
                            rematches.insert().values(game_id=game_id, offered=[seat], new_game=None)
                        )
                    offered = [seat]
                except sa.exc.IntegrityError:  # offered at the same moment: read it again
                    row = conn.execute(query).first()
            if row is not None:
                if row.new_game:
                    raise ApiError(409, "the rematch has started already")
                offered = sorted({*row.offered, seat})
                conn.execute(rematches.update().where(rematches.c.game_id == game_id).values(offered=offered))
            if not set(humans) <= set(offered):
                return False
            return (
                conn.execute(
                    rematches.update()
                    .where(rematches.c.game_id == game_id, rematches.c.new_game.is_(None))
                    .values(new_game="")
                ).rowcount
                == 1
            )

    def decline(self, game_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                rematches.delete().where(
                    rematches.c.game_id == game_id,
                    sa.or_(rematches.c.new_game.is_(None), rematches.c.new_game == ""),
                )
            )

    def started(self, game_id: str, new_game: str | None) -> None:
        with self.engine.begin() as conn:
            if new_game is None:  # could not be made: the offers stand again
                conn.execute(rematches.update().where(rematches.c.game_id == game_id).values(new_game=None))
            else:
                conn.execute(
                    rematches.update().where(rematches.c.game_id == game_id).values(new_game=new_game)
                )

    def terms(self, game_id: str) -> tuple[dict[int, int], dict | None]:
        """The game's account seats and its rating terms."""
        with self.engine.connect() as conn:
            owners = dict(
                conn.execute(
                    sa.select(game_accounts.c.seat, game_accounts.c.account_id).where(
                        game_accounts.c.game_id == game_id
                    )
                ).all()
            )
            terms = (
                conn.execute(site_games.select().where(site_games.c.game_id == game_id)).mappings().first()
            )
        return owners, dict(terms) if terms else None


def turned(seat: int, players: int) -> int:
    """The seat a player takes in the rematch: one place on (two players swap)."""
    return (seat + 1) % players
