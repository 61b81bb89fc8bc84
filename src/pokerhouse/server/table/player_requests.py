"""A table's answers to its players' requests: each one a command, then an answer.

A request is checked (signed in, the seat yours, the act not a resend),
turned into table commands, and taken the one way through the table task
(:meth:`AnsweringTable.step`); a refusal at any point is answered with an
``error`` carrying its stable code, and changes nothing.

A client's ``act`` names its own id: the same id again is answered
``repeated`` and not applied twice, whether the first one is remembered in
memory (the table's last hands) or only in the store (older hands, or any
hand after a restart: the id is stored with the action).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.errors import PokerError
from pokerhouse.games import GameInfo
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.socket import incoming as p
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table import practice
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.inputs import Caller, Request
from pokerhouse.server.table.outbox import Outbox
from pokerhouse.server.table.policy import TablePolicy
from pokerhouse.server.table.room_rules import Intent, RoomRules
from pokerhouse.server.table.services import Services
from pokerhouse.store import TableConfig, User
from pokerhouse.table import (
    Act,
    AddChips,
    Command,
    Leave,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    Step,
    Table,
)

#: Hands whose act ids a table keeps in memory (the latest two); older ones are asked
#: of the store, which keeps every id with its action.
REMEMBERED_HANDS = 2


class AnsweringTable(Protocol):
    """What answering a request needs of its table's task."""

    id: int
    table: Table
    info: GameInfo
    spec: Any
    available: bool
    fenced: bool
    outbox: Outbox
    rules: RoomRules
    bots: HouseBots
    services: Services
    applied: dict[int, set[tuple[int, str]]]
    config: TableConfig
    #: Who holds each seat.
    users: dict[int, User]
    #: What kind of table it is: who may watch and sit, who gives its seats.
    policy: TablePolicy

    async def step(self, command: Command, caller: Caller | None = None) -> Step:
        """Apply, store and tell one command."""
        ...

    async def seat(
        self, command: Command, users: Mapping[int, User], caller: Caller | None = None
    ) -> Step:
        """A command that seats ``users`` (by seat)."""
        ...

    async def perform(self, items: Iterable[Command | Intent]) -> None:
        """Carry out what the rules ask."""
        ...


async def answer(task: AnsweringTable, request: Request) -> None:
    """Answer one request (an ``error`` for a refusal)."""
    caller, message = request.caller, request.message
    ident = message.id if isinstance(message, p.ActMessage) else None
    try:
        if not task.available:
            code = "table_moved" if task.fenced else "room_unavailable"
            raise Unavailable(code, "the table is not taking requests now: try again soon")
        user = caller.user_id
        policy = task.policy
        if not policy.everyone_watches and not await policy.admits(user):
            # A private table: anyone but its host and guests hears of no such table.
            raise RoomError("unknown_table", f"there is no table {task.id}")
        if type(message) is p.ActMessage and user is not None:
            # The commonest request by far, straight to its handler: one coroutine fewer
            # waiting on every commit.
            await _act(task, caller, user, message.hand, message.action, message.id)
        else:
            await _dispatch(task, caller, message)
    except PokerError as error:
        task.services.metrics.error(error.code)
        task.outbox.reply(caller.address, outgoing.error(error.code, str(error), ident, task.id))


def _may_sit(task: AnsweringTable, player: User) -> None:
    """Refuse a seat the table's kind forbids (RULES.md, bots): a bot account at a table
    for people only, a person at one for bots only; and a player beside a bot account of
    theirs, or two bot accounts of one owner at one table (one mind, two seats)."""
    config = task.config
    if config.people_only and player.api_bot:
        raise RoomError("people_only", "this table is for people only: bot accounts may not sit")
    if config.bots_only and not player.is_bot:
        raise RoomError("bots_only", "this table is for bots only: watch it, or sit elsewhere")
    mine = {player.id, player.owner_id} - {None}
    for other in task.users.values():
        if other.id != player.id and ({other.id, other.owner_id} - {None}) & mine:
            raise RoomError(
                "same_owner", "a player and their bot accounts never sit at one table together"
            )


async def _dispatch(task: AnsweringTable, caller: Caller, message: p.ClientMessage) -> None:
    if isinstance(message, p.ChatMessage):
        _chat(task, caller, message.text)
        return
    user = caller.user_id
    if user is None:
        raise RoomError("login_required", "sign in to play (watching needs no account)")
    table = task.table
    if task.policy.seats_ordered and isinstance(
        message, p.SitMessage | p.LeaveMessage | p.SitOutMessage | p.AddChipsMessage
    ):
        raise RoomError(
            "tournament_table", "a tournament seats its players itself, until they are out"
        )
    match message:
        case p.ActMessage(hand=number, action=body, id=ident):
            await _act(task, caller, user, number, body, ident)
        case p.SitMessage(seat=seat, buy_in=buy_in):
            player = await task.services.store.users.get(user)
            _may_sit(task, player)
            await task.policy.may_sit(player)
            sit = Sit(seat, player.username, buy_in, account=player.id)
            await task.seat(sit, {seat: player}, caller)
        case p.LeaveMessage():
            for seat in _own_seats(table, user):
                await task.step(Leave(seat), caller)
        case p.SitOutMessage():
            for seat in _own_seats(table, user):
                await task.step(SitOut(seat), caller)
        case p.SitInMessage():
            seats = _own_seats(table, user)
            task.rules.back(seats)
            for seat in seats:
                await task.step(SitIn(seat), caller)
        case p.AddChipsMessage(seat=seat, amount=amount):
            _own_seat(table, user, seat)
            await task.step(AddChips(seat, amount), caller)
        case p.WagerMessage(seat=seat, ante=ante, bonus=bonus):
            if not task.info.banked:
                raise RoomError("no_wagers", f"{task.info.title} has no bets against the house")
            _own_seat(table, user, seat)
            await task.step(SetWager(seat, ante, bonus), caller)
            now = task.services.clock.now()
            await task.perform(task.rules.confirmed(table, seat, now, task.bots.seats))
        case p.CallEvMessage(seat=seat):
            _own_seat(table, user, seat)
            _call_value(task, caller, seat)
        case p.HostMessage():
            await task.policy.host(caller, message)
        case _:
            raise RoomError("bad_request", f"{type(message).__name__} is not a table request")


async def _act(
    task: AnsweringTable, caller: Caller, user: int, number: int, body: p.ActionBody, ident: str
) -> None:
    table = task.table
    key = (user, ident)
    repeated = key in task.applied.get(number, ())
    if not repeated and number != table.hand_number and number <= table.hands_played:
        # An earlier hand: its ids are in the store (forgotten here, or lost in a restart).
        repeated = await task.services.store.hands.applied(task.id, number, user, ident)
    if repeated:
        task.outbox.reply(
            caller.address, outgoing.encode(outgoing.Ack(id=ident, table=task.id, repeated=True))
        )
        return
    try:
        kind = ActionKind(body.kind)
    except ValueError:
        raise RoomError("bad_action", f"unknown action {body.kind!r}") from None
    mine = _own_seats(table, user)
    to_act = table.to_act() if table.hand is not None else None
    # Act for the seat on turn if it is one of the player's; otherwise the table
    # names the reason (a stale hand, not in the hand, out of turn).
    seat = to_act if to_act in mine else min(mine)
    await task.step(Act(seat, Action(kind, body.amount), hand=number, client_id=ident), caller)
    applied = task.applied.setdefault(number, set())
    applied.add(key)
    while len(task.applied) > REMEMBERED_HANDS:
        del task.applied[min(task.applied)]
    task.outbox.reply(caller.address, outgoing.encode(outgoing.Ack(id=ident, table=task.id)))


def _own_seats(table: Table, user: int) -> frozenset[int]:
    seats = table.seats_of_account(user)
    if not seats:
        raise RoomError("not_seated", "you have no seat at this table")
    return seats


def _own_seat(table: Table, user: int, seat: int) -> None:
    if table.seat(seat) is None or table.account_of(seat) != user:
        raise RoomError("not_your_seat", f"seat {seat} is not yours")


def _chat(task: AnsweringTable, caller: Caller, text: str) -> None:
    name = caller.username
    if name is None:
        raise RoomError("login_required", "sign in to chat")
    clean = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    if not clean:
        raise RoomError("bad_request", "a chat line needs some text")
    task.outbox.broadcast(
        outgoing.encode(outgoing.ChatLine(table=task.id, seq=task.table.seq, user=name, text=clean))
    )


#: Practice-mode counts in flight (kept so they are not collected before they finish).
_COUNTING: set[asyncio.Task[None]] = set()


def _call_value(task: AnsweringTable, caller: Caller, seat: int) -> None:
    """Practice mode: calling's exact value for the asker's own box, counted off the loop."""
    if not isinstance(task.spec, CasinoHoldemSpec):
        raise RoomError("bad_request", "the call's value is for Casino Hold'em boxes")
    hole, flop, ante = practice.own_box(task.table, seat)
    number = task.table.hand_number
    spec = task.spec

    async def count() -> None:
        body = await asyncio.to_thread(practice.call_value, spec, hole, flop, ante)
        message = outgoing.CallValue(
            table=task.id, seq=task.table.seq, hand=number, seat=seat, **body
        )
        task.outbox.send_now(caller.address, outgoing.encode(message))

    counting = asyncio.get_running_loop().create_task(count())
    _COUNTING.add(counting)
    counting.add_done_callback(_COUNTING.discard)
