"""The game site's tables (accounts, sessions, ratings, seeks, chat, tournaments), as created
by migrations 0003, 0009 and 0009b. Declared on the storage's metadata so every query goes through SQLAlchemy
Core and runs the same on SQLite and PostgreSQL."""

from __future__ import annotations

import sqlalchemy as sa

from .storage import metadata

accounts = sa.Table(
    "accounts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("username", sa.String(20), nullable=False),
    sa.Column("username_key", sa.String(20), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

auth_sessions = sa.Table(
    "auth_sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("csrf", sa.String(64), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

account_addresses = sa.Table(
    "account_addresses",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("address", sa.String(64), primary_key=True),
    sa.Column("first_seen", sa.Float, nullable=False),
    sa.Column("last_seen", sa.Float, nullable=False),
    sa.Column("signup", sa.Boolean, nullable=False, server_default=sa.false()),
)

game_accounts = sa.Table(
    "game_accounts",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False),
)

site_games = sa.Table(
    "site_games",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("family", sa.String(64), nullable=False),
    sa.Column("time_class", sa.String(16), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("days", sa.Integer, nullable=True),
    sa.Column("rating_applied", sa.Float, nullable=True),
    # The preset the game was created as: ratings are kept per variant (migration 0009b).
    sa.Column("variant", sa.String(64), nullable=True),
)

ratings = sa.Table(
    "ratings",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("variant", sa.String(64), primary_key=True),
    sa.Column("time_class", sa.String(16), primary_key=True),
    sa.Column("family", sa.String(64), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rating_history = sa.Table(
    "rating_history",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("family", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(64), nullable=True),
    sa.Column("time_class", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("rd", sa.Float, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

seeks = sa.Table(
    "seeks",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("days", sa.Integer, nullable=True),
    sa.Column("time_class", sa.String(16), nullable=False),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("rating_min", sa.Integer, nullable=True),
    sa.Column("rating_max", sa.Integer, nullable=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("accepted_by", sa.Integer, nullable=True),
    sa.Column("created", sa.Float, nullable=False),
)

chat_messages = sa.Table(
    "chat_messages",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False),
    sa.Column("room", sa.String(16), nullable=False),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("seat", sa.Integer, nullable=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)

mutes = sa.Table(
    "mutes",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("muted_id", sa.Integer, primary_key=True),
)

tournaments = sa.Table(
    "tournaments",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("name", sa.String(60), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("options", sa.JSON, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("clock", sa.JSON, nullable=True),
    sa.Column("rated", sa.Boolean, nullable=False),
    sa.Column("starts", sa.Float, nullable=False),
    sa.Column("minutes", sa.Float, nullable=True),
    sa.Column("rounds", sa.Integer, nullable=True),
    sa.Column("max_entrants", sa.Integer, nullable=False),
    sa.Column("bots_allowed", sa.Boolean, nullable=False),
    sa.Column("berserk", sa.Boolean, nullable=False),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("round", sa.Integer, nullable=False, server_default="0"),
    sa.Column("creator", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
)

tournament_entrants = sa.Table(
    "tournament_entrants",
    metadata,
    sa.Column("tournament_id", sa.String(16), primary_key=True),
    sa.Column("number", sa.Integer, primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=True),
    sa.Column("bot_level", sa.Integer, nullable=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("withdrawn", sa.Boolean, nullable=False),
    sa.Column("joined", sa.Float, nullable=False),
)

tournament_games = sa.Table(
    "tournament_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("tournament_id", sa.String(16), nullable=False),
    sa.Column("round", sa.Integer, nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("entrants", sa.JSON, nullable=False),
    sa.Column("scores", sa.JSON, nullable=True),
    sa.Column("berserk", sa.JSON, nullable=False),
    sa.Column("started", sa.Float, nullable=False),
    sa.Column("finished", sa.Float, nullable=True),
)

tournament_leases = sa.Table(
    "tournament_leases",
    metadata,
    sa.Column("tournament_id", sa.String(16), primary_key=True),
    sa.Column("holder", sa.String(32), nullable=False),
    sa.Column("since", sa.Float, nullable=False),
)

skill_ratings = sa.Table(
    "skill_ratings",
    metadata,
    sa.Column("account_id", sa.Integer, primary_key=True),
    sa.Column("variant", sa.String(64), primary_key=True),
    sa.Column("time_class", sa.String(16), primary_key=True),
    sa.Column("family", sa.String(64), nullable=False),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated", sa.Float, nullable=False),
)

rematches = sa.Table(
    "rematches",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("offered", sa.JSON, nullable=False),
    sa.Column("new_game", sa.String(32), nullable=True),
)
