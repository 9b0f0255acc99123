"""games.position: the position a game was set up from (the position editor), NULL for a game
from the rules' start

Revision ID: 0011_study
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_study"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The game's own position text (``game.position(text)`` reads it); the stored moves are
    # played from it, so a restart or another process rebuilds the same game.
    op.add_column("games", sa.Column("position", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("position")
