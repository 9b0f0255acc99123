"""games.offers: the draw and undo offers standing, stored so that every process sees them

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # {"draw": [seats], "undo": [seats], "undo_to": ply}; NULL: no offer. Written with the
    # change that makes or clears an offer, so a process that reads the game from the store
    # (a restart, a catch-up, another process) sees the same offers.
    op.add_column("games", sa.Column("offers", sa.JSON, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("offers")
