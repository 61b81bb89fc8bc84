"""The store's door for tables: their definitions, the bots' chat, leases and seats.

Reached as :attr:`pokerhouse.store.Store.tables`. A table is stored checked
in full (:class:`~pokerhouse.store.tables.TableConfig`); a node of the room
runs it under a lease whose fencing token every table write carries; its
seats change only through :meth:`pokerhouse.store.Store.commit` (the units
are in :mod:`pokerhouse.store.tables` and :mod:`pokerhouse.store.seats`).

>>> import asyncio, tempfile
>>> from pokerhouse.store import Batch, SeatIn, Store, TableConfig
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann = await store.users.create("Ann", None, bot=True, grant=500)
...         table = await store.tables.create(TableConfig("Razz 1", "razz"))
...         token = await store.tables.acquire(table.id, "node-a")
...         await store.commit(Batch(seats_in=[SeatIn(table.id, 0, ann.id, 100, "b1", token)]))
...         (seat,) = await store.tables.seats(table.id)
...         return [t.name for t in await store.tables.all()], seat.stack, token
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(['Razz 1'], 100, 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pokerhouse.store import seats, tables
from pokerhouse.store.arguments import lease_owner, lease_seconds, whole
from pokerhouse.store.database import Database
from pokerhouse.store.errors import TableBookError
from pokerhouse.store.seats import SeatRecord
from pokerhouse.store.tables import TableConfig, TableDef, TableLease
from pokerhouse.store.users import User


class TableBook:
    """The tables of one store: definitions, leases and seats."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def create(self, config: TableConfig) -> TableDef:
        """Store a table definition (checked in full)."""
        checked = config.checked()
        return await self._db.write(lambda ctx: tables.create_table_unit(ctx, checked))

    async def create_first(self, configs: Sequence[TableConfig]) -> tuple[list[TableDef], bool]:
        """Every table, creating ``configs`` first if there is none: and whether this call
        created them. Rooms starting together on one empty database create them once."""
        checked = [config.checked() for config in configs]
        return await self._db.write(lambda ctx: tables.create_first_tables_unit(ctx, checked))

    async def all(self) -> list[TableDef]:
        """Every table, oldest first."""
        return await self._db.read(tables.list_tables_unit)

    async def get(self, table_id: int) -> TableDef:
        """One table; ``unknown_table`` if there is none."""
        return await self._db.read(lambda ctx: tables.get_table_unit(ctx, table_id))

    async def set_bot_chat(self, table_id: int, on: bool) -> TableDef:
        """The house bots' chat at ``table_id`` on or off (``unknown_table``: no table)."""
        return await self._db.write(lambda ctx: tables.set_bot_chat_unit(ctx, table_id, on))

    async def acquire(
        self, table_id: int, owner: str, *, seconds: float = 10.0, reclaim: bool = True
    ) -> int:
        """Lease ``table_id`` to ``owner`` for ``seconds``: a fencing token larger than any
        before. The lease is taken only when it is free, expired or ``owner``'s already
        (``lease_held`` otherwise, naming the holder); with ``reclaim`` false, never
        while it runs, ``owner``'s own included (a node taking over a table another
        process of the same name may still run). Every table write must carry the
        token (``lease=``); one that carries another is refused with ``stale_lease``.
        The holder keeps it with :meth:`renew`."""
        owner = lease_owner(owner)
        lease_seconds(seconds)
        whole(table_id, 0)
        return await self._db.write(
            lambda ctx: tables.acquire_unit(ctx, table_id, owner, seconds, bool(reclaim))
        )

    async def leases(self) -> dict[int, TableLease]:
        """Every table's lease by table id: who holds it, its token, when it lapses, and
        whether it is free to take now (by the store's clock)."""
        found = await self._db.read(tables.leases_unit)
        return {lease.table_id: lease for lease in found}

    async def renew(
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

    async def release(self, table_id: int, owner: str, token: int) -> bool:
        """Give a lease up (the room stops): whether ``owner`` still held it with ``token``."""
        owner = lease_owner(owner)
        whole(table_id, 0)
        return await self._db.write(lambda ctx: tables.release_unit(ctx, table_id, owner, token))

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """The occupied seats of a table."""
        return await self._db.read(lambda ctx: seats.seats_unit(ctx, table_id))

    async def seats_of(self, user: User) -> list[SeatRecord]:
        """Every seat ``user`` holds, at every table (stacks as of the last hand settled)."""
        return await self._db.read(lambda ctx: seats.user_seats_unit(ctx, user.id))
