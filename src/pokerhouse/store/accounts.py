"""Ledger accounts and transactions as values: who holds chips, and what moved.

An :class:`Account` names a ledger account: a player's wallet, a player's
chips in play at one table (all their seats there together), the house
bankroll, the rake, a tournament's prize pool, the room's tournament fees,
the issuer that creates chips, or a tournament's own chips (these two alone
may go below zero).
Its :attr:`~Account.key` is the text the database keys it by.

>>> Account.wallet(7).key, Account.in_play(2, 7).key, Account.pool(3).key, HOUSE.key
('wallet:7', 'in-play:2:7', 'pool:3', 'house')
>>> Account.from_key("in-play:2:7") == Account.in_play(2, 7)
True
>>> TransactionKind("buy-in")
<TransactionKind.BUY_IN: 'buy-in'>
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pokerhouse.store.errors import LedgerError


class AccountKind(StrEnum):
    """The kinds of ledger account."""

    WALLET = "wallet"
    IN_PLAY = "in-play"
    HOUSE = "house"
    RAKE = "rake"
    ISSUER = "issuer"
    #: A tournament's prize pool.
    POOL = "pool"
    #: The room's tournament fees.
    FEES = "fees"
    #: Where a tournament's own chips come from and go back to (below zero, like the
    #: issuer: minus the tournament's chips at its tables).
    CHIPS = "chips"


class TransactionKind(StrEnum):
    """Why chips moved."""

    GRANT = "grant"
    BUY_IN = "buy-in"
    CASH_OUT = "cash-out"
    SETTLEMENT = "settlement"
    RAKE = "rake"
    TOP_UP = "top-up"
    #: A tournament's buy-in and fee.
    ENTRY = "entry"
    #: A tournament's buy-in or fee given back.
    REFUND = "refund"
    #: A tournament prize (or a cancelled tournament's share of its pool).
    PRIZE = "prize"
    #: Chips the room adds to a tournament's pool to make up its guarantee.
    OVERLAY = "overlay"


#: Accounts that may go below zero: they create what they pay out.
NEGATIVE_KINDS = frozenset({AccountKind.ISSUER, AccountKind.CHIPS})

#: Kinds only the store's own operations post (seats, hands and tournaments keep them
#: consistent with the table's seats, the hand logs and the tournament's entries).
RESERVED_KINDS = frozenset(
    {
        TransactionKind.BUY_IN,
        TransactionKind.CASH_OUT,
        TransactionKind.SETTLEMENT,
        TransactionKind.ENTRY,
        TransactionKind.REFUND,
        TransactionKind.PRIZE,
        TransactionKind.OVERLAY,
    }
)


@dataclass(frozen=True, slots=True)
class Account:
    """A ledger account; build one with :meth:`wallet`, :meth:`in_play` or use a constant."""

    kind: AccountKind
    user_id: int | None = None
    table_id: int | None = None
    tournament_id: int | None = None

    @staticmethod
    def wallet(user_id: int) -> Account:
        """A player's wallet."""
        return Account(AccountKind.WALLET, _id(user_id, "user"))

    @staticmethod
    def in_play(table_id: int, user_id: int) -> Account:
        """A player's chips at one table: the sum of their seats' stacks there."""
        return Account(AccountKind.IN_PLAY, _id(user_id, "user"), _id(table_id, "table"))

    @staticmethod
    def pool(tournament_id: int) -> Account:
        """A tournament's prize pool: the buy-ins (and any overlay) until the prizes are paid."""
        return Account(AccountKind.POOL, tournament_id=_id(tournament_id, "tournament"))

    @staticmethod
    def chips(tournament_id: int) -> Account:
        """A tournament's chips: what its players take to its tables and bring back."""
        return Account(AccountKind.CHIPS, tournament_id=_id(tournament_id, "tournament"))

    @property
    def key(self) -> str:
        """The account's key in the database."""
        if self.kind is AccountKind.WALLET:
            return f"wallet:{self.user_id}"
        if self.kind is AccountKind.IN_PLAY:
            return f"in-play:{self.table_id}:{self.user_id}"
        if self.kind in (AccountKind.POOL, AccountKind.CHIPS):
            return f"{self.kind.value}:{self.tournament_id}"
        return self.kind.value

    @staticmethod
    def from_key(key: str) -> Account:
        """The account of a database key."""
        parts = key.split(":")
        try:
            if parts[0] == "wallet" and len(parts) == 2:
                return Account.wallet(int(parts[1]))
            if parts[0] == "in-play" and len(parts) == 3:
                return Account.in_play(int(parts[1]), int(parts[2]))
            if parts[0] == "pool" and len(parts) == 2:
                return Account.pool(int(parts[1]))
            if parts[0] == "chips" and len(parts) == 2:
                return Account.chips(int(parts[1]))
            if len(parts) == 1 and parts[0] in ("house", "rake", "issuer", "fees"):
                return Account(AccountKind(parts[0]))
        except ValueError:
            pass
        raise LedgerError("bad_account", f"{key!r} is not an account key")

    def __str__(self) -> str:
        return self.key


ISSUER = Account(AccountKind.ISSUER)
HOUSE = Account(AccountKind.HOUSE)
RAKE = Account(AccountKind.RAKE)
FEES = Account(AccountKind.FEES)


def _id(value: object, what: str) -> int:
    if type(value) is not int or value < 1:
        raise LedgerError("bad_account", f"a {what} id is a whole number >= 1, not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One account's side of a transaction, and its balance right after."""

    account: Account
    amount: int
    balance_after: int


@dataclass(frozen=True, slots=True)
class Transaction:
    """A posted transaction: entries that sum to zero, under a unique key."""

    id: int
    key: str
    kind: TransactionKind
    entries: tuple[LedgerEntry, ...]
    memo: str
    meta: dict[str, Any] | None
    created_at: float

    def amount(self, account: Account) -> int:
        """What this transaction moved into ``account`` (negative: out of it)."""
        return sum(entry.amount for entry in self.entries if entry.account == account)


@dataclass(frozen=True, slots=True)
class StatementLine:
    """A line of a statement: one entry, with the account's running balance."""

    transaction_id: int
    key: str
    kind: TransactionKind
    memo: str
    created_at: float
    amount: int
    balance: int
    #: The ledger entry's id: the statement's order, and the cursor for older pages.
    entry_id: int


@dataclass(frozen=True, slots=True)
class Statement:
    """A player's wallet statement and what they hold at tables now."""

    user_id: int
    username: str
    lines: tuple[StatementLine, ...]
    wallet: int
    #: Room chips at each table (a tournament's table holds tournament chips: not here).
    in_play: dict[int, int]
    #: ``before`` for the next older page (the oldest line's entry id), or None: no older lines.
    older: int | None = None

    @property
    def total(self) -> int:
        """Wallet plus every table's chips."""
        return self.wallet + sum(self.in_play.values())
