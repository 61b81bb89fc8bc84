"""Alembic's entry point: migrate the connection the store hands over.

The store runs Alembic itself (:mod:`pokerhouse.store.migrate`) and passes an
open connection in ``config.attributes["connection"]``; there is no
``alembic.ini``. SQLite needs batch mode to alter tables.
"""

from __future__ import annotations

from alembic import context

from pokerhouse.store.schema import metadata

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
