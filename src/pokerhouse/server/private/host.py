"""A private table's host at work (RULES.md, "Home games").

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

Who may watch and sit is the table's policy's (:mod:`.policy`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pokerhouse.server.errors import RoomError
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.incoming import HostMessage
from pokerhouse.server.table.inputs import Caller
from pokerhouse.store import AccountError
from pokerhouse.table import Leave

if TYPE_CHECKING:
    from pokerhouse.server.private.policy import PrivatePolicy


async def home(policy: PrivatePolicy) -> bytes:
    """The encoded ``home`` message of a private table, as it is now."""
    task = policy.task
    found = await task.services.store.get_user(policy.host_id)
    rules = task.rules
    state = outgoing.Home(
        table=task.id,
        host=found.username,
        paused=rules.paused,
        closing=rules.closing,
        closed=policy.closed,
    )
    return outgoing.encode(state)


async def carry_out(policy: PrivatePolicy, caller: Caller, message: HostMessage) -> None:
    """Carry out the host's ``message`` (a refusal raises and changes nothing)."""
    task = policy.task
    if caller.user_id != policy.host_id:
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
        await close(policy)
    else:
        if message.user is None:
            raise RoomError("bad_request", f"{op} names a player (user)")
        try:
            guest = await store.get_user(message.user)
        except AccountError:
            raise RoomError("unknown_user", f"there is no player {message.user[:40]!r}") from None
        if guest.id == policy.host_id:
            raise RoomError("bad_request", "the host cannot be approved, denied or removed")
        status = "approved" if op == "approve" else "removed"
        await store.private.set_standing(task.id, guest.id, status)
        if status == "removed":
            policy.guests.pop(guest.id, None)
            await _stand_up(policy, task.table.seats_of_account(guest.id))
            if not task.table.seats_of_account(guest.id):
                _put_out(policy, guest.id)
        else:
            policy.guests[guest.id] = status
    task.outbox.broadcast(await home(policy))


async def stand_up_removed(policy: PrivatePolicy) -> None:
    """Between hands: stand up (and put out) every guest the host removed who was still
    playing a hand, or who holds a seat after the table was taken over or reloaded."""
    task = policy.task
    for seat in task.table.occupied:
        user = task.users.get(seat)
        if user is None or user.is_bot or user.id == policy.host_id:
            continue
        if await policy.standing(user.id) in ("asked", "approved"):
            continue
        await task.step(Leave(seat))
        if not task.table.seats_of_account(user.id):
            _put_out(policy, user.id)


def _put_out(policy: PrivatePolicy, user_id: int) -> None:
    """Stop sending the table to a guest the host removed (each of their watches, on this
    node or relayed from another): once they hold no seat at it."""
    task = policy.task
    outbox = task.outbox
    text = outgoing.error("removed", "the host has removed you from this table", table=task.id)
    for address, watcher in list(outbox.watchers.items()):
        if watcher.account == user_id:
            outbox.reply(address, text)
            outbox.remove(address)


async def close(policy: PrivatePolicy) -> None:
    """Close the table: stored first, then every seat stood up (at once if it plays no
    hand; at the end of the hand it plays, by the closing table between hands)."""
    task = policy.task
    await task.services.store.private.close(task.id)
    task.rules.closing = True
    task.rules.paused = False
    await _stand_up(policy, task.table.occupied)


async def _stand_up(policy: PrivatePolicy, seats: Iterable[int]) -> None:
    """Stand up those of these seats that play no hand now: their chips go home. A seat in
    the hand in play is left to play it out (never folded for the host: RULES.md, the
    host never moves anyone's chips); it is stood up between hands."""
    task = policy.task
    for seat in sorted(seats):
        info = task.table.seat(seat)
        if info is None or info.in_hand or info.leaving:
            continue
        await task.step(Leave(seat))
