"""Private tables (home games): a host, an invitation, a password, their guests.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06

``room_tables`` gains, for a private table, its host, the hash of its
invitation token, the hash of its password, whether the host approves each
seat, whether it is paused and when it was closed, and its names are unique
among the room's own tables only (a private table's name is its host's
choice, and tells nobody else anything); ``table_members`` keeps
who came by the invitation and their standing (asked to sit, approved,
removed). Every table there is stays public. Downgrading drops them (and
would forget which tables were private: refused while there is one).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host_id", _ID, nullable=True))
        batch_op.add_column(sa.Column("invite_hash", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("password_hash", sa.Text(), nullable=True))
        batch_op.add_column(
            sa.Column(
                "approve_seats", sa.Boolean(), server_default=sa.text("false"), nullable=False
            )
        )
        batch_op.add_column(
            sa.Column("paused", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
        batch_op.add_column(sa.Column("closed_at", sa.Float(), nullable=True))
        batch_op.create_unique_constraint(batch_op.f("uq_room_tables_invite_hash"), ["invite_hash"])
        batch_op.create_foreign_key(
            batch_op.f("fk_room_tables_host_id_users"), "users", ["host_id"], ["id"]
        )
        # A private table's name is its host's: unique among the room's own tables only.
        batch_op.drop_constraint(batch_op.f("uq_room_tables_name"), type_="unique")
    op.create_index(
        "uq_room_tables_public_name",
        "room_tables",
        ["name"],
        unique=True,
        sqlite_where=sa.text("host_id IS NULL"),
        postgresql_where=sa.text("host_id IS NULL"),
    )
    op.create_table(
        "table_members",
        sa.Column("table_id", _ID, nullable=False),
        sa.Column("user_id", _ID, nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.Column("changed_at", sa.Float(), nullable=False),
        sa.CheckConstraint(
            "status IN ('asked', 'approved', 'removed')", name=op.f("ck_table_members_status")
        ),
        sa.ForeignKeyConstraint(
            ["table_id"], ["room_tables.id"], name=op.f("fk_table_members_table_id_room_tables")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_table_members_user_id_users")
        ),
        sa.PrimaryKeyConstraint("table_id", "user_id", name=op.f("pk_table_members")),
    )
    op.create_index("ix_table_members_user", "table_members", ["user_id"])


def downgrade() -> None:
    private = op.get_bind().execute(
        sa.text("SELECT count(*) FROM room_tables WHERE host_id IS NOT NULL")
    )
    if private.scalar():
        raise RuntimeError("there are private tables: 0008 cannot tell them from public ones")
    op.drop_index("ix_table_members_user", table_name="table_members")
    op.drop_table("table_members")
    op.drop_index("uq_room_tables_public_name", table_name="room_tables")
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.create_unique_constraint(batch_op.f("uq_room_tables_name"), ["name"])
        batch_op.drop_constraint(batch_op.f("fk_room_tables_host_id_users"), type_="foreignkey")
        batch_op.drop_constraint(batch_op.f("uq_room_tables_invite_hash"), type_="unique")
        for column in (
            "closed_at", "paused", "approve_seats", "password_hash", "invite_hash", "host_id"
        ):  # fmt: skip
            batch_op.drop_column(column)
