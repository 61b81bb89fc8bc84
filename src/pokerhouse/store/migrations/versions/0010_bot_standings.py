"""The bots' leaderboard kept as hands settle: one row per bot and game.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06

``bot_standings`` holds, for each bot and game, the hands it finished at the
game's tables for bots only, its net chips and the sum of their squares (for
the interval the board shows). A settlement adds to it in its own
transaction, so the board reads a few rows however many hands were played
(reading it from ``hand_players`` summed every hand on each refresh). Every
hand settled before is counted here once.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "bot_standings",
        sa.Column("user_id", _ID, nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("hands", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("squares", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_bot_standings_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", "game", name=op.f("pk_bot_standings")),
    )
    op.execute(
        "INSERT INTO bot_standings (user_id, game, hands, net, squares) "
        "SELECT p.user_id, h.game, count(*), sum(p.result), "
        "sum(CAST(p.result AS DOUBLE PRECISION) * p.result) "
        "FROM hand_players p JOIN hands h ON h.id = p.hand_id "
        "JOIN room_tables t ON t.id = h.table_id "
        "WHERE t.bots_only AND h.status = 'finished' AND p.result IS NOT NULL "
        "GROUP BY p.user_id, h.game"
    )


def downgrade() -> None:
    op.drop_table("bot_standings")
