"""A private table's host at work, and who may sit there (RULES.md, "Home games").

The host runs the table with ``host`` messages (:class:`~..socket.incoming.HostMessage`):
pause and resume dealing between hands, approve or deny a guest's seat,
remove a player (cashed out at the end of the hand, as when leaving), close
the table (every stack cashed out at the end of the hand). Each is written to
the store first, then carried out by the table's task, then told to everyone
at the table (a ``home`` message). The host acts as any other player does:
they see no card the rules hide from them and move nobody's chips.

So a removal or a close never touches the hand in play: a guest removed (or
a table closed) mid-hand plays that hand out on the usual clock (checking
when checking is free, folding only facing a bet when the clock runs out),
keeps watching it, and is stood up and cashed out when it ends
(:func:`stand_up_removed`, between hands; the standing is the store's, so a
node that takes the table over mid-hand does the same). A player's own
``leave`` is another matter: they give their hand up (:mod:`.rules`).

A guest may sit once approved (at a table whose host approves seats, the
host does it; otherwise coming by the invitation is enough); the host may
always sit.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable
from typing import Any, Protocol

from pokerhouse.server.errors import RoomError
from pokerhouse.server.socket import incoming as p
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.inputs import Caller
from pokerhouse.server.table.outbox import Outbox
from pokerhouse.server.table.room_rules import Intent, RoomRules
from pokerhouse.server.table.services import Services
from pokerhouse.store import AccountError, TableConfig, User
from pokerhouse.table import Command, Leave, Step, Table


class HostedTable(Protocol):
    """What the host's work needs of a table's task (its requests' handle has it all)."""

    id: int
    config: TableConfig
    rules: RoomRules
    table: Table
    outbox: Outbox
    services: Services
    bots: HouseBots
    #: Who holds each seat.
    users: dict[int, User]

    async def step(self, command: Command, caller: Caller | None = None) -> Step:
        """Apply, store and tell one command."""
        ...

    async def perform(self, items: Iterable[Command | Intent]) -> None:
        """Carry out what the rules ask."""
        ...


def is_closed(task: HostedTable) -> bool:
    """Whether a closing table is done: its hand is over and every player gone."""
    return task.rules.closing and task.table.hand is None and not task.table.occupied


async def home(task: HostedTable) -> bytes:
    """The encoded ``home`` message of a private table, as it is now."""
    config = task.config
    assert config.host is not None
    host = await task.services.store.users.get(config.host)
    rules = task.rules
    state = outgoing.Home(
        table=task.id,
        host=host.username,
        paused=rules.paused,
        closing=rules.closing,
        closed=is_closed(task),
    )
    return outgoing.encode(state)


# Each private table task's guests known to be in (asked or approved): the store is
# asked only about the others. Guests come in by the invitation (any node) and are
# approved or put out only by the host, through the table's task, which keeps this up
# to date; it is forgotten whenever the task loads the table, and with the task.
_GUESTS: weakref.WeakKeyDictionary[Any, dict[int, str]] = weakref.WeakKeyDictionary()


def forget(task: HostedTable) -> None:
    """Forget what is known of a table's guests (its task is loading it afresh)."""
    _GUESTS.pop(task, None)


async def standing(task: HostedTable, user_id: int) -> str | None:
    """A guest's standing at the task's private table (``None``: never came)."""
    known = _GUESTS.setdefault(task, {})
    found = known.get(user_id)
    if found is None:
        found = await task.services.store.private.standing(task.id, user_id)
        if found in ("asked", "approved"):
            known[user_id] = found
    return found


async def admits(task: HostedTable, user_id: int | None) -> bool:
    """Whether ``user_id`` is at a private table: its host, every guest who came by the
    invitation and was not removed, and a removed guest still seated (playing out the
    hand they were removed in). Anyone else hears of no such table."""
    if user_id is None:
        return False
    if user_id == task.config.host:
        return True
    if await standing(task, user_id) in ("asked", "approved"):
        return True
    return bool(task.table.seats_of_account(user_id))


async def may_sit(task: HostedTable, player: User) -> None:
    """Refuse a seat at a private table to whom its host has not let in."""
    if task.rules.closing:
        raise RoomError("table_closed", "the host has closed this table")
    if player.id == task.config.host:
        return
    found = await standing(task, player.id)
    if found == "approved":
        return
    if found == "asked":
        raise RoomError("not_approved", "the host has not approved your seat yet")
    raise RoomError("unknown_table", f"there is no table {task.id}")


async def host(task: HostedTable, caller: Caller, message: p.HostMessage) -> None:
    """Carry out the host's ``message`` (a refusal raises and changes nothing)."""
    config = task.config
    if config.host is None:
        raise RoomError("not_private", f"table {task.id} is not a private table")
    if caller.user_id != config.host:
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
        await close(task)
    else:
        if message.user is None:
            raise RoomError("bad_request", f"{op} names a player (user)")
        try:
            guest = await store.users.get(message.user)
        except AccountError:
            raise RoomError("unknown_user", f"there is no player {message.user[:40]!r}") from None
        if guest.id == config.host:
            raise RoomError("bad_request", "the host cannot be approved, denied or removed")
        status = "approved" if op == "approve" else "removed"
        await store.private.set_standing(task.id, guest.id, status)
        known = _GUESTS.setdefault(task, {})
        if status == "removed":
            known.pop(guest.id, None)
            await _stand_up(task, task.table.seats_of_account(guest.id))
            if not task.table.seats_of_account(guest.id):
                _put_out(task, guest.id)
        else:
            known[guest.id] = status
    task.outbox.broadcast(await home(task))


async def stand_up_removed(task: HostedTable) -> None:
    """Between hands: stand up (and put out) every guest the host removed who was still
    playing a hand, or who holds a seat after the table was taken over or reloaded."""
    for seat in task.table.occupied:
        user = task.users.get(seat)
        if user is None or user.is_bot or user.id == task.config.host:
            continue
        if await standing(task, user.id) in ("asked", "approved"):
            continue
        await task.step(Leave(seat))
        if not task.table.seats_of_account(user.id):
            _put_out(task, user.id)


def _put_out(task: HostedTable, user_id: int) -> None:
    """Stop sending the table to a guest the host removed (each of their watches, on this
    node or relayed from another): once they hold no seat at it."""
    outbox = task.outbox
    text = outgoing.error("removed", "the host has removed you from this table", table=task.id)
    for address, watcher in list(outbox.watchers.items()):
        if watcher.account == user_id:
            outbox.reply(address, text)
            outbox.remove(address)


async def close(task: HostedTable) -> None:
    """Close the table: stored first, then every seat stood up (at once if it plays no
    hand; at the end of the hand it plays, by the closing table between hands)."""
    await task.services.store.private.close(task.id)
    task.rules.closing = True
    task.rules.paused = False
    await _stand_up(task, task.table.occupied)


async def _stand_up(task: HostedTable, seats: Iterable[int]) -> None:
    """Stand up those of these seats that play no hand now: their chips go home. A seat in
    the hand in play is left to play it out (never folded for the host: RULES.md, the
    host never moves anyone's chips); it is stood up between hands."""
    for seat in sorted(seats):
        info = task.table.seat(seat)
        if info is None or info.in_hand or info.leaving:
            continue
        await task.step(Leave(seat))
