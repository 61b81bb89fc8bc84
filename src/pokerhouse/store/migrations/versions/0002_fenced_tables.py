"""Leases that expire, and each action's player and client id.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02

A table's lease is taken only when it is free, expired or already the
taker's, and renewed while held (``lease_expires``, Unix seconds). Every
logged action keeps the account that took it and the client's own id for
it, unique per hand and account, so a resent action is known for a repeat
after a restart too.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (no batch copy of the tables): hand_actions keeps its
    # append-only triggers, and nullable columns need no rewrite on either database.
    op.add_column("room_tables", sa.Column("lease_expires", sa.Float(), nullable=True))
    op.add_column("hand_actions", sa.Column("user_id", sa.BigInteger(), nullable=True))
    op.add_column("hand_actions", sa.Column("client_id", sa.Text(), nullable=True))
    op.create_index(
        "ix_hand_actions_client",
        "hand_actions",
        ["hand_id", "user_id", "client_id"],
        unique=True,
        sqlite_where=sa.text("client_id IS NOT NULL"),
        postgresql_where=sa.text("client_id IS NOT NULL"),
    )


def downgrade() -> None:
    op.drop_index(
        "ix_hand_actions_client",
        table_name="hand_actions",
        sqlite_where=sa.text("client_id IS NOT NULL"),
        postgresql_where=sa.text("client_id IS NOT NULL"),
    )
    # ALTER TABLE ... DROP COLUMN on both (SQLite 3.35 and later): a batch copy of
    # hand_actions would lose its append-only triggers.
    for table, column in (
        ("hand_actions", "client_id"),
        ("hand_actions", "user_id"),
        ("room_tables", "lease_expires"),
    ):
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
