"""A table's answers to its players' requests other than acts: each a command, then an answer.

A request is checked (signed in, the seat yours, allowed at this kind of
table), turned into table commands, and taken the one way through the table
task (:meth:`AnsweringTable.step`); a refusal at any point raises with its
stable code (the task answers it as an ``error``) and changes nothing. An
``act``, the commonest request by far, goes straight to its step in the task
itself (:meth:`.task.TableTask.act`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from pokerhouse.games import GameInfo
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.server.errors import RoomError
from pokerhouse.server.socket import incoming as p
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table import practice
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.inputs import Caller
from pokerhouse.server.table.outbox import Outbox
from pokerhouse.server.table.policy import TablePolicy
from pokerhouse.server.table.room_rules import Intent, RoomRules
from pokerhouse.server.table.services import Services
from pokerhouse.store import TableConfig, User
from pokerhouse.table import (
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

    async def act(
        self, caller: Caller, user: int, number: int, body: p.ActionBody, ident: str
    ) -> None:
        """An act of ``user``'s."""
        ...


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


async def dispatch(task: AnsweringTable, caller: Caller, message: p.ClientMessage) -> None:
    """Answer a request other than an act (:meth:`.task.TableTask.act` takes those): a
    refusal raises (the task answers it with its code) and changes nothing."""
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
            await task.act(caller, user, number, body, ident)
        case p.SitMessage(seat=seat, buy_in=buy_in):
            player = await task.services.store.users.get(user)
            _may_sit(task, player)
            await task.policy.may_sit(player)
            sit = Sit(seat, player.username, buy_in, account=player.id)
            await task.seat(sit, {seat: player}, caller)
        case p.LeaveMessage():
            for seat in own_seats(table, user):
                await task.step(Leave(seat), caller)
        case p.SitOutMessage():
            for seat in own_seats(table, user):
                await task.step(SitOut(seat), caller)
        case p.SitInMessage():
            seats = own_seats(table, user)
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


def own_seats(table: Table, user: int) -> frozenset[int]:
    """The seats ``user`` holds at ``table``; ``not_seated`` if none."""
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
