"""skill_ratings: OpenSkill ratings of 3-4 player and team games, per variant and time class

Revision ID: 0009c
Revises: 0009b
"""

import sqlalchemy as sa
from alembic import op

revision = "0009c"
down_revision = "0009b"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skill_ratings",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("variant", sa.String(64), primary_key=True),
        sa.Column("time_class", sa.String(16), primary_key=True),
        sa.Column("family", sa.String(64), nullable=False),
        # Weng-Lin Plackett-Luce (skill.py): mean and deviation
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.create_index("ix_skill_ratings_board", "skill_ratings", ["variant", "time_class", "mu"])


def downgrade() -> None:
    op.drop_table("skill_ratings")
