"""The task of a private table (a home game): a table task that only its guests may watch,
that its host may pause and close, and that closes itself when nobody sits at it.

Its state is the store's (paused, closed: :mod:`pokerhouse.store.private_tables`),
read again whenever the task loads the table, so a node that takes the table
over carries on as the host left it. A closing table deals no more: once its
hand is over and every player is stood up (and cashed out), it is closed and
says so to its watchers (and the room drops its task at its next lease round).
One with no person seated for :data:`IDLE_CLOSE` seconds closes itself.
"""

from __future__ import annotations

import logging

from pokerhouse.server.private import host
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table.inputs import WatchInput
from pokerhouse.server.table.outbox import Deliver
from pokerhouse.server.table.services import Services
from pokerhouse.server.table.task import TableTask
from pokerhouse.store import TableDef
from pokerhouse.table import Leave

log = logging.getLogger("pokerhouse.private")

#: Seconds a private table with no person seated (house bots alone) stays open.
IDLE_CLOSE = 3600.0


class PrivateTable(TableTask):
    """The task of one private table (see the module's docstring)."""

    def __init__(self, services: Services, definition: TableDef, deliver: Deliver) -> None:
        super().__init__(services, definition, deliver)
        assert definition.config.host is not None, "a private table has its host"
        #: Since when nobody has sat at the table (``None``: someone does).
        self.empty_since: float | None = None

    @property
    def closed(self) -> bool:
        """Closed: the host closed it, the hand is over and every player gone."""
        return host.is_closed(self)

    async def _load(self, reclaim: bool = True) -> None:
        host.forget(self)
        await super()._load(reclaim)
        state = await self.services.store.private.state(self.id)
        self.rules.paused = state.paused
        self.rules.closing = state.closed_at is not None

    async def _watch(self, item: WatchInput) -> None:
        caller = item.caller
        if item.on and not await host.admits(self, caller.user_id):
            # A stranger hears of no such table, as of one that does not exist.
            text = f"there is no table {self.id}"
            self.outbox.reply(caller.address, outgoing.error("unknown_table", text, table=self.id))
            return
        await super()._watch(item)
        if item.on and self.available:
            self.outbox.reply(caller.address, await host.home(self))

    async def _between_hands(self) -> None:
        if self.table.hand is not None:
            return
        # Who the host removed mid-hand has played it out: stood up now, before any deal.
        await host.stand_up_removed(self)
        now = self.services.clock.now()
        if not self.rules.closing:
            # House bots play on by themselves: only a person at the table keeps it open.
            if any(not user.is_bot for user in self.users.values()):
                self.empty_since = None
            elif self.empty_since is None:
                self.empty_since = now
            elif now - self.empty_since >= IDLE_CLOSE:
                log.info("table %s: nobody sat for an hour: closed", self.id)
                await host.close(self)
        if self.rules.closing:
            await self._wind_up()
            return
        await super()._between_hands()

    async def _wind_up(self) -> None:
        """A closing table between hands: stand up who is left; closed once nobody is."""
        for seat in self.table.occupied:
            await self.attempt(Leave(seat))  # a refusal is logged, and tried again below
        if not self.closed:  # a seat not stood up: look again in a while
            self.timers.set("next", self.services.settings.idle_seconds)
            return
        self.timers.cancel_all()
        self.outbox.broadcast(await host.home(self))
        self.services.lobby_changed(self.id)
