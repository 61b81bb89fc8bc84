"""A tournament's table in the room: a table task that its tournament's director seats and deals.

It is a :class:`~pokerhouse.server.table.task.TableTask` like any (its own
task, inbox, lease, store writes, watchers and clocks), with these
differences (RULES.md, "Tournaments"):

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

from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.table.inputs import Directed, TimerTick
from pokerhouse.server.table.outbox import Deliver
from pokerhouse.server.table.services import Services
from pokerhouse.server.table.task import TableTask
from pokerhouse.store import HandLog, TableDef, User
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

log = logging.getLogger("pokerhouse.tournament")

#: Where a tournament's table reports a hand that ended: ``(table number, report)``.
Report = Callable[[int, HandReport], None]


class TournamentTable(TableTask):
    """The task of one tournament table (see the module's docstring)."""

    def __init__(
        self, services: Services, definition: TableDef, deliver: Deliver, report: Report
    ) -> None:
        super().__init__(services, definition, deliver)
        number = definition.config.tournament_table
        assert number is not None, "a tournament's table has its number"
        self.number = number
        self.report = report
        #: Hands the director has ordered that this table has not dealt yet.
        self.deals = 0

    # ------------------------------------------------------------ the director's orders

    async def _tick(self, tick: TimerTick | Directed) -> None:
        if not isinstance(tick, Directed):
            return await super()._tick(tick)
        done = tick.done
        assert isinstance(done, asyncio.Future)
        if done.cancelled():
            return  # the tournament stopped waiting for it: its catch-up orders it again
        try:
            await self._carry_out(tick.order)
        except BaseException as error:
            if not done.done():
                done.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        if not done.done():
            done.set_result(None)

    async def _carry_out(self, order: object) -> None:
        if not self.available:
            code = "table_moved" if self.fenced else "room_unavailable"
            raise Unavailable(code, f"tournament table {self.number} is not running here now")
        match order:
            case OpenTable(_, seats):
                if self.table.occupied:
                    return  # seated already (the order carried out again after a restart)
                # One card face up to each: the highest takes the button (SitTogether's draw).
                draw = SitTogether(tuple((s.seat, s.player, s.stack, s.account) for s in seats))
                await self._seat(draw, [(s.seat, s.account) for s in seats])
            case SeatPlayer(_, seating):
                if self.table.seat(seating.seat) is not None:
                    return  # seated already (the order carried out again after a restart)
                command = Sit(seating.seat, seating.player, seating.stack, account=seating.account)
                await self._seat(command, [(seating.seat, seating.account)])
            case UnseatPlayer(_, seat):
                if self.table.seat(seat) is not None:
                    await self.step(Leave(seat))
            case Deal(_, _, stakes):
                if self.table.hand is not None:
                    raise RoomError("hand_running", f"table {self.number} is dealing a hand")
                await self.step(SetStakes(stakes))
                self.spec = self.table.spec
                self.deals = 1
                await self._deal()
            case _:
                raise RoomError("bad_order", f"a tournament table takes no {order!r}")

    async def _seat(self, command: Command, seats: list[tuple[int, int]]) -> None:
        """Seat players (their accounts' users join the task's seats once stored)."""
        users: dict[int, User] = {}
        for seat, account in seats:
            users[seat] = await self.services.store.users.get(account)
        self._sitting.update(users)
        try:
            await self.step(command)
        finally:
            for seat in users:
                self._sitting.pop(seat, None)

    # ------------------------------------------------------------ dealing

    async def _between_hands(self) -> None:
        """Deal only what the director ordered; nobody sits out or is stood up here."""
        if self.table.hand is None and self.deals:
            await self._deal()

    async def _deal(self) -> None:
        now = self.services.clock.now()
        await self.perform(self.rules.deal(self.table, now))
        if self.table.hand is not None:
            self.deals = 0

    def _tell(self, step: Step) -> None:
        super()._tell(step)
        for logged in step:
            event = logged.event
            if isinstance(event, TableHandEnded):
                self.report(self.number, self._hand_ended(event))
            elif isinstance(event, HandVoided):  # every stack as it was: a hand all the same
                self.report(self.number, self._hand_ended(TableHandEnded(0, (), (), 0)))

    def _hand_ended(self, event: TableHandEnded) -> HandReport:
        """The director's report of a hand: every seat's chips before and after it."""
        dealt = dict(zip(event.seats, zip(event.net, event.stacks, strict=True), strict=True))
        seats = []
        for seat in sorted(self.table.occupied):
            info = self.table.seat(seat)
            assert info is not None
            net, stack = dealt.get(seat, (0, info.stack))
            seats.append(SeatResult(seat, stack - net, stack))
        now = self.services.clock.now()
        return HandReport(
            self.number, tuple(seats), self.table.button, now, self.table.hands_played
        )

    async def _resume(self, stored: HandLog) -> None:
        """A hand carried on after a restart is dealt at its own level's stakes."""
        fields = {
            name for name, value in spec_to_dict(self.table.spec).items() if type(value) is int
        }
        stakes = tuple(
            (name, value)
            for name, value in sorted(stored.spec.items())
            if name in fields and type(value) is int
        )
        if stakes and self.table.hand is None:
            self.table.apply(SetStakes(stakes))
            self.spec = self.table.spec
        await super()._resume(stored)
