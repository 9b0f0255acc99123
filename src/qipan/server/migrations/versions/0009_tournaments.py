"""tournaments: arenas, Swiss events and round robins, their entrants, games and leases

Revision ID: 0009
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        # arena, swiss or round_robin
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        # seats per game (arenas of 3-4 player games put that many entrants in each game)
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("clock", sa.JSON, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("starts", sa.Float, nullable=False),
        # an arena's length; a Swiss event's rounds (a round robin has as many as it needs)
        sa.Column("minutes", sa.Float, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("max_entrants", sa.Integer, nullable=False),
        sa.Column("bots_allowed", sa.Boolean, nullable=False),
        sa.Column("berserk", sa.Boolean, nullable=False),
        # scheduled -> running -> finished
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("creator", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "starts"])
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        # the starting number, 1 up, in the order of joining
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        # a bot entrant: its level (1-8)
        sa.Column("bot_level", sa.Integer, nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        # the entrant's rating when the event started (Swiss seeding)
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("withdrawn", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("joined", sa.Float, nullable=False),
    )
    # An account enters an event once (bots may be entered several times at one level).
    op.create_index(
        "ix_tournament_entrants_account", "tournament_entrants", ["tournament_id", "account_id"], unique=True
    )
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer, nullable=False),
        # None for a bye
        sa.Column("game_id", sa.String(32), nullable=True),
        # entrant numbers by seat (seat 0 moves first)
        sa.Column("entrants", sa.JSON, nullable=False),
        # points by seat (1 win, 0.5 draw, 0 loss) once the game ended
        sa.Column("scores", sa.JSON, nullable=True),
        # seats that went berserk (arena)
        sa.Column("berserk", sa.JSON, nullable=False),
        sa.Column("started", sa.Float, nullable=False),
        sa.Column("finished", sa.Float, nullable=True),
    )
    op.create_index("ix_tournament_games_event", "tournament_games", ["tournament_id", "round"])
    op.create_table(
        "tournament_leases",
        sa.Column(
            "tournament_id",
            sa.String(16),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        # the process that pairs this event while its heartbeat is fresh (as game_leases)
        sa.Column("holder", sa.String(32), nullable=False),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade() -> None:
    for table in ("tournament_leases", "tournament_games", "tournament_entrants", "tournaments"):
        op.drop_table(table)
