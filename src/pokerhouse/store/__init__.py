"""The room's books: accounts, sessions, a double-entry chip ledger, hand logs, tables.

One async :class:`Store` over SQLAlchemy 2 (aiosqlite by default, asyncpg by
URL). See ``docs/store.md`` for the schema, the ledger's accounts and kinds,
its invariants and how to point the room at PostgreSQL.

>>> from pokerhouse.store import Account, database_url
>>> Account.wallet(3).key, database_url("postgresql://room@db/room")
('wallet:3', 'postgresql+asyncpg://room@db/room')
"""

from pokerhouse.store.accounts import (
    FEES,
    HOUSE,
    ISSUER,
    RAKE,
    Account,
    AccountKind,
    LedgerEntry,
    Statement,
    StatementLine,
    Transaction,
    TransactionKind,
)
from pokerhouse.store.check import CheckReport
from pokerhouse.store.errors import (
    AccountError,
    DamagedLog,
    DatabaseError,
    HandLogError,
    IdempotencyConflict,
    InsufficientFunds,
    LedgerError,
    StaleLease,
    StoreError,
    TableBookError,
    TournamentBookError,
)
from pokerhouse.store.hand_book import HandBook
from pokerhouse.store.handlog import (
    ActionRecord,
    Batch,
    BatchResult,
    HandFinish,
    HandLog,
    HandSeat,
    HandStart,
    HandSummary,
    HandVoid,
    LoggedAction,
    SeatIn,
    SeatOut,
    StoredHand,
)
from pokerhouse.store.hands import settlement_key
from pokerhouse.store.ledger_book import LedgerBook
from pokerhouse.store.rebuild import deal_again, rebuild_hand
from pokerhouse.store.seats import SeatChange, SeatRecord
from pokerhouse.store.store import Store
from pokerhouse.store.table_book import TableBook
from pokerhouse.store.tables import TableConfig, TableDef, TableLease
from pokerhouse.store.tournament_book import TournamentBook
from pokerhouse.store.tournaments import EntryRecord, TournamentRecord
from pokerhouse.store.urls import database_url
from pokerhouse.store.user_book import UserBook
from pokerhouse.store.users import User

__all__ = [
    "FEES",
    "HOUSE",
    "ISSUER",
    "RAKE",
    "Account",
    "AccountError",
    "AccountKind",
    "ActionRecord",
    "Batch",
    "BatchResult",
    "CheckReport",
    "DamagedLog",
    "DatabaseError",
    "EntryRecord",
    "HandBook",
    "HandFinish",
    "HandLog",
    "HandLogError",
    "HandSeat",
    "HandStart",
    "HandSummary",
    "HandVoid",
    "IdempotencyConflict",
    "InsufficientFunds",
    "LedgerBook",
    "LedgerEntry",
    "LedgerError",
    "LoggedAction",
    "SeatChange",
    "SeatIn",
    "SeatOut",
    "SeatRecord",
    "StaleLease",
    "Statement",
    "StatementLine",
    "Store",
    "StoreError",
    "StoredHand",
    "TableBook",
    "TableBookError",
    "TableConfig",
    "TableDef",
    "TableLease",
    "TournamentBook",
    "TournamentBookError",
    "TournamentRecord",
    "Transaction",
    "TransactionKind",
    "User",
    "UserBook",
    "database_url",
    "deal_again",
    "rebuild_hand",
    "settlement_key",
]
