"""Table definitions: what each of the room's tables plays, and on what terms.

A :class:`TableConfig` is checked in full (the game and its options build a
spec, the seats fit the game, the limits make sense) before it is stored, so
the room restarts with tables it can run. Leases (:func:`acquire_unit`) hand
a table to one server node at a time with an ever-growing fencing token.

>>> config = TableConfig("Razz 1", "razz", options={"ante": 1, "small_bet": 4, "big_bet": 8})
>>> checked = config.checked()
>>> checked.min_buy_in, checked.max_buy_in, checked.seats
(80, 400, 6)
>>> TableConfig("Casino", "casino-holdem", max_boxes=3).checked().max_boxes
3
>>> TableConfig("Bad", "razz", seats=12).checked()
Traceback (most recent call last):
...
pokerhouse.store.errors.TableBookError: Razz seats 2 to 8 players, not 12
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.bots.registry import BOT_NAMES
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_from_dict
from pokerhouse.store.errors import TableBookError
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows, one, run

_MAX_NAME = 40
#: A tournament table's largest stack: every chip of the tournament (exact as a double).
MAX_STACK = 2**53


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table to create: game, spec options, seats, limits, rake, bots and clock.

    ``min_buy_in``/``max_buy_in`` default to 20 and 100 antes (small bets in
    Razz; for Casino Hold'em 20 and 1,000 minimum antes). ``rake_bps`` is the
    rake in basis points of each pot (500: 5%), capped at ``rake_cap`` chips a
    hand; ``max_boxes`` is how many seats one player may hold (Casino Hold'em
    boxes; 1 elsewhere).
    """

    name: str
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seats: int = 6
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    rake_bps: int = 0
    rake_cap: int = 0
    max_boxes: int = 1
    bots: int = 0
    bot_kind: str = "pro"
    decision_seconds: float = 15.0
    time_bank_seconds: float = 30.0
    #: A tournament's table: the tournament's id and the table's number in it.
    tournament: int | None = None
    tournament_table: int | None = None
    #: Seats for people only: a bot account is refused (RULES.md, bots).
    people_only: bool = False
    #: Seats for bots only (house bots and bot accounts): its hands make the bots'
    #: leaderboard.
    bots_only: bool = False
    #: The house bots say a few words now and then (off: they never chat).
    bot_chat: bool = True
    #: A private table (a home game): its host's user id. Not in the lobby; people
    #: come by its invitation (pokerhouse.store.private_tables).
    host: int | None = None
    #: A private table whose host approves each player before they may sit.
    approve_seats: bool = False

    def checked(self) -> TableConfig:
        """This config with the game's canonical name and the default limits filled in;
        :class:`TableError` (``bad_name``, ``bad_table``) if anything is wrong."""
        name = check_name(self.name)
        try:
            info = get_game(self.game) if isinstance(self.game, str) else get_game("?")
            if not isinstance(self.options, dict):
                raise TableBookError("bad_table", "table options are a mapping of spec fields")
            json.dumps(self.options, allow_nan=False)
            spec = spec_from_dict(info.spec_type, self.options)
        except (PokerError, TypeError, ValueError) as error:
            raise TableBookError("bad_table", f"table {name!r}: {error}") from None
        _whole(self.seats, "seats", 1)
        if not info.min_players <= self.seats <= info.max_players:
            raise TableBookError(
                "bad_table",
                f"{info.title} seats {info.min_players} to {info.max_players} players, "
                f"not {self.seats}",
            )
        unit = getattr(spec, "small_bet", 1) if info.name == "razz" else _ante(spec)
        low = self.min_buy_in if self.min_buy_in is not None else 20 * unit
        high = (
            self.max_buy_in
            if self.max_buy_in is not None
            else (1000 * unit if info.banked else 100 * unit)
        )
        if self.tournament is not None:
            # Tournament chips come to the table as the player holds them, however many.
            low = 1 if self.min_buy_in is None else low
            high = MAX_STACK if self.max_buy_in is None else high
        _whole(low, "min_buy_in", 1)
        _whole(high, "max_buy_in", low)
        _whole(self.rake_bps, "rake_bps", 0, 10_000)
        _whole(self.rake_cap, "rake_cap", 0)
        if info.banked and self.rake_bps:
            raise TableBookError("bad_table", f"{info.title} is banked: it takes no rake")
        _whole(self.max_boxes, "max_boxes", 1, self.seats if info.banked else 1)
        _whole(self.bots, "bots", 0, self.seats)
        if self.bot_kind not in BOT_NAMES:
            raise TableBookError(
                "bad_table", f"unknown bot {self.bot_kind!r} (bots: {', '.join(BOT_NAMES)})"
            )
        _seconds(self.decision_seconds, "decision_seconds", positive=True)
        _seconds(self.time_bank_seconds, "time_bank_seconds", positive=False)
        if any(
            type(flag) is not bool for flag in (self.people_only, self.bots_only, self.bot_chat)
        ):
            raise TableBookError(
                "bad_table", "people_only, bots_only and bot_chat are true or false"
            )
        if self.people_only and self.bots_only:
            raise TableBookError(
                "bad_table", "a table is for people only or for bots only, not both"
            )
        if type(self.approve_seats) is not bool or (self.approve_seats and self.host is None):
            raise TableBookError("bad_table", "approve_seats is true or false, for a private table")
        if self.host is not None:
            _whole(self.host, "host", 1)
            if self.tournament is not None or self.bots_only:
                raise TableBookError("bad_table", "a private table is a cash table for its guests")
        if (self.tournament is None) != (self.tournament_table is None):
            raise TableBookError(
                "bad_table", "a tournament's table names its tournament and number"
            )
        if self.tournament is not None:
            _whole(self.tournament, "tournament", 1)
            _whole(self.tournament_table, "tournament_table", 1)
            if info.banked or self.bots or self.rake_bps:
                raise TableBookError(
                    "bad_table", "a tournament's table deals a poker game, with no bots or rake"
                )
        return dataclasses.replace(self, name=name, game=info.name, min_buy_in=low, max_buy_in=high)


@dataclass(frozen=True, slots=True)
class TableDef:
    """A stored table: its id and its (checked) config."""

    id: int
    config: TableConfig
    created_at: float

    @property
    def name(self) -> str:
        """The table's name."""
        return self.config.name

    @property
    def game(self) -> str:
        """The game's registry name."""
        return self.config.game


def check_name(name: object) -> str:
    """A table name: 1 to 40 printable characters, not blank at either end."""
    if (
        not isinstance(name, str)
        or not 1 <= len(name) <= _MAX_NAME
        or not name.isprintable()
        or name != name.strip()
    ):
        raise TableBookError(
            "bad_name",
            f"a table name is 1 to {_MAX_NAME} printable characters, not {name!r}"[:120],
        )
    return name


def _ante(spec: Any) -> int:
    for attr in ("ante", "min_ante"):
        value = getattr(spec, attr, None)
        if isinstance(value, int) and value > 0:
            return value
    return 1


def _whole(value: object, what: str, low: int, high: int | None = None) -> None:
    if type(value) is not int or value < low or (high is not None and value > high):
        bounds = f">= {low}" if high is None else f"from {low} to {high}"
        raise TableBookError("bad_table", f"{what} must be a whole number {bounds}, not {value!r}")


def _seconds(value: object, what: str, *, positive: bool) -> None:
    ok = type(value) in (int, float) and math.isfinite(value)  # type: ignore[arg-type]
    if not ok or value < 0 or (positive and value == 0) or value > 3600:  # type: ignore[operator]
        raise TableBookError(
            "bad_table", f"{what} must be a number of seconds up to 3600, not {value!r}"
        )


# ---------------------------------------------------------------- statements

_COLUMNS = (
    "name, game, options, seats, min_buy_in, max_buy_in, rake_bps, rake_cap, max_boxes, "
    "bots, bot_kind, decision_seconds, time_bank_seconds, tournament_id, tournament_table, "
    "people_only, bots_only, bot_chat, host_id, approve_seats"
)
INSERT_TABLE = Stmt(
    f"INSERT INTO room_tables ({_COLUMNS}, created_at) VALUES (:name, :game, :options, :seats, "
    ":min_buy_in, :max_buy_in, :rake_bps, :rake_cap, :max_boxes, :bots, :bot_kind, "
    ":decision_seconds, :time_bank_seconds, :tournament, :tournament_table, :people_only, "
    ":bots_only, :bot_chat, :host, :approve_seats, :now) "
    "ON CONFLICT DO NOTHING RETURNING id"
)
# Several rooms starting at once on one empty PostgreSQL database must not each
# create the first tables: they take this lock first (a two-key advisory lock, a key
# space of its own). SQLite writes one transaction at a time anyway.
_LOCK_SPACE = 0x706B  # "pk"
_FIRST_TABLES_KEY = 1
LOCK_FIRST_TABLES = Stmt(
    "SELECT 1",
    postgresql="SELECT 1 FROM (SELECT pg_advisory_xact_lock(:space, :key)) l",
)
SELECT_TABLES = Stmt(f"SELECT id, {_COLUMNS}, created_at FROM room_tables ORDER BY id")
SELECT_TABLE = Stmt(f"SELECT id, {_COLUMNS}, created_at FROM room_tables WHERE id = :id")
SELECT_TOURNAMENT_TABLE = Stmt(
    f"SELECT id, {_COLUMNS}, created_at FROM room_tables "
    "WHERE tournament_id = :tournament AND tournament_table = :number"
)
SET_BOT_CHAT = Stmt("UPDATE room_tables SET bot_chat = :on WHERE id = :id RETURNING id")
# Taken only when free, expired or the taker's own: the token rises with every taking.
ACQUIRE = Stmt(
    "UPDATE room_tables SET lease_owner = :owner, lease_token = lease_token + 1, "
    "lease_expires = :expires WHERE id = :id AND (lease_owner IS NULL OR lease_owner = :owner "
    "OR lease_expires IS NULL OR lease_expires < :now) RETURNING lease_token"
)
# The same, but a running lease is never taken, not even the taker's own.
ACQUIRE_FREE = Stmt(
    "UPDATE room_tables SET lease_owner = :owner, lease_token = lease_token + 1, "
    "lease_expires = :expires WHERE id = :id AND (lease_owner IS NULL "
    "OR lease_expires IS NULL OR lease_expires < :now) RETURNING lease_token"
)
LEASE = Stmt("SELECT lease_owner, lease_expires FROM room_tables WHERE id = :id")
LEASES = Stmt("SELECT id, lease_owner, lease_token, lease_expires FROM room_tables ORDER BY id")
RENEW = Stmt(
    "UPDATE room_tables SET lease_expires = :expires WHERE lease_owner = :owner AND "
    "(id, lease_token) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') "
    "FROM json_each(:pairs)) RETURNING id",
    postgresql="UPDATE room_tables SET lease_expires = :expires WHERE lease_owner = :owner AND "
    "(id, lease_token) IN (SELECT * FROM unnest(CAST(:ids AS BIGINT[]), "
    "CAST(:tokens AS BIGINT[]))) RETURNING id",
)
RELEASE = Stmt(
    "UPDATE room_tables SET lease_owner = NULL, lease_expires = NULL "
    "WHERE id = :id AND lease_owner = :owner AND lease_token = :token"
)


def table_of(row: Sequence[Any]) -> TableDef:
    """A :class:`TableDef` from a row of ``SELECT_TABLE``."""
    config = TableConfig(
        name=row[1],
        game=row[2],
        options=json.loads(row[3]),
        seats=row[4],
        min_buy_in=row[5],
        max_buy_in=row[6],
        rake_bps=row[7],
        rake_cap=row[8],
        max_boxes=row[9],
        bots=row[10],
        bot_kind=row[11],
        decision_seconds=row[12],
        time_bank_seconds=row[13],
        tournament=row[14],
        tournament_table=row[15],
        people_only=bool(row[16]),
        bots_only=bool(row[17]),
        bot_chat=bool(row[18]),
        host=row[19],
        approve_seats=bool(row[20]),
    )
    return TableDef(int(row[0]), config, float(row[21]))


@dataclass(frozen=True, slots=True)
class TableLease:
    """Who runs a table: the lease's owner and token, when it lapses, and whether it is
    free to take now (nobody holds it, or its holder let it lapse)."""

    table_id: int
    owner: str | None
    token: int
    expires: float | None
    free: bool


# ---------------------------------------------------------------- units


def create_table_unit(ctx: Context, config: TableConfig) -> Unit[TableDef]:
    """Store a checked config."""
    params = {f.name: getattr(config, f.name) for f in dataclasses.fields(config)}
    params["options"] = json.dumps(config.options, sort_keys=True, separators=(",", ":"))
    row = yield one(INSERT_TABLE, now=ctx.now, **params)
    if row is None and config.tournament is not None:
        # A tournament's table opened again (its director's order carried out twice).
        found = yield one(
            SELECT_TOURNAMENT_TABLE, tournament=config.tournament, number=config.tournament_table
        )
        if found is not None:
            return table_of(found)
    if row is None:
        raise TableBookError("name_taken", f"there is a table called {config.name!r} already")
    return TableDef(int(row[0]), config, ctx.now)


def create_first_tables_unit(
    ctx: Context, configs: Sequence[TableConfig]
) -> Unit[tuple[list[TableDef], bool]]:
    """The room's tables, and whether this call created them: ``configs`` are stored
    only when there is no table at all (one transaction, checked under a lock)."""
    yield one(LOCK_FIRST_TABLES, space=_LOCK_SPACE, key=_FIRST_TABLES_KEY)
    found = [table_of(row) for row in (yield all_rows(SELECT_TABLES))]
    if found:
        return found, False
    created = []
    for config in configs:
        created.append((yield from create_table_unit(ctx, config)))
    return created, True


def list_tables_unit(ctx: Context) -> Unit[list[TableDef]]:
    """Every table, oldest first."""
    return [table_of(row) for row in (yield all_rows(SELECT_TABLES))]


def get_table_unit(ctx: Context, table_id: int) -> Unit[TableDef]:
    """One table; :class:`TableError` ``unknown_table`` if there is none."""
    row = yield one(SELECT_TABLE, id=table_id)
    if row is None:
        raise TableBookError("unknown_table", f"there is no table {table_id!r}")
    return table_of(row)


def set_bot_chat_unit(ctx: Context, table_id: int, on: bool) -> Unit[TableDef]:
    """Turn the table's house bots' chat on or off; ``unknown_table`` if there is none."""
    if type(on) is not bool:
        raise TableBookError("bad_table", f"bot_chat is true or false, not {on!r}")
    row = yield one(SET_BOT_CHAT, id=table_id, on=on)
    if row is None:
        raise TableBookError("unknown_table", f"there is no table {table_id!r}")
    table = yield one(SELECT_TABLE, id=table_id)
    assert table is not None
    return table_of(table)


def acquire_unit(
    ctx: Context, table_id: int, owner: str, seconds: float, reclaim: bool = True
) -> Unit[int]:
    """Lease a table to ``owner`` for ``seconds``: the new fencing token.

    :class:`TableError` ``lease_held`` while another owner's lease runs (or, with
    ``reclaim`` false, any running lease, ``owner``'s own too).
    """
    statement = ACQUIRE if reclaim else ACQUIRE_FREE
    row = yield one(statement, id=table_id, owner=owner, now=ctx.now, expires=ctx.now + seconds)
    if row is not None:
        return int(row[0])
    held = yield one(LEASE, id=table_id)
    if held is None:
        raise TableBookError("unknown_table", f"there is no table {table_id!r}")
    left = max(0.0, float(held[1]) - ctx.now)
    raise TableBookError(
        "lease_held", f"table {table_id} is leased to {held[0]} for {left:.1f} s more"
    )


def leases_unit(ctx: Context) -> Unit[list[TableLease]]:
    """Every table's lease as it stands now."""
    rows = yield all_rows(LEASES)
    return [
        TableLease(
            int(row[0]),
            row[1],
            int(row[2]),
            None if row[3] is None else float(row[3]),
            row[1] is None or row[3] is None or float(row[3]) < ctx.now,
        )
        for row in rows
    ]


def renew_unit(ctx: Context, owner: str, leases: dict[int, int], seconds: float) -> Unit[set[int]]:
    """Extend ``owner``'s leases (table id to token) to ``seconds`` from now; those held."""
    rows = yield all_rows(
        RENEW,
        owner=owner,
        expires=ctx.now + seconds,
        pairs=[[table, token] for table, token in leases.items()],
        ids=list(leases),
        tokens=list(leases.values()),
    )
    return {int(row[0]) for row in rows}


def release_unit(ctx: Context, table_id: int, owner: str, token: int) -> Unit[bool]:
    """Free a lease ``owner`` holds with ``token``; whether it did."""
    return bool((yield run(RELEASE, id=table_id, owner=owner, token=token)))
