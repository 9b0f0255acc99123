"""ratings per variant (preset) and time class; each family rating seeds every variant played

Revision ID: 0009b
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0009b"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A rated game's variant: the preset it was created as (games.game).
    with op.batch_alter_table("site_games") as batch:
        batch.add_column(sa.Column("variant", sa.String(64), nullable=True))
    with op.batch_alter_table("rating_history") as batch:
        batch.add_column(sa.Column("variant", sa.String(64), nullable=True))
    op.execute(
        "UPDATE site_games SET variant = (SELECT games.game FROM games WHERE games.id = site_games.game_id)"
    )
    op.execute("UPDATE site_games SET variant = family WHERE variant IS NULL")
    op.execute(
        "UPDATE rating_history SET variant = (SELECT site_games.variant FROM site_games"
        " WHERE site_games.game_id = rating_history.game_id)"
    )
    op.execute("UPDATE rating_history SET variant = family WHERE variant IS NULL")
    op.create_table(
        "variant_ratings",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("variant", sa.String(64), primary_key=True),
        sa.Column("time_class", sa.String(16), primary_key=True),
        # the variant's family: the leaderboard groups by it
        sa.Column("family", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    # Today's family rating becomes the rating of each variant of the family the player
    # played rated in that time class, with the games played in that variant.
    op.execute(
        """
        INSERT INTO variant_ratings
            (account_id, variant, time_class, family, rating, rd, volatility, games, updated)
        SELECT r.account_id, played.variant, r.time_class, r.family, r.rating, r.rd, r.volatility,
               played.games, r.updated
        FROM ratings r
        JOIN (
            SELECT ga.account_id, sg.family, sg.time_class, sg.variant, COUNT(*) AS games
            FROM site_games sg JOIN game_accounts ga ON ga.game_id = sg.game_id
            WHERE sg.rated AND sg.rating_applied IS NOT NULL
            GROUP BY ga.account_id, sg.family, sg.time_class, sg.variant
        ) played
          ON played.account_id = r.account_id AND played.family = r.family
         AND played.time_class = r.time_class
        """
    )
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_table("ratings")
    op.rename_table("variant_ratings", "ratings")
    op.create_index("ix_ratings_board", "ratings", ["variant", "time_class", "rating"])
    op.create_index("ix_ratings_family", "ratings", ["family", "time_class", "rating"])


def downgrade() -> None:
    # Back to one rating per family: the variant played most recently stands for it.
    op.create_table(
        "family_ratings",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("family", sa.String(64), primary_key=True),
        sa.Column("time_class", sa.String(16), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("rd", sa.Float, nullable=False),
        sa.Column("volatility", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
    )
    op.execute(
        """
        INSERT INTO family_ratings (account_id, family, time_class, rating, rd, volatility, games, updated)
        SELECT r.account_id, r.family, r.time_class, r.rating, r.rd, r.volatility, r.games, r.updated
        FROM ratings r
        WHERE r.variant = (SELECT o.variant FROM ratings o WHERE o.account_id = r.account_id
                           AND o.family = r.family AND o.time_class = r.time_class
                           ORDER BY o.updated DESC, o.variant LIMIT 1)
        """
    )
    op.drop_index("ix_ratings_board", table_name="ratings")
    op.drop_index("ix_ratings_family", table_name="ratings")
    op.drop_table("ratings")
    op.rename_table("family_ratings", "ratings")
    op.create_index("ix_ratings_board", "ratings", ["family", "time_class", "rating"])
    with op.batch_alter_table("rating_history") as batch:
        batch.drop_column("variant")
    with op.batch_alter_table("site_games") as batch:
        batch.drop_column("variant")
