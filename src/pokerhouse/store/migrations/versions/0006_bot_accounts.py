"""Bot accounts, and tables for people only or for bots only.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06

``users.api_bot`` marks a bot account (played through the API with a token,
never seated by the room itself, unlike the house bots) and
``users.owner_id`` the player who created it; ``room_tables.people_only``
refuses bot accounts a seat and ``room_tables.bots_only`` refuses people
(its hands make the bots' leaderboard). Every existing row gets false and
no owner: nothing changes for the accounts and tables there are.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("api_bot", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
        batch_op.add_column(
            sa.Column(
                "owner_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True
            )
        )
        batch_op.create_index("ix_users_owner_id", ["owner_id"], unique=False)
        batch_op.create_foreign_key("fk_users_owner_id_users", "users", ["owner_id"], ["id"])
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("people_only", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )
        batch_op.add_column(
            sa.Column("bots_only", sa.Boolean(), server_default=sa.text("false"), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.drop_column("bots_only")
        batch_op.drop_column("people_only")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint("fk_users_owner_id_users", type_="foreignkey")
        batch_op.drop_index("ix_users_owner_id")
        batch_op.drop_column("owner_id")
        batch_op.drop_column("api_bot")
