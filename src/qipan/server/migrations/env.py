"""Alembic environment: the caller (``qipan.server.migrate``) hands over a connection."""

from alembic import context

from qipan.server.storage import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through qipan.server.migrate.upgrade(engine)")

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
