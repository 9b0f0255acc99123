"""server_processes: each serving process and when it was last known alive

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_processes",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("started", sa.Float, nullable=False),
        # Renewed every second while the process runs: after a crash it says when the
        # server went down, so a restart refunds exactly the downtime on running clocks.
        sa.Column("alive", sa.Float, nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("server_processes")
