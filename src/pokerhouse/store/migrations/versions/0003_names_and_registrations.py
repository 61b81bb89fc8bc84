"""Look-alike names and sign-ups per address: a skeleton per user, a table of registrations.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-02

``users.username_skeleton`` holds what a name looks like (Cyrillic, Greek and
other letters that look like ASCII ones mapped to them, case-folded; see
``pokerhouse/store/names.py``), with a unique index, so that a look-alike of
a taken name is taken too. Existing users get theirs here, oldest first; a
later account whose skeleton an older one has already got keeps NULL (its
name stays, and nobody new may take another look-alike of it).

``registrations`` records each sign-up's address (its SHA-256) and time, so
that the limit of new accounts per address is kept in the database (it used
to live in the server's memory, and a restart reset it). Accounts made
before this revision have no row: they count toward no address's limit.

The skeleton is computed by this pokerhouse's ``username_skeleton``; a
later change to it comes with a revision that computes them again.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("username_skeleton", sa.Text(), nullable=True))
    _backfill()
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.create_unique_constraint(
            batch_op.f("uq_users_username_skeleton"), ["username_skeleton"]
        )
    op.create_table(
        "registrations",
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("address_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["users.id"], name=op.f("fk_registrations_user_id_users")
        ),
        sa.PrimaryKeyConstraint("user_id", name=op.f("pk_registrations")),
    )
    with op.batch_alter_table("registrations", schema=None) as batch_op:
        batch_op.create_index(
            "ix_registrations_address", ["address_hash", "created_at"], unique=False
        )


def _backfill() -> None:
    """Every user's skeleton, oldest account first; a look-alike of an older one: NULL."""
    from pokerhouse.store.names import username_skeleton

    bind = op.get_bind()
    users = sa.table(
        "users", sa.column("id"), sa.column("username"), sa.column("username_skeleton")
    )
    taken: set[str] = set()
    rows = bind.execute(sa.select(users.c.id, users.c.username).order_by(users.c.id)).all()
    for user_id, username in rows:
        skeleton = username_skeleton(username)
        if skeleton in taken:
            continue
        taken.add(skeleton)
        bind.execute(users.update().where(users.c.id == user_id).values(username_skeleton=skeleton))


def downgrade() -> None:
    with op.batch_alter_table("registrations", schema=None) as batch_op:
        batch_op.drop_index("ix_registrations_address")
    op.drop_table("registrations")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_users_username_skeleton"), type_="unique")
        batch_op.drop_column("username_skeleton")
