"""games.version and game_leases: several serving processes on one database

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Bumped by every stored change of a game. A change is written only if the version is
    # still the one it was made against (the UPDATE holds the row lock until commit), so
    # changes made by different processes are serialised and a stale one is refused.
    op.add_column("games", sa.Column("version", sa.BigInteger, nullable=False, server_default="0"))
    # Which serving process runs a game's bots, clocks and ticks. The lease lasts while its
    # holder's heartbeat (server_processes.alive) is fresh; another process takes it over
    # when the heartbeat stops.
    op.create_table(
        "game_leases",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("holder", sa.String(32), nullable=False, index=True),
        sa.Column("since", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_leases")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("version")
