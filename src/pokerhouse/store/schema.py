"""The database schema, as SQLAlchemy Core tables.

This metadata is what the Alembic migrations build and what ``db upgrade``
checks against; the statements in the other modules name these tables and
columns. Times are Unix seconds (``float``); chips are 64-bit integers; JSON
documents (specs, options, histories) are text the store encodes itself, so
both databases keep them byte for byte.

>>> sorted(metadata.tables)[:3]
['bot_standings', 'hand_actions', 'hand_decks']
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    UniqueConstraint,
    text,
)

from pokerhouse.history.figures import FIELDS

#: Constraint names that Alembic's batch mode (SQLite) can find again.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

#: Account kinds; only the issuer and a tournament's chips may go below zero.
ACCOUNT_KINDS = ("wallet", "in-play", "house", "rake", "issuer", "pool", "fees", "chips")

#: Transaction kinds.
TRANSACTION_KINDS = (
    "grant",
    "buy-in",
    "cash-out",
    "settlement",
    "rake",
    "top-up",
    "entry",
    "refund",
    "prize",
    "overlay",
)

#: Tournament states (the director's, pokerhouse.tournament.state).
TOURNAMENT_STATES = ("registering", "running", "finished", "cancelled")

#: Hand states.
HAND_STATES = ("running", "finished", "voided")


def _one_of(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


users = Table(
    "users",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("username", Text, nullable=False),
    # NFKC case-folded: unique case-insensitively, whatever the database's collation.
    Column("username_key", Text, nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("is_bot", Boolean, nullable=False, server_default=text("false")),
    Column("created_at", Float, nullable=False),
    # What the name looks like (store/names.py): a look-alike of a taken name is taken too.
    # NULL only for an account older than the rule whose look-alike came first.
    Column("username_skeleton", Text, nullable=True, unique=True),
    # A bot account played through the API with a token (RULES.md, "Bots and bot
    # accounts"): a bot (is_bot) the room never seats itself, unlike its house bots.
    Column("api_bot", Boolean, nullable=False, server_default=text("false")),
    # Who created the bot account (NULL: the room's operator, or not a bot account).
    Column("owner_id", ForeignKey("users.id"), nullable=True, index=True),
)

# Who signed up from where, to limit new accounts per address (the address's SHA-256:
# the database keeps no address in plain sight).
registrations = Table(
    "registrations",
    metadata,
    Column("user_id", ForeignKey("users.id"), primary_key=True),
    Column("address_hash", Text, nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_registrations_address", "address_hash", "created_at"),
)

sessions = Table(
    "sessions",
    metadata,
    # SHA-256 of the token, hex: the token itself is never stored.
    Column("token_hash", Text, primary_key=True),
    Column("user_id", ForeignKey("users.id"), nullable=False, index=True),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
)

room_tables = Table(
    "room_tables",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    # Unique among the room's own tables; a private table's name is its host's to choose
    # (and tells a stranger nothing): uq_room_tables_public_name below.
    Column("name", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("options", Text, nullable=False),
    Column("seats", Integer, nullable=False),
    Column("min_buy_in", BigInteger, nullable=False),
    Column("max_buy_in", BigInteger, nullable=False),
    Column("rake_bps", Integer, nullable=False),
    Column("rake_cap", BigInteger, nullable=False),
    Column("max_boxes", Integer, nullable=False),
    Column("bots", Integer, nullable=False),
    Column("bot_kind", Text, nullable=False),
    Column("decision_seconds", Float, nullable=False),
    Column("time_bank_seconds", Float, nullable=False),
    Column("lease_owner", Text, nullable=True),
    # The fencing token: raised by one at every lease; every table write names it.
    Column("lease_token", BigInteger, nullable=False, server_default=text("0")),
    # When the lease lapses unless its holder renews it (Unix seconds; NULL: never leased).
    Column("lease_expires", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    # A tournament's table: the tournament, and the table's number in it (NULL: a cash table).
    Column("tournament_id", ForeignKey("tournaments.id"), nullable=True),
    Column("tournament_table", Integer, nullable=True),
    # A table for people only (bot accounts refused) or for bots only (people refused).
    Column("people_only", Boolean, nullable=False, server_default=text("false")),
    Column("bots_only", Boolean, nullable=False, server_default=text("false")),
    Column("bot_chat", Boolean, nullable=False, server_default=text("true")),
    # A private table (a home game): its host, its invitation (a token's hash), its
    # password's hash (argon2), whether the host approves each seat, whether it is
    # paused between hands, and when its host closed it.
    Column("host_id", ForeignKey("users.id"), nullable=True),
    Column("invite_hash", Text, nullable=True, unique=True),
    Column("password_hash", Text, nullable=True),
    Column("approve_seats", Boolean, nullable=False, server_default=text("false")),
    Column("paused", Boolean, nullable=False, server_default=text("false")),
    Column("closed_at", Float, nullable=True),
    CheckConstraint("min_buy_in >= 1 AND max_buy_in >= min_buy_in", name="buy_in"),
    CheckConstraint(
        "(tournament_id IS NULL) = (tournament_table IS NULL)", name="tournament_table"
    ),
    UniqueConstraint("tournament_id", "tournament_table"),
    Index(
        "uq_room_tables_public_name",
        "name",
        unique=True,
        sqlite_where=text("host_id IS NULL"),
        postgresql_where=text("host_id IS NULL"),
    ),
)

ledger_accounts = Table(
    "ledger_accounts",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    # "wallet:<user>", "in-play:<table>:<user>", "pool:<tournament>", "chips:<tournament>",
    # "house", "rake", "fees", "issuer".
    Column("key", Text, nullable=False, unique=True),
    Column("kind", Text, nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=True),
    Column("table_id", ForeignKey("room_tables.id"), nullable=True),
    # Kept with the entries in the same transaction: O(1) balance reads.
    Column("balance", BigInteger, nullable=False, server_default=text("0")),
    CheckConstraint(_one_of("kind", ACCOUNT_KINDS), name="kind"),
    # The database refuses an overdraft even if a bug in the store did not.
    CheckConstraint("balance >= 0 OR kind IN ('issuer', 'chips')", name="not_negative"),
)

ledger_transactions = Table(
    "ledger_transactions",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("key", Text, nullable=False, unique=True),
    Column("kind", Text, nullable=False),
    # Kind and sorted entries: how a repeated key is told from a conflicting one.
    Column("fingerprint", Text, nullable=False),
    Column("memo", Text, nullable=False),
    Column("meta", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    CheckConstraint(_one_of("kind", TRANSACTION_KINDS), name="kind"),
)

ledger_entries = Table(
    "ledger_entries",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("transaction_id", ForeignKey("ledger_transactions.id"), nullable=False, index=True),
    Column("account_id", ForeignKey("ledger_accounts.id"), nullable=False),
    Column("amount", BigInteger, nullable=False),
    # The account's balance after this entry: a chain that ledger check follows.
    Column("balance_after", BigInteger, nullable=False),
    CheckConstraint("amount <> 0", name="amount"),
    Index("ix_ledger_entries_account", "account_id", "id"),
)

table_seats = Table(
    "table_seats",
    metadata,
    Column("table_id", ForeignKey("room_tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("stack", BigInteger, nullable=False),
    Column("sat_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
    CheckConstraint("stack >= 0", name="stack"),
    Index("ix_table_seats_user", "table_id", "user_id"),
    Index("ix_table_seats_user_id", "user_id"),
)

hands = Table(
    "hands",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("table_id", ForeignKey("room_tables.id"), nullable=False),
    Column("number", BigInteger, nullable=False),
    Column("game", Text, nullable=False),
    Column("spec", Text, nullable=False),
    Column("setup", Text, nullable=False),
    Column("start_seq", BigInteger, nullable=False),
    Column("status", Text, nullable=False),
    # How many actions are logged: an append names the next one or is refused.
    Column("next_seq", Integer, nullable=False, server_default=text("0")),
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("rake", BigInteger, nullable=True),
    Column("house_result", BigInteger, nullable=True),
    Column("history", Text, nullable=True),
    Column("void_reason", Text, nullable=True),
    Column("settlement_id", ForeignKey("ledger_transactions.id"), nullable=True),
    UniqueConstraint("table_id", "number"),
    CheckConstraint(_one_of("status", HAND_STATES), name="status"),
    # One running hand per table at most.
    Index(
        "ix_hands_running",
        "table_id",
        unique=True,
        sqlite_where=text("status = 'running'"),
        postgresql_where=text("status = 'running'"),
    ),
)

# The deck order lives in a table of its own that no read model selects: it
# never leaves the server (RULES.md, "Information, live").
hand_decks = Table(
    "hand_decks",
    metadata,
    Column("hand_id", ForeignKey("hands.id"), primary_key=True),
    Column("deck_order", Text, nullable=False),
    Column("deck_seed", BigInteger, nullable=False),
)

hand_players = Table(
    "hand_players",
    metadata,
    Column("hand_id", ForeignKey("hands.id"), nullable=False),
    Column("hand_seat", Integer, nullable=False),
    Column("table_seat", Integer, nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("stack", BigInteger, nullable=False),
    Column("result", BigInteger, nullable=True),
    PrimaryKeyConstraint("hand_id", "hand_seat"),
    Index("ix_hand_players_user", "user_id", "hand_id"),
)

hand_actions = Table(
    "hand_actions",
    metadata,
    Column("hand_id", ForeignKey("hands.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("kind", Text, nullable=False),
    Column("amount", BigInteger, nullable=True),
    # Who took the action, and the client's own id for it (NULL: the room acted).
    Column("user_id", BigInteger, nullable=True),
    Column("client_id", Text, nullable=True),
    PrimaryKeyConstraint("hand_id", "seq"),
    Index(
        "ix_hand_actions_client",
        "hand_id",
        "user_id",
        "client_id",
        unique=True,
        sqlite_where=text("client_id IS NOT NULL"),
        postgresql_where=text("client_id IS NOT NULL"),
    ),
    sqlite_with_rowid=False,
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("name", Text, nullable=False),
    Column("game", Text, nullable=False),
    # The TournamentSpec as JSON; buy-in and fee again as columns, for ledger check.
    Column("spec", Text, nullable=False),
    Column("buy_in", BigInteger, nullable=False),
    Column("fee", BigInteger, nullable=False),
    Column("status", Text, nullable=False),
    # The director's state as JSON, and how many steps made it: a step names the
    # version it follows and is refused if another step came first.
    Column("state", Text, nullable=False),
    Column("version", BigInteger, nullable=False, server_default=text("0")),
    # Chips the room added to the pool to make up its guarantee.
    Column("overlay", BigInteger, nullable=False, server_default=text("0")),
    Column("starts_at", Float, nullable=True),
    Column("lease_owner", Text, nullable=True),
    Column("lease_token", BigInteger, nullable=False, server_default=text("0")),
    Column("lease_expires", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    CheckConstraint(_one_of("status", TOURNAMENT_STATES), name="status"),
    CheckConstraint("buy_in >= 0 AND fee >= 0 AND overlay >= 0", name="money"),
    Index("ix_tournaments_status", "status", "id"),
)

# One row an entry (a buy-in; a re-entry is another): what it paid, got back and won.
tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", ForeignKey("tournaments.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("registered_at", Float, nullable=False),
    Column("paid", BigInteger, nullable=False),
    Column("refunded", BigInteger, nullable=False, server_default=text("0")),
    Column("place", Integer, nullable=True),
    Column("tied", Integer, nullable=True),
    Column("prize", BigInteger, nullable=False, server_default=text("0")),
    PrimaryKeyConstraint("tournament_id", "number"),
    CheckConstraint("paid >= 0 AND refunded >= 0 AND prize >= 0", name="money"),
    Index("ix_tournament_entries_user", "user_id", "tournament_id"),
)

#: A guest's standing at a private table: asked to sit (the host approves seats),
#: approved, or removed by the host.
MEMBER_STATES = ("asked", "approved", "removed")

# Who came to a private table by its invitation, and their standing there.
table_members = Table(
    "table_members",
    metadata,
    Column("table_id", ForeignKey("room_tables.id"), nullable=False),
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("status", Text, nullable=False),
    Column("joined_at", Float, nullable=False),
    Column("changed_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "user_id"),
    CheckConstraint(_one_of("status", MEMBER_STATES), name="status"),
    Index("ix_table_members_user", "user_id"),
)

#: Where a hand was played, for its player's statistics (leaderboards count public play only).
VENUES = ("public", "private", "tournament")

# Each player's play figures per game, venue and week (the Monday, UTC, as
# YYYY-MM-DD), summed as hands settle: stats pages and leaderboards read these
# rows, never the hands. The counters are pokerhouse.history.figures'.
player_stats = Table(
    "player_stats",
    metadata,
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("venue", Text, nullable=False),
    Column("week", Text, nullable=False),
    Column("hands", BigInteger, nullable=False),
    Column("net", BigInteger, nullable=False),
    *(Column(name, BigInteger, nullable=False, server_default=text("0")) for name in FIELDS),
    PrimaryKeyConstraint("user_id", "game", "venue", "week"),
    CheckConstraint(_one_of("venue", VENUES), name="venue"),
    Index("ix_player_stats_board", "game", "venue", "week"),
)

# Each bot's results at a game's tables for bots only, summed as hands settle: the
# bots' leaderboard reads these rows, never the hands (squares: for the interval).
bot_standings = Table(
    "bot_standings",
    metadata,
    Column("user_id", ForeignKey("users.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("hands", BigInteger, nullable=False),
    Column("net", BigInteger, nullable=False),
    Column("squares", Float, nullable=False),
    PrimaryKeyConstraint("user_id", "game"),
)

#: Tables whose rows are never updated or deleted (triggers refuse it).
APPEND_ONLY = ("ledger_transactions", "ledger_entries", "hand_actions", "hand_decks")

#: The accounts every database starts with.
SYSTEM_ACCOUNTS = ("issuer", "house", "rake", "fees")
