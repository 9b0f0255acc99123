"""Run the Alembic migrations shipped inside the package, programmatically (no alembic.ini)."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
#: The PostgreSQL advisory lock key that serialises migrations ("qipan" in ASCII).
MIGRATION_LOCK = 0x716970616E


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def upgrade(engine: sa.Engine, revision: str = "head") -> None:
    """Bring the database schema up to ``revision`` on one connection of ``engine``."""
    _run(engine, command.upgrade, revision)


def downgrade(engine: sa.Engine, revision: str) -> None:
    _run(engine, command.downgrade, revision)


def _run(engine: sa.Engine, step, revision: str) -> None:
    cfg = alembic_config()
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as conn:
        if sqlite:
            # SQLite's batch migrations copy a table and drop the old one; with foreign keys
            # on, that drop would cascade into the moves. (Only effective outside a transaction.)
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                if engine.dialect.name == "postgresql":
                    # Several processes starting at once: one migrates, the others wait and
                    # then find the schema up to date (held until this transaction ends).
                    conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                cfg.attributes["connection"] = conn
                step(cfg, revision)
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()
