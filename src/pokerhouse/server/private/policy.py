"""A home game's table (RULES.md, "Home games"): the policy of a private table's task.

Only its host and guests may watch it (anyone else hears of no such table);
a guest sits once approved (at a table whose host approves seats, the host
does it; otherwise coming by the invitation is enough); the host may always
sit. Its host pauses and closes it (:mod:`.host`), and it closes itself when
no person has sat at it for :data:`IDLE_CLOSE` seconds.

Its state is the store's (paused, closed: :mod:`pokerhouse.store.private_tables`),
read again whenever the task loads the table, so a node that takes the table
over carries on as the host left it. A closing table deals no more: once its
hand is over and every player is stood up (and cashed out), it is closed and
says so to its watchers (and the room drops its task at its next lease round).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from pokerhouse.server.errors import RoomError
from pokerhouse.server.private import host
from pokerhouse.server.socket.incoming import HostMessage
from pokerhouse.server.table.inputs import Caller
from pokerhouse.store import HandLog, User
from pokerhouse.table import Leave, Step

if TYPE_CHECKING:
    from pokerhouse.server.table.task import TableTask

log = logging.getLogger("pokerhouse.private")

#: Seconds a private table with no person seated (house bots alone) stays open.
IDLE_CLOSE = 3600.0


class PrivatePolicy:
    """The policy of one private table's task (see the module's docstring)."""

    seats_ordered = False
    everyone_watches = False

    def __init__(self) -> None:
        #: Since when nobody has sat at the table (``None``: someone does).
        self.empty_since: float | None = None
        # The guests known to be in (asked or approved): the store is asked only about the
        # others. Guests come in by the invitation (any node) and are approved or put out
        # only by the host, through this task, which keeps it up to date; it is forgotten
        # whenever the task loads the table.
        self.guests: dict[int, str] = {}

    def attach(self, task: TableTask) -> None:
        assert task.config.host is not None, "a private table has its host"
        self.task = task
        self.host_id: int = task.config.host

    @property
    def closed(self) -> bool:
        """Closed: the host closed it, the hand is over and every player gone."""
        task = self.task
        return task.rules.closing and task.table.hand is None and not task.table.occupied

    async def loaded(self) -> None:
        self.guests = {}
        task = self.task
        state = await task.services.store.private.state(task.id)
        task.rules.paused = state.paused
        task.rules.closing = state.closed_at is not None

    async def standing(self, user_id: int) -> str | None:
        """A guest's standing at the table (``None``: never came)."""
        found = self.guests.get(user_id)
        if found is None:
            found = await self.task.services.store.private.standing(self.task.id, user_id)
            if found in ("asked", "approved"):
                self.guests[user_id] = found
        return found

    async def admits(self, user_id: int | None) -> bool:
        """The host, every guest who came by the invitation and was not removed, and a
        removed guest still seated (playing out the hand they were removed in)."""
        if user_id is None:
            return False
        if user_id == self.host_id:
            return True
        if await self.standing(user_id) in ("asked", "approved"):
            return True
        return bool(self.task.table.seats_of_account(user_id))

    async def may_sit(self, user: User) -> None:
        if self.task.rules.closing:
            raise RoomError("table_closed", "the host has closed this table")
        if user.id == self.host_id:
            return
        found = await self.standing(user.id)
        if found == "approved":
            return
        if found == "asked":
            raise RoomError("not_approved", "the host has not approved your seat yet")
        raise RoomError("unknown_table", f"there is no table {self.task.id}")

    async def watched(self, caller: Caller) -> None:
        self.task.outbox.reply(caller.address, await host.home(self))

    async def between_hands(self) -> bool:
        task = self.task
        # Who the host removed mid-hand has played it out: stood up now, before any deal.
        await host.stand_up_removed(self)
        now = task.services.clock.now()
        if not task.rules.closing:
            # House bots play on by themselves: only a person at the table keeps it open.
            if any(not user.is_bot for user in task.users.values()):
                self.empty_since = None
            elif self.empty_since is None:
                self.empty_since = now
            elif now - self.empty_since >= IDLE_CLOSE:
                log.info("table %s: nobody sat for an hour: closed", task.id)
                await host.close(self)
        if task.rules.closing:
            await self._wind_up()
            return False
        return True

    async def _wind_up(self) -> None:
        """A closing table between hands: stand up who is left; closed once nobody is."""
        task = self.task
        for seat in task.table.occupied:
            await task.attempt(Leave(seat))  # a refusal is logged, and tried again below
        if not self.closed:  # a seat not stood up: look again in a while
            task.timers.set("next", task.services.settings.idle_seconds)
            return
        task.timers.cancel_all()
        task.outbox.broadcast(await host.home(self))
        task.services.lobby_changed(task.id)

    def stepped(self, step: Step) -> None:
        return None

    async def resuming(self, stored: HandLog) -> None:
        return None

    async def carry_out(self, order: object) -> None:
        raise RoomError("not_tournament", f"table {self.task.id} has no tournament")

    async def host(self, caller: Caller, message: HostMessage) -> None:
        await host.carry_out(self, caller, message)
