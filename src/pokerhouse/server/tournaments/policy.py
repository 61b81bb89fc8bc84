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

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.socket.incoming import HostMessage
from pokerhouse.server.table.inputs import Caller
from pokerhouse.store import HandLog, User
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
            case OpenTable(_, seats):
                if task.table.occupied:
                    return  # seated already (the order carried out again after a restart)
                # One card face up to each: the highest takes the button (SitTogether's draw).
                draw = SitTogether(tuple((s.seat, s.player, s.stack, s.account) for s in seats))
                await self._seat(draw, [(s.seat, s.account) for s in seats])
            case SeatPlayer(_, seating):
                if task.table.seat(seating.seat) is not None:
                    return  # seated already (the order carried out again after a restart)
                command = Sit(seating.seat, seating.player, seating.stack, account=seating.account)
                await self._seat(command, [(seating.seat, seating.account)])
            case UnseatPlayer(_, seat):
                if task.table.seat(seat) is not None:
                    await task.step(Leave(seat))
            case Deal(_, _, stakes):
                if task.table.hand is not None:
                    raise RoomError("hand_running", f"table {self.number} is dealing a hand")
                await task.step(SetStakes(stakes))
                task.spec = task.table.spec
                self.deals = 1
                await self._deal()
            case _:
                raise RoomError("bad_order", f"a tournament table takes no {order!r}")

    async def _seat(self, command: Command, seats: list[tuple[int, int]]) -> None:
        """Seat players (their accounts' users join the task's seats once stored)."""
        users: dict[int, User] = {}
        for seat, account in seats:
            users[seat] = await self.task.services.store.get_user(account)
        await self.task.seat(command, users)

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
