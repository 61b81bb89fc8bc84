"""The :class:`Store`: the room's books behind one async object.

Every method checks its input in full first (a typed error, nothing
written), then runs one unit of work in one database transaction.

>>> import asyncio, tempfile
>>> from pokerhouse.store import Account, Store
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann = await store.create_user("Ann", None, bot=True, grant=500)
...         table = await store.create_table(TableConfig("Razz 1", "razz"))
...         change = await store.buy_in(table.id, 0, ann, 100)
...         return await store.balance(Account.wallet(ann.id)), change.seat.stack
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(400, 100)
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from types import TracebackType
from typing import Any

from argon2 import PasswordHasher

from pokerhouse.store import hands as hand_units
from pokerhouse.store import names, reports, seats, tables, users
from pokerhouse.store.accounts import HOUSE, ISSUER, Account, Statement, Transaction
from pokerhouse.store.arguments import (
    check_before,
    lease_owner,
    lease_seconds,
    seat_in,
    user_id_of,
    whole,
)
from pokerhouse.store.bot_accounts import BotBook
from pokerhouse.store.check import CheckReport, check_unit
from pokerhouse.store.database import Database
from pokerhouse.store.errors import AccountError, TableBookError
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
    SeatIn,
    SeatOut,
    StoredHand,
)
from pokerhouse.store.ledger import check_amount, post_unit, posting
from pokerhouse.store.private_tables import PrivateBook
from pokerhouse.store.seats import SeatChange, SeatRecord
from pokerhouse.store.sql import Context, Unit
from pokerhouse.store.stats import StatsBook
from pokerhouse.store.tables import TableConfig, TableDef, TableLease
from pokerhouse.store.tournament_book import TournamentBook
from pokerhouse.store.urls import database_url, parse_url, redacted
from pokerhouse.store.users import User

#: Rows (hand starts, actions, finishes, voids) beyond which a SQLite batch is written in
#: the writer's thread, off the event loop; up to it, on the loop (a hop costs as much).
HEAVY_BATCH = 64

#: How long ``ledger check`` may take on PostgreSQL. It reads every entry and hand in one
#: snapshot, which on a large or busy database takes longer than any call of the room.
CHECK_SECONDS = 3600.0


class Store:
    """The room's books: users and sessions, the chip ledger, seats, hand logs, tables.

    Open one with :meth:`open`; close it with :meth:`close` (or ``async with``).
    """

    def __init__(self, db: Database, passwords: users.Passwords) -> None:
        self._db = db
        self._passwords = passwords
        #: Tournaments: their state, entries and money.
        self.tournaments = TournamentBook(db)
        self.bots = BotBook(db)
        self.stats = StatsBook(db)  # players' statistics and the weekly leaderboards
        self.private = PrivateBook(db, passwords)  # private tables: invitations, guests

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        clock: Callable[[], float] = time.time,
        upgrade: bool | None = None,
        password_hasher: PasswordHasher | None = None,
        hash_concurrency: int = users.HASHES_AT_ONCE,
        pool_size: int = 10,
        sqlite_synchronous: str = "NORMAL",
        deadline: float = 10.0,
    ) -> Store:
        """Open the database at ``url`` (default: ``POKERHOUSE_DATABASE_URL``, else
        ``var/pokerhouse.db``).

        SQLite files are created and migrated on first use; a PostgreSQL
        database must be at the current revision (``pokerhouse db upgrade``),
        unless ``upgrade=True``. ``clock`` gives the time (session expiry,
        timestamps); ``password_hasher`` replaces argon2-cffi's default
        parameters (time cost 3, 64 MiB); at most ``hash_concurrency`` hashes
        run at once. ``deadline``: seconds any one database call may take
        (waiting for SQLite's write lock, connecting to or running a unit on
        PostgreSQL) before it fails with :class:`DatabaseError`.
        """
        db = await Database.open(
            parse_url(database_url(url)),
            clock=clock,
            upgrade=upgrade,
            pool_size=pool_size,
            sqlite_synchronous=sqlite_synchronous,
            deadline=deadline,
        )
        return cls(db, users.Passwords(password_hasher, hash_concurrency))

    async def close(self) -> None:
        """Close every connection."""
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._db.dialect

    @property
    def url(self) -> str:
        """The database URL, password hidden."""
        return redacted(self._db.url)

    @property
    def database(self) -> Database:
        """The underlying :class:`Database` (for tools and tests)."""
        return self._db

    # ------------------------------------------------------------ users and sessions

    async def create_user(
        self,
        username: str,
        password: str | None,
        *,
        bot: bool = False,
        grant: int = 10_000,
        address: str | None = None,
        per_hour: int = 30,
    ) -> User:
        """A new user with a wallet holding ``grant`` chips (a ``grant`` transaction from
        the issuer). Bots may have no password (they never log in).

        The name must be one a new account may take (:mod:`pokerhouse.store.names`:
        one script, nothing invisible, no bot's name for a person: ``bad_username``)
        and must not look like a taken one (``username_taken``). With ``address`` (a
        sign-up from the web), at most ``per_hour`` accounts an hour come from it
        (``rate_limited``), counted in the database with the sign-up itself.
        """
        if type(bot) is not bool:
            raise AccountError("bad_user", f"bot is True or False, not {bot!r}")
        shown, key, skeleton = names.new_username(username, bot=bot)
        if not (type(grant) is int and grant == 0):
            check_amount(grant, "grant")
        if password is None and not bot:
            raise AccountError("bad_password", "a player needs a password")
        sign_ups = None
        if address is not None:
            if type(per_hour) is not int or per_hour < 1:
                raise AccountError("bad_limit", f"per_hour is an integer >= 1, not {per_hour!r}")
            sign_ups = users.SignUps.of(address, per_hour)
            limit = sign_ups
            # Checked before the costly hash too; the write checks it again, atomically.
            await self._db.read(lambda ctx: users.sign_ups_unit(ctx, limit))
        hashed = (
            None if password is None else await self._passwords.hash(users.check_password(password))
        )
        return await self._db.write(
            lambda ctx: users.create_user_unit(
                ctx, shown, key, skeleton, hashed, bot, grant, sign_ups
            )
        )

    async def authenticate(self, username: str, password: str) -> User:
        """The user whose name and password these are; ``login_failed`` for an unknown
        user and a wrong password alike. A hash made with older parameters is redone."""
        try:
            _, key = users.username_key(username)
        except AccountError:
            key = None
        row = (
            None if key is None else await self._db.read(lambda ctx: users.user_row_unit(ctx, key))
        )
        stored = None if row is None else row[4]
        if not isinstance(password, str) or len(password) > 1024:
            password = ""
        if not await self._passwords.verify(stored, password) or row is None or stored is None:
            raise AccountError("login_failed", "unknown user or wrong password")
        if self._passwords.needs_rehash(stored):
            new = await self._passwords.hash(password)
            await self._db.write(lambda ctx: users.rehash_unit(ctx, int(row[0]), stored, new))
        return users.user_of(row)

    async def get_user(self, user: int | str) -> User:
        """A user by id or username; ``unknown_user`` if there is none."""
        if isinstance(user, str):
            _, key = users.username_key(user)
            row = await self._db.read(lambda ctx: users.user_row_unit(ctx, key))
        elif type(user) is int:
            row = await self._db.read(lambda ctx: users.user_by_id_unit(ctx, user))
        else:
            raise AccountError("unknown_user", f"a user is an id or a username, not {user!r}")
        if row is None:
            raise AccountError("unknown_user", f"there is no user {user!r}")
        return users.user_of(row)

    async def create_session(self, user: User | int, *, ttl: float = users.SESSION_TTL) -> str:
        """A new session token for ``user`` (the database keeps only its hash)."""
        user_id = user_id_of(user)
        if type(ttl) not in (int, float) or not 0 < ttl <= 366 * 24 * 3600:
            raise AccountError("bad_ttl", f"a session lasts up to a year, not {ttl!r} s")
        token = users.new_token()
        hashed = users.token_hash(token)
        await self._db.write(lambda ctx: users.create_session_unit(ctx, user_id, hashed, ttl))
        return token

    async def user_for_session(self, token: str) -> User | None:
        """The user of a live session, or ``None`` (unknown, expired or ended)."""
        if (hashed := users.token_hash_or_none(token)) is None:
            return None
        row = await self._db.read(lambda ctx: users.session_user_unit(ctx, hashed))
        return None if row is None else users.user_of(row)

    async def end_session(self, token: str) -> bool:
        """Log out: whether a live session ended."""
        if (hashed := users.token_hash_or_none(token)) is None:
            return False
        return await self._db.write(lambda ctx: users.end_session_unit(ctx, hashed)) > 0

    async def live_sessions(self, hashes: Sequence[str]) -> set[str]:
        """Which of the sessions ``hashes`` (tokens' hashes) are live: not ended or expired."""
        return await self._db.read(lambda ctx: users.live_sessions_unit(ctx, sorted(set(hashes))))

    # ------------------------------------------------------------ ledger

    async def post(
        self,
        key: str,
        kind: str,
        entries: Mapping[Account, int],
        *,
        memo: str = "",
        meta: Mapping[str, Any] | None = None,
    ) -> Transaction:
        """Post a balanced transaction under an idempotency key.

        The same key with the same kind and entries returns the first
        transaction and posts nothing; with others it is an
        ``idempotency_conflict``. Buy-ins, cash-outs and settlements (and any
        entry on an in-play account) go through the seat and hand methods.
        """
        post = posting(key, kind, entries, memo=memo, meta=meta)
        return await self._db.write(lambda ctx: post_unit(ctx, post))

    async def balance(self, account: Account) -> int:
        """An account's balance."""
        if not isinstance(account, Account):
            raise AccountError("bad_account", f"{account!r} is not an Account")
        return await self._db.read(lambda ctx: reports.balance_unit(ctx, account))

    async def top_up(
        self, user: User | int, amount: int, *, key: str, memo: str = ""
    ) -> Transaction:
        """New chips from the issuer into a wallet (kind ``top-up``)."""
        wallet = Account.wallet(user_id_of(user))
        return await self.post(
            key, "top-up", {ISSUER: -check_amount(amount, "top-up"), wallet: amount}, memo=memo
        )

    async def top_up_wallet(
        self, user: User | int, amount: int, *, every: float = 3600.0
    ) -> Transaction:
        """A player's play-money top-up (kind ``top-up``), at most one every ``every``
        seconds: ``rate_limited`` sooner. The last top-up is read from the ledger in the
        same transaction, so the limit holds across restarts and nodes, and two asked at
        once are one transaction (its key counts the wallet's earlier top-ups)."""
        user_id = user_id_of(user)
        check_amount(amount, "top-up")
        if type(every) not in (int, float) or not every >= 0:
            raise AccountError("bad_limit", f"every is a number of seconds >= 0, not {every!r}")
        return await self._db.write(lambda ctx: users.top_up_unit(ctx, user_id, amount, every))

    async def fund_house(self, amount: int, *, key: str, memo: str = "") -> Transaction:
        """New chips from the issuer into the house bankroll (kind ``top-up``)."""
        return await self.post(
            key, "top-up", {ISSUER: -check_amount(amount, "funding"), HOUSE: amount}, memo=memo
        )

    async def ledger_statement(
        self, user: User | int | str, *, limit: int = 100, before: int | None = None
    ) -> Statement:
        """The wallet's last ``limit`` entries with running balances, and chips at tables.

        ``before`` (an entry id: a page's ``older``) asks for the entries older
        than it, so a client pages back through the whole statement.
        """
        found = user if isinstance(user, User) else await self.get_user(user)
        if type(limit) is not int or not 1 <= limit <= 100_000:
            raise AccountError("bad_limit", f"a limit is 1 to 100000 lines, not {limit!r}")
        check_before(before)
        return await self._db.read(
            lambda ctx: reports.statement_unit(ctx, found.id, found.username, limit, before)
        )

    async def check(self) -> CheckReport:
        """Run ``ledger check``: every invariant, in one snapshot (bounded by
        ``CHECK_SECONDS``, not the room's deadline: the audit reads every entry)."""
        return await self._db.read(check_unit, deadline=CHECK_SECONDS)

    # ------------------------------------------------------------ tables and seats

    async def create_table(self, config: TableConfig) -> TableDef:
        """Store a table definition (checked in full)."""
        checked = config.checked()
        return await self._db.write(lambda ctx: tables.create_table_unit(ctx, checked))

    async def create_first_tables(
        self, configs: Sequence[TableConfig]
    ) -> tuple[list[TableDef], bool]:
        """Every table, creating ``configs`` first if there is none: and whether this call
        created them. Rooms starting together on one empty database create them once."""
        checked = [config.checked() for config in configs]
        return await self._db.write(lambda ctx: tables.create_first_tables_unit(ctx, checked))

    async def list_tables(self) -> list[TableDef]:
        """Every table, oldest first."""
        return await self._db.read(tables.list_tables_unit)

    async def get_table(self, table_id: int) -> TableDef:
        """One table; ``unknown_table`` if there is none."""
        return await self._db.read(lambda ctx: tables.get_table_unit(ctx, table_id))

    async def set_bot_chat(self, table_id: int, on: bool) -> TableDef:
        """The house bots' chat at ``table_id`` on or off (``unknown_table``: no table)."""
        return await self._db.write(lambda ctx: tables.set_bot_chat_unit(ctx, table_id, on))

    async def acquire_table(
        self, table_id: int, owner: str, *, seconds: float = 10.0, reclaim: bool = True
    ) -> int:
        """Lease ``table_id`` to ``owner`` for ``seconds``: a fencing token larger than any
        before. The lease is taken only when it is free, expired or ``owner``'s already
        (``lease_held`` otherwise, naming the holder); with ``reclaim`` false, never
        while it runs, ``owner``'s own included (a node taking over a table another
        process of the same name may still run). Every table write must carry the
        token (``lease=``); one that carries another is refused with ``stale_lease``.
        The holder keeps it with :meth:`renew_leases`."""
        owner = lease_owner(owner)
        lease_seconds(seconds)
        whole(table_id, 0)
        return await self._db.write(
            lambda ctx: tables.acquire_unit(ctx, table_id, owner, seconds, bool(reclaim))
        )

    async def table_leases(self) -> dict[int, TableLease]:
        """Every table's lease by table id: who holds it, its token, when it lapses, and
        whether it is free to take now (by the store's clock)."""
        found = await self._db.read(tables.leases_unit)
        return {lease.table_id: lease for lease in found}

    async def renew_leases(
        self, owner: str, leases: Mapping[int, int], *, seconds: float = 10.0
    ) -> set[int]:
        """Extend ``owner``'s leases ``{table_id: token}`` by ``seconds`` from now; the
        tables whose lease it still held (a table missing from the answer is lost)."""
        owner = lease_owner(owner)
        lease_seconds(seconds)
        held = {}
        for table_id, token in leases.items():
            whole(table_id, 0)
            if type(token) is not int or token < 1:
                raise TableBookError("bad_lease", f"a lease token is an int >= 1: {token!r}")
            held[table_id] = token
        if not held:
            return set()
        return await self._db.write(lambda ctx: tables.renew_unit(ctx, owner, held, seconds))

    async def release_table(self, table_id: int, owner: str, token: int) -> bool:
        """Give a lease up (the room stops): whether ``owner`` still held it with ``token``."""
        owner = lease_owner(owner)
        whole(table_id, 0)
        return await self._db.write(lambda ctx: tables.release_unit(ctx, table_id, owner, token))

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """The occupied seats of a table."""
        return await self._db.read(lambda ctx: seats.seats_unit(ctx, table_id))

    async def user_seats(self, user: User) -> list[SeatRecord]:
        """Every seat ``user`` holds, at every table (stacks as of the last hand settled)."""
        return await self._db.read(lambda ctx: seats.user_seats_unit(ctx, user.id))

    async def buy_in(
        self,
        table_id: int,
        seat: int,
        user: User | int,
        amount: int,
        *,
        key: str | None = None,
        lease: int | None = None,
    ) -> SeatChange:
        """Sit ``user`` in ``seat`` with ``amount`` chips from their wallet (``buy-in``).

        ``key`` makes a retry safe; without one the buy-in gets a fresh key.
        ``lease`` is the table's fencing token (required once the table is leased).
        """
        move = seat_in(table_id, seat, user, amount, key, lease, "buy-in", add=False)
        return await self._seat_move(move, lambda ctx: seats.seat_in_unit(ctx, move))

    async def add_chips(
        self,
        table_id: int,
        seat: int,
        user: User | int,
        amount: int,
        *,
        key: str | None = None,
        lease: int | None = None,
    ) -> SeatChange:
        """Add ``amount`` chips from the wallet to a seat between hands (``buy-in``)."""
        move = seat_in(table_id, seat, user, amount, key, lease, "add-chips", add=True)
        return await self._seat_move(move, lambda ctx: seats.seat_in_unit(ctx, move))

    async def cash_out(
        self,
        table_id: int,
        seat: int,
        user: User | int,
        *,
        key: str | None = None,
        lease: int | None = None,
    ) -> SeatChange:
        """Stand ``user`` up from ``seat``; the stack goes back to the wallet (``cash-out``)."""
        user_id = user_id_of(user)
        whole(table_id, seat)
        held = {record.seat: record for record in await self.seats(table_id)}.get(seat)
        # Whatever the seat holds goes; a repeated key finds its first cash-out.
        chips = held.stack if held is not None and held.user_id == user_id else 0
        move = SeatOut(
            table_id, seat, user_id, chips, key or f"cash-out:{uuid.uuid4().hex}", lease
        ).checked()
        return await self._seat_move(move, lambda ctx: seats.seat_out_unit(ctx, move))

    async def _seat_move(
        self, move: SeatIn | SeatOut, unit: Callable[[Context], Unit[SeatChange]]
    ) -> SeatChange:
        """One seat move in a transaction of its own, behind its table's lease check."""
        batch = Batch(seats_in=[move]) if isinstance(move, SeatIn) else Batch(seats_out=[move])

        def fenced(ctx: Context) -> Unit[SeatChange]:
            yield from hand_units.check_leases(batch)
            return (yield from unit(ctx))

        return await self._db.write(fenced)

    async def applied(self, table_id: int, number: int, user: User | int, client_id: str) -> bool:
        """Whether hand ``number`` at the table logged an action of ``user`` under the
        client's id ``client_id`` (a resent action is a repeat, even after a restart)."""
        user_id = user_id_of(user)
        whole(table_id, 0)
        if type(number) is not int or number < 1 or not isinstance(client_id, str):
            return False
        return await self._db.read(
            lambda ctx: reports.applied_unit(ctx, table_id, number, user_id, client_id)
        )

    # ------------------------------------------------------------ hand logs

    async def commit(self, batch: Batch) -> BatchResult:
        """Write hand starts, actions, finishes and voids, for any tables, in one
        transaction (group commit): all of them, or none and a typed error."""
        checked = batch.checked()
        if not len(checked):
            return BatchResult()
        return await self._db.write(
            lambda ctx: hand_units.batch_unit(ctx, checked), heavy=len(checked) > HEAVY_BATCH
        )

    async def begin_hand(
        self,
        table_id: int,
        number: int,
        game: str,
        spec: Mapping[str, Any],
        setup: Mapping[str, Any],
        seats: Sequence[HandSeat | tuple[int, int, int]],
        deck: Mapping[str, Any],
        start_seq: int = 0,
        *,
        lease: int | None = None,
    ) -> int:
        """Log a new hand; its id. ``deck`` is ``{"order": [52 cards, top first], "seed": int}``."""
        if not isinstance(deck, Mapping) or set(deck) != {"order", "seed"}:
            start = HandStart(table_id, number, game, spec, setup, seats, (), 0, start_seq, lease)
        else:
            start = HandStart(
                table_id,
                number,
                game,
                spec,
                setup,
                seats,
                deck["order"],
                deck["seed"],
                start_seq,
                lease,
            )
        result = await self.commit(Batch(starts=[start]))
        return result.hand_ids[table_id, number]

    async def append_actions(self, actions: Sequence[ActionRecord]) -> None:
        """Log accepted actions (of one hand or several) in one commit."""
        await self.commit(Batch(actions=actions))

    async def finish_hand(
        self,
        table_id: int,
        number: int,
        results: Sequence[int],
        *,
        rake: int = 0,
        house_result: int = 0,
        history: str | None = None,
        lease: int | None = None,
    ) -> Transaction:
        """Settle a hand and mark it finished, in one transaction; the settlement."""
        finish = HandFinish(table_id, number, results, rake, house_result, history, lease)
        result = await self.commit(Batch(finishes=[finish]))
        return result.settlements[table_id, number]

    async def void_hand(
        self, table_id: int, number: int, reason: str, *, lease: int | None = None
    ) -> None:
        """Mark a hand void: no chip moves (stacks change only at settlement)."""
        await self.commit(Batch(voids=[HandVoid(table_id, number, reason, lease)]))

    async def get_hand(self, hand_id: int) -> StoredHand:
        """A hand's record (never its deck)."""
        return await self._db.read(lambda ctx: reports.hand_record_unit(ctx, hand_id))

    async def hand_log(self, hand_id: int) -> HandLog:
        """A hand's full log, deck included: server-side only."""
        return await self._db.read(lambda ctx: reports.hand_log_unit(ctx, hand_id))

    async def unfinished_hands(self, table_id: int | None = None) -> list[HandLog]:
        """The logs of running hands (to resume at start-up), oldest first."""
        return await self._db.read(lambda ctx: reports.unfinished_unit(ctx, table_id))

    async def user_hands(
        self, user: User | int, *, limit: int = 50, before: int | None = None
    ) -> list[HandSummary]:
        """A player's hands, newest first, with their result in each.

        ``before`` (a hand id: the oldest hand shown) asks for the hands older than it.
        """
        user_id = user_id_of(user)
        if type(limit) is not int or not 1 <= limit <= 10_000:
            raise AccountError("bad_limit", f"a limit is 1 to 10000 hands, not {limit!r}")
        check_before(before)
        return await self._db.read(lambda ctx: reports.user_hands_unit(ctx, user_id, limit, before))

    async def last_hand_number(self, table_id: int) -> int:
        """The highest hand number ``table_id`` has used (0 before its first hand).

        A table restarting numbers its next hand one above it, so no number is
        lost or used twice, voided hands included.
        """
        whole(table_id, 0)
        return await self._db.read(lambda ctx: reports.last_number_unit(ctx, table_id))

    async def hands_played(self) -> dict[int, int]:
        """Finished hands per table id."""
        return await self._db.read(reports.hands_played_unit)
