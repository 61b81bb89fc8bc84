"""One table's task: it alone owns the table, and every input reaches it through its inbox.

Players' requests, bots' moves and clock ticks are queued and handled one at
a time, so nothing races. Each accepted command takes the same path
(:meth:`TableRunner.step`): the table applies it (a pure function), the
hand-log writes it caused are committed (with other tables', in one group
commit), the cash-outs it implies are made, and only then does any client
hear of it. Should the database fail, the table forgets what it did in
memory, tells its watchers, and reloads itself from the store once the
database answers again, so nothing half-done survives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from pokerhouse.bots import Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.cards import Deck, parse_cards
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem import CasinoHoldemSpec
from pokerhouse.history.json_history import spec_from_dict, spec_to_dict, to_json
from pokerhouse.server import frames, practice
from pokerhouse.server import protocol as p
from pokerhouse.server.clock import Timer
from pokerhouse.server.clocks import TimeBanks
from pokerhouse.server.connection import Connection
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.logs import now_ms, record
from pokerhouse.server.publish import Audience
from pokerhouse.server.seating import Player, Seating
from pokerhouse.server.services import Services
from pokerhouse.store import (
    ActionRecord,
    Batch,
    DatabaseError,
    HandFinish,
    HandLog,
    HandStart,
    HandVoid,
    TableDef,
)
from pokerhouse.table import (
    Act,
    AddChips,
    Command,
    HandVoided,
    Leave,
    Logged,
    PlayerLeft,
    Rake,
    SetWager,
    Sit,
    SitIn,
    SitOut,
    StartHand,
    Table,
    TableHandEnded,
    TableHandStarted,
    TableLimits,
    Timeout,
    VoidHand,
)

log = logging.getLogger("pokerhouse.table")
events_log = logging.getLogger("pokerhouse.events")

#: Hands whose act ids a table remembers (the latest two), so a resent ``act`` is
#: acknowledged, not applied twice. An act names its hand and one for an older hand is
#: refused as stale, so an older id can never be applied again: keeping it would only
#: cost memory (4,096 ids a table, as it once was, is 2 million ids in a 500-table room).
REMEMBERED_HANDS = 2


@dataclass(frozen=True, slots=True)
class Request:
    """A client's message for this table, with the connection to answer."""

    conn: Connection
    message: p.ClientMessage


@dataclass(frozen=True, slots=True)
class Watch:
    """A connection starts (``since``: resumes from there) or stops watching the table."""

    conn: Connection
    on: bool
    since: int | None = None
    #: Send this watcher a fresh snapshot after every step.
    views: bool = False


@dataclass(frozen=True, slots=True)
class Tick:
    """A timer went off; ``token`` says whether it is still the one that matters."""

    kind: str
    token: int


Input = Request | Watch | Tick


class TableRunner:
    """The task that owns one table of the room."""

    def __init__(self, services: Services, definition: TableDef) -> None:
        self.services = services
        self.definition = definition
        self.config = definition.config
        self.id = definition.id
        self.info = get_game(self.config.game)
        self.spec = spec_from_dict(self.info.spec_type, self.config.options)
        self.players = Seating()
        # Through self: a reload puts a new Seating in place.
        self.audience = Audience(self.id, lambda user: self.players.seats_of(user))
        self.table = self._new_table(lease=0, seated=(), button=None, hands_played=0)
        self.inbox: asyncio.Queue[Input] = asyncio.Queue()
        self.lease = 0
        self.available = False
        self.banks = TimeBanks(self.config.decision_seconds, self.config.time_bank_seconds)
        self.hand_times: deque[float] = deque(maxlen=100)
        self._bots: dict[int, Bot] = {}
        self._applied: dict[int, set[tuple[int, str]]] = {}
        self._timers: dict[str, tuple[int, Timer]] = {}
        #: Practice-mode counts of a call's value in flight (kept so they are not collected).
        self._counting: set[asyncio.Task[None]] = set()
        self._tokens = 0
        self._deck: tuple[list[str], int] | None = None
        self._decision: tuple[int, int, int] | None = None
        self._away_since: dict[int, float] = {}
        self._placed: set[int] = set()
        self._window_open = False
        # Set when a hand ends: the next pause between hands sits out who is away.
        self._sweep = False
        self._next_due = 0.0
        # The seat whose decision the last step started (its owner is told).
        self._started: int | None = None
        self._reloading: asyncio.Task[None] | None = None
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        """Load the table from the store, then run its task on the running loop."""
        await self._load()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the task and its timers (the store keeps everything that was committed)."""
        for _, timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        for task in (self._reloading, self._task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    def post(self, item: Input) -> None:
        """Queue an input for the table's task."""
        self.inbox.put_nowait(item)

    async def _run(self) -> None:
        while True:
            item = await self.inbox.get()
            try:
                await self._handle(item)
            except asyncio.CancelledError:
                raise
            except Exception:  # one bad input must not stop the table
                log.exception("table %s: failure handling %r", self.id, item)

    # ------------------------------------------------------------ loading

    def _new_table(
        self,
        lease: int,
        seated: tuple[tuple[int, str, int], ...],
        button: int | None,
        hands_played: int,
    ) -> Table:
        config = self.config
        assert config.min_buy_in is not None and config.max_buy_in is not None
        rake = None
        if config.rake_bps:
            rake = Rake(percent=f"{config.rake_bps}/100", cap=config.rake_cap)
        return Table(
            self.info.name,
            seats=config.seats,
            spec=self.spec,
            limits=TableLimits(config.min_buy_in, config.max_buy_in),
            rng=self.services.rng,
            rake=rake,
            boxes_per_player=config.max_boxes,
            log_size=self.services.settings.log_size,
            # Numbers under a new lease start above every number of the last one,
            # so a client's stale cursor never matches an event of this run.
            first_seq=lease << 32,
            hands_played=hands_played,
            seated=seated,
            button=button,
        )

    async def _load(self) -> None:
        """(Re)build the table from the store: seats, then any unfinished hand, by replay."""
        store = self.services.store
        lease = await store.acquire_table(self.id, self.services.settings.owner)
        records = await store.seats(self.id)
        logs = await store.unfinished_hands(self.id)
        last = await store.last_hand_number(self.id)
        players = {record.seat: Player(await store.get_user(record.user_id)) for record in records}
        running = logs[-1] if logs else None
        for stale in logs[:-1]:  # a table runs one hand at a time: older ones cannot go on
            await self.services.committer.commit(
                Batch(voids=[HandVoid(self.id, stale.number, "superseded by a later hand", lease)])
            )
        button = None
        if running is not None and not self.info.banked:
            button = running.seats[-1].table_seat
        seated = tuple((r.seat, players[r.seat].name, r.stack) for r in records)
        # Everything is read: only now does the runner's state change.
        self._cancel_timers()
        self.lease = lease
        self.players = Seating(players)
        self.table = self._new_table(lease, seated, button, last - 1 if running else last)
        self._bots = {seat: self._bot_policy() for seat, pl in players.items() if pl.bot}
        for player in players.values():
            if player.bot:
                self.services.bot_seated(player.user)
        self._decision = None
        self.banks.current = None
        self._window_open = False
        self._placed = set()
        if running is not None:
            await self._resume(running)
        self.available = True
        for conn in list(self.audience.watchers):
            self._snapshot(conn)
        self._react(())

    async def _resume(self, record: HandLog) -> None:
        """Carry a stored hand on from its deck and actions, or void it if its log is damaged."""
        seats = tuple(seat.table_seat for seat in record.seats)
        deck = Deck.from_order(parse_cards(record.deck_order), random.Random(record.deck_seed))
        self._deck = (list(record.deck_order), record.deck_seed)
        try:
            for seat in record.seats:
                player = self.players.get(seat.table_seat)
                info = self.table.seat(seat.table_seat)
                if player is None or player.user_id != seat.user_id or info is None:
                    raise RoomError("damaged_log", f"seat {seat.table_seat} is not its player's")
                if info.stack != seat.stack:
                    raise RoomError("damaged_log", f"seat {seat.table_seat}'s stack differs")
            setup = tuple(sorted(record.setup.items()))
            self.table.apply(StartHand(deck, seats, setup))
            for logged in record.actions:
                if logged.seat >= len(seats):
                    raise RoomError("damaged_log", f"action {logged.seq} names no seat of the hand")
                self.table.apply(
                    Act(seats[logged.seat], Action(ActionKind(logged.kind), logged.amount))
                )
        except (PokerError, ValueError) as error:
            reason = f"damaged log: {error}"[:400]
            log.warning("table %s: hand %s voided: %s", self.id, record.number, reason)
            if self.table.hand is not None:
                await self._persist(self.table.apply(VoidHand(reason)), None, None)
            else:
                void = HandVoid(self.id, record.number, reason, self.lease)
                await self.services.committer.commit(Batch(voids=[void]))
                self.table.hands_played = record.number  # the number is used, if never dealt
            return
        log.info(
            "table %s: hand %s resumed after %d actions",
            self.id,
            record.number,
            len(record.actions),
        )
        if self.table.hand is None:
            # Every action was logged but not the settlement: settle it now.
            tail = tuple(
                e for e in self.table.log if isinstance(e.event, TableHandEnded | PlayerLeft)
            )
            await self._persist(tail, self.table.last_hand, None)

    async def _reload(self) -> None:
        """After a database failure: retry loading until the store answers."""
        while True:
            try:
                await self._load()
                log.info("table %s: reloaded from the store", self.id)
                return
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("table %s: store still unavailable: %s", self.id, error)
                await self.services.clock.sleep(self.services.settings.retry_seconds)

    def _lost(self, error: BaseException) -> None:
        """The store failed mid-command: stop, forget, and reload what was saved."""
        if not self.available:
            return
        log.warning("table %s: store failed (%s); reloading from it", self.id, error)
        self.available = False
        self._cancel_timers()
        self.audience.broadcast(
            frames.error(
                "room_unavailable", "the table lost its database; it will be back", table=self.id
            )
        )
        self._reloading = asyncio.get_running_loop().create_task(self._reload())

    # ------------------------------------------------------------ inputs

    async def _handle(self, item: Input) -> None:
        if isinstance(item, Watch):
            self._watch(item)
        elif isinstance(item, Tick):
            await self._tick(item)
        else:
            await self._request(item.conn, item.message)

    def _watch(self, item: Watch) -> None:
        conn = item.conn
        if not item.on:
            self.audience.remove(conn)
            return
        self.audience.add(conn, views=item.views)
        for seat, player in self.players.items():
            if player.user_id == conn.user_id:
                self._away_since.pop(seat, None)
        if not self.available:
            conn.send(frames.error("room_unavailable", "the table is reloading", table=self.id))
            return
        if item.since is not None:
            missed = self.table.since(item.since, self.audience.viewer(conn))
            if missed is not None:
                for seq, event in missed:
                    payload = None if event is None else frames.encode_event(event)
                    conn.send(frames.event_frame(self.id, seq, payload))
                self.audience.private(self.table)
                return
        self._snapshot(conn)

    async def _request(self, conn: Connection, message: p.ClientMessage) -> None:
        ident = message.id if isinstance(message, p.Act) else None
        try:
            if not self.available:
                raise Unavailable("room_unavailable", "the table is reloading: try again soon")
            await self._dispatch(conn, message)
        except Unavailable as error:
            self.services.metrics.error(error.code)
            conn.send(frames.error(error.code, str(error), ident, self.id))
        except PokerError as error:
            self.services.metrics.error(error.code)
            conn.send(frames.error(error.code, str(error), ident, self.id))

    async def _dispatch(self, conn: Connection, message: p.ClientMessage) -> None:
        if isinstance(message, p.Chat):
            self._chat(conn, message.text)
            return
        user = conn.user_id
        if user is None:
            raise RoomError("login_required", "sign in to play (watching needs no account)")
        match message:
            case p.Act(hand=number, action=body, id=ident):
                await self._act(conn, user, number, body, ident)
            case p.Sit(seat=seat, buy_in=buy_in):
                await self._sit(conn, seat, buy_in)
            case p.Leave():
                for seat in self._own_seats(user):
                    await self.step(Leave(seat))
            case p.SitOut():
                for seat in self._own_seats(user):
                    await self.step(SitOut(seat))
            case p.SitIn():
                for seat in self._own_seats(user):
                    self._away_since.pop(seat, None)
                    await self.step(SitIn(seat))
            case p.AddChips(seat=seat, amount=amount):
                self._own_seat(user, seat)
                await self._add_chips(seat, user, amount)
            case p.Wager(seat=seat, ante=ante, bonus=bonus):
                await self._wager(user, seat, ante, bonus)
            case p.CallEv(seat=seat):
                self._own_seat(user, seat)
                self._call_ev(conn, seat)
            case _:
                raise RoomError("bad_request", f"{type(message).__name__} is not a table request")

    def _call_ev(self, conn: Connection, seat: int) -> None:
        """Practice mode: calling's exact value for the asker's own box, counted off the loop."""
        if not isinstance(self.spec, CasinoHoldemSpec):
            raise RoomError("bad_request", "the call's value is for Casino Hold'em boxes")
        hole, flop, ante = practice.own_box(self.table, seat)
        number = self.table.hand_number
        spec = self.spec

        async def count() -> None:
            body = await asyncio.to_thread(practice.call_value, spec, hole, flop, ante)
            conn.send(
                frames.message(
                    "call_ev", table=self.id, seq=self.table.seq, hand=number, seat=seat, **body
                )
            )

        task = asyncio.get_running_loop().create_task(count())
        self._counting.add(task)
        task.add_done_callback(self._counting.discard)

    def _own_seats(self, user: int) -> frozenset[int]:
        seats = self.players.seats_of(user)
        if not seats:
            raise RoomError("not_seated", "you have no seat at this table")
        return seats

    def _own_seat(self, user: int, seat: int) -> None:
        player = self.players.get(seat)
        if player is None or player.user_id != user:
            raise RoomError("not_your_seat", f"seat {seat} is not yours")

    async def _act(
        self, conn: Connection, user: int, number: int, body: p.ActionBody, ident: str
    ) -> None:
        key = (user, ident)
        if any(key in applied for applied in self._applied.values()):
            conn.send(frames.message("ack", id=ident, table=self.id, repeated=True))
            return
        try:
            kind = ActionKind(body.kind)
        except ValueError:
            raise RoomError("bad_action", f"unknown action {body.kind!r}") from None
        mine = self._own_seats(user)
        to_act = self.table.to_act() if self.table.hand is not None else None
        # Act for the seat on turn if it is one of the player's; otherwise the table
        # names the reason (a stale hand, not in the hand, out of turn).
        seat = to_act if to_act in mine else min(mine)
        await self.step(Act(seat, Action(kind, body.amount), hand=number), conn)
        applied = self._applied.get(number)
        if applied is None:
            applied = self._applied[number] = set()
            while len(self._applied) > REMEMBERED_HANDS:
                del self._applied[min(self._applied)]
        applied.add(key)
        conn.send(frames.message("ack", id=ident, table=self.id))

    async def _sit(self, conn: Connection, seat: int, buy_in: int) -> None:
        user = conn.user_id
        assert user is not None
        player = Player(await self.services.store.get_user(user))
        command = Sit(seat, player.name, buy_in)
        self.table.check(command)
        await self._ledger(
            self.services.store.buy_in(
                self.id, seat, user, buy_in, key=f"buy-in:{self.id}:{seat}:{self.table.seq}"
            )
        )
        self.players[seat] = player
        await self.step(command)

    async def _add_chips(self, seat: int, user: int, amount: int) -> None:
        command = AddChips(seat, amount)
        self.table.check(command)
        await self._ledger(
            self.services.store.add_chips(
                self.id, seat, user, amount, key=f"add-chips:{self.id}:{seat}:{self.table.seq}"
            )
        )
        await self.step(command)

    async def _ledger(self, operation: Any) -> Any:
        """A wallet move before a seating command: a refusal is the player's, a failure ours."""
        try:
            return await operation
        except (DatabaseError, OSError) as error:
            self._lost(error)
            raise Unavailable(
                "room_unavailable", "the room could not save that: try again soon"
            ) from error

    async def _wager(self, user: int, seat: int, ante: int, bonus: int) -> None:
        if not self.info.banked:
            raise RoomError("no_wagers", f"{self.info.title} has no bets against the house")
        self._own_seat(user, seat)
        await self.step(SetWager(seat, ante, bonus))
        self._placed.add(seat)
        if self._window_open and self._everyone_placed():
            await self._deal()

    def _chat(self, conn: Connection, text: str) -> None:
        name = conn.identity.username
        if name is None:
            raise RoomError("login_required", "sign in to chat")
        clean = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
        if not clean:
            raise RoomError("bad_request", "a chat line needs some text")
        self.audience.broadcast(
            frames.message("chat", table=self.id, seq=self.table.seq, user=name, text=clean)
        )

    # ------------------------------------------------------------ the one path

    async def step(self, command: Command, conn: Connection | None = None) -> tuple[Logged, ...]:
        """Apply ``command``, persist what it caused, then tell every watcher.

        ``conn`` is the connection the command came from, for the logs.
        """
        hand = self.table.hand
        started = time.perf_counter()
        step = self.table.apply(command)
        await self._persist(step, hand if hand is not None else self.table.last_hand, command)
        self._account(command, step, hand, started, conn)
        cards = self.audience.events(step)
        self._started = None
        self._react(step)
        # Each player's own hand name changes with the cards; a new decision goes to its seat.
        if cards:
            self.audience.private(self.table)
        elif self._started is not None:
            self.audience.private(self.table, only=frozenset({self._started}))
        if self.audience.view_watchers:
            self.audience.views(self.table, self.extras())
        return step

    async def _persist(self, step: tuple[Logged, ...], hand: Any, command: Command | None) -> None:
        """Commit the hand-log writes of ``step``, then the cash-outs it implies."""
        batch = self._writes(step, hand, command)
        try:
            if len(batch):
                await self.services.committer.commit(batch)
            for logged in step:
                event = logged.event
                if isinstance(event, PlayerLeft):
                    player = self.players.pop(event.seat, None)
                    if player is None:
                        continue
                    await self.services.store.cash_out(
                        self.id, event.seat, player.user_id, key=f"cash-out:{self.id}:{logged.seq}"
                    )
                    self._gone(event.seat, player)
        except Exception as error:
            # Whatever failed, the table in memory is ahead of the store: reload it.
            self._lost(error)
            raise Unavailable(
                "room_unavailable", "the room could not save that: try again soon"
            ) from error

    def _account(
        self,
        command: Command,
        step: tuple[Logged, ...],
        hand: Any,
        started: float,
        conn: Connection | None,
    ) -> None:
        """Count and log what a committed step did (never a card: only what is public)."""
        metrics = self.services.metrics
        game = self.info.name
        if isinstance(command, Act | Timeout) and hand is not None and hand.actions:
            seat, action = hand.actions[-1]
            metrics.action(game)
            record(
                events_log, "action", table=self.id, hand=command.hand,
                seat=self.table_seat_of(hand, seat), kind=action.kind.value,
                amount=action.amount, timeout=isinstance(command, Timeout),
                conn=conn.id if conn is not None else None, ms=now_ms(started),
            )  # fmt: skip
        for logged in step:
            event = logged.event
            if isinstance(event, TableHandEnded):
                metrics.hand(game, "finished")
                record(
                    events_log, "hand", table=self.id, hand=event.number, game=game,
                    seats=list(event.seats), net=list(event.net), rake=event.rake,
                    house=event.house,
                )  # fmt: skip
            elif isinstance(event, HandVoided):
                metrics.hand(game, "voided")
                record(
                    events_log, "hand_voided", table=self.id, hand=event.number, reason=event.reason
                )

    def table_seat_of(self, hand: Any, hand_seat: int) -> int | None:
        """The table seat of ``hand``'s seat ``hand_seat`` (the hand may have ended)."""
        places = self.table.hand_seats if self.table.hand is hand else self.table.last_hand_seats
        return places[hand_seat] if hand_seat < len(places) else None

    def _writes(self, step: tuple[Logged, ...], hand: Any, command: Command | None) -> Batch:
        starts: list[HandStart] = []
        actions: list[ActionRecord] = []
        finishes: list[HandFinish] = []
        voids: list[HandVoid] = []
        voided = any(isinstance(logged.event, HandVoided) for logged in step)
        if isinstance(command, Act | Timeout) and hand is not None and hand.actions and not voided:
            seat, action = hand.actions[-1]
            number = command.hand if command.hand is not None else self._number_of(step)
            actions.append(
                ActionRecord(
                    self.id,
                    number,
                    len(hand.actions) - 1,
                    seat,
                    action.kind.value,
                    action.amount,
                    self.lease,
                )
            )
        for logged in step:
            event = logged.event
            if isinstance(event, TableHandStarted):
                dealt = self.table.last_hand
                assert dealt is not None and self._deck is not None
                order, seed = self._deck
                seats = [
                    (seat, self.players[seat].user_id, stack)
                    for seat, stack in zip(event.seats, event.stacks, strict=True)
                ]
                starts.append(
                    HandStart(
                        self.id,
                        event.number,
                        self.info.name,
                        spec_to_dict(self.spec),
                        dealt.setup(),
                        seats,
                        order,
                        seed,
                        logged.seq - 1,
                        self.lease,
                    )
                )
            elif isinstance(event, TableHandEnded):
                ended = hand if hand is not None else self.table.last_hand
                assert ended is not None
                finishes.append(
                    HandFinish(
                        self.id,
                        event.number,
                        event.net,
                        event.rake,
                        event.house,
                        to_json(ended),
                        self.lease,
                    )
                )
                self.hand_times.append(time.time())
            elif isinstance(event, HandVoided):
                voids.append(HandVoid(self.id, event.number, event.reason[:400], self.lease))
        return Batch(starts, actions, finishes, voids)

    def _number_of(self, step: tuple[Logged, ...]) -> int:
        for logged in step:
            if isinstance(logged.event, TableHandEnded | HandVoided):
                return logged.event.number
        number = self.table.hand_number
        assert number is not None
        return number

    # ------------------------------------------------------------ telling

    def _snapshot(self, conn: Connection) -> None:
        self.audience.snapshot(conn, self.table, self.extras())

    def extras(self) -> dict[str, Any]:
        """What the room adds to the table's view: the table, bots, the clock, the window."""
        now = self.services.clock.now()
        decision = self.banks.current
        clock = None
        if decision is not None:
            limit, bank = decision.remaining(now)
            clock = {
                "seat": decision.seat,
                "limit_ms": int(limit * 1000),
                "bank_ms": int(bank * 1000),
            }
        config = self.config
        return {
            "table": {
                "id": self.id,
                "name": config.name,
                "game": self.info.name,
                "title": self.info.title,
                "spec": spec_to_dict(self.spec),
                "min_buy_in": config.min_buy_in,
                "max_buy_in": config.max_buy_in,
                "max_boxes": config.max_boxes,
                "decision_seconds": config.decision_seconds,
                "time_bank_seconds": config.time_bank_seconds,
                "rake_bps": config.rake_bps,
                "rake_cap": config.rake_cap,
            },
            "bots": sorted(seat for seat, player in self.players.items() if player.bot),
            "clock": clock,
            "window": (
                {"open": self._window_open, "placed": sorted(self._placed)}
                if self.info.banked
                else None
            ),
        }

    # ------------------------------------------------------------ what happens next

    def _react(self, step: tuple[Logged, ...]) -> None:
        """After a step: the next decision's clock, or the next hand; the lobby."""
        if not self.available and step:
            return
        if self.table.hand is not None:
            self._next_decision()
        else:
            self._decision = None
            self.banks.current = None
            self._cancel("decision")
            ended = any(isinstance(logged.event, TableHandEnded | HandVoided) for logged in step)
            if ended:
                self._sweep = True
                hand = [logged.event for logged in step if isinstance(logged.event, TableHandEnded)]
                if hand:
                    self.banks.refill(hand[0].seats)
            if not self._window_open:
                # After a hand, a pause to see its end; after anything else (a player
                # sat down), look at once, unless a pause is already running.
                if ended:
                    self._schedule_next(self.services.settings.hand_pause)
                elif "next" not in self._timers or self._next_due > self.services.clock.now():
                    self._schedule_next(0.0)
        self.services.lobby_changed(self.id)

    def _next_decision(self) -> None:
        table = self.table
        hand = table.hand
        assert hand is not None
        seat = table.to_act()
        if seat is None:
            return
        key = (table.hand_number or 0, seat, len(hand.actions))
        if key == self._decision:
            return
        self._decision = key
        now = self.services.clock.now()
        previous = self.banks.current
        if previous is not None:
            # The last decision is over: what it used past its limit leaves its bank.
            self.banks.finish(previous.seat, now)
        player = self.players.get(seat)
        if player is not None and player.bot:
            self.banks.current = None
            self._schedule("decision", self.services.bot_delay())
            return
        decision = self.banks.start(seat, now)
        limit, bank = decision.remaining(now)
        self.audience.broadcast(
            frames.message(
                "clock",
                table=self.id,
                seq=table.seq,
                hand=key[0],
                seat=seat,
                limit_ms=int(limit * 1000),
                bank_ms=int(bank * 1000),
            )
        )
        self._started = seat
        self._schedule("decision", decision.deadline - now)

    def _schedule(self, kind: str, delay: float) -> None:
        self._cancel(kind)
        self._tokens += 1
        token = self._tokens

        def fire() -> None:
            self.post(Tick(kind, token))

        self._timers[kind] = (token, self.services.clock.call_later(delay, fire))

    def _schedule_next(self, delay: float) -> None:
        """Look at dealing the next hand in ``delay`` seconds."""
        self._schedule("next", delay)
        self._next_due = self.services.clock.now() + delay

    def _cancel(self, kind: str) -> None:
        entry = self._timers.pop(kind, None)
        if entry is not None:
            entry[1].cancel()

    def _cancel_timers(self) -> None:
        for kind in list(self._timers):
            self._cancel(kind)

    async def _tick(self, tick: Tick) -> None:
        entry = self._timers.get(tick.kind)
        if entry is None or entry[0] != tick.token or not self.available:
            return  # an old timer: what it was for has passed
        del self._timers[tick.kind]
        try:
            if tick.kind == "decision":
                await self._decide()
            elif tick.kind == "next":
                await self._between_hands()
            elif tick.kind == "window":
                await self._deal()
            elif tick.kind == "away":
                await self._stand_up_the_away()
        except PokerError as error:
            log.info("table %s: %s refused: %s", self.id, tick.kind, error)

    async def _decide(self) -> None:
        """The decision's time is up: a bot moves, or a person has timed out."""
        table = self.table
        if table.hand is None:
            return
        seat = table.to_act()
        assert seat is not None
        number = table.hand_number
        player = self.players.get(seat)
        if player is not None and player.bot:
            bot = self._bots.setdefault(seat, self._bot_policy())
            # A smart bot thinks for a while: not on the loop every table shares.
            action = await asyncio.to_thread(bot.choose, table.view(seat))
            try:
                await self.step(Act(seat, action, hand=number))
            except Unavailable:
                raise
            except PokerError as error:
                log.warning("table %s: bot %s chose %s: %s", self.id, player.name, action, error)
                await self.step(Act(seat, table.default_action(seat), hand=number))
            return
        self.banks.time_out(seat)
        await self.step(Timeout(seat, hand=number))

    # ------------------------------------------------------------ between hands

    async def _between_hands(self) -> None:
        """Sit out the absent, stand up the long-away, tend the bots, then deal (or bet)."""
        if self.table.hand is not None:
            return
        now = self.services.clock.now()
        sweep, self._sweep = self._sweep, False
        for seat, player in list(self.players.items()):
            info = self.table.seat(seat)
            if player.bot or info is None:
                continue
            if sweep and not info.sitting_out and not self.audience.present(player.user_id):
                # Still away when the hand ended (RULES.md, Disconnection): sat out.
                await self.step(SitOut(seat))
                info = self.table.seat(seat)
            if info is not None and info.sitting_out:
                self._away_since.setdefault(seat, now)
        await self._stand_up_the_away()
        await self._tend_bots()
        if self.info.banked:
            await self._open_window()
        else:
            await self._deal()

    async def _deal(self) -> None:
        if self.table.hand is not None:
            return
        if self.info.banked:
            self._window_open = False
            self._cancel("window")
            # Boxes whose player placed nothing this window sit the round out.
            for seat, player in list(self.players.items()):
                info = self.table.seat(seat)
                if info is not None and not player.bot and seat not in self._placed and info.ante:
                    await self.step(SetWager(seat, 0, 0))
            self._placed = set()
        if len(self.table.ready()) < self.info.min_players:
            # Nobody to deal to yet: look again in a while (a seat taken deals at once).
            self._schedule_next(self.services.settings.idle_seconds)
            return
        rng = self.services.rng
        order = Deck(rng).order()
        seed = rng.getrandbits(62)
        self._deck = ([str(card) for card in order], seed)
        # Dealt from the stored order: the hand is exactly what its log re-creates.
        await self.step(StartHand(Deck.from_order(order, random.Random(seed))))

    async def _open_window(self) -> None:
        """Casino Hold'em: a window for every player to bet on each box before the deal."""
        if self.table.hand is not None or self._window_open:
            return
        boxes = [seat for seat in self.players if self.table.seat(seat) is not None]
        if not boxes:
            self._schedule_next(self.services.settings.idle_seconds)
            return
        # Bets placed since the last round count: the window only closes the time for more.
        self._window_open = True
        for seat in boxes:
            if self.players[seat].bot:
                info = self.table.seat(seat)
                if info is not None and info.ante == 0:
                    await self.step(SetWager(seat, self.spec.min_ante, 0))
                self._placed.add(seat)
        seconds = self.services.settings.window_seconds
        self.audience.broadcast(
            frames.message("window", table=self.id, seq=self.table.seq, open=True, seconds=seconds)
        )
        if self._everyone_placed():
            await self._deal()
        else:
            self._schedule("window", seconds)

    def _everyone_placed(self) -> bool:
        people = [
            seat
            for seat, pl in self.players.items()
            if not pl.bot and not self.table.seat(seat).sitting_out  # type: ignore[union-attr]
        ]
        return all(seat in self._placed for seat in people)

    async def _stand_up_the_away(self) -> None:
        now = self.services.clock.now()
        away = self.services.settings.away_seconds
        for seat, since in list(self._away_since.items()):
            info = self.table.seat(seat)
            if info is None or not info.sitting_out:
                self._away_since.pop(seat, None)
            elif now - since >= away:
                await self.step(Leave(seat))
        if self._away_since:
            first = min(self._away_since.values())
            self._schedule("away", max(0.0, first + away - now))

    # ------------------------------------------------------------ bots

    def _bot_policy(self) -> Bot:
        seed = self.services.rng.getrandbits(64)
        return get_bot(self.config.bot_kind, game=self.info.name, rng=random.Random(seed))

    def bots_wanted(self) -> int:
        """Bots the table wants: its number, always leaving a seat free for a person."""
        people = sum(1 for player in self.players.values() if not player.bot)
        return max(0, min(self.config.bots, self.config.seats - people - 1))

    async def _tend_bots(self) -> None:
        """Between hands: refill busted bots, and seat or stand bots to the number wanted."""
        config = self.config
        assert config.min_buy_in is not None and config.max_buy_in is not None
        bots = sorted(seat for seat, player in self.players.items() if player.bot)
        for seat in bots:
            info = self.table.seat(seat)
            assert info is not None
            if info.stack < config.min_buy_in or info.busted:
                amount = config.max_buy_in - info.stack
                await self.services.fund_bot(self.players[seat].user_id, amount)
                await self._add_chips(seat, self.players[seat].user_id, amount)
        wanted = self.bots_wanted()
        while len(bots) > wanted:
            await self.step(Leave(bots.pop()))
        free = [seat for seat in range(config.seats) if self.table.seat(seat) is None]
        while len(bots) < wanted and free:
            seat = free.pop(0)
            user = await self.services.bot_user()
            await self.services.fund_bot(user.id, config.max_buy_in)
            command = Sit(seat, user.username, config.max_buy_in)
            self.table.check(command)
            await self._ledger(
                self.services.store.buy_in(
                    self.id,
                    seat,
                    user.id,
                    config.max_buy_in,
                    key=f"bot-sit:{self.id}:{seat}:{self.table.seq}",
                )
            )
            self.players[seat] = Player(user)
            self._bots[seat] = self._bot_policy()
            await self.step(command)
            bots.append(seat)

    def _gone(self, seat: int, player: Player) -> None:
        """A player stood up and was cashed out."""
        self._bots.pop(seat, None)
        self.banks.forget(seat)
        self._away_since.pop(seat, None)
        self._placed.discard(seat)
        if player.bot:
            self.services.release_bot(player.user)

    # ------------------------------------------------------------ the lobby

    def summary(self) -> dict[str, Any]:
        """The table's line in the lobby."""
        config = self.config
        now = time.time()
        recent = [t for t in self.hand_times if now - t <= 3600]
        hour = len(recent)
        if len(recent) >= 2 and now - recent[0] < 3600:
            hour = round(len(recent) * 3600 / max(60.0, now - recent[0]))
        return {
            "id": self.id,
            "name": config.name,
            "game": self.info.name,
            "title": self.info.title,
            "spec": spec_to_dict(self.spec),
            "seats": config.seats,
            "players": [
                {"seat": seat, "name": player.name, "bot": player.bot}
                for seat, player in sorted(self.players.items())
            ],
            "free": config.seats - len(self.players),
            "hands_played": self.table.hands_played,
            "hands_per_hour": hour,
            "min_buy_in": config.min_buy_in,
            "max_buy_in": config.max_buy_in,
            "available": self.available,
        }
