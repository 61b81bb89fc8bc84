"""Players' statistics: one row per player, game, venue and week, summed as hands settle.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06

``player_stats`` holds, for each player, game, venue (``public``,
``private``, ``tournament``) and week (its Monday, UTC), the hands played,
the chips won or lost and the play counters of
:mod:`pokerhouse.history.figures`. The hands already finished are counted in
from their stored histories, so the figures start complete; a hand whose
history is missing (none is, unless written by hand) is counted with its
chips only. Downgrading drops the table.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from pokerhouse.history.figures import FIELDS, SeatFigures, hand_figures
from pokerhouse.history.hand_record import from_json
from pokerhouse.store.stats import COUNTERS, week_of

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_VENUES = ("public", "private", "tournament")


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("venue", sa.Text(), nullable=False),
        sa.Column("week", sa.Text(), nullable=False),
        sa.Column("hands", sa.BigInteger(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        *(
            sa.Column(name, sa.BigInteger(), server_default=sa.text("0"), nullable=False)
            for name in FIELDS
        ),
        sa.CheckConstraint(
            f"venue IN ({', '.join(repr(v) for v in _VENUES)})",
            name=op.f("ck_player_stats_venue"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_player_stats_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", "game", "venue", "week", name=op.f("pk_player_stats")),
    )
    op.create_index("ix_player_stats_board", "player_stats", ["game", "venue", "week"])
    _count_finished_hands()


def _count_finished_hands() -> None:
    """Sum the hands finished before this revision into their players' rows."""
    rows = op.get_bind().execute(
        sa.text(
            "SELECT h.id, h.game, h.finished_at, h.history, t.tournament_id, p.user_id, p.result "
            "FROM hands h JOIN hand_players p ON p.hand_id = h.id "
            "JOIN room_tables t ON t.id = h.table_id "
            "WHERE h.status = 'finished' ORDER BY h.id, p.hand_seat"
        )
    )
    sums: dict[tuple[int, str, str, str], list[int]] = defaultdict(lambda: [0] * len(COUNTERS))
    hand_id, seat = None, 0
    figures: tuple[SeatFigures, ...] = ()
    for row in rows:
        if row[0] != hand_id:
            hand_id, seat = row[0], 0
            figures = hand_figures(from_json(row[3]).events) if row[3] else ()
        venue = "public" if row[4] is None else "tournament"
        counters = sums[row[5], row[1], venue, week_of(row[2])]
        counters[0] += 1
        counters[1] += row[6] or 0
        if seat < len(figures):
            value: int
            for index, value in enumerate(figures[seat], 2):
                counters[index] += value
        seat += 1
    if sums:
        table = sa.table(
            "player_stats",
            *(sa.column(name) for name in ("user_id", "game", "venue", "week", *COUNTERS)),
        )
        op.bulk_insert(
            table,
            [
                dict(zip(("user_id", "game", "venue", "week"), key, strict=True))
                | dict(zip(COUNTERS, values, strict=True))
                for key, values in sums.items()
            ],
        )


def downgrade() -> None:
    op.drop_index("ix_player_stats_board", table_name="player_stats")
    op.drop_table("player_stats")
