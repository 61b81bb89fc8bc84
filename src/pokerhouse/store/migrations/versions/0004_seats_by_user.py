"""A player's seats found by the player: an index of ``table_seats`` on ``user_id``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-04

A node of a room of several answers ``/api/me`` for tables another node runs
from the store (its own tables from memory): the seats of one user across
every table, which ``ix_table_seats_user`` (table first) cannot find without
reading the whole table.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.create_index("ix_table_seats_user_id", ["user_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("table_seats", schema=None) as batch_op:
        batch_op.drop_index("ix_table_seats_user_id")
