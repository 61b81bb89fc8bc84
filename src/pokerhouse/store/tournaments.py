"""Tournaments in the store: each step of a director saved with its money, in one transaction.

A tournament's row keeps its spec and its director's state (JSON) with a
version; :func:`step_unit` saves the state a director reached, names the
version it started from (a step that another has overtaken is refused with
``stale_tournament`` and writes nothing), and posts the step's money:

- an entry (:class:`~pokerhouse.tournament.orders.Register` taken): the
  buy-in from the wallet to the tournament's pool, the fee to ``fees``;
- a :class:`~pokerhouse.tournament.orders.Refund`: back from the pool and
  ``fees`` to the wallet;
- a :class:`~pokerhouse.tournament.orders.Placed` with a prize, and a
  cancelled tournament's :class:`~pokerhouse.tournament.orders.Share`: from
  the pool to the wallet;
- an overlay: when a step pays out more than the pool holds, the room adds
  the difference from the issuer, never more in all than the guarantee
  (``pool_short`` otherwise: the director pays no more than the buy-ins or
  the guarantee, whichever is more).

What the step moves is planned by :func:`plan`, from the states before and
after and the orders, with no database:

>>> from pokerhouse.tournament import Director, Register, sit_and_go
>>> from pokerhouse.tournament.state import State
>>> spec = sit_and_go("razz", seats=2, buy_in=100, fee=10)
>>> director = Director(spec, seed=1)
>>> before = State(seed=1)
>>> orders = director.apply(Register("ann", 7))
>>> money = plan(5, spec, before, director.state, orders)
>>> [(p.key, p.fingerprint.split("|")[1]) for p in money.postings]
[('tournament:5:entry:1', 'fees=10;pool:5=100;wallet:7=-110')]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from pokerhouse.store.accounts import FEES, ISSUER, Account, AccountKind, TransactionKind
from pokerhouse.store.errors import TournamentBookError
from pokerhouse.store.ledger import (
    Posting,
    account_ids,
    apply,
    ensure_account,
    reserve,
    trusted_posting,
)
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, many, one
from pokerhouse.tournament.orders import Order, Placed, Refund, Share
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.state import CANCELLED, FINISHED, State, dump, load

#: How many tournaments a list returns at most.
LIST_LIMIT = 200


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A stored tournament: its spec, its director's state as saved, and its books."""

    id: int
    spec: TournamentSpec
    status: str
    #: The director's state as JSON (:meth:`state` decodes a fresh copy).
    state_json: str
    version: int
    overlay: int
    starts_at: float | None
    created_at: float
    finished_at: float | None

    def state(self) -> State:
        """The director's state: a fresh copy a director may change."""
        return load(self.state_json)

    @property
    def pool(self) -> Account:
        """The tournament's prize pool account."""
        return Account.pool(self.id)


@dataclass(frozen=True, slots=True)
class EntryRecord:
    """One entry's row: who, when, what it paid, got back and won, and its place."""

    tournament_id: int
    number: int
    user_id: int
    registered_at: float
    paid: int
    refunded: int
    place: int | None
    tied: int | None
    prize: int


@dataclass(slots=True)
class Money:
    """What one step moves and records: postings, new entries and changed entries."""

    postings: list[Posting] = field(default_factory=list)
    #: (number, user id, paid) of each entry the step registered.
    new_entries: list[tuple[int, int, int]] = field(default_factory=list)
    #: Entry number -> chips given back, prize won, and (place, tied) once final.
    refunds: dict[int, int] = field(default_factory=dict)
    prizes: dict[int, int] = field(default_factory=dict)
    places: dict[int, tuple[int, int]] = field(default_factory=dict)
    #: Chips leaving the pool minus chips coming in.
    pool_out: int = 0


def plan(
    tournament_id: int,
    spec: TournamentSpec,
    before: State,
    after: State,
    orders: Sequence[Order],
) -> Money:
    """The money and entry rows of a director's step from ``before`` to ``after``."""
    pool = Account.pool(tournament_id)
    money = Money()
    known = {entry.number for entry in before.entries}
    for entry in after.entries:
        if entry.number in known:
            continue
        user = _user(entry.account, entry.player)
        paid = spec.buy_in + spec.fee
        money.new_entries.append((entry.number, user, paid))
        if paid:
            money.pool_out -= spec.buy_in
            money.postings.append(
                _posting(
                    f"tournament:{tournament_id}:entry:{entry.number}",
                    TransactionKind.ENTRY,
                    {Account.wallet(user): -paid, pool: spec.buy_in, FEES: spec.fee},
                    f"{spec.name}: entry {entry.number}",
                )
            )
    for order in orders:
        if isinstance(order, Refund):
            back = order.buy_in + order.fee
            if not back:
                continue
            user = _user(order.account, order.player)
            money.refunds[order.entry] = money.refunds.get(order.entry, 0) + back
            money.pool_out += order.buy_in
            money.postings.append(
                _posting(
                    f"tournament:{tournament_id}:refund:{order.entry}",
                    TransactionKind.REFUND,
                    {Account.wallet(user): back, pool: -order.buy_in, FEES: -order.fee},
                    f"{spec.name}: refund of entry {order.entry}",
                )
            )
        elif isinstance(order, Placed | Share):
            if isinstance(order, Placed):
                money.places[order.entry] = (order.place, order.tied)
            amount = order.prize if isinstance(order, Placed) else order.amount
            if not amount:
                continue
            what = "prize" if isinstance(order, Placed) else "share"
            user = _user(order.account, order.player)
            money.prizes[order.entry] = money.prizes.get(order.entry, 0) + amount
            money.pool_out += amount
            money.postings.append(
                _posting(
                    f"tournament:{tournament_id}:{what}:{order.entry}",
                    TransactionKind.PRIZE,
                    {Account.wallet(user): amount, pool: -amount},
                    f"{spec.name}: {what} of entry {order.entry}",
                )
            )
    return money


def _user(account: int, player: str) -> int:
    if type(account) is not int or account < 1:
        raise TournamentBookError(
            "bad_entry", f"{player!r} has no room account: a stored tournament takes accounts only"
        )
    return account


def _posting(key: str, kind: TransactionKind, entries: dict[Account, int], memo: str) -> Posting:
    return trusted_posting(key, kind, {a: n for a, n in entries.items() if n}, memo, None)


# ---------------------------------------------------------------- statements

_COLUMNS = "id, spec, status, state, version, overlay, starts_at, created_at, finished_at"
INSERT_TOURNAMENT = Stmt(
    "INSERT INTO tournaments (name, game, spec, buy_in, fee, status, state, starts_at, "
    "created_at) VALUES (:name, :game, :spec, :buy_in, :fee, :status, :state, :starts_at, "
    f":now) RETURNING {_COLUMNS}"
)
SELECT_TOURNAMENT = Stmt(f"SELECT {_COLUMNS} FROM tournaments WHERE id = :id")
SELECT_TOURNAMENTS = Stmt(
    f"SELECT {_COLUMNS} FROM tournaments WHERE status IN (SELECT value FROM json_each(:statuses)) "
    "ORDER BY id DESC LIMIT :limit",
    postgresql=f"SELECT {_COLUMNS} FROM tournaments WHERE status = ANY(CAST(:statuses AS TEXT[])) "
    "ORDER BY id DESC LIMIT :limit",
)
SAVE_STATE = Stmt(
    "UPDATE tournaments SET state = :state, status = :status, version = version + 1, "
    "overlay = overlay + :overlay, finished_at = :finished_at "
    "WHERE id = :id AND version = :version RETURNING overlay"
)
SELECT_VERSION = Stmt("SELECT version FROM tournaments WHERE id = :id")
SELECT_BALANCE = Stmt("SELECT balance FROM ledger_accounts WHERE key = :key")
INSERT_ENTRY_ROW = Stmt(
    "INSERT INTO tournament_entries (tournament_id, number, user_id, registered_at, paid) "
    "VALUES (:tournament, :number, :user, :now, :paid)"
)
UPDATE_ENTRY_MONEY = Stmt(
    "UPDATE tournament_entries SET refunded = refunded + :refunded, prize = prize + :prize "
    "WHERE tournament_id = :tournament AND number = :number"
)
UPDATE_ENTRY_PLACE = Stmt(
    "UPDATE tournament_entries SET place = :place, tied = :tied "
    "WHERE tournament_id = :tournament AND number = :number"
)
SELECT_ENTRIES = Stmt(
    "SELECT tournament_id, number, user_id, registered_at, paid, refunded, place, tied, prize "
    "FROM tournament_entries WHERE tournament_id = :tournament ORDER BY number"
)


# Leases: one node runs a tournament at a time (taken when free, lapsed or the taker's own).
ACQUIRE = Stmt(
    "UPDATE tournaments SET lease_owner = :owner, lease_token = lease_token + 1, "
    "lease_expires = :expires WHERE id = :id AND status IN ('registering', 'running') "
    "AND (lease_owner IS NULL OR lease_owner = :owner OR lease_expires IS NULL "
    "OR lease_expires < :now) RETURNING lease_token"
)
RENEW = Stmt(
    "UPDATE tournaments SET lease_expires = :expires "
    "WHERE id = :id AND lease_owner = :owner AND lease_token = :token RETURNING id"
)
RELEASE = Stmt(
    "UPDATE tournaments SET lease_owner = NULL, lease_expires = NULL "
    "WHERE id = :id AND lease_owner = :owner AND lease_token = :token"
)
# Where each live tournament runs now (a lapsed lease: nowhere until another node takes it).
OWNERS = Stmt(
    "SELECT id, CASE WHEN lease_expires >= :now THEN lease_owner END FROM tournaments "
    "WHERE status IN ('registering', 'running') ORDER BY id"
)
# A tournament's tables, by their number in it.
TABLES = Stmt(
    "SELECT tournament_table, id FROM room_tables WHERE tournament_id = :tournament "
    "ORDER BY tournament_table"
)


def _record(row: Sequence[object]) -> TournamentRecord:
    return TournamentRecord(
        id=int(row[0]),  # type: ignore[call-overload]
        spec=TournamentSpec.from_dict(json.loads(str(row[1]))),
        status=str(row[2]),
        state_json=str(row[3]),
        version=int(row[4]),  # type: ignore[call-overload]
        overlay=int(row[5]),  # type: ignore[call-overload]
        starts_at=None if row[6] is None else float(row[6]),  # type: ignore[arg-type]
        created_at=float(row[7]),  # type: ignore[arg-type]
        finished_at=None if row[8] is None else float(row[8]),  # type: ignore[arg-type]
    )


# ---------------------------------------------------------------- units


def create_unit(
    ctx: Context, spec: TournamentSpec, state: State, starts_at: float | None
) -> Unit[TournamentRecord]:
    """Store a new tournament and open its pool account."""
    row = yield one(
        INSERT_TOURNAMENT,
        name=spec.name,
        game=spec.game,
        spec=json.dumps(spec.as_dict(), sort_keys=True, separators=(",", ":")),
        buy_in=spec.buy_in,
        fee=spec.fee,
        status=state.status,
        state=dump(state).decode(),
        starts_at=starts_at,
        now=ctx.now,
    )
    record = _record(row)
    yield from ensure_account(ctx, record.pool)
    return record


def get_unit(ctx: Context, tournament_id: int) -> Unit[TournamentRecord]:
    """One tournament; ``unknown_tournament`` if there is none."""
    row = yield one(SELECT_TOURNAMENT, id=tournament_id)
    if row is None:
        raise TournamentBookError("unknown_tournament", f"there is no tournament {tournament_id}")
    return _record(row)


def list_unit(ctx: Context, statuses: Sequence[str], limit: int) -> Unit[list[TournamentRecord]]:
    """Tournaments in ``statuses``, newest first."""
    rows = yield all_rows(SELECT_TOURNAMENTS, statuses=list(statuses), limit=limit)
    return [_record(row) for row in rows]


def acquire_unit(ctx: Context, tournament_id: int, owner: str, seconds: float) -> Unit[int | None]:
    """Lease a live tournament to ``owner``: the new token, or ``None`` while another
    owner's lease runs (or the tournament has ended)."""
    row = yield one(ACQUIRE, id=tournament_id, owner=owner, now=ctx.now, expires=ctx.now + seconds)
    return None if row is None else int(row[0])


def renew_unit(ctx: Context, owner: str, leases: dict[int, int], seconds: float) -> Unit[set[int]]:
    """Extend ``owner``'s leases (tournament id to token); the tournaments still held."""
    held = set()
    for tournament_id, token in sorted(leases.items()):
        row = yield one(
            RENEW, id=tournament_id, owner=owner, token=token, expires=ctx.now + seconds
        )
        if row is not None:
            held.add(tournament_id)
    return held


def release_unit(ctx: Context, tournament_id: int, owner: str, token: int) -> Unit[None]:
    """Free a lease ``owner`` holds with ``token`` (the room stops)."""
    yield one(RELEASE, id=tournament_id, owner=owner, token=token)


def owners_unit(ctx: Context) -> Unit[dict[int, str | None]]:
    """The node whose lease runs each live tournament now (``None``: its lease lapsed)."""
    rows = yield all_rows(OWNERS, now=ctx.now)
    return {int(row[0]): None if row[1] is None else str(row[1]) for row in rows}


def tables_unit(ctx: Context, tournament_id: int) -> Unit[dict[int, int]]:
    """A tournament's tables (its number for each, to the room's table id)."""
    rows = yield all_rows(TABLES, tournament=tournament_id)
    return {int(row[0]): int(row[1]) for row in rows}


def entries_unit(ctx: Context, tournament_id: int) -> Unit[list[EntryRecord]]:
    """A tournament's entries, in the order they came."""
    rows = yield all_rows(SELECT_ENTRIES, tournament=tournament_id)
    return [EntryRecord(*row) for row in rows]


def step_unit(
    ctx: Context, record: TournamentRecord, after: State, money: Money
) -> Unit[TournamentRecord]:
    """Save ``after`` over ``record``'s version and post ``money``; the record saved."""
    overlay = 0
    if money.pool_out > 0:
        # The pool pays out more than this step brings in: it must hold the rest, or the
        # room makes it up to the guarantee.
        row = yield one(SELECT_BALANCE, key=record.pool.key)
        overlay = max(0, money.pool_out - int(row[0]))
        if record.overlay + overlay > record.spec.guarantee:
            raise TournamentBookError(
                "pool_short",
                f"tournament {record.id} would pay {money.pool_out} chips from a pool of "
                f"{row[0]}, beyond its guarantee of {record.spec.guarantee}",
            )
    finished = after.status in (FINISHED, CANCELLED)
    saved = yield one(
        SAVE_STATE,
        id=record.id,
        version=record.version,
        state=dump(after).decode(),
        status=after.status,
        overlay=overlay,
        finished_at=ctx.now if finished else None,
    )
    if saved is None:
        found = yield one(SELECT_VERSION, id=record.id)
        if found is None:
            raise TournamentBookError("unknown_tournament", f"there is no tournament {record.id}")
        raise TournamentBookError(
            "stale_tournament",
            f"tournament {record.id} is at version {found[0]}, not {record.version}: "
            "another step was saved first",
        )
    postings = list(money.postings)
    if overlay:
        postings.insert(
            0,
            trusted_posting(
                f"tournament:{record.id}:overlay:{record.version + 1}",
                TransactionKind.OVERLAY,
                {ISSUER: -overlay, record.pool: overlay},
                f"{record.spec.name}: the room's overlay to the guarantee",
                None,
            ),
        )
    yield from _post(ctx, record, postings)
    if money.new_entries:
        yield many(
            INSERT_ENTRY_ROW,
            [
                {"tournament": record.id, "number": n, "user": u, "now": ctx.now, "paid": p}
                for n, u, p in money.new_entries
            ],
        )
    changed = set(money.refunds) | set(money.prizes)
    if changed:
        yield many(
            UPDATE_ENTRY_MONEY,
            [
                {
                    "tournament": record.id,
                    "number": number,
                    "refunded": money.refunds.get(number, 0),
                    "prize": money.prizes.get(number, 0),
                }
                for number in sorted(changed)
            ],
        )
    if money.places:
        yield many(
            UPDATE_ENTRY_PLACE,
            [
                {"tournament": record.id, "number": number, "place": place, "tied": tied}
                for number, (place, tied) in sorted(money.places.items())
            ],
        )
    return TournamentRecord(
        id=record.id,
        spec=record.spec,
        status=after.status,
        state_json=dump(after).decode(),
        version=record.version + 1,
        overlay=record.overlay + overlay,
        starts_at=record.starts_at,
        created_at=record.created_at,
        finished_at=ctx.now if finished else None,
    )


def _post(ctx: Context, record: TournamentRecord, postings: list[Posting]) -> Unit[None]:
    """Reserve and apply ``postings`` (each key once: a step is saved once)."""
    if not postings:
        return
    for post in postings:
        for account in post.accounts:
            if account.kind is AccountKind.WALLET:
                yield from ensure_account(ctx, account)
    keys = {key for post in postings for key, _ in post.entries}
    ids = yield from account_ids(ctx, keys)
    reserved: list[tuple[int, Posting]] = []
    for post in postings:
        tx_id = yield from reserve(ctx, post)
        if tx_id is None:
            raise TournamentBookError(
                "stale_tournament", f"tournament {record.id} posted {post.key} already"
            )
        reserved.append((tx_id, post))
    yield from apply(ctx, reserved, ids)
