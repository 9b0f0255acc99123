"""account_addresses: the addresses accounts act from, for rated pairings (fair_play.py)

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Where an account signed up, logged in, posted or accepted a seek from, and when first
    # and last: two accounts seen at one address within a day are not paired rated.
    op.create_table(
        "account_addresses",
        sa.Column("account_id", sa.Integer, primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("first_seen", sa.Float, nullable=False),
        sa.Column("last_seen", sa.Float, nullable=False),
        sa.Column("signup", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_account_addresses_address", "account_addresses", ["address"])


def downgrade() -> None:
    op.drop_index("ix_account_addresses_address", table_name="account_addresses")
    op.drop_table("account_addresses")
