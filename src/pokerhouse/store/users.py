"""Users, passwords and sessions.

Usernames are NFKC-normalised, 3 to 20 letters, digits, ``_`` or ``-``, and
unique case-insensitively (the database keys them by their case-folded form).
Passwords are hashed with argon2id off the event loop, a few at a time: each
hash takes 64 MiB. Sessions are random 256-bit tokens of which the database
keeps only the SHA-256.

>>> username_key("Ｊｕｌｉｅ_42")
('Julie_42', 'julie_42')
>>> username_key("no spaces")
Traceback (most recent call last):
...
pokerhouse.store.errors.AccountError: a username is 3 to 20 letters, digits, _ or -: 'no spaces'
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pokerhouse.store.accounts import ISSUER, Account, Transaction
from pokerhouse.store.errors import AccountError
from pokerhouse.store.ledger import account_ids, apply, post_unit, posting, reserve
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one, run

_MAX_PASSWORD = 1024
_MIN_PASSWORD = 8

#: How long a session lasts unless told otherwise (30 days).
SESSION_TTL = 30 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class User:
    """A player (or a bot) of the room."""

    id: int
    username: str
    is_bot: bool
    created_at: float
    #: A bot account, played through the API with a token (a house bot is a bot too,
    #: but the room plays it itself).
    api_bot: bool = False
    #: The player who created this bot account (``None``: the operator, or a person).
    owner_id: int | None = None


def username_key(name: object) -> tuple[str, str]:
    """``(username, key)``: the NFKC form to show and the case-folded form to compare."""
    if isinstance(name, str):
        shown = unicodedata.normalize("NFKC", name)
        if 3 <= len(shown) <= 20 and all(c.isalnum() or c in "_-" for c in shown):
            return shown, unicodedata.normalize("NFKC", shown.casefold())
    raise AccountError(
        "bad_username", f"a username is 3 to 20 letters, digits, _ or -: {name!r}"[:120]
    )


def check_password(password: object) -> str:
    """A password: text of 8 to 1024 characters."""
    if not isinstance(password, str) or not _MIN_PASSWORD <= len(password) <= _MAX_PASSWORD:
        raise AccountError(
            "bad_password",
            f"a password is text of {_MIN_PASSWORD} to {_MAX_PASSWORD} characters",
        )
    return password


def token_hash(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_hash_or_none(token: object) -> str | None:
    """:func:`token_hash` of a token of the shape a session's has; ``None`` for anything
    else (no such token was ever made: nothing to look up)."""
    if not isinstance(token, str) or not 10 <= len(token) <= 100:
        return None
    return token_hash(token)


def new_token() -> str:
    """A fresh session token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


#: Password hashes a store runs at once (each in a thread of its own, 64 MiB each).
HASHES_AT_ONCE = 2


class Passwords:
    """argon2id hashing in worker threads, at most ``limit`` at a time."""

    def __init__(self, hasher: PasswordHasher | None = None, limit: int = HASHES_AT_ONCE) -> None:
        self.hasher = hasher or PasswordHasher()
        self._slots = asyncio.Semaphore(limit)
        self._dummy: str | None = None

    async def hash(self, password: str) -> str:
        """A new hash of ``password``."""
        async with self._slots:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` matches ``stored``; with no stored hash (an unknown
        user, a bot) a dummy one is checked, so both take as long as a wrong password."""
        if stored is None:
            if self._dummy is None:
                self._dummy = await self.hash(secrets.token_hex(16))
            stored = self._dummy
            password = ""
        async with self._slots:
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerificationError, InvalidHashError):
                return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether ``stored`` was made with other parameters than the hasher's."""
        return self.hasher.check_needs_rehash(stored)


# ---------------------------------------------------------------- statements

# No conflict target: a taken key and a taken skeleton are both "taken".
INSERT_USER = Stmt(
    "INSERT INTO users (username, username_key, username_skeleton, password_hash, is_bot, "
    "created_at) VALUES (:username, :key, :skeleton, :hash, :bot, :now) "
    "ON CONFLICT DO NOTHING RETURNING id"
)
# One sign-up at a time per address on PostgreSQL (SQLite writes one at a time anyway), so
# two at once cannot both find the last free place under the limit.
LOCK_ADDRESS = Stmt("SELECT 1", postgresql="SELECT 1 FROM (SELECT pg_advisory_xact_lock(:lock)) l")
COUNT_REGISTRATIONS = Stmt(
    "SELECT count(*) FROM registrations WHERE address_hash = :address AND created_at > :since"
)
INSERT_REGISTRATION = Stmt(
    "INSERT INTO registrations (user_id, address_hash, created_at) "
    "VALUES (:user_id, :address, :now)"
)
# The top-ups of one person's wallets: their own and their bot accounts' (one hour's
# top-up is theirs to share, whichever account asks).
TOP_UPS = Stmt(
    "SELECT count(*), max(t.created_at) FROM ledger_entries e "
    "JOIN ledger_transactions t ON t.id = e.transaction_id "
    "JOIN ledger_accounts a ON a.id = e.account_id "
    "WHERE a.kind = 'wallet' AND t.kind = 'top-up' AND a.user_id IN "
    "(SELECT id FROM users WHERE id = :person OR owner_id = :person)"
)
PERSON_OF = Stmt("SELECT coalesce(owner_id, id) FROM users WHERE id = :id")
# One top-up at a time a person on PostgreSQL (SQLite writes one at a time anyway): two of
# their accounts asking at once cannot both find the hour free.
LOCK_PERSON = Stmt("SELECT 1", postgresql="SELECT 1 FROM (SELECT pg_advisory_xact_lock(:lock)) l")
INSERT_WALLET = Stmt(
    "INSERT INTO ledger_accounts (key, kind, user_id, balance) "
    "VALUES (:key, 'wallet', :user_id, 0) RETURNING id"
)
_USER_COLUMNS = "id, username, is_bot, created_at, password_hash, api_bot, owner_id"
SELECT_USER_BY_KEY = Stmt(f"SELECT {_USER_COLUMNS} FROM users WHERE username_key = :key")
SELECT_USER_BY_ID = Stmt(f"SELECT {_USER_COLUMNS} FROM users WHERE id = :id")
UPDATE_HASH = Stmt("UPDATE users SET password_hash = :new WHERE id = :id AND password_hash = :old")
INSERT_SESSION = Stmt(
    "INSERT INTO sessions (token_hash, user_id, created_at, expires_at) "
    "SELECT :hash, id, :now, :expires FROM users WHERE id = :user_id"
)
SELECT_SESSION_USER = Stmt(
    "SELECT u.id, u.username, u.is_bot, u.created_at, u.password_hash, u.api_bot, u.owner_id "
    "FROM sessions s JOIN users u ON u.id = s.user_id "
    "WHERE s.token_hash = :hash AND s.ended_at IS NULL AND s.expires_at > :now"
)
LIVE_SESSIONS = Stmt(
    "SELECT token_hash FROM sessions WHERE token_hash IN (SELECT value FROM json_each(:hashes)) "
    "AND ended_at IS NULL AND expires_at > :now",
    postgresql="SELECT token_hash FROM sessions WHERE token_hash = ANY(CAST(:hashes AS TEXT[])) "
    "AND ended_at IS NULL AND expires_at > :now",
)
END_SESSION = Stmt(
    "UPDATE sessions SET ended_at = :now WHERE token_hash = :hash AND ended_at IS NULL"
)


def user_of(row: Sequence[Any]) -> User:
    """A :class:`User` from a row of ``_USER_COLUMNS``."""
    owner = None if row[6] is None else int(row[6])
    return User(int(row[0]), row[1], bool(row[2]), float(row[3]), bool(row[5]), owner)


# ---------------------------------------------------------------- units


@dataclass(frozen=True, slots=True)
class SignUps:
    """New accounts from one address: at most ``per_hour`` in any hour (the address is
    kept as its SHA-256 only)."""

    address_hash: str
    per_hour: int

    @classmethod
    def of(cls, address: str, per_hour: int) -> SignUps:
        """The limit for sign-ups from ``address``."""
        return cls(hashlib.sha256(address.encode()).hexdigest(), per_hour)


def sign_ups_unit(ctx: Context, limit: SignUps) -> Unit[None]:
    """Refuse (``rate_limited``) when the address has had its sign-ups this hour."""
    row = yield one(COUNT_REGISTRATIONS, address=limit.address_hash, since=ctx.now - 3600.0)
    if int(row[0]) >= limit.per_hour:
        raise AccountError(
            "rate_limited",
            f"{limit.per_hour} new accounts an hour from one address: try later",
        )


def create_user_unit(
    ctx: Context,
    shown: str,
    key: str,
    skeleton: str,
    password_hash: str | None,
    bot: bool,
    grant: int,
    sign_ups: SignUps | None = None,
) -> Unit[User]:
    """Insert the user and their wallet, and post the grant from the issuer; with
    ``sign_ups``, only under the address's limit, and the sign-up recorded."""
    if sign_ups is not None:
        yield one(LOCK_ADDRESS, lock=int(sign_ups.address_hash[:15], 16))
        yield from sign_ups_unit(ctx, sign_ups)
    row = yield one(
        INSERT_USER,
        username=shown,
        key=key,
        skeleton=skeleton,
        hash=password_hash,
        bot=bot,
        now=ctx.now,
    )
    if row is None:
        raise AccountError(
            "username_taken", f"the username {shown!r}, or one that looks like it, is taken"
        )
    user_id = int(row[0])
    if sign_ups is not None:
        yield run(INSERT_REGISTRATION, user_id=user_id, address=sign_ups.address_hash, now=ctx.now)
    wallet = Account.wallet(user_id)
    wallet_row = yield one(INSERT_WALLET, key=wallet.key, user_id=user_id)
    ctx.new_ids[wallet.key] = int(wallet_row[0])
    if grant:
        ids = yield from account_ids(ctx, [ISSUER.key, wallet.key])
        grant_post = posting(
            f"grant:user:{user_id}", "grant", {ISSUER: -grant, wallet: grant}, memo="new account"
        )
        tx_id = yield from reserve(ctx, grant_post)
        assert tx_id is not None, "a new user's grant key is new"
        yield from apply(ctx, [(tx_id, grant_post)], ids)
    return User(user_id, shown, bot, ctx.now)


def top_up_unit(ctx: Context, user_id: int, amount: int, every: float) -> Unit[Transaction]:
    """Post a wallet's top-up, unless its person's last one was less than ``every`` seconds
    ago: a person and their bot accounts share one top-up an hour (a bot account's grants
    count with its owner's).

    The person's earlier top-ups are read from the ledger in the same transaction, and
    their count names this one (``wallet-top-up:<user>:<n>``): two top-ups asked at once
    both name the same transaction, which is posted once.
    """
    wallet = Account.wallet(user_id)
    yield from account_ids(ctx, [ISSUER.key, wallet.key])
    found = yield one(PERSON_OF, id=user_id)
    person = user_id if found is None else int(found[0])
    yield one(LOCK_PERSON, lock=-person)  # negative: apart from the owner's bot-making lock
    count, last = yield one(TOP_UPS, person=person)
    if last is not None and ctx.now - float(last) < every:
        wait = math.ceil(every - (ctx.now - float(last)))
        raise AccountError("rate_limited", f"one top-up an hour: the next in {wait} s")
    post = posting(
        f"wallet-top-up:{user_id}:{int(count) + 1}",
        "top-up",
        {ISSUER: -amount, wallet: amount},
        memo="play money",
    )
    return (yield from post_unit(ctx, post))


def user_row_unit(ctx: Context, key: str) -> Unit[Any]:
    """The user row (with password hash) for a username key, or ``None``."""
    return (yield one(SELECT_USER_BY_KEY, key=key))


def user_by_id_unit(ctx: Context, user_id: int) -> Unit[Any]:
    """The user row for an id, or ``None``."""
    return (yield one(SELECT_USER_BY_ID, id=user_id))


def rehash_unit(ctx: Context, user_id: int, old: str, new: str) -> Unit[int]:
    """Replace a password hash made with old parameters (unless it changed meanwhile)."""
    return int((yield run(UPDATE_HASH, id=user_id, old=old, new=new)))


def create_session_unit(ctx: Context, user_id: int, hashed: str, ttl: float) -> Unit[None]:
    """Store a session's token hash."""
    made = yield run(
        INSERT_SESSION, hash=hashed, user_id=user_id, now=ctx.now, expires=ctx.now + ttl
    )
    if not made:
        raise AccountError("unknown_user", f"there is no user {user_id}")


def session_user_unit(ctx: Context, hashed: str) -> Unit[Any]:
    """The user row of a live session, or ``None``."""
    return (yield one(SELECT_SESSION_USER, hash=hashed, now=ctx.now))


def live_sessions_unit(ctx: Context, hashes: list[str]) -> Unit[set[str]]:
    """Which of the sessions ``hashes`` are live (not ended, not expired)."""
    rows = yield all_rows(LIVE_SESSIONS, hashes=hashes, now=ctx.now)
    return {str(row[0]) for row in rows}


def end_session_unit(ctx: Context, hashed: str) -> Unit[int]:
    """End a session; how many ended (0 or 1)."""
    return int((yield run(END_SESSION, hash=hashed, now=ctx.now)))
