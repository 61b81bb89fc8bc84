"""One tournament in the room: its director, its clock, its tables, one input at a time.

A :class:`TournamentTask` loads a stored tournament, gives its
:class:`~pokerhouse.tournament.Director` one input at a time (an entry, an
unregistering, a tick of the clock, a hand a table reports), saves every
step with its money in one transaction (``store.tournaments.step``), and
only then carries the orders out: a new table is stored and its
:class:`~pokerhouse.server.table.task.TableTask` started (with the
:class:`~pokerhouse.server.tournaments.policy.TournamentPolicy`), seats
and deals go to the tables' inboxes one after another, each awaited. A step
the store refuses leaves the director as it was stored.

The director's state is the truth of where everyone sits; the tables
follow it. After a restart (or an order a table could not carry out) the
task compares each table with the director and orders what is missing: a
seat, a standing up, a deal, or the report of a hand that ended while the
room was down.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.server.errors import RoomError
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table.inputs import Directed
from pokerhouse.server.table.services import Services
from pokerhouse.server.table.task import TableTask
from pokerhouse.server.tournaments.lines import TournamentNewsKind
from pokerhouse.server.tournaments.policy import Prepare, Prepared, Report, SeatOrder
from pokerhouse.server.tournaments.view import news, summary
from pokerhouse.store import (
    Batch,
    StaleLease,
    StoreError,
    TableBookError,
    TableConfig,
    TableDef,
    TournamentRecord,
    User,
)
from pokerhouse.tournament import Director
from pokerhouse.tournament.orders import (
    CloseTable,
    Deal,
    HandReport,
    Input,
    OpenTable,
    Order,
    Register,
    Resume,
    Seating,
    SeatPlayer,
    SeatResult,
    Start,
    Tick,
    Unregister,
    UnseatPlayer,
)
from pokerhouse.tournament.state import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    TableState,
    TournamentEntry,
)

log = logging.getLogger("pokerhouse.tournament")

#: The longest table name the store takes.
MAX_TABLE_NAME = 40
#: How often the tournament's clock ticks (levels, breaks, late registration), and how
#: often at least a tick is saved when nothing else happened (a restart loses no more).
TICK_SECONDS = 1.0
SAVE_SECONDS = 10.0
#: How long a table may take to carry out an order (real seconds: a table whose task
#: no longer reads its inbox must not hold the tournament for ever; it is tried again).
ORDER_SECONDS = 60.0
#: How often the tables are looked at for a hand the director awaits and none deals
#: (seen idle at two looks in a row: an order or a report was lost, and is made good).
STUCK_SECONDS = 10.0


class TableHost(Protocol):
    """What a tournament needs of the room: its tables' tasks started and stopped."""

    async def open_table(self, definition: TableDef, report: Report) -> TableTask:
        """Start the task of a tournament's table (stored already)."""
        ...

    async def close_table(self, task: TableTask) -> None:
        """Stop a tournament table's task for good."""
        ...


@dataclass(frozen=True, slots=True)
class _Given:
    """An input for the director, and whom to tell how it went (``None``: nobody)."""

    given: Input
    done: asyncio.Future[TournamentRecord] | None = None


class TournamentTask:
    """The task that runs one tournament (see the module's docstring)."""

    def __init__(
        self,
        services: Services,
        record: TournamentRecord,
        host: TableHost,
        ended: Callable[[TournamentTask], Awaitable[None]] | None = None,
    ) -> None:
        self.services = services
        self.record = record
        self.id = record.id
        self.spec = record.spec
        self.director = Director(record.spec, state=record.state())
        self.host = host
        self.ended = ended
        #: The tournament's tables by their number in it.
        self.tables: dict[int, TableTask] = {}
        self.inbox: asyncio.Queue[_Given] = asyncio.Queue()
        self._saved_at = services.clock.now()
        self._tasks: list[asyncio.Task[None]] = []
        #: Orders a table could not carry out: looked at again on the next tick.
        self._behind = False
        #: Tables seen idle while the director awaited their hand, and when last looked.
        self._idle: set[int] = set()
        self._looked_at = services.clock.now()
        #: How many orders of each kind this task has carried out (``LevelUp``, ``Placed``...).
        self.seen: Counter[str] = Counter()
        #: Addresses following the tournament, and where their frames go (the room's).
        self.watchers: set[int] = set()
        self.deliver: Callable[[int, Sequence[bytes]], None] | None = None

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        """Open the tables the director has, put them where it says, and run."""
        if self.director.status == RUNNING:
            await self._give(Resume(self.services.clock.now()), carry_out=False)
            for number in sorted(self.director.state.tables):
                await self._open(number)
            await self._catch_up()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._run(), name=f"tournament-{self.id}"),
            loop.create_task(self._clock(), name=f"tournament-{self.id}-clock"),
        ]

    async def stop(self) -> None:
        """Stop the tournament's task and its tables' (what was saved stays)."""
        for task in self._tasks:
            await cancel_and_wait(task)
        for table in list(self.tables.values()):
            await table.stop()

    @property
    def over(self) -> bool:
        """Whether the tournament has finished or was cancelled."""
        return self.director.status in (FINISHED, CANCELLED)

    # ------------------------------------------------------------ what players ask

    async def register(self, user: User) -> TournamentRecord:
        """``user`` buys in (refused with the director's or the store's error)."""
        now = self.services.clock.now()
        # Who plays the account: its owner for a bot account (one person, one entry).
        person = user.owner_id if user.owner_id is not None else user.id
        return await self._ask(Register(user.username, user.id, now, person))

    async def unregister(self, user: User) -> TournamentRecord:
        """``user``'s entry is given back (only before the start)."""
        return await self._ask(Unregister(user.username, self.services.clock.now()))

    async def start_now(self) -> TournamentRecord:
        """A scheduled tournament's time has come (cancelled if too few entered)."""
        return await self._ask(Start(self.services.clock.now()))

    async def _ask(self, given: Input) -> TournamentRecord:
        done: asyncio.Future[TournamentRecord] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait(_Given(given, done))
        return await done

    def _report(self, number: int, report: HandReport) -> None:
        """A table's hand ended (called from the table's own task)."""
        self.inbox.put_nowait(_Given(report))

    # ------------------------------------------------------------ the loop

    async def _run(self) -> None:
        while not self.over:
            item = await self.inbox.get()
            try:
                await self._give(item.given)
            except asyncio.CancelledError:
                raise
            except PokerError as error:
                if item.done is not None and not item.done.done():
                    item.done.set_exception(error)
                elif error.code == "stale_report":  # reported twice: taken once already
                    log.info("tournament %s: %s", self.id, error)
                elif item.done is None:
                    log.warning("tournament %s: %r refused: %s", self.id, item.given, error)
                continue
            except Exception as error:
                log.exception("tournament %s: a bug handling %r", self.id, item.given)
                if item.done is not None and not item.done.done():
                    item.done.set_exception(error)
                continue
            if item.done is not None and not item.done.done():
                item.done.set_result(self.record)
        if self.ended is not None:
            await self.ended(self)

    async def _clock(self) -> None:
        """Tick while the tournament runs: levels, breaks and late registration move on;
        a scheduled one starts when its time comes (Unix time, the start shown to all)."""
        while not self.over:
            await self.services.clock.sleep(TICK_SECONDS)
            status, starts_at = self.director.status, self.record.starts_at
            if not self.inbox.empty():
                continue
            now = self.services.clock.now()
            if status == RUNNING:
                self.inbox.put_nowait(_Given(Tick(now)))
            elif status == REGISTERING and starts_at is not None and time.time() >= starts_at:
                self.inbox.put_nowait(_Given(Start(now)))

    async def _give(self, given: Input, *, carry_out: bool = True) -> None:
        """One input through the director; saved with its money; then carried out."""
        orders = self.director.apply(given)
        now = self.services.clock.now()
        if isinstance(given, Tick) and now - self._looked_at >= STUCK_SECONDS:
            self._look_for_stuck_tables(now)
        if not orders and isinstance(given, Tick) and now - self._saved_at < SAVE_SECONDS:
            # The clock moved on: saved with the next step (a restart pauses it).
            if self._behind and self.director.status == RUNNING:
                await self._catch_up()
            return
        # The seat moves the step orders are applied at their tables first, and stored
        # with the step in its one transaction.
        prepared = await self._prepare(orders) if carry_out else {}
        try:
            self.record = await self._save(orders, prepared)
        except BaseException as error:
            self.director = Director(self.spec, state=self.record.state())
            for waiting in prepared.values():
                _stored(waiting, error)
            raise
        for waiting in prepared.values():
            _stored(waiting)
        self._saved_at = now
        if carry_out:
            await self._carry_out(
                tuple(o for o in orders if not _moves(o) or o.table not in prepared)
            )
        self._tell(orders)
        if self._behind and self.director.status == RUNNING:
            await self._catch_up()

    async def _save(
        self, orders: tuple[Order, ...], prepared: dict[int, Prepared]
    ) -> TournamentRecord:
        """Store the director's step with its money and its tables' seat moves, in one
        transaction. A table's writes refused (its lease moved on) leave its moves out:
        the step is stored alone, and the tables catch up from it."""
        book = self.services.store.tournaments
        state = self.director.state
        if not prepared:
            return await book.step(self.record, state, orders)
        seats = Batch.merged([waiting.batch for waiting in prepared.values()])
        try:
            return await book.step(self.record, state, orders, seats)
        except (StaleLease, TableBookError) as error:
            log.warning("tournament %s: its tables' moves not stored: %s", self.id, error)
            for waiting in prepared.values():
                _stored(waiting, error)
            prepared.clear()
            self._behind = True
            return await book.step(self.record, state, orders)

    async def _prepare(self, orders: tuple[Order, ...]) -> dict[int, Prepared]:
        """Each table's seat moves among ``orders``, applied there and waiting to be stored
        with the step (a table that cannot is caught up later)."""
        by_table: dict[int, list[SeatOrder]] = {}
        for order in orders:
            if _moves(order):
                by_table.setdefault(order.table, []).append(order)
        prepared: dict[int, Prepared] = {}
        for number, moves in by_table.items():
            try:
                table = await self._open(number)
                waiting = await self._handed_over(table, tuple(moves))
            except (PokerError, StoreError, OSError) as error:
                log.warning("tournament %s: table %s not moved: %s", self.id, number, error)
                self._behind = True
                continue
            if waiting is not None:
                prepared[number] = waiting
        return prepared

    # ------------------------------------------------------------ watchers

    def watch(self, address: int, on: bool = True) -> None:
        """``address`` follows the tournament (its line now, then every change) or stops."""
        if not on:
            self.watchers.discard(address)
            return
        self.watchers.add(address)
        if self.deliver is not None:
            self.deliver(address, [self._frame([])])

    def _tell(self, orders: tuple[Order, ...]) -> None:
        """Every watcher: the line as it is now and the news of ``orders``."""
        if not self.watchers or self.deliver is None:
            return
        players = {entry.number: entry.player for entry in self.director.entries}
        tables = {number: table.id for number, table in self.tables.items()}
        told = [item for order in orders for item in news(order, players, tables)]
        frame = self._frame(told)
        for address in list(self.watchers):
            self.deliver(address, [frame])

    def _frame(self, told: list[TournamentNewsKind]) -> bytes:
        now = self.services.clock.now()
        line = summary(self.id, self.spec, self.director.state, now=now)
        return outgoing.encode(outgoing.TournamentNews(tournament=self.id, line=line, news=told))

    # ------------------------------------------------------------ the orders

    async def _carry_out(self, orders: tuple[Order, ...]) -> None:
        for order in orders:
            self.seen[type(order).__name__] += 1
            try:
                await self._carry_out_one(order)
            except (PokerError, StoreError, OSError) as error:
                # The table is reloading or the store failed: the tables catch up later.
                log.warning("tournament %s: %r not carried out: %s", self.id, order, error)
                self._behind = True

    async def _carry_out_one(self, order: Order) -> None:
        match order:
            case OpenTable(number):
                table = await self._open(number)
                await self._order(table, order)
            case SeatPlayer(number) | UnseatPlayer(number) | Deal(number):
                found = self.tables.get(number)
                if found is None:  # its opening failed: the catch-up opens it and does this
                    self._behind = True
                    return
                await self._order(found, order)
            case CloseTable(number):
                closing = self.tables.pop(number, None)
                if closing is not None:
                    await self.host.close_table(closing)
            case _:
                log.info("tournament %s: %r", self.id, order)

    async def _open(self, number: int) -> TableTask:
        """The task of table ``number``, stored and started if it is not yet."""
        found = self.tables.get(number)
        if found is not None:
            return found
        spec = self.spec
        stakes = dict(spec.structure.stakes(self.director.level))
        # Unique in the room: tournaments of one name come again and again.
        name = f"{get_game(spec.game).title} #{self.id} · table {number}"
        config = TableConfig(
            name if len(name) <= MAX_TABLE_NAME else f"Tournament #{self.id} · table {number}",
            spec.game,
            stakes,
            spec.seats,
            tournament=self.id,
            tournament_table=number,
        )
        definition = await self.services.store.tables.create(config)
        table = self.tables[number] = await self.host.open_table(definition, self._report)
        return table

    def _look_for_stuck_tables(self, now: float) -> None:
        """A table the director has dealing that has no hand at two looks in a row lost
        an order or a report: the catch-up makes it good (a deal, or the report)."""
        self._looked_at = now
        idle = {
            number
            for number, wanted in self.director.state.tables.items()
            if wanted.playing
            and (live := self.tables.get(number)) is not None
            and live.table.hand is None
        }
        stuck = idle & self._idle
        self._idle = idle
        if stuck and self.director.status == RUNNING:
            log.warning("tournament %s: tables %s idle, their hands awaited", self.id, stuck)
            self._behind = True

    async def _handed_over(self, table: TableTask, moves: tuple[SeatOrder, ...]) -> Prepared | None:
        """Have ``table`` apply ``moves`` and hand their writes over (:class:`Prepare`)."""
        loop = asyncio.get_running_loop()
        prepared: asyncio.Future[Prepared | None] = loop.create_future()
        done: asyncio.Future[None] = loop.create_future()
        # How the moves went after the handing over is ``stored``'s to tell: the table's own
        # answer is read only if it refuses before.
        done.add_done_callback(lambda future: future.cancelled() or future.exception())
        table.post(Directed(Prepare(moves, prepared), done))
        waits: set[asyncio.Future[Any]] = {prepared, done}
        await asyncio.wait(waits, timeout=ORDER_SECONDS, return_when="FIRST_COMPLETED")
        if prepared.done():
            return prepared.result()
        prepared.cancel()  # nobody waits any more: the table does nothing, or loads again
        if done.done():
            done.result()  # the table's refusal
        raise RoomError(
            "table_busy", f"table {table.config.tournament_table} did not move {moves!r} in time"
        )

    async def _order(self, table: TableTask, order: object) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        table.post(Directed(order, done))
        try:
            await asyncio.wait_for(done, ORDER_SECONDS)
        except TimeoutError:
            raise RoomError(
                "table_busy",
                f"table {table.config.tournament_table} did not carry out {order!r} in time",
            ) from None

    async def _catch_up(self) -> None:
        """Bring every table to where the director has it (after a restart, or an order
        a table could not carry out): first every stand-up, then every seat (a move's
        player is never seated twice), then the deals and the reports of hands that
        ended while the room was down."""
        self._behind = False
        state = self.director.state
        tables: dict[int, TableTask] = {}
        for number in sorted(state.tables):
            try:
                tables[number] = await self._open(number)
            except (PokerError, StoreError, OSError) as error:
                log.warning("tournament %s: table %s not opened: %s", self.id, number, error)
                self._behind = True
        for stage in (self._stand_up_extra, self._seat_missing, self._deal_or_report):
            for number, table in tables.items():
                wanted = state.tables.get(number)
                if wanted is None:
                    continue
                try:
                    await stage(number, table, wanted)
                except (PokerError, StoreError, OSError) as error:
                    log.warning("tournament %s: table %s behind: %s", self.id, number, error)
                    self._behind = True

    async def _stand_up_extra(self, number: int, table: TableTask, wanted: TableState) -> None:
        live = table.table
        for seat in sorted(live.occupied):
            if live.hand is None and (
                seat not in wanted.seats
                or live.account_of(seat) != self._entry(wanted.seats[seat]).account
            ):
                await self._order(table, UnseatPlayer(number, seat, 0, "caught up"))

    async def _seat_missing(self, number: int, table: TableTask, wanted: TableState) -> None:
        live = table.table
        for seat, entry_number in sorted(wanted.seats.items()):
            entry = self._entry(entry_number)
            if live.seat(seat) is None and entry.seated:
                seating = Seating(seat, entry.number, entry.player, entry.account, entry.stack)
                await self._order(table, SeatPlayer(number, seating))

    async def _deal_or_report(self, number: int, table: TableTask, wanted: TableState) -> None:
        live, director = table.table, self.director
        if not wanted.playing or live.hand is not None:
            return  # a hand running goes on from its log and reports itself
        if live.hands_played > wanted.hands:
            # The hand ended and was stored, but the room stopped before the director heard.
            results = []
            for seat, entry_number in sorted(wanted.seats.items()):
                info = live.seat(seat)
                end = info.stack if info is not None else 0
                results.append(SeatResult(seat, self._entry(entry_number).stack, end))
            # Numbered: if the table's own report is still in the inbox, one of the two
            # is refused as stale (taken twice, it would end the next hand the director
            # deals there, and the real end of that hand would be refused: a stall).
            now = self.services.clock.now()
            report = HandReport(number, tuple(results), live.button, now, wanted.hands + 1)
            self.inbox.put_nowait(_Given(report))
        else:
            await self._order(table, Deal(number, director.level, director.stakes))

    def _entry(self, number: int) -> TournamentEntry:
        return next(entry for entry in self.director.entries if entry.number == number)


def _moves(order: Order) -> TypeGuard[SeatOrder]:
    """Whether ``order`` moves players (it is stored with the director's step)."""
    return isinstance(order, OpenTable | SeatPlayer | UnseatPlayer)


def _stored(waiting: Prepared, error: BaseException | None = None) -> None:
    """Tell a table whether its seat moves were stored (``error``: they were not)."""
    if waiting.stored.done():
        return
    if error is None:
        waiting.stored.set_result(None)
    else:
        waiting.stored.set_exception(RoomError("not_stored", f"not stored: {error}"))
