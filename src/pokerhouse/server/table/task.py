"""One table's task: a loop that alone owns the table.

Every input (a request, a watch, a timer) reaches it through its inbox and
takes one way through::

    input -> command -> Table.apply -> step (events + records)
          -> recorder: records -> batch -> committer (one transaction, fenced)
          -> outbox: each audience's frames, once -> every watcher's one list
          -> rules: the next timers and announcements

Requests are answered in :mod:`.requests`; the room's rules around the hands
(clocks, banks, the betting window, the away) are :mod:`.rules`, pure; the house
bots (told of each hand's start and end) :mod:`.housebots`. A store outage reloads
the table; a lost lease stops it; a refused buy-in is answered; a bug is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Iterable
from typing import Any

from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import spec_from_dict
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.runtime.mailbox import Mailbox
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table import handover, info, recorder
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.inputs import Caller, Directed, Input, Request, TimerTick, WatchInput
from pokerhouse.server.table.outbox import Deliver, Outbox
from pokerhouse.server.table.player_requests import answer
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
    HandLog,
    HandVoid,
    StaleLease,
    StoreError,
    TableBookError,
    TableDef,
    User,
)
from pokerhouse.store.rebuild import deal_again
from pokerhouse.table import (
    Act,
    Command,
    HandVoided,
    PlayerLeft,
    PlayerSat,
    Sit,
    Step,
    Table,
    TableHandEnded,
    VoidHand,
    records,
)

log = logging.getLogger("pokerhouse.table")
#: The ticks that have a table run elsewhere taken over, and the table given up for a
#: less-loaded node (no timer's kinds).
TAKE_OVER, HAND_OVER = "take_over", "hand_over"


class TableTask:
    """The task that owns one table of the room."""

    def __init__(self, services: Services, definition: TableDef, deliver: Deliver) -> None:
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
        self.table = self._new_table(lease=0, seated=(), button=None, hands_played=0)
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
        self.carrier = handover.Carrier()
        self._handing_over = False
        self._reloading: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None
        #: Whether the task is handling an input now (it may be waiting on the store).
        self.busy = False
        #: Inputs posted to the task, and inputs it has finished handling, since it began.
        self.posted = 0
        self.handled = 0

    # ------------------------------------------------------------ life

    async def start(self) -> bool:
        """Load the table from the store, then run its task on the running loop: whether
        this node runs the table. One whose lease another node holds stays here unloaded
        (every request and watch is answered ``table_moved``) until :meth:`take_over`."""
        try:
            await self._load(reclaim=True)
        except TableBookError as error:
            if error.code != "lease_held":
                raise
            self.fenced = True
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")
        return not self.fenced

    def take_over(self) -> None:
        """Have the task lease and load the table, run elsewhere until now, if its lease
        is free or lapsed (its node stopped or died); its hand goes on from its log. The
        task does it between two inputs, never beside a step of its own."""
        self.post(TimerTick(TAKE_OVER, 0))

    def hand_over(self) -> None:
        """Give the table up for a less-loaded node (:mod:`.spread`), between two hands."""
        self._handing_over = True
        self.post(TimerTick(HAND_OVER, 0))

    async def _hand_over(self) -> None:
        busy = self.table.hand is not None or self.rules.window_open  # then after the hand
        if self.fenced or not self.available or busy:
            return
        self._handing_over = False
        self.keep_carried()  # the next owner takes up the rules' state as it is now
        store, owner = self.services.store, self.services.settings.owner
        try:
            released = await store.tables.release(self.id, owner, self.lease)
        except (StoreError, OSError) as error:
            log.warning("table %s: not given up: %s", self.id, error)
            return
        if not released:
            return self._fence("taken by another node")
        # Quietly: the watchers follow the table to its next owner as soon as it runs it.
        self.fenced, self.available = True, False
        self.timers.cancel_all()
        log.info("table %s: given up for a less-loaded node", self.id)

    async def _take_over(self) -> None:
        if not self.fenced or (self._reloading is not None and not self._reloading.done()):
            return
        self.fenced = False  # meanwhile a request hears room_unavailable: soon back
        self._handing_over = False
        try:
            await self._load(reclaim=False)
        except (StoreError, OSError, Unavailable) as error:
            self.fenced, self.available = True, False
            log.info("table %s: not taken over: %s", self.id, error)
            return
        except Exception:
            self.fenced, self.available = True, False
            raise
        log.warning("table %s: taken over under lease %s", self.id, self.lease)

    async def stop(self) -> None:
        """Stop the task and its timers, and give the lease up (the store keeps the rest)."""
        self.timers.cancel_all()
        for task in (self._reloading, self._task):
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
                    await answer(self, item)
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
                self._carry()

    # ------------------------------------------------------------ the one way through

    async def step(self, command: Command, caller: Caller | None = None) -> Step:
        """Apply ``command``, store what it caused, then tell every watcher.

        A command the table refuses raises its error and changes nothing.
        """
        started = time.perf_counter()
        step = self.table.apply(command)
        await self._commit(step)
        seats = self.table.hand_seats or self.table.last_hand_seats
        info.count(
            self.services.metrics, self.id, self.info.name, command, step, seats, started, caller
        )
        self._tell(step)
        return step

    async def _commit(self, step: Step) -> None:
        """Store ``step``'s records in one fenced transaction (with other tables')."""
        batch = recorder.batch(self.id, self.lease, step.records, self.bots.is_bot_account)
        if not len(batch):
            return
        try:
            # The committer's future itself: no coroutine of its own waits in between.
            await self.services.committer.commit(batch)
        except StaleLease as error:
            self._fence(str(error))
            raise Unavailable("table_moved", "this table is run elsewhere now") from error
        except (DatabaseError, OSError) as error:
            self._lost(error)
            raise Unavailable("room_unavailable", "the room could not save that") from error
        except StoreError as error:
            if step.revertible:  # a buy-in the store refused (the wallet ran short)
                self.table.revert(step)
                raise RoomError(error.code, str(error)) from error
            log.error("table %s: the store refused a step it should take: %s", self.id, error)
            self._lost(error)
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
        self._perform(self.rules.after(self.table, now, self.bots.seats, ended))
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

    def _perform(self, intents: Iterable[Intent]) -> None:
        for intent in intents:
            match intent:
                case SetTimer(kind, delay):
                    self.timers.set(kind, delay)
                case CancelTimer(kind):
                    self.timers.cancel(kind)
                case ClockStarted() | WindowOpened():
                    self.outbox.broadcast(info.announce(self.id, self.table.seq, intent))

    async def seat(self, command: Sit, user: User, caller: Caller) -> Step:
        """A :class:`Sit` for ``user`` (a refusal raises and changes nothing)."""
        self._sitting[command.seat] = user
        try:
            return await self.step(command, caller)
        finally:
            self._sitting.pop(command.seat, None)

    async def perform(self, items: Iterable[Command | Intent]) -> None:
        """Carry out what the rules ask: commands (each a step; a refusal is logged) and
        intents, in order."""
        for item in items:
            if isinstance(item, SetTimer | CancelTimer | ClockStarted | WindowOpened):
                self._perform((item,))
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
        if isinstance(tick, Directed):  # a tournament's order: TournamentTable's alone
            raise RoomError("not_tournament", f"table {self.id} has no tournament")
        if tick.kind == TAKE_OVER:
            return await self._take_over()
        if tick.kind == HAND_OVER:
            return await self._hand_over()
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
        """Sit out the absent, stand up the long-away, tend the bots, then deal (or bet)."""
        if self.table.hand is not None:
            return
        if self._handing_over:
            await self._hand_over()
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

    # ------------------------------------------------------------ loading

    def _new_table(
        self, lease: int, seated: tuple[tuple[int, str, int, int], ...], button: int | None,
        hands_played: int,
    ) -> Table:  # fmt: skip
        return info.new_table(
            self.config, self.spec, self.services.rng, lease, seated, button, hands_played
        )

    async def _load(self, reclaim: bool = True) -> None:
        """(Re)build the table from the store: seats, then any unfinished hand, by replay
        (``reclaim``: a running lease under this node's name may be taken, as at start)."""
        store, settings = self.services.store, self.services.settings
        lease = await store.tables.acquire(
            self.id, settings.owner, seconds=settings.lease_seconds, reclaim=reclaim
        )
        seated = await store.tables.seats(self.id)
        logs = await store.hands.unfinished(self.id)
        last = await store.hands.last_number(self.id)
        users = {row.seat: await store.users.get(row.user_id) for row in seated}
        state = handover.decode(await self.services.bus.kept(handover.key(self.id)) or b"")
        running = logs[-1] if logs else None
        for stale in logs[:-1]:  # a table runs one hand at a time: older ones cannot go on
            void = HandVoid(self.id, stale.number, "superseded by a later hand", lease)
            await self.services.committer.commit(Batch(voids=[void]))
        button = None
        if running is not None and not self.info.banked:
            button = running.seats[-1].table_seat
        entries = tuple(
            (row.seat, users[row.seat].username, row.stack, row.user_id) for row in seated
        )
        # Everything is read: only now does the task's state change.
        self.timers.cancel_all()
        self.lease = lease
        self.table = self._new_table(lease, entries, button, last - 1 if running else last)
        self.bots.clear()
        self.users = users
        for seat, user in users.items():
            if user.is_bot and not user.api_bot:
                self.bots.seated(seat, user)
        self.rules.reset()
        self.outbox.forget()
        self.applied = {}
        if running is not None:
            await self._resume(running)
        self.available = True
        now = self.services.clock.now()
        self.carrier = handover.Carrier()
        if state is not None:  # the last owner's clocks, banks, away and window go on
            self._perform(self.rules.restore(state, self.table, now, time.time()))
        for address in list(self.outbox.watchers):
            self.outbox.snapshot(address, self.table, self.extras())
        self._perform(self.rules.after(self.table, now, self.bots.seats))
        self.outbox.flush()

    async def _resume(self, stored: HandLog) -> None:
        """Carry a stored hand on from its deck and actions, or void it if its log is damaged."""
        applied = self.applied.setdefault(stored.number, set())
        try:
            last = deal_again(self.table, stored, applied)
        except (PokerError, ValueError) as error:
            reason = f"damaged log: {error}"[:400]
            log.warning("table %s: hand %s voided: %s", self.id, stored.number, reason)
            void = (
                VoidHand(reason) if self.table.hand is not None else VoidHand(reason, stored.number)
            )
            await self._commit(self.table.apply(void))
            return
        log.info(
            "table %s: hand %s resumed after %d actions",
            self.id,
            stored.number,
            len(stored.actions),
        )
        if self.table.hand is None and last is not None:
            # Every action was stored but not what ended the hand: store that now.
            rest = [r for r in last.records if not isinstance(r, records.ActionLogged)]
            batch = recorder.batch(self.id, self.lease, rest, self.bots.is_bot_account)
            await self.services.committer.commit(batch)

    async def _reload(self) -> None:
        """After a database failure: retry loading until the store answers."""
        while not self.fenced:
            try:
                await self._load()
                log.info("table %s: reloaded from the store", self.id)
                return
            except asyncio.CancelledError:
                raise
            except StoreError as error:
                if getattr(error, "code", "") == "lease_held":
                    self._fence(str(error))
                    return
                log.warning("table %s: store still unavailable: %s", self.id, error)
            except OSError as error:
                log.warning("table %s: store still unavailable: %s", self.id, error)
            await self.services.clock.sleep(self.services.settings.retry_seconds)

    def _carry(self) -> None:
        """Note whether the room rules' state changed (kept by :meth:`keep_carried`)."""
        if self.available and not self.fenced and self.services.bus.shared:
            self.carrier.note(self.rules.signature())

    def keep_carried(self) -> None:
        """Keep the rules' state for the next owner if it changed (the room: every second)."""
        if self.carrier.due and self.available and not self.fenced:
            self.carrier.due = False
            state = self.rules.carry(self.services.clock.now(), time.time())
            self.services.bus.keep(*handover.record(self.id, state))

    def _lost(self, error: BaseException) -> None:
        """The store failed mid-command: stop, forget, and reload what was saved."""
        if not self.available:
            return
        log.warning("table %s: store failed (%s); reloading from it", self.id, error)
        self.available = False
        self.timers.cancel_all()
        self.outbox.drop()
        self.outbox.broadcast(
            outgoing.error(
                "room_unavailable", "the table lost its database; it will be back", table=self.id
            )
        )
        self.outbox.flush()
        self._reloading = asyncio.get_running_loop().create_task(self._reload())

    def _fence(self, reason: str) -> None:
        """The lease went to another owner: stop this table here at once, for good."""
        if self.fenced:
            return
        log.warning("table %s: lease lost (%s); the table stops here", self.id, reason)
        self.fenced = True
        if self._reloading is not None and self._reloading is not asyncio.current_task():
            self._reloading.cancel()  # a reload would run it again under the lost lease
        self.available = False
        self.timers.cancel_all()
        self.outbox.drop()
        self.outbox.broadcast(
            outgoing.error("table_moved", "this table is run elsewhere now", table=self.id)
        )
        self.outbox.flush()

    def lease_lost(self) -> None:
        """The room's lease renewal found this table's lease gone."""
        self._fence("not renewed")

    # ------------------------------------------------------------ what the room shows

    def extras(self) -> dict[str, Any]:
        """What the room adds to the table's view: the table, bots, the clock, the window."""
        now = self.services.clock.now()
        bots = [seat for seat, user in self.users.items() if user.is_bot]  # bot accounts too
        return info.extras(self.id, self.config, self.spec, bots, self.rules, now)

    def summary(self) -> dict[str, Any]:
        """The table's line in the lobby."""
        return info.lobby_line(
            self.id, self.config, self.spec, self.users, self.table, self.available,
            self.hand_times,
        )  # fmt: skip
