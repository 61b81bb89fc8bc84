"""The house's pro bots, and a table setting for their chat.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06

``room_tables.bot_chat`` says whether the table's house bots say a few
words now and then (true for every table there is, as for new ones). The
tables whose house bots were the ``smart`` ones get the ``pro`` bots that
replace them as the room's own; a table set to ``random`` keeps them.
Downgrading drops the setting and gives those tables the smart bots back.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bot_chat", sa.Boolean(), server_default=sa.text("true"), nullable=False)
        )
    op.execute("UPDATE room_tables SET bot_kind = 'pro' WHERE bot_kind = 'smart'")


def downgrade() -> None:
    op.execute("UPDATE room_tables SET bot_kind = 'smart' WHERE bot_kind = 'pro'")
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.drop_column("bot_chat")
