"""The store's door for tournaments: create, read, and save a director's steps with their money.

Reached as :attr:`pokerhouse.store.Store.tournaments`. A runner loads a
tournament, gives its director an input, and saves the step:

>>> import asyncio, tempfile
>>> from pokerhouse.store import Store
>>> from pokerhouse.tournament import Director, Register, sit_and_go
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db", upgrade=True) as store:
...         ann = await store.create_user("ann", "correct horse battery", grant=500)
...         book = store.tournaments
...         record = await book.create(sit_and_go("razz", seats=2, buy_in=100, fee=10))
...         director = Director(record.spec, state=record.state())
...         orders = director.apply(Register("ann", ann.id))
...         record = await book.step(record, director.state, orders)
...         return record.version, await store.balance(record.pool)
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(1, 100)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pokerhouse.store import hands as hand_units
from pokerhouse.store import tournaments as units
from pokerhouse.store.database import Database
from pokerhouse.store.errors import TournamentBookError
from pokerhouse.store.handlog import Batch
from pokerhouse.store.sql import Context, Unit
from pokerhouse.store.tournaments import LIST_LIMIT, EntryRecord, TournamentRecord
from pokerhouse.tournament.director import Director
from pokerhouse.tournament.orders import Order
from pokerhouse.tournament.spec import TournamentSpec
from pokerhouse.tournament.state import CANCELLED, FINISHED, REGISTERING, RUNNING, State

#: Every status, as :meth:`TournamentBook.find` takes them.
STATUSES = (REGISTERING, RUNNING, FINISHED, CANCELLED)


class TournamentBook:
    """Tournaments in one store."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(
        self,
        spec: TournamentSpec,
        *,
        starts_at: float | None = None,
        state: State | None = None,
    ) -> TournamentRecord:
        """Store a new tournament (``state``: a director's fresh one, by default a new seed)."""
        if not isinstance(spec, TournamentSpec):
            raise TournamentBookError("bad_tournament", f"not a tournament spec: {spec!r}")
        if starts_at is not None and (
            type(starts_at) not in (int, float) or not math.isfinite(starts_at)
        ):
            raise TournamentBookError("bad_tournament", f"a start time is seconds: {starts_at!r}")
        if state is None:
            state = Director(spec).state
        if state.status != REGISTERING or state.entries:
            raise TournamentBookError("bad_tournament", "a new tournament has no entries yet")
        fresh = state
        return await self._db.write(
            lambda ctx: units.create_unit(
                ctx, spec, fresh, None if starts_at is None else float(starts_at)
            )
        )

    async def get(self, tournament_id: int) -> TournamentRecord:
        """One tournament; ``unknown_tournament`` if there is none."""
        _id(tournament_id)
        return await self._db.read(lambda ctx: units.get_unit(ctx, tournament_id))

    async def find(
        self, statuses: Sequence[str] = STATUSES, *, limit: int = LIST_LIMIT
    ) -> list[TournamentRecord]:
        """Tournaments in ``statuses``, newest first, at most ``limit``."""
        wanted = list(statuses)
        unknown = sorted(set(wanted) - set(STATUSES))
        if unknown or not wanted:
            raise TournamentBookError(
                "bad_status", f"statuses are {', '.join(STATUSES)}, not {unknown or wanted}"
            )
        if type(limit) is not int or not 1 <= limit <= LIST_LIMIT:
            raise TournamentBookError("bad_limit", f"a limit is 1 to {LIST_LIMIT}, not {limit!r}")
        return await self._db.read(lambda ctx: units.list_unit(ctx, wanted, limit))

    async def entries(self, tournament_id: int) -> list[EntryRecord]:
        """A tournament's entries, in the order they came."""
        _id(tournament_id)
        return await self._db.read(lambda ctx: units.entries_unit(ctx, tournament_id))

    async def acquire(self, tournament_id: int, owner: str, *, seconds: float) -> int | None:
        """Lease a live tournament to ``owner`` (a node of the room) for ``seconds``: its
        new token, or ``None`` while another node's lease runs or once it has ended."""
        _id(tournament_id)
        return await self._db.write(
            lambda ctx: units.acquire_unit(ctx, tournament_id, owner, seconds)
        )

    async def renew(self, owner: str, leases: dict[int, int], *, seconds: float) -> set[int]:
        """Extend ``owner``'s leases ``{tournament: token}``; the tournaments it still holds."""
        if not leases:
            return set()
        return await self._db.write(lambda ctx: units.renew_unit(ctx, owner, leases, seconds))

    async def release(self, tournament_id: int, owner: str, token: int) -> None:
        """Give a lease up (the room stops); another node may take the tournament at once."""
        await self._db.write(lambda ctx: units.release_unit(ctx, tournament_id, owner, token))

    async def owners(self) -> dict[int, str | None]:
        """Every live tournament, and the node whose lease runs it now (``None``: nobody's,
        until a node takes it over)."""
        return await self._db.read(units.owners_unit)

    async def tables(self, tournament_id: int) -> dict[int, int]:
        """The tables a tournament has opened: its number for each to the room's table id."""
        _id(tournament_id)
        return await self._db.read(lambda ctx: units.tables_unit(ctx, tournament_id))

    async def step(
        self,
        record: TournamentRecord,
        after: State,
        orders: Sequence[Order],
        seats: Batch | None = None,
    ) -> TournamentRecord:
        """Save the state a director reached from ``record`` with ``orders``, and its money,
        and (``seats``) the writes of the tables' seat moves it ordered, each fenced by its
        table's lease.

        All or nothing: ``stale_tournament`` if another step was saved since
        ``record`` was read, ``insufficient_funds`` if a wallet cannot pay an
        entry, ``pool_short`` if the prizes would pass the buy-ins and the
        guarantee, a table's error (``stale_lease``...) for its writes. On any
        error nothing is written, and the caller's director must go back to
        ``record.state()``.
        """
        money = units.plan(record.id, record.spec, record.state(), after, orders)
        moves = None if seats is None or not len(seats) else seats.checked()

        def unit(ctx: Context) -> Unit[TournamentRecord]:
            saved = yield from units.step_unit(ctx, record, after, money)
            if moves is not None:
                yield from hand_units.batch_unit(ctx, moves)
            return saved

        return await self._db.write(unit)


def _id(value: object) -> None:
    if type(value) is not int or value < 1:
        raise TournamentBookError(
            "unknown_tournament", f"a tournament id is a whole number >= 1: {value!r}"
        )
