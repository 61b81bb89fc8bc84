"""A home game's table (RULES.md, "Home games"): the policy of a private table's task.

Only its host and guests may watch it (anyone else hears of no such table);
a guest sits once approved (at a table whose host approves seats, the host
does it; otherwise coming by the invitation is enough); the host may always
sit. It closes itself when no person has sat at it for :data:`IDLE_CLOSE`
seconds.

The host runs the table with ``host`` messages
(:class:`~pokerhouse.server.socket.incoming.HostMessage`): pause and resume
dealing between hands, approve or deny a guest's seat, remove a player
(cashed out at the end of the hand, as when leaving), close the table
(every stack cashed out at the end of the hand). Each is written to the
store first, then carried out by the table's task, then told to everyone at
the table (a ``home`` message). The host acts as any other player does:
they see no card the rules hide from them and move nobody's chips.

So a removal or a close never touches the hand in play: a guest removed (or
a table closed) mid-hand plays that hand out on the usual clock (checking
when checking is free, folding only facing a bet when the clock runs out),
keeps watching it, and is stood up and cashed out when it ends
(:meth:`PrivatePolicy.stand_up_removed`, between hands; the standing is the
store's, so a node that takes the table over mid-hand does the same). A
player's own ``leave`` is another matter: they give their hand up
(:mod:`pokerhouse.server.table.room_rules`).

Its state is the store's (paused, closed: :mod:`pokerhouse.store.private_tables`),
read again whenever the task loads the table, so a node that takes the table
over carries on as the host left it. A closing table deals no more: once its
hand is over and every player is stood up (and cashed out), it is closed and
says so to its watchers (and the room drops its task at its next lease round).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from pokerhouse.server.errors import RoomError
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.incoming import HostMessage
from pokerhouse.server.table.handle import TaskHandle
from pokerhouse.server.table.inputs import Caller
from pokerhouse.store import AccountError, HandLog, User
from pokerhouse.table import Leave, Step

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

    def attach(self, task: TaskHandle) -> None:
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
        self.task.outbox.reply(caller.address, await self.home())

    async def between_hands(self) -> bool:
        task = self.task
        # Who the host removed mid-hand has played it out: stood up now, before any deal.
        await self.stand_up_removed()
        now = task.services.clock.now()
        if not task.rules.closing:
            # House bots play on by themselves: only a person at the table keeps it open.
            if any(not user.is_bot for user in task.users.values()):
                self.empty_since = None
            elif self.empty_since is None:
                self.empty_since = now
            elif now - self.empty_since >= IDLE_CLOSE:
                log.info("table %s: nobody sat for an hour: closed", task.id)
                await self.close()
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
        task.outbox.broadcast(await self.home())
        task.services.lobby_changed(task.id)

    def stepped(self, step: Step) -> None:
        return None

    async def resuming(self, stored: HandLog) -> None:
        return None

    async def carry_out(self, order: object) -> None:
        raise RoomError("not_tournament", f"table {self.task.id} has no tournament")

    # ------------------------------------------------------------ the host at work

    async def home(self) -> bytes:
        """The encoded ``home`` message of a private table, as it is now."""
        task = self.task
        found = await task.services.store.users.get(self.host_id)
        rules = task.rules
        state = outgoing.Home(
            table=task.id,
            host=found.username,
            paused=rules.paused,
            closing=rules.closing,
            closed=self.closed,
        )
        return outgoing.encode(state)

    async def host(self, caller: Caller, message: HostMessage) -> None:
        """Carry out the host's ``message`` (a refusal raises and changes nothing)."""
        task = self.task
        if caller.user_id != self.host_id:
            raise RoomError("not_host", "only the table's host runs it")
        store = task.services.store
        op = message.op
        if op in ("pause", "resume"):
            paused = op == "pause"
            await store.private.set_paused(task.id, paused)
            task.rules.paused = paused
            if not paused and task.table.hand is None:
                now = task.services.clock.now()
                await task.perform(task.rules.next_round(task.table, now, task.bots.seats))
        elif op == "close":
            await self.close()
        else:
            if message.user is None:
                raise RoomError("bad_request", f"{op} names a player (user)")
            try:
                guest = await store.users.get(message.user)
            except AccountError:
                raise RoomError(
                    "unknown_user", f"there is no player {message.user[:40]!r}"
                ) from None
            if guest.id == self.host_id:
                raise RoomError("bad_request", "the host cannot be approved, denied or removed")
            status = "approved" if op == "approve" else "removed"
            await store.private.set_standing(task.id, guest.id, status)
            if status == "removed":
                self.guests.pop(guest.id, None)
                await self._stand_up(task.table.seats_of_account(guest.id))
                if not task.table.seats_of_account(guest.id):
                    self._put_out(guest.id)
            else:
                self.guests[guest.id] = status
        task.outbox.broadcast(await self.home())

    async def stand_up_removed(self) -> None:
        """Between hands: stand up (and put out) every guest the host removed who was still
        playing a hand, or who holds a seat after the table was taken over or reloaded."""
        task = self.task
        for seat in task.table.occupied:
            user = task.users.get(seat)
            if user is None or user.is_bot or user.id == self.host_id:
                continue
            if await self.standing(user.id) in ("asked", "approved"):
                continue
            await task.step(Leave(seat))
            if not task.table.seats_of_account(user.id):
                self._put_out(user.id)

    def _put_out(self, user_id: int) -> None:
        """Stop sending the table to a guest the host removed (each of their watches, on this
        node or relayed from another): once they hold no seat at it."""
        task = self.task
        outbox = task.outbox
        text = outgoing.error("removed", "the host has removed you from this table", table=task.id)
        for address, watcher in list(outbox.watchers.items()):
            if watcher.account == user_id:
                outbox.reply(address, text)
                outbox.remove(address)

    async def close(self) -> None:
        """Close the table: stored first, then every seat stood up (at once if it plays no
        hand; at the end of the hand it plays, by the closing table between hands)."""
        task = self.task
        await task.services.store.private.close(task.id)
        task.rules.closing = True
        task.rules.paused = False
        await self._stand_up(task.table.occupied)

    async def _stand_up(self, seats: Iterable[int]) -> None:
        """Stand up those of these seats that play no hand now: their chips go home. A seat in
        the hand in play is left to play it out (never folded for the host: RULES.md, the
        host never moves anyone's chips); it is stood up between hands."""
        task = self.task
        for seat in sorted(seats):
            info = task.table.seat(seat)
            if info is None or info.in_hand or info.leaving:
                continue
            await task.step(Leave(seat))
