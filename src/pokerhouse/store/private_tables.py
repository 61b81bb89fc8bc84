"""Private tables (home games) in the store: opened by a host, joined by an invitation.

Reached as :attr:`pokerhouse.store.Store.private`. A host opens a table of any
game within the room's limits (:data:`LIMITS`); the store keeps the hash of
its invitation token (the link's secret, shown to the host once and again on
asking) and of its password, if it has one. Whoever brings the token (and
the password) joins: approved at once, or asked to wait for the host's
approval when the table's host approves each seat. The host may approve,
remove, pause and close; the chips never move here: they move as at every
table, through the table's own fenced writes.

The session ledger (:meth:`PrivateBook.ledger`) is read from the chip ledger
itself: per player, the chips bought in (and added), cashed out, and still
on the table (the balance of their in-play account there).

>>> import asyncio, tempfile
>>> from pokerhouse.store import Store, TableConfig
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann = await store.users.create("ann", None, bot=True)
...         bob = await store.users.create("bob", None, bot=True)
...         stakes = {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
...         table, token = await store.private.open(ann, TableConfig("Ann's", "razz", stakes))
...         _, joined = await store.private.join(token, bob)
...         return table.config.host == ann.id, joined.status, await store.private.members(table.id)
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(True, 'approved', [Member(user_id=2, username='bob', status='approved')])
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_from_dict
from pokerhouse.store import tables
from pokerhouse.store.arguments import user_id_of, whole
from pokerhouse.store.database import Database
from pokerhouse.store.errors import TableBookError
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one, run
from pokerhouse.store.tables import TableConfig, TableDef
from pokerhouse.store.users import Passwords, User

__all__ = [
    "HOST_CHOOSES",
    "LIMITS",
    "STAKES",
    "Invitation",
    "LedgerLine",
    "Member",
    "PrivateBook",
    "PrivateState",
]

#: The room's limits on a private table: at most these many chips a buy-in, house bots
#: (only when the host asks for them), seconds a decision, and open tables a host.
LIMITS = {"max_buy_in": 100_000, "bots": 9, "decision_seconds": 120.0, "tables": 3}

#: The stakes a private table may play, game by game: its name, the spec's amounts, and
#: the buy-ins a form offers. The amounts (and Casino Hold'em's pay tables, the room's
#: own) are the room's; a host chooses only the fields of :data:`HOST_CHOOSES`.
STAKES: dict[str, tuple[tuple[str, dict[str, Any], tuple[int, int]], ...]] = {
    "3x4": (
        ("1/2", {"ante": 1, "small_bet": 2}, (40, 400)),
        ("5/10", {"ante": 5, "small_bet": 10}, (200, 2_000)),
        ("25/50", {"ante": 25, "small_bet": 50}, (1_000, 10_000)),
    ),
    "razz": (
        ("2/4", {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}, (40, 400)),
        ("10/20", {"ante": 2, "bring_in": 3, "small_bet": 10, "big_bet": 20}, (200, 2_000)),
    ),
    "teen-patti": (
        ("1", {"ante": 1}, (20, 200)),
        ("5", {"ante": 5}, (100, 1_000)),
    ),
    "casino-holdem": (
        ("1-100", {"min_ante": 1, "max_ante": 100, "max_payout": 10_000}, (20, 2_000)),
    ),
}
#: The spec fields a host may set besides the stakes: the betting structure, Teen
#: Patti's sideshow.
HOST_CHOOSES: dict[str, tuple[str, ...]] = {
    "3x4": ("limit",),
    "razz": (),
    "teen-patti": ("limit", "sideshow"),
    "casino-holdem": (),
}
_PASSWORD = (4, 128)
_TOKEN_LENGTH = (20, 100)

SET_SECRETS = Stmt(
    "UPDATE room_tables SET invite_hash = :invite, password_hash = :password WHERE id = :id"
)
BY_INVITE = Stmt(
    "SELECT t.id, t.name, t.game, u.username, t.password_hash, t.approve_seats, t.closed_at, "
    "t.host_id "
    "FROM room_tables t JOIN users u ON u.id = t.host_id WHERE t.invite_hash = :hash"
)
STATE = Stmt(
    "SELECT host_id, approve_seats, password_hash IS NOT NULL, paused, closed_at "
    "FROM room_tables WHERE id = :id"
)
MEMBERS = Stmt(
    "SELECT m.user_id, u.username, m.status FROM table_members m JOIN users u "
    "ON u.id = m.user_id WHERE m.table_id = :table ORDER BY m.joined_at, m.user_id"
)
MEMBER = Stmt("SELECT status FROM table_members WHERE table_id = :table AND user_id = :user")
JOIN = Stmt(
    "INSERT INTO table_members (table_id, user_id, status, joined_at, changed_at) "
    "VALUES (:table, :user, :status, :now, :now) ON CONFLICT (table_id, user_id) DO NOTHING"
)
APPROVE = Stmt(
    "UPDATE table_members SET status = 'approved', changed_at = :now "
    "WHERE table_id = :table AND user_id = :user AND status IN ('asked', 'approved')"
)
ADD_MEMBER = Stmt(
    "INSERT INTO table_members (table_id, user_id, status, joined_at, changed_at) "
    "VALUES (:table, :user, :status, :now, :now) ON CONFLICT (table_id, user_id) "
    "DO UPDATE SET status = excluded.status, changed_at = excluded.changed_at"
)
SET_PAUSED = Stmt("UPDATE room_tables SET paused = :paused WHERE id = :id AND host_id IS NOT NULL")
CLOSE = Stmt(
    "UPDATE room_tables SET closed_at = :now WHERE id = :id AND host_id IS NOT NULL "
    "AND closed_at IS NULL"
)
HOSTING = Stmt("SELECT count(*) FROM room_tables WHERE host_id = :host AND closed_at IS NULL")
# The invitation still the table's and the table open as a guest comes in: a join that
# passed its password check while the host renewed the link or closed the table is
# refused. PostgreSQL locks the row, so a renewal or a close and a join go one at a time.
STILL_INVITED = Stmt(
    "SELECT closed_at FROM room_tables WHERE id = :id AND invite_hash = :hash",
    postgresql="SELECT closed_at FROM room_tables WHERE id = :id AND invite_hash = :hash "
    "FOR UPDATE",
)
CLOSED = Stmt("SELECT id FROM room_tables WHERE closed_at IS NOT NULL")
HOSTED = Stmt(
    "SELECT t.id FROM room_tables t WHERE t.closed_at IS NULL AND (t.host_id = :user "
    "OR t.id IN (SELECT table_id FROM table_members WHERE user_id = :user "
    "AND status != 'removed')) ORDER BY t.id"
)
# Each player's chips in and out of the table, by kind, and their first and last move.
MOVES = Stmt(
    "SELECT a.user_id, u.username, t.kind, SUM(e.amount), MIN(t.created_at), "
    "MAX(t.created_at) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id "
    "JOIN ledger_transactions t ON t.id = e.transaction_id JOIN users u ON u.id = a.user_id "
    "WHERE a.kind = 'in-play' AND a.table_id = :table AND t.kind IN ('buy-in', 'cash-out') "
    "GROUP BY a.user_id, u.username, t.kind"
)
IN_PLAY = Stmt(
    "SELECT user_id, balance FROM ledger_accounts WHERE kind = 'in-play' AND table_id = :table"
)


@dataclass(frozen=True, slots=True)
class Member:
    """A guest of a private table and their standing: ``asked``, ``approved``, ``removed``."""

    user_id: int
    username: str
    status: str


@dataclass(frozen=True, slots=True)
class Invitation:
    """What an invitation opens (before joining): the table, its host, what it asks."""

    table_id: int
    name: str
    game: str
    host: str
    password: bool
    approve_seats: bool
    closed: bool


@dataclass(frozen=True, slots=True)
class PrivateState:
    """A private table's settings and state as its host sees them."""

    host: int
    approve_seats: bool
    password: bool
    paused: bool
    closed_at: float | None
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """A player's session at a private table, in chips: ``net = buy_out + stack - buy_in``.

    ``end`` is when they last cashed out, or ``None`` while they still have chips there.
    """

    user_id: int
    username: str
    start: float
    end: float | None
    buy_in: int
    buy_out: int
    stack: int
    net: int


def invite_hash(token: str) -> str:
    """What the store keeps of an invitation token."""
    return hashlib.sha256(token.encode()).hexdigest()


def _token(token: object) -> str:
    low, high = _TOKEN_LENGTH
    if not isinstance(token, str) or not low <= len(token) <= high or not token.isascii():
        raise TableBookError("not_invited", "that invitation is not one the room made")
    return token


def _password(password: object) -> str:
    low, high = _PASSWORD
    if not isinstance(password, str) or not low <= len(password) <= high:
        raise TableBookError("bad_password", f"a table's password is {low} to {high} characters")
    return password


def private_config(host: int, config: TableConfig) -> TableConfig:
    """``config`` as a private table of ``host``: checked, within :data:`LIMITS`, no rake."""
    if not isinstance(config, TableConfig):
        raise TableBookError("bad_table", "a private table is described by a TableConfig")
    checked = dataclasses.replace(config, host=host, rake_bps=0, rake_cap=0).checked()
    assert checked.max_buy_in is not None
    _check_stakes(checked.game, checked.options)
    if checked.max_buy_in > LIMITS["max_buy_in"]:
        raise TableBookError(
            "over_limit", f"a private table's buy-in is at most {LIMITS['max_buy_in']} chips"
        )
    if checked.bots > min(LIMITS["bots"], checked.seats - 1):
        raise TableBookError("over_limit", "a private table keeps a seat free of house bots")
    if checked.decision_seconds > LIMITS["decision_seconds"]:
        raise TableBookError(
            "over_limit", f"a decision takes at most {LIMITS['decision_seconds']:.0f} s"
        )
    return checked


def _check_hosting(host_id: int) -> Unit[None]:
    """Refuse a host who keeps :data:`LIMITS`' most open tables already."""
    hosted = yield one(HOSTING, host=host_id)
    if int(hosted[0]) >= LIMITS["tables"]:
        raise TableBookError(
            "too_many_tables",
            f"a host keeps at most {LIMITS['tables']} private tables open: close one",
        )


def _check_stakes(game: str, options: dict[str, Any]) -> None:
    """Refuse amounts that are not one of the room's levels for ``game`` (``over_limit``)."""
    info = get_game(game)
    spec = spec_from_dict(info.spec_type, options)
    free = {name: getattr(spec, name) for name in HOST_CHOOSES.get(game, ())}
    for _, amounts, _ in STAKES.get(game, ()):
        if spec == spec_from_dict(info.spec_type, {**amounts, **free}):
            return
    names = ", ".join(name for name, _, _ in STAKES.get(game, ()))
    raise TableBookError(
        "over_limit", f"a private table of {info.title} plays the room's stakes: {names}"
    )


class PrivateBook:
    """Private tables in one store."""

    def __init__(self, db: Database, passwords: Passwords) -> None:
        self._db = db
        self._passwords = passwords

    async def open(
        self, host: User | int, config: TableConfig, *, password: str | None = None
    ) -> tuple[TableDef, str]:
        """Open a private table of ``host``'s; the table and its invitation token."""
        host_id = user_id_of(host)
        checked = private_config(host_id, config)
        if password is not None:
            _password(password)
            # The limit before the hash: a host at the limit costs the room no hashing.
            await self._db.read(lambda ctx: _check_hosting(host_id))
        hashed = None if password is None else await self._passwords.hash(password)
        token = secrets.token_urlsafe(24)

        def unit(ctx: Context) -> Unit[TableDef]:
            yield from _check_hosting(host_id)  # again, in the transaction that opens it
            table = yield from tables.create_table_unit(ctx, checked)
            yield run(SET_SECRETS, id=table.id, invite=invite_hash(token), password=hashed)
            return table

        return await self._db.write(unit), token

    async def new_invitation(self, table_id: int) -> str:
        """A new invitation token for the table; the old link stops working."""
        whole(table_id, 0)
        token = secrets.token_urlsafe(24)
        changed = await self._db.write(lambda ctx: _set_invite(table_id, invite_hash(token)))
        if not changed:
            raise TableBookError("unknown_table", f"there is no private table {table_id}")
        return token

    async def invitation(self, token: str) -> Invitation:
        """What ``token`` invites to; ``not_invited`` if it invites to nothing."""
        hashed = invite_hash(_token(token))
        row = await self._db.read(lambda ctx: _one(BY_INVITE, hash=hashed))
        if row is None:
            raise TableBookError("not_invited", "that invitation is not one the room made")
        return Invitation(
            int(row[0]), row[1], row[2], row[3], row[4] is not None, bool(row[5]),
            row[6] is not None,
        )  # fmt: skip

    async def join(
        self, token: str, user: User | int, password: str | None = None
    ) -> tuple[int, Member]:
        """Come to the table ``token`` invites to: the table's id and the guest's standing,
        ``approved`` or ``asked`` (to wait for the host); ``wrong_password``, ``removed``
        or ``table_closed`` otherwise."""
        user_id = user_id_of(user)
        hashed = invite_hash(_token(token))
        row = await self._db.read(lambda ctx: _one(BY_INVITE, hash=hashed))
        if row is None:
            raise TableBookError("not_invited", "that invitation is not one the room made")
        table_id, stored, approve, closed = int(row[0]), row[4], bool(row[5]), row[6]
        if closed is not None:
            raise TableBookError("table_closed", "the host has closed this table")
        if int(row[7]) == user_id:
            return table_id, Member(user_id, row[3], "approved")  # the host's own link
        if stored is not None:
            given = password if isinstance(password, str) and len(password) <= 128 else ""
            if not await self._passwords.verify(stored, given):
                raise TableBookError("wrong_password", "that is not the table's password")
        wanted = "asked" if approve else "approved"

        def unit(ctx: Context) -> Unit[Member]:
            still = yield one(STILL_INVITED, id=table_id, hash=hashed)
            if still is None:
                raise TableBookError("not_invited", "that invitation is not one the room made")
            if still[0] is not None:
                raise TableBookError("table_closed", "the host has closed this table")
            yield run(JOIN, table=table_id, user=user_id, status=wanted, now=ctx.now)
            for member in (yield from _members(table_id)):
                if member.user_id == user_id:
                    return member
            raise TableBookError("unknown_user", f"there is no user {user_id}")

        member = await self._db.write(unit)
        if member.status == "removed":
            raise TableBookError("removed", "the host has removed you from this table")
        return table_id, member

    async def state(self, table_id: int) -> PrivateState:
        """A private table's settings, state and guests; ``unknown_table`` if not private."""
        whole(table_id, 0)

        def unit(ctx: Context) -> Unit[PrivateState]:
            row = yield one(STATE, id=table_id)
            if row is None or row[0] is None:
                raise TableBookError("unknown_table", f"there is no private table {table_id}")
            members = yield from _members(table_id)
            return PrivateState(
                int(row[0]), bool(row[1]), bool(row[2]), bool(row[3]), row[4], tuple(members)
            )

        return await self._db.read(unit)

    async def members(self, table_id: int) -> list[Member]:
        """The table's guests, in the order they came."""
        whole(table_id, 0)
        return await self._db.read(lambda ctx: _members(table_id))

    async def standing(self, table_id: int, user: User | int) -> str | None:
        """``user``'s standing at the table (``None``: never came)."""
        whole(table_id, 0)
        user_id = user_id_of(user)
        row = await self._db.read(lambda ctx: _one(MEMBER, table=table_id, user=user_id))
        return None if row is None else str(row[0])

    async def set_standing(self, table_id: int, user: User | int, status: str) -> None:
        """The host approves (``approved``) a guest who asked to sit, or removes
        (``removed``) one; a player the host removes who never came is kept out. Only
        a guest who came by the invitation is approved (``not_asked`` otherwise)."""
        whole(table_id, 0)
        user_id = user_id_of(user)
        if status not in ("approved", "removed"):
            raise TableBookError(
                "bad_request", f"a standing is approved or removed, not {status!r}"
            )

        def unit(ctx: Context) -> Unit[None]:
            if status == "approved":
                changed = yield run(APPROVE, table=table_id, user=user_id, now=ctx.now)
                if not changed:
                    raise TableBookError("not_asked", "that player has not asked to sit here")
                return
            yield run(ADD_MEMBER, table=table_id, user=user_id, status=status, now=ctx.now)

        await self._db.write(unit)

    async def set_paused(self, table_id: int, paused: bool) -> None:
        """Pause the table between hands, or deal again."""
        whole(table_id, 0)
        await self._db.write(lambda ctx: _run(SET_PAUSED, id=table_id, paused=bool(paused)))

    async def close(self, table_id: int) -> bool:
        """Mark the table closed (its players are stood up by its task): whether it was open."""
        whole(table_id, 0)
        return bool(await self._db.write(lambda ctx: _run(CLOSE, id=table_id, now=ctx.now)))

    async def closed(self) -> set[int]:
        """The ids of the private tables their hosts closed."""
        rows = await self._db.read(lambda ctx: _all(CLOSED))
        return {int(row[0]) for row in rows}

    async def tables_of(self, user: User | int) -> list[int]:
        """The open private tables ``user`` hosts or came to (and was not removed from)."""
        user_id = user_id_of(user)
        rows = await self._db.read(lambda ctx: _all(HOSTED, user=user_id))
        return [int(row[0]) for row in rows]

    async def ledger(self, table_id: int) -> list[LedgerLine]:
        """The session ledger: each player's buy-ins, cash-outs, chips there and net."""
        whole(table_id, 0)

        def unit(ctx: Context) -> Unit[list[LedgerLine]]:
            moves = yield all_rows(MOVES, table=table_id)
            stacks = {int(row[0]): int(row[1]) for row in (yield all_rows(IN_PLAY, table=table_id))}
            return _ledger_lines(moves, stacks)

        return await self._db.read(unit)


def _ledger_lines(moves: Sequence[Sequence[Any]], stacks: dict[int, int]) -> list[LedgerLine]:
    players: dict[int, dict[str, Any]] = {}
    for user_id, username, kind, amount, first, last in moves:
        line = players.setdefault(
            int(user_id),
            {"name": username, "in": 0, "out": 0, "start": float(first), "end": None},
        )
        line["start"] = min(line["start"], float(first))
        if kind == "buy-in":
            line["in"] += int(amount)
        else:
            line["out"] -= int(amount)  # a cash-out takes chips off the in-play account
            line["end"] = float(last)
    found = []
    for user_id, line in players.items():
        stack = stacks.get(user_id, 0)
        end = None if stack else line["end"]
        net = line["out"] + stack - line["in"]
        bought, out = line["in"], line["out"]
        found.append(LedgerLine(user_id, line["name"], line["start"], end, bought, out, stack, net))
    found.sort(key=lambda line: (line.start, line.user_id))
    return found


def _members(table_id: int) -> Unit[list[Member]]:
    rows = yield all_rows(MEMBERS, table=table_id)
    return [Member(int(row[0]), row[1], row[2]) for row in rows]


def _one(stmt: Stmt, **params: Any) -> Unit[Any]:
    return (yield one(stmt, **params))


def _all(stmt: Stmt, **params: Any) -> Unit[Any]:
    return (yield all_rows(stmt, **params))


def _run(stmt: Stmt, **params: Any) -> Unit[int]:
    changed: int = yield run(stmt, **params)
    return changed


SET_INVITE = Stmt(
    "UPDATE room_tables SET invite_hash = :invite WHERE id = :id AND host_id IS NOT NULL"
)


def _set_invite(table_id: int, hashed: str) -> Unit[int]:
    return (yield from _run(SET_INVITE, id=table_id, invite=hashed))
