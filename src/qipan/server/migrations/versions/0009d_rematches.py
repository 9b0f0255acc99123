"""rematches: offers of the same game again once a game is over

Revision ID: 0009d
Revises: 0009c
"""

import sqlalchemy as sa
from alembic import op

revision = "0009d"
down_revision = "0009c"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        # the seats that offered
        sa.Column("offered", sa.JSON, nullable=False),
        # the new game once every player offered ("" while it is being made)
        sa.Column("new_game", sa.String(32), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("rematches")
