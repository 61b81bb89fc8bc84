"""One table's task: it alone owns the table, and every input reaches it through its inbox.

Players' requests, bots' moves and clock ticks are queued and handled one at
a time, so nothing races. Each accepted command goes through the same path
(:meth:`TableRunner._step`): the table applies it (a pure function), the
hand-log writes it caused are committed (with other tables', in one group
commit), the ledger moves that follow it are made, and only then does any
client hear of it. Should the database fail, the table forgets what it did
in memory and reloads itself from the store, so nothing half-done survives.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pokerhouse.bots import Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.cards import Deck
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.events import (
    BoardDealt,
    CardsDealt,
    Event,
    HandShown,
    for_seat,
)
from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.games.teen_patti.events import CardsLooked
from pokerhouse.history.json_history import spec_to_dict, to_json
from pokerhouse.server import frames
from pokerhouse.server.clocks import TimeBanks
from pokerhouse.server.connection import Connection
from pokerhouse.server.errors import RoomError, Unavailable
from pokerhouse.server.services import Services
from pokerhouse.server.views import table_view
from pokerhouse.store import (
    ActionRecord,
    Batch,
    HandFinish,
    HandStart,
    HandVoid,
    StoreError,
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
    TableError,
    TableHandEnded,
    TableHandStarted,
    TableLimits,
    Timeout,
    VoidHand,
)

log = logging.getLogger("pokerhouse.table")

#: Act ids remembered per table, so a resent ``act`` is acknowledged, not applied twice.
REMEMBERED_IDS = 4096
#: Events that may change the name of a player's own hand.
_CARD_EVENTS = (CardsDealt, BoardDealt, HandShown, CardsLooked)


@dataclass(frozen=True, slots=True)
class Player:
    """Who holds a seat: the account, the name shown, and whether it is one of the room's bots."""

    user_id: int
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class Request:
    """A client's message for this table, with the connection to answer."""

    conn: Connection
    message: Any


@dataclass(frozen=True, slots=True)
class Tick:
    """A timer went off; ``token`` says whether it is still the one that matters."""

    kind: str
    token: int
    seat: int = -1


@dataclass(frozen=True, slots=True)
class Hello:
    """A connection starts or stops watching the table (``since``: resume from there)."""

    conn: Connection
    watch: bool
    since: int | None = None


class TableRunner:
    """The task that owns one table of the room."""

    def __init__(self, services: Services, definition: TableDef) -> None:
        self.services = services
        self.definition = definition
        self.config = definition.config
        self.id = definition.id
        self.info = get_game(self.config.game)
        self.spec = self.info.spec(**self.config.options)
        self.table: Table = self._new_table(lease=0, seated=(), button=None, hands_played=0)
        self.players: dict[int, Player] = {}
        self.watchers: set[Connection] = set()
        self.inbox: asyncio.Queue[Request | Tick | Hello] = asyncio.Queue()
        self.lease = 0
        self.available = False
        self.banks = TimeBanks(self.config.decision_seconds, self.config.time_bank_seconds)
        self._bots: dict[int, Bot] = {}
        self._applied: OrderedDict[tuple[int, str], None] = OrderedDict()
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._tokens = 0
        self._deck: tuple[list[str], int] | None = None
        self._decision_key: tuple[int, int, int] | None = None
        self._away_since: dict[int, float] = {}
        self._placed: set[int] = set()
        self._window_open = False
        self.hand_times: deque[float] = deque(maxlen=200)
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ life

    def start(self) -> None:
        """Run the table's task on the running loop."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        """Stop the task and its timers (the store keeps everything that was committed)."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def post(self, item: Request | Tick | Hello) -> None:
        """Queue an input for the table's task."""
        self.inbox.put_nowait(item)

    async def _run(self) -> None:
        await self._load()
        while True:
            item = await self.inbox.get()
            try:
                await self._handle(item)
            except asyncio.CancelledError:
                raise
            except Unavailable:
                pass  # already reported to the one who asked; the table is reloading
            except Exception:
                log.exception("table %s: unexpected failure handling %r", self.id, item)

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
        rake = Rake(percent=f"{config.rake_bps / 100}", cap=config.rake_cap) if config.rake_bps else None
        return Table(
            self.info.name,
            seats=config.seats,
            spec=self.spec,
            limits=TableLimits(config.min_buy_in, config.max_buy_in),
            rng=self.services.rng,
            house_bankroll=0,
            rake=rake,
            boxes_per_player=config.max_boxes,
            log_size=self.services.settings.log_size,
            # Numbers from a new lease start above every number of the last one, so a
            # client's stale cursor never matches an event of this incarnation.
            first_seq=lease << 32,
            hands_played=hands_played,
            seated=seated,
            button=button,
        )

    async def _load(self) -> None:
        """(Re)build the table from the store: seats, then any unfinished hand, by replay."""
        store = self.services.store
        while True:
            try:
                self.lease = await store.acquire_table(self.id, self.services.settings.owner)
                records = await store.seats(self.id)
                logs = await store.unfinished_hands(self.id)
                last = await store.last_hand_number(self.id)
                players: dict[int, Player] = {}
                for record in records:
                    user = await store.get_user(record.user_id)
                    players[record.seat] = Player(user.id, user.username, user.is_bot)
                break
            except StoreError as error:
                self.available = False
                log.warning("table %s: store unavailable (%s), retrying", self.id, error)
                await self.services.clock.sleep(self.services.settings.retry_seconds)
        self.players = players
        seated = tuple((r.seat, players[r.seat].name, r.stack) for r in records)
        self._timers_cancel()
        self._bots = {
            seat: self._bot_policy() for seat, player in players.items() if player.bot
        }
        running = logs[-1] if logs else None
        button = running.seats[-1].table_seat if running is not None and not self.info.banked else None
        hands_played = last - 1 if running is not None else last
        self.table = self._new_table(self.lease, seated, button, hands_played)
        self._decision_key = None
        self.banks.current = None
        self.available = True
        if running is not None:
            await self._resume(running)
        for conn in list(self.watchers):
            self._send_snapshot(conn)
        self._react(())

    async def _resume(self, record: Any) -> None:
        """Carry a stored hand on from its deck and actions, or void it if its log is damaged."""
        seats = tuple(seat.table_seat for seat in record.seats)
        deck = Deck.from_order(record.deck_order, random.Random(record.deck_seed))
        try:
            for seat in record.seats:
                if self.table.seat(seat.table_seat) is None or self.players[seat.table_seat].user_id != seat.user_id:
                    raise RoomError("damaged_log", f"seat {seat.table_seat} is no longer its player's")
            self.table.apply(StartHand(deck, seats, tuple(sorted(record.setup.items()))))
            for logged in record.actions:
                action = Action(ActionKind(logged.kind), logged.amount)
                self.table.apply(Act(seats[logged.seat], action))
        except (PokerError, ValueError, KeyError, IndexError) as error:
            if self.table.hand is None:
                # Not even dealt: nothing to carry back but the record.
                await self.services.committer.commit(
                    Batch(voids=[HandVoid(self.id, record.number, f"damaged log: {error}"[:400], self.lease)])
                )
                self.table = self._new_table(
                    self.lease,
                    tuple((s, p.name, self.table.seat(s).stack if self.table.seat(s) else 0) for s, p in self.players.items()),
                    None,
                    record.number,
                )
                return
            step = self.table.apply(VoidHand(f"damaged log: {error}"[:400]))
            await self._persist(step, None)
            return
        log.info("table %s: hand %s resumed after %d actions", self.id, record.number, len(record.actions))
        if self.table.hand is None:
            # Every action was logged but the settlement was not: settle it now.
            ended = [logged for logged in self.table.log if isinstance(logged.event, TableHandEnded)]
            if ended:
                await self._persist(tuple(ended), self.table.last_hand)

    # ------------------------------------------------------------ handling

    async def _handle(self, item: Request | Tick | Hello) -> None:
        if isinstance(item, Hello):
            self._hello(item)
            return
        if isinstance(item, Tick):
            await self._tick(item)
            return
        conn, message = item.conn, item.message
        ident = getattr(message, "id", None)
        try:
            if not self.available:
                raise Unavailable("room_unavailable", "the room cannot save anything right now: try again soon")
            await self._request(conn, message)
        except PokerError as error:
            conn.send(frames.error(error.code, str(error), ident, self.id))
            if isinstance(error, Unavailable):
                raise

    def _hello(self, hello: Hello) -> None:
        conn = hello.conn
        if not hello.watch:
            self.watchers.discard(conn)
            self._presence_changed(conn)
            return
        self.watchers.add(conn)
        self._presence_changed(conn)
        if hello.since is not None:
            missed = self.table.since(hello.since, self._viewer(conn))
            if missed is not None:
                for seq, event in missed:
                    conn.send(frames.event_frame(self.id, seq, None if event is None else frames.encode_event(event)))
                self._send_private(conn)
                return
        self._send_snapshot(conn)

    async def _request(self, conn: Connection, message: Any) -> None:
        from pokerhouse.server import protocol as p

        user = conn.user_id
        if isinstance(message, p.Chat):
            self._chat(conn, message.text)
            return
        if user is None:
            raise RoomError("login_required", "sign in to play (watching needs no account)")
        match message:
            case p.Act(hand=number, action=body, id=ident):
                await self._act(conn, user, number, body, ident)
            case p.Sit(seat=seat, buy_in=buy_in):
                await self._sit(conn, user, seat, buy_in)
            case p.Leave():
                for seat in self._seats_of(user):
                    await self._step(Leave(seat))
            case p.SitOut():
                for seat in self._seats_of(user):
                    await self._step(SitOut(seat))
            case p.SitIn():
                for seat in self._seats_of(user):
                    self._away_since.pop(seat, None)
                    await self._step(SitIn(seat))
            case p.AddChips(seat=seat, amount=amount):
                await self._add_chips(user, seat, amount)
            case p.Wager(seat=seat, ante=ante, bonus=bonus):
                await self._wager(user, seat, ante, bonus)
            case _:
                raise RoomError("bad_request", f"{type(message).__name__} is not a table request")

    def _seats_of(self, user: int) -> list[int]:
        seats = [seat for seat, player in self.players.items() if player.user_id == user]
        if not seats:
            raise RoomError("not_seated", "you have no seat at this table")
        return seats

    def _own_seat(self, user: int, seat: int) -> None:
        player = self.players.get(seat)
        if player is None or player.user_id != user:
            raise RoomError("not_your_seat", f"seat {seat} is not yours")

    # ------------------------------------------------------------ requests

    async def _act(self, conn: Connection, user: int, number: int, body: Any, ident: str) -> None:
        key = (user, ident)
        if key in self._applied:
            conn.send(frames.message("ack", id=ident, table=self.id, again=True))
            return
        try:
            kind = ActionKind(body.kind)
        except ValueError:
            raise RoomError("bad_action", f"unknown action {body.kind!r}") from None
        seat = self.table.to_act() if self.table.hand is not None else None
        if seat is None or self.players.get(seat) is None or self.players[seat].user_id != user:
            # Not this player's turn: let the table name the reason (stale hand, out of turn...).
            mine = [s for s, p in self.players.items() if p.user_id == user]
            if not mine:
                raise RoomError("not_seated", "you have no seat at this table")
            seat = mine[0]
        await self._step(Act(seat, Action(kind, body.amount), hand=number))
        self._applied[key] = None
        if len(self._applied) > REMEMBERED_IDS:
            self._applied.popitem(last=False)
        conn.send(frames.message("ack", id=ident, table=self.id))

    async def _sit(self, conn: Connection, user: int, seat: int, buy_in: int) -> None:
        username = conn.identity.username or str(user)
        command = Sit(seat, username, buy_in)
        self.table.check(command)
        store = self.services.store
        try:
            await store.buy_in(self.id, seat, user, buy_in, key=f"buy-in:{self.id}:{seat}:{user}:{self.table.seq}")
        except StoreError as error:
            if error.code == "database_unavailable":
                await self._lost(error)
            raise
        self.players[seat] = Player(user, username, False)
        await self._step(command, persisted=True)

    async def _add_chips(self, user: int, seat: int, amount: int) -> None:
        self._own_seat(user, seat)
        command = AddChips(seat, amount)
        self.table.check(command)
        try:
            await self.services.store.add_chips(
                self.id, seat, user, amount, key=f"add-chips:{self.id}:{seat}:{self.table.seq}"
            )
        except StoreError as error:
            if error.code == "database_unavailable":
                await self._lost(error)
            raise
        await self._step(command, persisted=True)

    async def _wager(self, user: int, seat: int, ante: int, bonus: int) -> None:
        if not self.info.banked:
            raise RoomError("no_wagers", f"{self.info.title} has no bets against the house")
        self._own_seat(user, seat)
        await self._step(SetWager(seat, ante, bonus))
        self._placed.add(seat)
        if self._window_open and self._everyone_placed():
            await self._start_hand()

    def _chat(self, conn: Connection, text: str) -> None:
        name = conn.identity.username
        if name is None:
            raise RoomError("login_required", "sign in to chat")
        clean = "".join(ch for ch in text if ch.isprintable()).strip()
        if not clean:
            raise RoomError("bad_request", "a chat line needs some text")
        frame = frames.message("chat", table=self.id, seq=self.table.seq, user=name, text=clean)
        for watcher in self.watchers:
            watcher.send(frame)

    # ------------------------------------------------------------ the one path

    async def _step(self, command: Command, *, persisted: bool = False) -> tuple[Logged, ...]:
        """Apply ``command``, persist what it caused, then tell every watcher."""
        hand = self.table.hand
        step = self.table.apply(command)
        await self._persist(step, hand if hand is not None else self.table.last_hand, command)
        self._publish(step)
        self._react(step)
        return step

    async def _persist(self, step: tuple[Logged, ...], hand: Any, command: Command | None = None) -> None:
        """Commit the hand-log writes of ``step``, then the cash-outs it implies."""
        batch = self._writes(step, hand, command)
        try:
            if len(batch):
                await self.services.committer.commit(batch)
            for logged in step:
                event = logged.event
                if isinstance(event, PlayerLeft):
                    player = self.players.pop(event.seat, None)
                    if player is not None:
                        await self.services.store.cash_out(
                            self.id, event.seat, player.user_id, key=f"cash-out:{self.id}:{logged.seq}"
                        )
                        self._player_gone(event.seat, player)
        except StoreError as error:
            await self._lost(error)
            raise Unavailable("room_unavailable", "the room could not save that: try again soon") from error

    def _writes(self, step: tuple[Logged, ...], hand: Any, command: Command | None) -> Batch:
        starts: list[HandStart] = []
        actions: list[ActionRecord] = []
        finishes: list[HandFinish] = []
        voids: list[HandVoid] = []
        for logged in step:
            event = logged.event
            if isinstance(event, TableHandStarted):
                started = self.table.last_hand
                assert started is not None and self._deck is not None
                order, seed = self._deck
                starts.append(
                    HandStart(
                        self.id,
                        event.number,
                        self.info.name,
                        spec_to_dict(self.spec),
                        started.setup(),
                        [
                            (seat, self.players[seat].user_id, stack)
                            for seat, stack in zip(event.seats, event.stacks, strict=True)
                        ],
                        order,
                        seed,
                        logged.seq - 1,
                        self.lease,
                    )
                )
            elif isinstance(event, TableHandEnded):
                assert hand is not None
                finishes.append(
                    HandFinish(
                        self.id, event.number, event.net, event.rake, event.house, to_json(hand), self.lease
                    )
                )
                self.hand_times.append(time.time())
            elif isinstance(event, HandVoided):
                voids.append(HandVoid(self.id, event.number, event.reason[:400], self.lease))
        if isinstance(command, Act | Timeout) and hand is not None and hand.actions:
            number = self.table.hand_number or self.table.hands_played
            if not any(isinstance(l.event, HandVoided) for l in step):
                seat, action = hand.actions[-1]
                actions.append(
                    ActionRecord.of(self.id, number, len(hand.actions) - 1, seat, action)
                    if self.lease is None
                    else ActionRecord(
                        self.id, number, len(hand.actions) - 1, seat, action.kind.value, action.amount, self.lease
                    )
                )
        return Batch(starts, actions, finishes, voids)

    async def _lost(self, error: Exception) -> None:
        """The store failed: forget the in-memory table and rebuild it from what was saved."""
        log.warning("table %s: store error %s; reloading from the store", self.id, error)
        self.available = False
        for conn in self.watchers:
            conn.send(frames.error("room_unavailable", "the room lost its database; reconnecting", table=self.id))
        await self._load()

    # ------------------------------------------------------------ telling

    def _viewer(self, conn: Connection) -> frozenset[int]:
        user = conn.user_id
        if user is None:
            return frozenset()
        return frozenset(seat for seat, player in self.players.items() if player.user_id == user)

    def _send_snapshot(self, conn: Connection) -> None:
        view = table_view(self.table, self._viewer(conn))
        view.update(self._extras())
        conn.send(frames.message("snapshot", table=self.id, seq=self.table.seq, view=view))

    def _extras(self) -> dict[str, Any]:
        """What the room adds to the table's view: names, bots, clock, limits."""
        now = self.services.clock.now()
        decision = self.banks.current
        clock = None
        if decision is not None:
            limit, bank = decision.remaining(now)
            clock = {"seat": decision.seat, "limit_ms": int(limit * 1000), "bank_ms": int(bank * 1000)}
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
            },
            "bots": sorted(seat for seat, player in self.players.items() if player.bot),
            "clock": clock,
            "window": {"open": self._window_open, "placed": sorted(self._placed)} if self.info.banked else None,
        }

    def _publish(self, step: tuple[Logged, ...]) -> None:
        """Send each event to every watcher, encoded once per audience."""
        if not step:
            return
        viewers = [(conn, self._viewer(conn)) for conn in self.watchers]
        cards_changed = False
        for logged in step:
            event = logged.event
            audience = event.visible_to()
            if audience is None:
                frame = frames.event_frame(self.id, logged.seq, frames.encode_event(event))
                for conn, _ in viewers:
                    conn.send(frame)
            else:
                full: bytes | None = None
                other: bytes | None = None
                for conn, seats in viewers:
                    if not audience.isdisjoint(seats):
                        if full is None:
                            full = frames.event_frame(self.id, logged.seq, frames.encode_event(event))
                        conn.send(full)
                    else:
                        if other is None:
                            hidden = event.redacted()
                            other = frames.event_frame(
                                self.id, logged.seq, None if hidden is None else frames.encode_event(hidden)
                            )
                        conn.send(other)
            if isinstance(event, _CARD_EVENTS):
                cards_changed = True
        for conn, seats in viewers:
            if seats and (cards_changed or self._decision_for(seats)):
                self._send_private(conn)

    def _decision_for(self, seats: frozenset[int]) -> bool:
        return self.table.hand is not None and self.table.to_act() in seats or bool(seats & self._last_to_act)

    _last_to_act: frozenset[int] = frozenset()

    def _send_private(self, conn: Connection) -> None:
        seats = self._viewer(conn)
        if not seats:
            return
        view = table_view(self.table, seats)
        hand = view["hand"]
        conn.send(
            frames.message(
                "private",
                table=self.id,
                seq=self.table.seq,
                hand=None if hand is None else hand["number"],
                mine=None if hand is None else hand["mine"],
            )
        )

    # ------------------------------------------------------------ what happens next

    def _react(self, step: tuple[Logged, ...]) -> None:
        """After a step: clocks, bots, the end of a hand, the next hand, the lobby."""
        table = self.table
        ended = any(isinstance(l.event, TableHandEnded | HandVoided) for l in step)
        if ended:
            self._after_hand(step)
        if table.hand is not None:
            self._next_decision()
        else:
            self._decision_key = None
            self.banks.current = None
            self._last_to_act = frozenset()
            self._schedule_next_hand(immediate=not step and not ended)
        self.services.lobby_changed(self.id)

    def _next_decision(self) -> None:
        table = self.table
        hand = table.hand
        assert hand is not None
        seat = table.to_act()
        if seat is None:
            return
        key = (table.hand_number or 0, seat, len(hand.actions))
        if key == self._decision_key:
            return
        now = self.services.clock.now()
        previous = self.banks.current
        if previous is not None:
            self.banks.finish(previous.seat, now)
        self._decision_key = key
        self._last_to_act = frozenset({seat})
        player = self.players.get(seat)
        if player is not None and player.bot:
            self.banks.current = None
            delay = self.services.settings.bot_delay()
            self._schedule("decision", delay, seat)
            return
        decision = self.banks.start(seat, now)
        limit, bank = decision.remaining(now)
        frame = frames.message(
            "clock", table=self.id, seq=table.seq, hand=key[0], seat=seat,
            limit_ms=int(limit * 1000), bank_ms=int(bank * 1000),
        )
        for conn in self.watchers:
            conn.send(frame)
        self._schedule("decision", decision.deadline - now, seat)

    def _schedule(self, kind: str, delay: float, seat: int = -1) -> None:
        self._tokens += 1
        token = self._tokens
        old = self._timers.pop(kind, None)
        if old is not None:
            old.cancel()

        async def fire() -> None:
            await self.services.clock.sleep(delay)
            self.post(Tick(kind, token, seat))

        self._timers[kind] = asyncio.get_running_loop().create_task(fire())
        self._timer_tokens[kind] = token

    _timer_tokens: dict[str, int] = {}

    def _timers_cancel(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def _tick(self, tick: Tick) -> None:
        if self._timer_tokens.get(tick.kind) != tick.token:
            return  # an old timer: what it was for has passed
        self._timers.pop(tick.kind, None)
        if not self.available:
            return
        try:
            if tick.kind == "decision":
                await self._decide(tick.seat)
            elif tick.kind == "next_hand":
                await self._start_hand()
            elif tick.kind == "window":
                await self._close_window()
            elif tick.kind == "away":
                await self._stand_up_away()
        except PokerError as error:
            log.info("table %s: %s tick refused: %s", self.id, tick.kind, error)

    async def _decide(self, seat: int) -> None:
        table = self.table
        if table.hand is None or table.to_act() != seat:
            return
        player = self.players.get(seat)
        number = table.hand_number
        if player is not None and player.bot:
            bot = self._bots.get(seat) or self._bot_policy()
            view = table.view(seat)
            action = bot.choose(view)
            try:
                await self._step(Act(seat, action, hand=number))
            except PokerError:
                await self._step(Act(seat, table.default_action(seat), hand=number))
            return
        self.banks.time_out(seat)
        await self._step(Timeout(seat, hand=number))

    # ------------------------------------------------------------ between hands

    def _after_hand(self, step: tuple[Logged, ...]) -> None:
        ended = [l.event for l in step if isinstance(l.event, TableHandEnded)]
        if ended:
            self.banks.refill(ended[0].seats)
        now = self.services.clock.now()
        for seat, player in self.players.items():
            if player.bot:
                continue
            info = self.table.seat(seat)
            if info is None:
                continue
            present = any(conn.user_id == player.user_id for conn in self.watchers)
            if not present and not info.sitting_out:
                self.post(_SitAway(seat))  # type: ignore[arg-type]
            if info.sitting_out:
                self._away_since.setdefault(seat, now)
        self._placed.clear()

    def _schedule_next_hand(self, immediate: bool) -> None:
        if "next_hand" in self._timers or "window" in self._timers or self._window_open:
            return
        if self.info.banked:
            if any(not p.bot for p in self.players.values()) or self.players:
                self._schedule("next_hand", 0 if immediate else self.services.settings.hand_pause)
            return
        if len(self.table.ready()) + self._bots_wanted() >= 2 or self.table.occupied:
            self._schedule("next_hand", 0 if immediate else self.services.settings.hand_pause)

    async def _start_hand(self) -> None:
        if self.table.hand is not None:
            return
        await self._tend_bots()
        if self.info.banked and not self._window_open:
            await self._open_window()
            return
        self._window_open = False
        self._timers.pop("window", None)
        if self.info.banked:
            # Boxes whose player placed nothing this window sit the round out.
            for seat, player in list(self.players.items()):
                info = self.table.seat(seat)
                if info is not None and not player.bot and seat not in self._placed and info.ante:
                    await self._step(SetWager(seat, 0, 0))
        if len(self.table.ready()) < self.info.min_players:
            self._schedule("next_hand", self.services.settings.idle_seconds)
            return
        rng = self.services.rng
        order = [str(card) for card in Deck(rng).order()]
        seed = rng.getrandbits(62)
        self._deck = (order, seed)
        deck = Deck.from_order(Deck.stacked(" ".join(order)).order(), random.Random(seed))
        await self._step(StartHand(deck))
        self._placed.clear()

    async def _open_window(self) -> None:
        """Casino Hold'em: let every player put a bet on each box before the deal."""
        self._window_open = True
        self._placed = set()
        for seat, player in self.players.items():
            if player.bot:
                info = self.table.seat(seat)
                if info is not None and info.ante == 0:
                    await self._step(SetWager(seat, self.spec.min_ante, 0))
                self._placed.add(seat)
        frame = frames.message(
            "window", table=self.id, seq=self.table.seq,
            seconds=self.services.settings.window_seconds, open=True,
        )
        for conn in self.watchers:
            conn.send(frame)
        if self._everyone_placed() and not any(not p.bot for p in self.players.values()):
            await self._start_hand()
            return
        self._schedule("window", self.services.settings.window_seconds)

    def _everyone_placed(self) -> bool:
        return all(seat in self._placed for seat in self.players)

    async def _close_window(self) -> None:
        if self._window_open:
            await self._start_hand()

    # ------------------------------------------------------------ bots

    def _bot_policy(self) -> Bot:
        return get_bot(self.config.bot_kind, game=self.info.name, rng=random.Random(self.services.rng.getrandbits(64)))

    def _bots_wanted(self) -> int:
        """How many bots the table wants now: its number, leaving a seat free for a person."""
        humans = sum(1 for p in self.players.values() if not p.bot)
        free_for_people = 1 if humans + self.config.bots >= self.config.seats else 0
        return max(0, min(self.config.bots, self.config.seats - humans - free_for_people))

    async def _tend_bots(self) -> None:
        """Between hands: top up busted bots, seat or stand bots to the number wanted."""
        bots = [seat for seat, p in self.players.items() if p.bot]
        for seat in bots:
            info = self.table.seat(seat)
            assert info is not None
            if info.busted or info.stack < self.config.min_buy_in:
                player = self.players[seat]
                amount = (self.config.max_buy_in or 0) - info.stack
                await self.services.fund_bot(player.user_id, amount)
                await self.services.store.add_chips(self.id, seat, player.user_id, amount, key=f"bot-top-up:{self.id}:{seat}:{self.table.seq}")
                await self._step(AddChips(seat, amount), persisted=True)
        wanted = self._bots_wanted()
        while len(bots) > wanted:
            seat = bots.pop()
            await self._step(Leave(seat))
        free = [seat for seat in range(self.config.seats) if self.table.seat(seat) is None]
        while len(bots) < wanted and free:
            seat = free.pop(0)
            user = await self.services.bot_user(self.id)
            if user is None:
                break
            amount = self.config.max_buy_in or 0
            await self.services.fund_bot(user.id, amount)
            await self.services.store.buy_in(self.id, seat, user.id, amount, key=f"bot-buy-in:{self.id}:{seat}:{self.table.seq}")
            self.players[seat] = Player(user.id, user.username, True)
            self._bots[seat] = self._bot_policy()
            await self._step(Sit(seat, user.username, amount), persisted=True)
            bots.append(seat)

    def _player_gone(self, seat: int, player: Player) -> None:
        self._bots.pop(seat, None)
        self.banks.forget(seat)
        self._away_since.pop(seat, None)
        if player.bot:
            self.services.release_bot(player.user_id)

    # ------------------------------------------------------------ presence

    def _presence_changed(self, conn: Connection) -> None:
        user = conn.user_id
        if user is None:
            return
        present = any(c.user_id == user for c in self.watchers)
        for seat, player in self.players.items():
            if player.user_id == user and present:
                self._away_since.pop(seat, None)

    async def _stand_up_away(self) -> None:
        now = self.services.clock.now()
        for seat, since in list(self._away_since.items()):
            if now - since >= self.services.settings.away_seconds:
                await self._step(Leave(seat))


@dataclass(frozen=True, slots=True)
class _SitAway:
    seat: int
