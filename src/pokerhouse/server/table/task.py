"""One table's task: a loop that alone owns the table.

Every input (a request, a watch, a timer) reaches it through its inbox and
takes one way through::

    input -> command -> Table.apply -> step (events + records)
          -> recorder: records -> batch -> committer (one transaction, fenced)
          -> outbox: each audience's frames, once -> every watcher's one list
          -> rules: the next timers and announcements

Requests are answered in :mod:`.player_requests`; the room's rules around the
hands (clocks, banks, the betting window, the away) are :mod:`.room_rules`, pure;
the house bots (told of each hand's start and end) :mod:`.house_bots`; what kind
of table it is (who may watch and sit, what happens between hands) its
:mod:`.policy`; where it runs (its lease, loading, a store outage, a lost lease,
moving between nodes) its :mod:`.ownership`. A refused buy-in is answered; a
bug is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any

from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_from_dict
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.runtime.mailbox import Mailbox
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.incoming import ActionBody, ActMessage
from pokerhouse.server.table import info, recorder
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.inputs import Caller, Directed, Input, Request, TimerTick, WatchInput
from pokerhouse.server.table.lines import TableLine
from pokerhouse.server.table.outbox import Deliver, Outbox
from pokerhouse.server.table.ownership import HAND_OVER, TAKE_OVER, Ownership
from pokerhouse.server.table.player_requests import REMEMBERED_HANDS, dispatch, own_seats
from pokerhouse.server.table.policy import PublicPolicy, TablePolicy
from pokerhouse.server.table.room_rules import (
    BotTurn,
    CancelTimer,
    ClockStarted,
    Intent,
    RoomRules,
    SetTimer,
    Timing,
    WindowOpened,
)
from pokerhouse.server.table.services import Services
from pokerhouse.server.table.timers import Timers
from pokerhouse.store import (
    Batch,
    DatabaseError,
    StaleLease,
    StoreError,
    TableDef,
    User,
)
from pokerhouse.table import (
    Act,
    Command,
    HandVoided,
    PlayerLeft,
    PlayerSat,
    Step,
    TableHandEnded,
)

log = logging.getLogger("pokerhouse.table")


class TableTask:
    """The task that owns one table of the room."""

    def __init__(
        self,
        services: Services,
        definition: TableDef,
        deliver: Deliver,
        policy: TablePolicy | None = None,
    ) -> None:
        self.services = services
        self.definition = definition
        self.config = config = definition.config
        self.id = definition.id
        self.tournament = config.tournament is not None
        self.info = get_game(config.game)
        self.spec = spec_from_dict(self.info.spec_type, config.options)
        settings = services.settings
        self.inbox: Mailbox[Input] = Mailbox()
        self.outbox = Outbox(self.id, deliver, settings.log_size)
        self.rules = RoomRules(
            Timing(
                decision=config.decision_seconds,
                bank=config.time_bank_seconds,
                hand_pause=settings.hand_pause,
                bots_pause=settings.bots_pause,
                window=settings.window_seconds,
                away=settings.away_seconds,
                idle=settings.idle_seconds,
                bot_think=settings.bot_think,
            ),
            banked=self.info.banked,
            rng=services.rng,
        )
        self.bots = HouseBots(services, config, self.info.name, self.outbox)
        #: Who holds each seat (people and bots), as the store has them.
        self.users: dict[int, User] = {}
        self.table = info.new_table(config, self.spec, services.rng, 0, (), None, 0)
        self.lease = 0
        self.available = False
        #: The table's lease went to another owner: this process never runs it again.
        self.fenced = False
        self.hand_times: deque[float] = deque(maxlen=100)
        #: Each recent hand's applied action ids, ``(account, id)`` (older ones: the store).
        self.applied: dict[int, set[tuple[int, str]]] = {}
        # Accounts whose seat a step being applied is for (their User, for self.users).
        self._sitting: dict[int, User] = {}
        self.timers = Timers(services.clock, self.post)
        #: Where the table runs: its lease, loading, reloading, fencing, handing over.
        self.ownership = Ownership(self)
        self._task: asyncio.Task[None] | None = None
        #: Whether the task is handling an input now (it may be waiting on the store).
        self.busy = False
        #: Inputs posted to the task, and inputs it has finished handling, since it began.
        self.posted = 0
        self.handled = 0
        #: What kind of table this is: who may watch and sit, what happens between hands.
        self.policy: TablePolicy = policy if policy is not None else PublicPolicy()
        self.policy.attach(self)

    # ------------------------------------------------------------ life

    async def start(self) -> bool:
        """Load the table from the store, then run its task on the running loop: whether
        this node runs the table (:meth:`.ownership.Ownership.start`)."""
        await self.ownership.start()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        return not self.fenced

    async def stop(self) -> None:
        """Stop the task and its timers, and give the lease up (the store keeps the rest)."""
        self.timers.cancel_all()
        for task in (self.ownership.reloading, self._task):
            if task is not None:
                await cancel_and_wait(task)
        if self.lease and not self.fenced:
            with contextlib.suppress(Exception):  # the next owner waits out the expiry instead
                await self.services.store.tables.release(
                    self.id, self.services.settings.owner, self.lease
                )

    def post(self, item: Input) -> None:
        """Queue an input for the table's task."""
        self.posted += 1
        self.inbox.put(item)

    async def _run(self) -> None:
        while True:
            item = await self.inbox.get()
            self.busy = True
            try:
                if isinstance(item, Request):
                    await self._answer(item)
                elif isinstance(item, WatchInput):
                    await self._watch(item)
                else:
                    await self._tick(item)
            except asyncio.CancelledError:
                raise
            except Unavailable:
                pass  # said to whoever asked; the table reloads (or has moved)
            except Exception:
                log.exception("table %s: a bug handling %r", self.id, item)
            finally:
                self.busy = False
                self.handled += 1
                self.outbox.flush()
                self.ownership.carry()

    # ------------------------------------------------------------ requests

    async def _answer(self, request: Request) -> None:
        """Answer one request: an act (the commonest by far) straight to its step here,
        any other by :func:`.player_requests.dispatch`; a refusal as an ``error`` with its
        code, having changed nothing."""
        caller, message = request.caller, request.message
        ident = message.id if isinstance(message, ActMessage) else None
        try:
            if not self.available:
                code = "table_moved" if self.fenced else "room_unavailable"
                raise Unavailable(code, "the table is not taking requests now: try again soon")
            user = caller.user_id
            policy = self.policy
            if not policy.everyone_watches and not await policy.admits(user):
                # A private table: anyone but its host and guests hears of no such table.
                raise RoomError("unknown_table", f"there is no table {self.id}")
            if type(message) is ActMessage and user is not None:
                await self.act(caller, user, message.hand, message.action, message.id)
            else:
                await dispatch(self, caller, message)
        except PokerError as error:
            self.services.metrics.error(error.code)
            text = outgoing.error(error.code, str(error), ident, self.id)
            self.outbox.reply(caller.address, text)

    async def act(
        self, caller: Caller, user: int, number: int, body: ActionBody, ident: str
    ) -> None:
        """``user``'s act ``body`` in hand ``number``, under their id ``ident`` for it: once
        (the same id again is answered ``repeated`` and not applied twice, whether the
        first is remembered here, for the last hands, or only in the store)."""
        table = self.table
        key = (user, ident)
        repeated = key in self.applied.get(number, ())
        if not repeated and number != table.hand_number and number <= table.hands_played:
            # An earlier hand: its ids are in the store (forgotten here, or lost in a restart).
            repeated = await self.services.store.hands.applied(self.id, number, user, ident)
        if repeated:
            ack = outgoing.Ack(id=ident, table=self.id, repeated=True)
            self.outbox.reply(caller.address, outgoing.encode(ack))
            return
        try:
            kind = ActionKind(body.kind)
        except ValueError:
            raise RoomError("bad_action", f"unknown action {body.kind!r}") from None
        mine = own_seats(table, user)
        to_act = table.to_act() if table.hand is not None else None
        # Act for the seat on turn if it is one of the player's; otherwise the table
        # names the reason (a stale hand, not in the hand, out of turn).
        seat = to_act if to_act in mine else min(mine)
        await self.step(Act(seat, Action(kind, body.amount), hand=number, client_id=ident), caller)
        applied = self.applied.setdefault(number, set())
        applied.add(key)
        while len(self.applied) > REMEMBERED_HANDS:
            del self.applied[min(self.applied)]
        self.outbox.reply(caller.address, outgoing.encode(outgoing.Ack(id=ident, table=self.id)))

    # ------------------------------------------------------------ the one way through

    async def step(self, command: Command, caller: Caller | None = None) -> Step:
        """Apply ``command``, store what it caused, then tell every watcher.

        A command the table refuses raises its error and changes nothing.
        """
        started = time.perf_counter()
        step = self.table.apply(command)
        await self.commit(step)
        seats = self.table.hand_seats or self.table.last_hand_seats
        info.count(
            self.services.metrics, self.id, self.info.name, command, step, seats, started, caller
        )
        self._tell(step)
        return step

    async def commit(self, step: Step) -> None:
        """Store ``step``'s records in one fenced transaction (with other tables')."""
        batch = recorder.batch(self.id, self.lease, step.records, self.bots.is_bot_account)
        if not len(batch):
            return
        try:
            # The committer's future itself: no coroutine of its own waits in between.
            await self.services.committer.commit(batch)
        except StaleLease as error:
            self.ownership.fence(str(error))
            raise Unavailable("table_moved", "this table is run elsewhere now") from error
        except (DatabaseError, OSError) as error:
            self.ownership.lost(error)
            raise Unavailable("room_unavailable", "the room could not save that") from error
        except StoreError as error:
            if step.revertible:  # a buy-in the store refused (the wallet ran short)
                self.table.revert(step)
                raise RoomError(error.code, str(error)) from error
            log.error("table %s: the store refused a step it should take: %s", self.id, error)
            self.ownership.lost(error)
            raise Unavailable("room_unavailable", "the room could not save that") from error

    def _tell(self, step: Step) -> None:
        """After a stored step: the seats, the watchers, the rules' next timers, the lobby."""
        ended: tuple[int, ...] | None = None
        for logged in step:
            event = logged.event
            if isinstance(event, PlayerSat):
                user = self._sitting.pop(event.seat, None)
                if user is not None:
                    self.users[event.seat] = user
                    if user.is_bot and not user.api_bot:  # a bot account plays itself
                        self.bots.seated(event.seat, user)
            elif isinstance(event, PlayerLeft):
                self.users.pop(event.seat, None)
                self.bots.left(event.seat)
                self.rules.left(event.seat)
            elif isinstance(event, TableHandEnded):
                ended = event.seats
                self.hand_times.append(time.time())
            elif isinstance(event, HandVoided):
                ended = ()
        cards = self.outbox.events(step)
        now = self.services.clock.now()
        self.perform_intents(self.rules.after(self.table, now, self.bots.seats, ended))
        self.bots.follow(step, self.table, self.users)  # after the events: a word on them
        # Each player's own hand name changes with the cards; a new decision goes to its seat.
        if cards:
            self.outbox.private(self.table)
        elif self.rules.started is not None:
            self.outbox.private(self.table, only=frozenset({self.rules.started}))
        if self.outbox.wants_views:
            self.outbox.views(self.table, self.extras())
        self.outbox.flush()
        self.services.lobby_changed(self.id)
        self.policy.stepped(step)

    def perform_intents(self, intents: Iterable[Intent]) -> None:
        """Set and cancel the timers the rules ask for; announce the clocks and windows."""
        for intent in intents:
            match intent:
                case SetTimer(kind, delay):
                    self.timers.set(kind, delay)
                case CancelTimer(kind):
                    self.timers.cancel(kind)
                case ClockStarted() | WindowOpened():
                    self.outbox.broadcast(info.announce(self.id, self.table.seq, intent))

    async def seat(
        self, command: Command, users: Mapping[int, User], caller: Caller | None = None
    ) -> Step:
        """A command that seats players (a :class:`Sit`, a :class:`SitTogether`), ``users``
        holding who takes each seat (a refusal raises and changes nothing)."""
        self._sitting.update(users)
        try:
            return await self.step(command, caller)
        finally:
            for seat in users:
                self._sitting.pop(seat, None)

    def prepare(self, command: Command, users: Mapping[int, User]) -> tuple[Step, Batch]:
        """Apply a command whose writes someone else stores (a tournament's seat move, in
        its director's step), ``users`` holding who takes each seat: the step and its
        writes, fenced by this table's lease. Nothing is told until :meth:`confirm`; after
        :meth:`abandon` the table is loaded again from the store. A refusal raises and
        changes nothing."""
        step = self.table.apply(command)
        return step, recorder.batch(self.id, self.lease, step.records, self.bots.is_bot_account)

    def confirm(self, step: Step, users: Mapping[int, User]) -> None:
        """A prepared step's writes are stored: tell it to everyone (``users``: who took
        each seat, as given to :meth:`prepare`)."""
        self._sitting.update(users)
        try:
            self._tell(step)
        finally:
            for seat in users:
                self._sitting.pop(seat, None)

    def abandon(self, error: BaseException) -> None:
        """A prepared step's writes were not stored: forget the table and load it again
        from what was."""
        self.ownership.lost(error)

    async def perform(self, items: Iterable[Command | Intent]) -> None:
        """Carry out what the rules ask: commands (each a step; a refusal is logged) and
        intents, in order."""
        for item in items:
            if isinstance(item, SetTimer | CancelTimer | ClockStarted | WindowOpened):
                self.perform_intents((item,))
            else:
                await self.attempt(item)

    async def attempt(self, command: Command, user: User | None = None) -> Step | None:
        """A step the room takes itself; a refusal is logged, not raised (``user``: who a
        seat is for)."""
        seat = getattr(command, "seat", None)
        if user is not None and isinstance(seat, int):
            self._sitting[seat] = user
        try:
            return await self.step(command)
        except Unavailable:
            raise
        except PokerError as error:
            log.info("table %s: %r refused: %s", self.id, command, error)
            if user is not None:
                self.bots.unused(user, elsewhere=error.code == "bot_busy")
            return None
        finally:
            if isinstance(seat, int):
                self._sitting.pop(seat, None)

    # ------------------------------------------------------------ watchers

    async def _watch(self, item: WatchInput) -> None:
        caller = item.caller
        policy = self.policy
        if item.on and not policy.everyone_watches and not await policy.admits(caller.user_id):
            # A stranger to a private table hears of no such table, as of one that is not.
            text = f"there is no table {self.id}"
            self.outbox.reply(caller.address, outgoing.error("unknown_table", text, table=self.id))
            return
        await self._watch_table(item)
        if item.on and self.available:
            await policy.watched(caller)

    async def _watch_table(self, item: WatchInput) -> None:
        caller = item.caller
        if not item.on:
            self.outbox.remove(caller.address)
            return
        self.outbox.add(caller.address, caller.user_id, views=item.views)
        if caller.user_id is not None:
            self.rules.back(self.table.seats_of_account(caller.user_id))
        if not self.available:
            code = "table_moved" if self.fenced else "room_unavailable"
            text = "the table is run elsewhere" if self.fenced else "the table is reloading"
            self.outbox.reply(caller.address, outgoing.error(code, text, table=self.id))
            return
        if item.since is not None and self.outbox.replay(
            caller.address, item.since, self.table.seq
        ):
            if caller.user_id is not None:
                self.outbox.private_to(caller.address, caller.user_id, self.table)
            return
        self.outbox.snapshot(caller.address, self.table, self.extras())

    # ------------------------------------------------------------ timers

    async def _tick(self, tick: TimerTick | Directed) -> None:
        if isinstance(tick, Directed):
            return await self._directed(tick)
        if tick.kind == TAKE_OVER:
            return await self.ownership.take_over_now()
        if tick.kind == HAND_OVER:
            return await self.ownership.hand_over_now()
        if not self.timers.due(tick) or not self.available:
            return  # an old timer: what it was for has passed
        now = self.services.clock.now()
        if tick.kind == "decision":
            await self._decide()
        elif tick.kind == "next":
            await self._between_hands()
        elif tick.kind == "window":
            await self.perform(self.rules.deal(self.table, now))
        elif tick.kind == "away":
            commands, intents = self.rules.away_due(self.table, now)
            await self.perform([*commands, *intents])

    async def _directed(self, given: Directed) -> None:
        """An order from outside the table (a tournament director's), carried out by the
        policy; the one who gave it hears how it went."""
        done = given.done
        assert isinstance(done, asyncio.Future)
        if done.cancelled():
            return  # the giver stopped waiting for it (it orders it again if need be)
        try:
            await self.policy.carry_out(given.order)
        except BaseException as error:
            if not done.done():
                done.set_exception(error)
            if not isinstance(error, Exception):
                raise
            return
        if not done.done():
            done.set_result(None)

    async def _decide(self) -> None:
        """The decision's time is up: a bot moves, a leaver folds, a person has timed out."""
        due = self.rules.decision_due(self.table, self.bots.seats)
        if due is None:
            return
        if isinstance(due, BotTurn):
            action = await self.bots.choose(due.seat, self.table)
            try:
                await self.step(Act(due.seat, action, hand=due.hand))
            except Unavailable:
                raise
            except PokerError as error:
                log.warning("table %s: bot at %s chose %s: %s", self.id, due.seat, action, error)
                await self.attempt(Act(due.seat, self.table.default_action(due.seat), due.hand))
            return
        try:
            await self.step(due)
        except Unavailable:
            raise
        except PokerError as error:
            # A refused decision leaves the hand waiting with no clock: never expected.
            log.error("table %s: %r refused: %s", self.id, due, error)

    async def _between_hands(self) -> None:
        """The policy's work, then: sit out the absent, stand up the long-away, tend the
        bots, and deal (or bet)."""
        if self.table.hand is not None or not await self.policy.between_hands():
            return
        if self.ownership.handing_over:
            await self.ownership.hand_over_now()
            if self.fenced:
                return  # given up (if the store refused, the table deals on here)
        now = self.services.clock.now()
        commands, intents = self.rules.between_hands(
            self.table, now, self.outbox.present, self.bots.seats
        )
        await self.perform([*commands, *intents])
        for command, user in await self.bots.tend(self.table):
            await self.attempt(command, user)
        await self.perform(self.rules.next_round(self.table, now, self.bots.seats))

    # ------------------------------------------------------------ what the room shows

    def extras(self) -> dict[str, Any]:
        """What the room adds to the table's view: the table, bots, the clock, the window."""
        now = self.services.clock.now()
        bots = [seat for seat, user in self.users.items() if user.is_bot]  # bot accounts too
        return info.extras(self.id, self.config, self.spec, bots, self.rules, now)

    def summary(self) -> TableLine:
        """The table's line in the lobby."""
        return info.lobby_line(
            self.id, self.config, self.spec, self.users, self.table, self.available,
            self.hand_times,
        )  # fmt: skip
