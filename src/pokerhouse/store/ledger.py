"""The double-entry chip ledger: checked postings, as units of work.

A posting is validated in full before any statement runs (:func:`posting`);
then, in one database transaction, its key is reserved (a repeated key
returns the first transaction, or is a conflict if the entries differ), the
accounts are locked in id order and read, every balance is checked (only the
issuer may go below zero), and the balances and the append-only entries are
written. Each entry keeps the account's balance after it, a chain that
``ledger check`` follows from zero to the balance column.

>>> from pokerhouse.store.accounts import ISSUER, Account
>>> p = posting("grant:1", "grant", {ISSUER: -100, Account.wallet(1): 100})
>>> p.fingerprint
'grant|issuer=-100;wallet:1=100'
>>> posting("x", "grant", {ISSUER: -1.5, Account.wallet(1): 1.5})
Traceback (most recent call last):
...
pokerhouse.store.errors.LedgerError: amount for issuer must be a whole number of chips, not -1.5
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from pokerhouse.store.accounts import (
    NEGATIVE_KINDS,
    RESERVED_KINDS,
    Account,
    AccountKind,
    LedgerEntry,
    Transaction,
    TransactionKind,
)
from pokerhouse.store.errors import IdempotencyConflict, InsufficientFunds, LedgerError
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, many, one

#: Largest amount or balance: exact as a double and in every JSON reader.
MAX_CHIPS: Final = 2**53

_MAX_KEY = 200
_MAX_MEMO = 500


@dataclass(frozen=True, slots=True)
class Posting:
    """A transaction checked and ready to post: entries sorted by account key."""

    key: str
    kind: TransactionKind
    entries: tuple[tuple[str, int], ...]
    memo: str
    meta: str | None
    #: The entries' accounts, in the same order.
    accounts: tuple[Account, ...] = ()

    @property
    def fingerprint(self) -> str:
        """Kind and entries: a repeated key must come with exactly these."""
        return f"{self.kind}|" + ";".join(f"{key}={amount}" for key, amount in self.entries)


def check_amount(value: object, what: str, *, sign: int = 1) -> int:
    """``value`` if it is a whole number of chips of the given sign (0: either).

    >>> check_amount(50, "buy-in")
    50
    >>> check_amount(True, "buy-in")
    Traceback (most recent call last):
    ...
    pokerhouse.store.errors.LedgerError: buy-in must be a whole number of chips, not True
    """
    if type(value) is not int:
        raise LedgerError("bad_amount", f"{what} must be a whole number of chips, not {value!r}")
    if value == 0:
        raise LedgerError("zero_amount", f"{what} must not be zero")
    if sign > 0 and value < 0:
        raise LedgerError("negative_amount", f"{what} must be positive, not {value}")
    if abs(value) > MAX_CHIPS:
        raise LedgerError("amount_too_large", f"{what} of {value} is more than {MAX_CHIPS} chips")
    return value


def check_key(key: object) -> str:
    """An idempotency key: 1 to 200 printable characters, no spaces."""
    if (
        not isinstance(key, str)
        or not 1 <= len(key) <= _MAX_KEY
        or not all(c.isprintable() and not c.isspace() for c in key)
    ):
        raise LedgerError(
            "bad_key",
            f"an idempotency key is 1 to {_MAX_KEY} printable characters without spaces, "
            f"not {key!r}"[:300],
        )
    return key


def check_memo(memo: object) -> str:
    """A memo: printable text of at most 500 characters."""
    if not isinstance(memo, str) or len(memo) > _MAX_MEMO or not memo.isprintable():
        raise LedgerError("bad_memo", f"a memo is printable text of at most {_MAX_MEMO} characters")
    return memo


def encode_json(value: object, what: str, code: str) -> str:
    """``value`` as compact JSON text; a typed error if it is not plain JSON."""
    try:
        return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise LedgerError(code, f"{what} must be plain JSON: {error}") from None


def posting(
    key: object,
    kind: object,
    entries: Mapping[Account, int],
    *,
    memo: object = "",
    meta: Mapping[str, Any] | None = None,
    reserved: bool = False,
) -> Posting:
    """Check a transaction in full; ``reserved`` lets the store's own operations
    post buy-ins, cash-outs and settlements and touch in-play accounts."""
    key = check_key(key)
    try:
        kind = TransactionKind(kind)  # type: ignore[arg-type]  # a ValueError if not
    except ValueError:
        raise LedgerError(
            "bad_kind",
            f"unknown transaction kind {kind!r} (kinds: "
            f"{', '.join(k.value for k in TransactionKind)})",
        ) from None
    if not reserved and kind in RESERVED_KINDS:
        raise LedgerError(
            "reserved_kind", f"{kind} transactions are posted by seats and hands, not by hand"
        )
    if not isinstance(entries, Mapping):
        raise LedgerError("bad_entries", "entries are a mapping of account to amount")
    if len(entries) < 2 and not (reserved and kind is TransactionKind.SETTLEMENT):
        raise LedgerError(
            "too_few_entries", "a transaction moves chips between two accounts or more"
        )
    checked: list[tuple[str, int]] = []
    for account, amount in entries.items():
        if not isinstance(account, Account):
            raise LedgerError("bad_account", f"{account!r} is not an Account")
        if account.kind is AccountKind.IN_PLAY and not reserved:
            raise LedgerError(
                "in_play_account",
                f"{account} moves only with its seats (buy in, add chips, cash out, settle)",
            )
        checked.append((account.key, check_amount(amount, f"amount for {account}", sign=0)))
    total = sum(amount for _, amount in checked)
    if total != 0:
        raise LedgerError("unbalanced", f"entries must sum to zero, not {total}")
    meta_text = None if meta is None else encode_json(dict(meta), "meta", "bad_meta")
    return trusted_posting(key, kind, dict(zip(entries, (a for _, a in checked), strict=True)),
                           check_memo(memo), meta_text)  # fmt: skip


def trusted_posting(
    key: str, kind: TransactionKind, entries: Mapping[Account, int], memo: str, meta: str | None
) -> Posting:
    """A :class:`Posting` from values the store built and checked itself (no second check)."""
    ordered = sorted((account.key, account, amount) for account, amount in entries.items())
    return Posting(
        key,
        kind,
        tuple((k, amount) for k, _, amount in ordered),
        memo,
        meta,
        tuple(account for _, account, _ in ordered),
    )


# ---------------------------------------------------------------- statements

INSERT_TRANSACTION = Stmt(
    "INSERT INTO ledger_transactions (key, kind, fingerprint, memo, meta, created_at) "
    "VALUES (:key, :kind, :fingerprint, :memo, :meta, :now) "
    "ON CONFLICT (key) DO NOTHING RETURNING id"
)
SELECT_TRANSACTION = Stmt(
    "SELECT id, key, kind, fingerprint, memo, meta, created_at "
    "FROM ledger_transactions WHERE key = :key"
)
SELECT_ENTRIES = Stmt(
    "SELECT a.key, e.amount, e.balance_after FROM ledger_entries e "
    "JOIN ledger_accounts a ON a.id = e.account_id WHERE e.transaction_id = :id ORDER BY e.id"
)
SELECT_ACCOUNT_ID = Stmt("SELECT id FROM ledger_accounts WHERE key = :key")
INSERT_ACCOUNT = Stmt(
    "INSERT INTO ledger_accounts (key, kind, user_id, table_id, balance) "
    "VALUES (:key, :kind, :user_id, :table_id, 0) ON CONFLICT (key) DO NOTHING RETURNING id"
)
# Row locks in id order, whoever asks: two transfers cannot deadlock.
LOCK_ACCOUNTS = Stmt(
    "SELECT id, balance, kind FROM ledger_accounts WHERE id IN (SELECT value FROM json_each(:ids))",
    postgresql="SELECT id, balance, kind FROM ledger_accounts "
    "WHERE id = ANY(CAST(:ids AS BIGINT[])) ORDER BY id FOR UPDATE",
)
UPDATE_BALANCE = Stmt("UPDATE ledger_accounts SET balance = :balance WHERE id = :id")
# PostgreSQL: balances and entries in one round trip (arrays; the rows are locked already).
LEDGER_CTES_PG = (
    "b AS (UPDATE ledger_accounts a SET balance = v.balance FROM unnest("
    "CAST(:ids AS BIGINT[]), CAST(:balances AS BIGINT[])) AS v(id, balance) "
    "WHERE a.id = v.id RETURNING 1), "
    "e AS (INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
    "SELECT * FROM unnest(CAST(:e_tx AS BIGINT[]), CAST(:e_account AS BIGINT[]), "
    "CAST(:e_amount AS BIGINT[]), CAST(:e_after AS BIGINT[])) RETURNING 1)"
)
WRITE_LEDGER_PG = Stmt(
    f"WITH {LEDGER_CTES_PG} SELECT (SELECT count(*) FROM b), (SELECT count(*) FROM e)",
    only="postgresql",
)
INSERT_ENTRY = Stmt(
    "INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) "
    "VALUES (:tx, :account, :amount, :after)"
)


# ---------------------------------------------------------------- units


def account_ids(ctx: Context, keys: Iterable[str]) -> Unit[dict[str, int]]:
    """The ids of existing accounts; :class:`LedgerError` ``unknown_account`` otherwise."""
    ids: dict[str, int] = {}
    for key in keys:
        found = ctx.account_id(key)
        if found is None:
            row = yield one(SELECT_ACCOUNT_ID, key=key)
            if row is None:
                raise LedgerError("unknown_account", f"there is no account {key}")
            found = ctx.new_ids[key] = row[0]
        ids[key] = found
    return ids


def ensure_account(ctx: Context, account: Account) -> Unit[int]:
    """The id of ``account``, created (with a zero balance) if it does not exist yet."""
    found = ctx.account_id(account.key)
    if found is not None:
        return found
    row = yield one(
        INSERT_ACCOUNT,
        key=account.key,
        kind=account.kind.value,
        user_id=account.user_id,
        table_id=account.table_id,
    )
    if row is None:
        row = yield one(SELECT_ACCOUNT_ID, key=account.key)
    ctx.new_ids[account.key] = row[0]
    return int(row[0])


def reserve(ctx: Context, post: Posting) -> Unit[int | None]:
    """Insert the transaction's row; its id, or ``None`` if the key was used before."""
    row = yield one(
        INSERT_TRANSACTION,
        key=post.key,
        kind=post.kind.value,
        fingerprint=post.fingerprint,
        memo=post.memo,
        meta=post.meta,
        now=ctx.now,
    )
    return None if row is None else int(row[0])


def existing(ctx: Context, post: Posting) -> Unit[Transaction]:
    """The transaction first posted under ``post.key``, if it has the same entries."""
    row = yield one(SELECT_TRANSACTION, key=post.key)
    if row[3] != post.fingerprint:
        raise IdempotencyConflict(
            "idempotency_conflict",
            f"key {post.key!r} was used for another transaction ({row[3]}), not {post.fingerprint}",
        )
    return (yield from load_transaction(ctx, row))


def load_transaction(ctx: Context, row: Sequence[Any]) -> Unit[Transaction]:
    """A transaction from its row (``SELECT_TRANSACTION``'s columns) and its entries."""
    entries = yield all_rows(SELECT_ENTRIES, id=row[0])
    return Transaction(
        id=row[0],
        key=row[1],
        kind=TransactionKind(row[2]),
        entries=tuple(
            LedgerEntry(Account.from_key(k), amount, after) for k, amount, after in entries
        ),
        memo=row[4],
        meta=None if row[5] is None else json.loads(row[5]),
        created_at=row[6],
    )


@dataclass(slots=True)
class Writes:
    """What a checked posting changes: each account's new balance, and the entries."""

    balances: dict[int, int]
    entries: list[tuple[int, int, int, int]]  # (transaction, account, amount, balance after)


def lock_and_check(
    ctx: Context, postings: Sequence[tuple[int, Posting]], ids: Mapping[str, int]
) -> Unit[tuple[list[tuple[int, ...]], Writes]]:
    """Lock the accounts of reserved postings and check every balance, in order.

    Every account of every posting is locked at once (in id order), so a
    group commit of several settlements takes its locks in one step. Returns
    each posting's balances after (in entry order) and what to write.
    """
    wanted = sorted({ids[key] for _, post in postings for key, _ in post.entries})
    if not wanted:
        return [() for _ in postings], Writes({}, [])
    rows = yield all_rows(LOCK_ACCOUNTS, ids=wanted)
    balance = {row[0]: row[1] for row in rows}
    may_go_negative = {row[0] for row in rows if row[2] in NEGATIVE_KINDS}
    entry_rows: list[tuple[int, int, int, int]] = []
    afters: list[tuple[int, ...]] = []
    for tx_id, post in postings:
        after: list[int] = []
        for key, amount in post.entries:
            account_id = ids[key]
            new = balance[account_id] + amount
            if new < 0 and account_id not in may_go_negative:
                raise InsufficientFunds(
                    "insufficient_funds",
                    f"{key} holds {balance[account_id]} chips: it cannot pay {-amount}",
                )
            if abs(new) > MAX_CHIPS:
                raise LedgerError(
                    "amount_too_large", f"{key} would hold more than {MAX_CHIPS} chips"
                )
            balance[account_id] = new
            after.append(new)
            entry_rows.append((tx_id, account_id, amount, new))
        afters.append(tuple(after))
    return afters, Writes(balance, entry_rows)


def write(ctx: Context, writes: Writes) -> Unit[None]:
    """Write new balances and entries (one statement on PostgreSQL, two on SQLite)."""
    if not writes.entries:
        return
    if ctx.dialect == "postgresql":
        yield one(WRITE_LEDGER_PG, **ledger_arrays(writes))
        return
    yield many(UPDATE_BALANCE, [{"id": i, "balance": b} for i, b in writes.balances.items()])
    yield many(
        INSERT_ENTRY,
        [{"tx": t, "account": a, "amount": m, "after": b} for t, a, m, b in writes.entries],
    )


def ledger_arrays(writes: Writes) -> dict[str, list[int]]:
    """The parameters of ``WRITE_LEDGER_PG`` (and of the settlement's statement)."""
    columns = list(zip(*writes.entries, strict=True)) or [(), (), (), ()]
    return {
        "ids": list(writes.balances),
        "balances": list(writes.balances.values()),
        "e_tx": list(columns[0]),
        "e_account": list(columns[1]),
        "e_amount": list(columns[2]),
        "e_after": list(columns[3]),
    }


def apply(
    ctx: Context, postings: Sequence[tuple[int, Posting]], ids: Mapping[str, int]
) -> Unit[list[tuple[int, ...]]]:
    """Lock, check and write reserved postings; each one's balances after."""
    afters, writes = yield from lock_and_check(ctx, postings, ids)
    yield from write(ctx, writes)
    return afters


def transaction_of(ctx: Context, tx_id: int, post: Posting, after: Sequence[int]) -> Transaction:
    """The :class:`Transaction` just posted."""
    return Transaction(
        id=tx_id,
        key=post.key,
        kind=post.kind,
        entries=tuple(
            LedgerEntry(account, amount, balance)
            for account, (_, amount), balance in zip(
                post.accounts, post.entries, after, strict=True
            )
        ),
        memo=post.memo,
        meta=None if post.meta is None else json.loads(post.meta),
        created_at=ctx.now,
    )


def post_unit(ctx: Context, post: Posting) -> Unit[Transaction]:
    """Post ``post`` (or return the transaction first posted under its key)."""
    ids = yield from account_ids(ctx, (key for key, _ in post.entries))
    tx_id = yield from reserve(ctx, post)
    if tx_id is None:
        return (yield from existing(ctx, post))
    (after,) = yield from apply(ctx, [(tx_id, post)], ids)
    return transaction_of(ctx, tx_id, post, after)
