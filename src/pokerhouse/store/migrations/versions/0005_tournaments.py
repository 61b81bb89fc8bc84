"""Tournaments: their state and entries, and their money in the ledger.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-05

``tournaments`` keeps each tournament's spec and its director's state (JSON),
a version every saved step raises, the overlay the room added to the pool,
and a lease like a table's; ``tournament_entries`` one row per buy-in with
what it paid, got back and won; a table of ``room_tables`` may belong to a
tournament (its id, and the table's number in it). The ledger gains three
account kinds (``pool`` and ``chips``, one of each per tournament, and the
room's ``fees``; ``chips`` issues the tournament's own chips to its tables,
so it may go below zero like the issuer) and four transaction kinds
(``entry``, ``refund``, ``prize``, ``overlay``), and every database the
``fees`` account.

Neither database alters a CHECK constraint in place: PostgreSQL drops and
adds it; SQLite copies the tables (foreign keys are not enforced while
migrating) and the append-only triggers of ``ledger_transactions``, which go
with the old table, are made again.
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
_NEW_ACCOUNT_KINDS = (*_OLD_ACCOUNT_KINDS, "pool", "fees", "chips")
_OLD_NOT_NEGATIVE = "balance >= 0 OR kind = 'issuer'"
_NEW_NOT_NEGATIVE = "balance >= 0 OR kind IN ('issuer', 'chips')"
_OLD_TRANSACTION_KINDS = ("grant", "buy-in", "cash-out", "settlement", "rake", "top-up")
_NEW_TRANSACTION_KINDS = (*_OLD_TRANSACTION_KINDS, "entry", "refund", "prize", "overlay")


def _one_of(values: tuple[str, ...]) -> str:
    return f"kind IN ({', '.join(repr(v) for v in values)})"


def _kinds(accounts: tuple[str, ...], transactions: tuple[str, ...], not_negative: str) -> None:
    """Replace the kind constraints of the two ledger tables (and who may go below zero)."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    for table, kinds in (("ledger_accounts", accounts), ("ledger_transactions", transactions)):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_constraint(batch_op.f(f"ck_{table}_kind"), type_="check")
            batch_op.create_check_constraint("kind", _one_of(kinds))
            if table == "ledger_accounts":
                batch_op.drop_constraint(batch_op.f(f"ck_{table}_not_negative"), type_="check")
                batch_op.create_check_constraint("not_negative", not_negative)
    if sqlite:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER ledger_transactions_no_{verb.lower()} BEFORE {verb} "
                "ON ledger_transactions BEGIN "
                "SELECT RAISE(ABORT, 'ledger_transactions is append-only'); END"
            )


def upgrade() -> None:
    _kinds(_NEW_ACCOUNT_KINDS, _NEW_TRANSACTION_KINDS, _NEW_NOT_NEGATIVE)
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
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column(
                "tournament_id",
                sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                nullable=True,
            )
        )
        batch_op.add_column(sa.Column("tournament_table", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            batch_op.f("fk_room_tables_tournament_id_tournaments"),
            "tournaments",
            ["tournament_id"],
            ["id"],
        )
        batch_op.create_check_constraint(
            "tournament_table", "(tournament_id IS NULL) = (tournament_table IS NULL)"
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_room_tables_tournament_id_tournament_table"),
            ["tournament_id", "tournament_table"],
        )


def downgrade() -> None:
    with op.batch_alter_table("room_tables", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("uq_room_tables_tournament_id_tournament_table"), type_="unique"
        )
        batch_op.drop_constraint(batch_op.f("ck_room_tables_tournament_table"), type_="check")
        batch_op.drop_constraint(
            batch_op.f("fk_room_tables_tournament_id_tournaments"), type_="foreignkey"
        )
        batch_op.drop_column("tournament_table")
        batch_op.drop_column("tournament_id")
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
    _kinds(_OLD_ACCOUNT_KINDS, _OLD_TRANSACTION_KINDS, _OLD_NOT_NEGATIVE)
