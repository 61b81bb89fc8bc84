"""A tournament's table (RULES.md, "Tournaments"): the policy of its task.

Its table runs in a :class:`~pokerhouse.server.table.task.TableTask` like any
(its own task, inbox, lease, store writes, watchers and clocks); this policy
makes these differences:

- its seats are the director's: players are seated (a new table's draw for
  the button included), moved and stood up by the director's orders
  (:class:`~pokerhouse.server.table.inputs.Directed`), never by their own
  requests (``tournament_table``), with the tournament's chips (the store
  takes them from the tournament's ``chips`` account, never a wallet);
- nobody sits out (the clock acts for an absent player) and nobody is stood
  up for being away;
- it deals a hand only when the director says so (a :class:`Deal`, which
  also sets the level's stakes), one hand per order;
- when a hand ends it reports the seats' chips to the director;
- its bots are entrants like anyone: never topped up, seated or stood up by
  the room.

An order it cannot carry out (the table is reloading, the store refused)
is answered with the error, and the tournament tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.socket.incoming import HostMessage
from pokerhouse.server.table.inputs import Caller
from pokerhouse.store import Batch, HandLog, User
from pokerhouse.table import (
    Command,
    HandVoided,
    Leave,
    SetStakes,
    Sit,
    SitTogether,
    Step,
    TableHandEnded,
)
from pokerhouse.tournament.orders import (
    Deal,
    HandReport,
    OpenTable,
    SeatPlayer,
    SeatResult,
    UnseatPlayer,
)

if TYPE_CHECKING:
    from pokerhouse.server.table.task import TableTask

log = logging.getLogger("pokerhouse.tournament")

#: Where a tournament's table reports a hand that ended: ``(table number, report)``.
Report = Callable[[int, HandReport], None]
#: Seconds a table holds a seat move applied but not stored, waiting for its director's
#: step to be (it is loaded again from the store past them).
HOLD_SECONDS = 120.0
#: The orders that move players: carried out with the director's step, in its transaction.
SeatOrder = OpenTable | SeatPlayer | UnseatPlayer


@dataclass(frozen=True)
class Prepared:
    """Seat moves applied to their table and waiting: ``batch`` is their writes (fenced by
    the table's lease), to be stored with the director's step; the tournament then sets
    ``stored`` (an exception: they were not, and the table loads itself again)."""

    batch: Batch
    stored: asyncio.Future[None]


@dataclass(frozen=True)
class Prepare:
    """Apply a director's step's seat moves at one table, in order, and hand their writes
    over (``prepared``: ``None`` when there is nothing to do, the table being as the
    orders want it already)."""

    orders: tuple[SeatOrder, ...]
    prepared: asyncio.Future[Prepared | None]


class TournamentPolicy:
    """The policy of one tournament table's task (see the module's docstring)."""

    seats_ordered = True
    everyone_watches = True

    def __init__(self, report: Report) -> None:
        self.report = report
        #: Hands the director has ordered that this table has not dealt yet.
        self.deals = 0

    def attach(self, task: TableTask) -> None:
        number = task.config.tournament_table
        assert number is not None, "a tournament's table has its number"
        self.task = task
        #: The table's number in its tournament.
        self.number = number

    @property
    def closed(self) -> bool:
        return False  # the tournament closes its tables itself

    async def loaded(self) -> None:
        return None

    async def admits(self, user_id: int | None) -> bool:
        return True

    async def may_sit(self, user: User) -> None:
        raise RoomError(
            "tournament_table", "a tournament seats its players itself, until they are out"
        )

    async def watched(self, caller: Caller) -> None:
        return None

    async def host(self, caller: Caller, message: HostMessage) -> None:
        raise RoomError("not_private", f"table {self.task.id} is not a private table")

    # ------------------------------------------------------------ the director's orders

    async def carry_out(self, order: object) -> None:
        task = self.task
        if not task.available:
            code = "table_moved" if task.fenced else "room_unavailable"
            raise Unavailable(code, f"tournament table {self.number} is not running here now")
        match order:
            case Prepare(seat_orders, prepared):
                await self._prepare(seat_orders, prepared)
            case OpenTable() | SeatPlayer() | UnseatPlayer():  # a catch-up's, alone
                command = await self._command(order)
                if command is not None:
                    await task.seat(*command)
            case Deal(_, _, stakes):
                if task.table.hand is not None:
                    raise RoomError("hand_running", f"table {self.number} is dealing a hand")
                await task.step(SetStakes(stakes))
                task.spec = task.table.spec
                self.deals = 1
                await self._deal()
            case _:
                raise RoomError("bad_order", f"a tournament table takes no {order!r}")

    async def _prepare(
        self, orders: tuple[SeatOrder, ...], prepared: asyncio.Future[Prepared | None]
    ) -> None:
        """Seat moves for the director's step: applied here, stored with the step, told
        once stored (or the table loaded again from the store, if they were not)."""
        task = self.task
        commands = [found for order in orders if (found := await self._command(order))]
        if not commands or prepared.done():  # nothing to do, or nobody waits any more
            if not prepared.done():
                prepared.set_result(None)
            return
        steps: list[tuple[Step, dict[int, User]]] = []
        batches = []
        try:
            for command, users in commands:
                step, batch = task.prepare(command, users)
                steps.append((step, users))
                batches.append(batch)
        except BaseException as error:
            if steps:  # applied in part: what is in memory is not what will be stored
                task.abandon(error)
            raise
        stored: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        prepared.set_result(Prepared(Batch.merged(batches), stored))
        try:
            await asyncio.wait_for(stored, HOLD_SECONDS)
        except BaseException as error:
            task.abandon(error)
            raise
        for step, users in steps:
            task.confirm(step, users)

    async def _command(self, order: SeatOrder) -> tuple[Command, dict[int, User]] | None:
        """The table's command for a seat move, and who takes each seat (``None``: the table
        is as the order wants it already, the order carried out again after a restart)."""
        table = self.task.table
        match order:
            case OpenTable(_, seats):
                if table.occupied:
                    return None
                # One card face up to each: the highest takes the button (SitTogether's draw).
                draw = SitTogether(tuple((s.seat, s.player, s.stack, s.account) for s in seats))
                return draw, await self._users([(s.seat, s.account) for s in seats])
            case SeatPlayer(_, seating):
                if table.seat(seating.seat) is not None:
                    return None
                command = Sit(seating.seat, seating.player, seating.stack, account=seating.account)
                return command, await self._users([(seating.seat, seating.account)])
            case UnseatPlayer(_, seat):
                return None if table.seat(seat) is None else (Leave(seat), {})

    async def _users(self, seats: list[tuple[int, int]]) -> dict[int, User]:
        store = self.task.services.store
        return {seat: await store.get_user(account) for seat, account in seats}

    # ------------------------------------------------------------ dealing

    async def between_hands(self) -> bool:
        """Deal only what the director ordered; nobody sits out or is stood up here."""
        if self.deals:
            await self._deal()
        return False

    async def _deal(self) -> None:
        task = self.task
        now = task.services.clock.now()
        await task.perform(task.rules.deal(task.table, now))
        if task.table.hand is not None:
            self.deals = 0

    def stepped(self, step: Step) -> None:
        for logged in step:
            event = logged.event
            if isinstance(event, TableHandEnded):
                self.report(self.number, self._hand_ended(event))
            elif isinstance(event, HandVoided):  # every stack as it was: a hand all the same
                self.report(self.number, self._hand_ended(TableHandEnded(0, (), (), 0)))

    def _hand_ended(self, event: TableHandEnded) -> HandReport:
        """The director's report of a hand: every seat's chips before and after it."""
        table = self.task.table
        dealt = dict(zip(event.seats, zip(event.net, event.stacks, strict=True), strict=True))
        seats = []
        for seat in sorted(table.occupied):
            info = table.seat(seat)
            assert info is not None
            net, stack = dealt.get(seat, (0, info.stack))
            seats.append(SeatResult(seat, stack - net, stack))
        now = self.task.services.clock.now()
        return HandReport(self.number, tuple(seats), table.button, now, table.hands_played)

    async def resuming(self, stored: HandLog) -> None:
        """A hand carried on after a restart is dealt at its own level's stakes."""
        task = self.task
        fields = {
            name for name, value in spec_to_dict(task.table.spec).items() if type(value) is int
        }
        stakes = tuple(
            (name, value)
            for name, value in sorted(stored.spec.items())
            if name in fields and type(value) is int
        )
        if stakes and task.table.hand is None:
            task.table.apply(SetStakes(stakes))
            task.spec = task.table.spec
