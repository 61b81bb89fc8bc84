"""Tournaments: their state and entries, and their money in the ledger.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05

``tournaments`` keeps each tournament's spec and its director's state (JSON),
a version every saved step raises, the overlay the room added to the pool,
and a lease like a table's; ``tournament_entries`` one row per buy-in with
what it paid, got back and won. The ledger gains two account kinds (``pool``,
one per tournament, and the room's ``fees``) and four transaction kinds
(``entry``, ``refund``, ``prize``, ``overlay``), and every database the
``fees`` account.

Neither database alters a CHECK constraint in place: PostgreSQL drops and
adds it; SQLite copies the two ledger tables (foreign keys are not enforced
while migrating) and the append-only triggers of ``ledger_transactions``,
which go with the old table, are made again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD_ACCOUNT_KINDS = ("wallet", "in-play", "house", "rake", "issuer")
_NEW_ACCOUNT_KINDS = (*_OLD_ACCOUNT_KINDS, "pool", "fees")
_OLD_TRANSACTION_KINDS = ("grant", "buy-in", "cash-out", "settlement", "rake", "top-up")
_NEW_TRANSACTION_KINDS = (*_OLD_TRANSACTION_KINDS, "entry", "refund", "prize", "overlay")


def _one_of(values: tuple[str, ...]) -> str:
    return f"kind IN ({', '.join(repr(v) for v in values)})"


def _kinds(accounts: tuple[str, ...], transactions: tuple[str, ...]) -> None:
    """Replace the kind constraints of the two ledger tables."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table, kinds in (("ledger_accounts", accounts), ("ledger_transactions", transactions)):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f(f"ck_{table}_kind"), type_="check")
            batch_op.create_check_constraint("kind", _one_of(kinds))
    if sqlite:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER ledger_transactions_no_{verb.lower()} BEFORE {verb} "
                "ON ledger_transactions BEGIN "
                "SELECT RAISE(ABORT, 'ledger_transactions is append-only'); END"
            )


def upgrade() -> None:
    _kinds(_NEW_ACCOUNT_KINDS, _NEW_TRANSACTION_KINDS)
    accounts = sa.table("ledger_accounts", sa.column("key"), sa.column("kind"))
    op.bulk_insert(accounts, [{"key": "fees", "kind": "fees"}])
    op.create_table(
        "tournaments",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("overlay", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=True),
        sa.Column("lease_owner", sa.Text(), nullable=True),
        sa.Column("lease_token", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("lease_expires", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.CheckConstraint(
            "buy_in >= 0 AND fee >= 0 AND overlay >= 0", name=op.f("ck_tournaments_money")
        ),
        sa.CheckConstraint(
            "status IN ('registering', 'running', 'finished', 'cancelled')",
            name=op.f("ck_tournaments_status"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "id"], unique=False)
    op.create_table(
        "tournament_entries",
        sa.Column(
            "tournament_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("registered_at", sa.Float(), nullable=False),
        sa.Column("paid", sa.BigInteger(), nullable=False),
        sa.Column("refunded", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("tied", sa.Integer(), nullable=True),
        sa.Column("prize", sa.BigInteger(), server_default=sa.text("0"), nullable=False),
        sa.CheckConstraint(
            "paid >= 0 AND refunded >= 0 AND prize >= 0",
            name=op.f("ck_tournament_entries_money"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entries_tournament_id_tournaments"),
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_tournament_entries_user_id_users")
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_entries")),
    )
    op.create_index(
        "ix_tournament_entries_user",
        "tournament_entries",
        ["user_id", "tournament_id"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_entries_user", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
    # Once a tournament has moved chips, the old kind constraints refuse the rows that
    # record it, and the downgrade fails as a whole: the ledger is never rewritten.
    op.execute(
        "DELETE FROM ledger_accounts WHERE key = 'fees' AND NOT EXISTS "
        "(SELECT 1 FROM ledger_entries e WHERE e.account_id = ledger_accounts.id)"
    )
    _kinds(_OLD_ACCOUNT_KINDS, _OLD_TRANSACTION_KINDS)
