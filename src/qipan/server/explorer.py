"""The opening explorer: for one position, the moves played from it in the game database,
each with how often, how it scored for the player who played it, and the mean rating of the
players who played it. Two sources are kept apart: every stored game (imported records and
the site's games) and the site's rated games only."""

from __future__ import annotations

import sqlalchemy as sa

from .gamedb import db_games, db_players, db_positions

#: Moves listed per position, most played first.
MAX_MOVES = 40


def explore(engine: sa.Engine, key: int, rated_site_only: bool = False) -> list[dict]:
    """The moves played from the position ``key`` with their counts: ``games``, ``wins``,
    ``draws`` and ``losses`` for the player who moved (a game not finished counts in none),
    and ``rating``, the mean rating of the players who played it where known."""
    mover = sa.cast(db_positions.c.mover, sa.String)
    won = sa.func.sum(sa.case((db_games.c.winners == mover, 1), else_=0))
    drawn = sa.func.sum(sa.case((db_games.c.winners == "", 1), else_=0))
    lost = sa.func.sum(sa.case(((db_games.c.winners != "") & (db_games.c.winners != mover), 1), else_=0))
    query = (
        sa.select(
            db_positions.c.move,
            sa.func.count().label("games"),
            won.label("wins"),
            drawn.label("draws"),
            lost.label("losses"),
            sa.func.avg(db_players.c.rating).label("rating"),
        )
        .join(db_games, db_games.c.id == db_positions.c.game_id)
        .outerjoin(
            db_players,
            (db_players.c.game_id == db_positions.c.game_id) & (db_players.c.seat == db_positions.c.mover),
        )
        .where(db_positions.c.key == key, db_positions.c.move.is_not(None))
        .group_by(db_positions.c.move)
        .order_by(sa.func.count().desc(), db_positions.c.move)
        .limit(MAX_MOVES)
    )
    if rated_site_only:
        query = query.where(db_games.c.source == "site", db_games.c.rated.is_(True))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        {
            "move": r.move,
            "games": r.games,
            "wins": int(r.wins or 0),
            "draws": int(r.draws or 0),
            "losses": int(r.losses or 0),
            "rating": round(float(r.rating)) if r.rating is not None else None,
        }
        for r in rows
    ]
