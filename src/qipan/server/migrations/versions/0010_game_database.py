"""db_games, db_players, db_positions: the game database; puzzles, puzzle_ratings,
puzzle_attempts: puzzles and their solvers' ratings

Revision ID: 0010
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009d"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "db_games",
        # A digest of the game's setup and moves: the same game imported twice has one id.
        sa.Column("id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("game", sa.String(64), nullable=False, index=True),
        sa.Column("family", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("plies", sa.Integer, nullable=False, index=True),
        sa.Column("result", sa.String(40), nullable=False),
        sa.Column("reason", sa.String(120), nullable=True),
        sa.Column("winners", sa.String(40), nullable=True),
        sa.Column("played", sa.Date, nullable=True, index=True),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("site_game", sa.String(32), nullable=True, unique=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("tags", sa.JSON, nullable=False),
        sa.Column("added", sa.Float, nullable=False),
    )
    op.create_table(
        "db_players",
        sa.Column(
            "game_id", sa.BigInteger, sa.ForeignKey("db_games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False, index=True),
        sa.Column("rating", sa.Float, nullable=True),
    )
    op.create_table(
        "db_positions",
        sa.Column(
            "game_id", sa.BigInteger, sa.ForeignKey("db_games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("ply", sa.Integer, primary_key=True),
        # Every position of every stored game: the position search and the explorer look up here.
        sa.Column("key", sa.BigInteger, nullable=False, index=True),
        sa.Column("move", sa.String(200), nullable=True),
        sa.Column("mover", sa.Integer, nullable=True),
    )
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False, index=True),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=True),
        sa.Column("moves", sa.JSON, nullable=False),
        sa.Column("solver", sa.Integer, nullable=False),
        sa.Column("solution", sa.JSON, nullable=False),
        sa.Column("theme", sa.String(40), nullable=False, index=True),
        sa.Column("plies", sa.Integer, nullable=False),
        sa.Column("source", sa.String(200), nullable=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "puzzle_id", sa.String(40), sa.ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("puzzle_attempts", "puzzle_ratings", "puzzles", "db_positions", "db_players", "db_games"):
        op.drop_table(table)
