"""Alembic's environment: migrations run on the connection :func:`hisss.storage.schema.migrate`
hands over, inside its transaction and under its lock; this file never connects by itself."""

from __future__ import annotations

from alembic import context

from hisss.storage.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite alters a table by copying it; the same revision then serves both databases.
    render_as_batch=True,
    transaction_per_migration=False,
)
with context.begin_transaction():
    context.run_migrations()
