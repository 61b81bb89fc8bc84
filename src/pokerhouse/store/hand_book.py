"""The store's door for played hands: records, logs, a player's hands and counts.

Reached as :attr:`pokerhouse.store.Store.hands`. Hands are written only
through :meth:`pokerhouse.store.Store.commit`; this book reads them (the
units are in :mod:`pokerhouse.store.reports`). A hand's record never holds
its deck; its log, for the room to carry a running hand on, does.

>>> import asyncio, random, tempfile
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.store import ActionRecord, Batch, HandStart, SeatIn, Store, TableConfig
>>> order = tuple(str(card) for card in Deck(random.Random(1)).order())
>>> async def demo(path):
...     async with await Store.open(f"sqlite:///{path}/room.db") as store:
...         ann, bob = [await store.users.create(n, None, bot=True) for n in ("Ann", "Bob")]
...         table = (await store.tables.create(TableConfig("T", "3x4"))).id
...         seats = [SeatIn(table, s, u.id, 100, f"b{s}") for s, u in enumerate((ann, bob))]
...         start = HandStart(table, 1, "3x4", {}, {}, [(0, ann.id, 100), (1, bob.id, 100)],
...                           order, 7)
...         act = ActionRecord(table, 1, 0, 0, "check", user_id=ann.id, client_id="c1")
...         await store.commit(Batch(seats_in=seats, starts=[start], actions=[act]))
...         (log,) = await store.hands.unfinished(table)
...         return (log.number, len(log.actions), await store.hands.last_number(table),
...                 await store.hands.applied(table, 1, ann, "c1"))
>>> with tempfile.TemporaryDirectory() as path:
...     asyncio.run(demo(path))
(1, 1, 1, True)
"""

from __future__ import annotations

from pokerhouse.store import reports
from pokerhouse.store.arguments import check_before, user_id_of, whole
from pokerhouse.store.database import Database
from pokerhouse.store.errors import AccountError
from pokerhouse.store.handlog import HandLog, HandSummary, StoredHand
from pokerhouse.store.users import User


class HandBook:
    """The hands played in one store."""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, hand_id: int) -> StoredHand:
        """A hand's record (never its deck)."""
        return await self._db.read(lambda ctx: reports.hand_record_unit(ctx, hand_id))

    async def log(self, hand_id: int) -> HandLog:
        """A hand's full log, deck included: server-side only."""
        return await self._db.read(lambda ctx: reports.hand_log_unit(ctx, hand_id))

    async def unfinished(self, table_id: int | None = None) -> list[HandLog]:
        """The logs of running hands (to resume at start-up), oldest first."""
        return await self._db.read(lambda ctx: reports.unfinished_unit(ctx, table_id))

    async def played_by(
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

    async def last_number(self, table_id: int) -> int:
        """The highest hand number ``table_id`` has used (0 before its first hand).

        A table restarting numbers its next hand one above it, so no number is
        lost or used twice, voided hands included.
        """
        whole(table_id, 0)
        return await self._db.read(lambda ctx: reports.last_number_unit(ctx, table_id))

    async def played_per_table(self) -> dict[int, int]:
        """Finished hands per table id."""
        return await self._db.read(reports.hands_played_unit)

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
