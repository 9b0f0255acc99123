"""queued_moves: real-time moves sent to a process that does not run the game's ticks

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A move for a real-time game waits for its seat's next tick. Only the lease holder runs
    # the ticks; a process that is not the holder leaves the move here, and the holder takes
    # it (and deletes it) at its next tick, in the order the moves arrived (id).
    op.create_table(
        "queued_moves",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_queued_moves_game_id", "queued_moves", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_queued_moves_game_id", table_name="queued_moves")
    op.drop_table("queued_moves")
