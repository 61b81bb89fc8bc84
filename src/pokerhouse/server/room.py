"""The room: its tables' tasks, its connections, its leases, the lobby.

On start the room loads every table definition from the store (creating the
default room on an empty database), funds the house's bankroll, and starts
one :class:`~pokerhouse.server.table.task.TableTask` per table; each leases
its table and resumes any hand it was playing when the room last stopped.
A table whose lease another node holds (several ``serve`` processes on one
database, each ``--node`` named) waits here unloaded. While it runs the
room renews its leases, takes over any table whose lease another node let
lapse (that node stopped or died: the hand goes on from its log), and
delivers what the tables' outboxes send to the connections by their
addresses. With a shared bus (:mod:`.bus`, several nodes on Redis) a
client's input for a table another node runs goes to that node and the
table's frames come back (:mod:`.relay`), and the lobby shows every node's
tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from pokerhouse.evaluate import tables as evaluator_tables
from pokerhouse.games.casino_holdem import BonusPays, CasinoHoldemSpec
from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.server.cluster import spread
from pokerhouse.server.cluster.bus import Bus, LocalBus
from pokerhouse.server.cluster.relay import Relay
from pokerhouse.server.private.policy import PrivatePolicy
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.connection import Connection
from pokerhouse.server.table.inputs import Request, WatchInput
from pokerhouse.server.table.lines import TableLine
from pokerhouse.server.table.services import Services
from pokerhouse.server.table.task import TableTask
from pokerhouse.server.tournaments.schedule import Tournaments
from pokerhouse.store import (
    HOUSE,
    IdempotencyConflict,
    StoreError,
    TableConfig,
    TableDef,
    TableLease,
)

log = logging.getLogger("pokerhouse.room")

#: The house bankroll a new room starts with (Casino Hold'em pays from it).
HOUSE_BANKROLL = 100_000_000


def default_tables() -> list[TableConfig]:
    """Two tables of each game, bots seated, a seat always free: a room to walk into; and a
    table of each pool game for bots only."""
    return [
        TableConfig("3x4 No-Limit, ante 1, bet 2", "3x4", {"ante": 1, "small_bet": 2}, 6, bots=4),
        TableConfig(
            "3x4 Pot-Limit, ante 2, bet 4",
            "3x4",
            {"ante": 2, "small_bet": 4, "limit": "pot-limit"},
            6,
            bots=3,
        ),
        TableConfig(
            "Razz 2/4, ante 1",
            "razz",
            {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
            8,
            bots=5,
        ),
        TableConfig(
            "Razz 10/20, ante 2",
            "razz",
            {"ante": 2, "bring_in": 3, "small_bet": 10, "big_bet": 20},
            8,
            bots=4,
        ),
        TableConfig("Teen Patti No-Limit, ante 1", "teen-patti", {"ante": 1}, 6, bots=4),
        TableConfig(
            "Teen Patti Pot-Limit, ante 5",
            "teen-patti",
            {"ante": 5, "limit": "pot-limit"},
            6,
            bots=3,
        ),
        TableConfig(
            "Casino Hold'em, ante 1 to 100",
            "casino-holdem",
            {"min_ante": 1, "max_ante": 100, "max_payout": 10_000},
            7,
            max_boxes=3,
            bots=3,
        ),
        TableConfig(
            "Casino Hold'em AA 100:1, ante 5 to 500",
            "casino-holdem",
            spec_to_dict(
                CasinoHoldemSpec(
                    min_ante=5,
                    max_ante=500,
                    max_payout=50_000,
                    bonus_pays=BonusPays.named("common"),
                )
            ),
            7,
            max_boxes=3,
            bots=2,
        ),
        # For bots only: bot accounts play the house's smart bots, for the bots' leaderboard.
        TableConfig(
            "Bots' 3x4, ante 1, bet 2",
            "3x4",
            {"ante": 1, "small_bet": 2},
            4,
            bots=2,
            bots_only=True,
        ),
        TableConfig(
            "Bots' Razz 2/4, ante 1",
            "razz",
            {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
            4,
            bots=2,
            bots_only=True,
        ),
        TableConfig(
            "Bots' Teen Patti, ante 1",
            "teen-patti",
            {"ante": 1},
            4,
            bots=2,
            bots_only=True,
        ),
    ]


def prepare_evaluators(games: set[str]) -> None:
    """Fill the lookup tables the games' hand names need, before any table plays.

    Built on first use (the first flop's hand name), they would stop the event
    loop, and with it every table, for about a second (0.9 s for the 7-card
    high table on this machine).
    """
    if games & {"3x4", "casino-holdem"}:
        for size in (5, 6, 7):
            evaluator_tables.ensure_high(size)
    if "razz" in games:
        for size in (5, 6, 7):
            evaluator_tables.ensure_low(size)
    if "teen-patti" in games:
        evaluator_tables.ensure_teen_patti()


class Room:
    """Every table of the room, its connections by address, and the lobby's watchers."""

    def __init__(
        self,
        services: Services,
        tables: Sequence[TableConfig] | None = None,
        bus: Bus | None = None,
    ) -> None:
        self.services = services
        self.store = services.store
        self.tasks: dict[int, TableTask] = {}
        #: Open connections by address (a connection's id): where outboxes deliver.
        self.connections: dict[int, Connection] = {}
        #: The bus to the room's other nodes (alone, by default).
        self.bus = bus if bus is not None else LocalBus()
        services.bus = self.bus
        self.relay = Relay(self.bus, self.tasks, self.connections, self._leases)
        self._first_tables = tables
        self._lobby: set[Connection] = set()
        self._lobby_dirty = False
        #: The last lobby lines other nodes published for their tables.
        self._remote_lines: dict[int, TableLine] = {}
        self._published: dict[int, bytes] = {}
        self._rounds = 0
        # Tables this node never runs (a tournament's, or a closed private table).
        self._not_mine: set[int] = set()
        self._background: list[asyncio.Task[None]] = []
        services.lobby_listeners.append(self._changed)
        #: The room's tournaments; their tables join ``tasks`` while they run.
        self.tournaments = Tournaments(
            services,
            self.tasks,
            lambda table: self.relay.deliver_for(table, self.deliver),
            self.deliver,
            self.relay,
        )

    async def start(self) -> None:
        """Load (or create) the tables and start every table's task."""
        self.services.committer.start()
        definitions = await self.store.tables.all()
        if not definitions:
            # Another node may be creating them right now: the store creates them once.
            first = self._first_tables if self._first_tables is not None else default_tables()
            definitions, created = await self.store.tables.create_first(first)
            if created:
                log.info("room: created %d tables", len(definitions))
        # A tournament's tables are started by its tournament, while it runs; a private
        # table its host closed never runs again.
        closed = await self.store.private.closed()
        definitions = [d for d in definitions if d.config.tournament is None and d.id not in closed]
        await self._fund_house(definitions)
        games = {d.config.game for d in definitions} | set(self.services.settings.sit_and_gos)
        await asyncio.to_thread(prepare_evaluators, games)
        relay = self.relay
        await self.bus.start(
            self.services.settings.owner, relay.received, relay.recovered, relay.undelivered
        )
        if self.bus.shared:
            await self.bus.beat(2 * self.services.settings.lease_seconds)
        for definition in definitions:
            self.tasks[definition.id] = self._task_for(definition)
        for task in self.tasks.values():
            await task.start()
        elsewhere = sum(task.fenced for task in self.tasks.values())
        if elsewhere:
            log.info("room: %d of %d tables run by other nodes", elsewhere, len(self.tasks))
        if self.bus.shared:
            relay.track(await self.store.tables.leases())  # whom to forward to, from now
        await self.tournaments.start()
        loop = asyncio.get_running_loop()
        self._background = [
            loop.create_task(self._lobby_loop(), name="lobby"),
            loop.create_task(self._keep_leases(), name="leases"),
        ]

    async def stop(self) -> None:
        """Stop every table task and the committer (what was committed stays)."""
        for background in self._background:
            await cancel_and_wait(background)
        await self.tournaments.stop()
        for task in list(self.tasks.values()):
            await task.stop()
        await self.bus.stop()
        await self.services.committer.stop()

    async def _fund_house(self, definitions: Sequence[Any]) -> None:
        if not any(definition.config.game == "casino-holdem" for definition in definitions):
            return
        balance = await self.store.ledger.balance(HOUSE)
        if balance < HOUSE_BANKROLL // 10:
            with contextlib.suppress(IdempotencyConflict):
                await self.store.ledger.fund_house(
                    HOUSE_BANKROLL - balance, key=f"house-funding:{balance}", memo="house bankroll"
                )

    def _task_for(self, definition: TableDef) -> TableTask:
        deliver = self.relay.deliver_for(definition.id, self.deliver)
        policy = None if definition.config.host is None else PrivatePolicy()
        return TableTask(self.services, definition, deliver, policy)

    async def open_private(self, definition: TableDef) -> None:
        """Run a private table just opened (another node may lease it first: then it waits
        here, as every table another node runs)."""
        if definition.id in self.tasks:  # known here already (the lease round found it)
            return
        await self._fund_house([definition])  # a Casino Hold'em table pays from the bank
        task = self._task_for(definition)
        self.tasks[definition.id] = task
        await task.start()

    def task(self, table_id: int) -> TableTask | None:
        """The task of table ``table_id``, if there is such a table."""
        return self.tasks.get(table_id)

    def post(self, table: int, item: Request | WatchInput) -> bool:
        """A local client's input for ``table``, wherever the table runs; false if this node
        has no such table and no other node to ask (the client hears ``unknown_table``)."""
        task = self.tasks.get(table)
        if type(item) is Request and task is not None and not task.fenced:
            task.post(item)  # run here: straight to its task (the relay is for the others)
            return True
        if task is None and not self.bus.shared:
            return False
        self.relay.post(table, task, item)
        return True

    # ------------------------------------------------------------ connections

    def connected(self, conn: Connection) -> None:
        """A connection opened: the tables may send to its address."""
        self.connections[conn.id] = conn

    def disconnected(self, conn: Connection) -> None:
        """A connection closed."""
        self.connections.pop(conn.id, None)
        self._lobby.discard(conn)

    def deliver(self, address: int, frames: Sequence[bytes]) -> None:
        """What a table sends to ``address`` (nothing, if it has closed meanwhile)."""
        conn = self.connections.get(address)
        if conn is not None:
            conn.send_all(frames)

    # ------------------------------------------------------------ leases

    async def _keep_leases(self) -> None:
        """Every third of a lease: renew this node's leases (a table whose lease is gone
        stops at once), then take over the tables whose lease another node let lapse."""
        while True:
            await asyncio.sleep(self.services.settings.lease_seconds / 3)
            try:
                await self._renew_leases()
                await self._take_over_lapsed()
            except (StoreError, OSError) as error:
                log.warning("room: leases not kept: %s", error)
            except Exception:  # a bug: logged, and the leases are kept next round
                log.exception("room: a bug keeping the leases")
            if self.bus.shared:
                try:
                    # Alive for two leases: a node that stops beating is gone after that.
                    await self.bus.beat(2 * self.services.settings.lease_seconds)
                    await self.relay.prune()
                except Exception as error:  # the bus is down: next round
                    log.warning("room: the bus's beat not kept: %s", error)

    async def _leases(self) -> Mapping[int, TableLease]:
        return await self.store.tables.leases()

    async def _renew_leases(self) -> None:
        settings = self.services.settings
        held = {
            task.id: task.lease for task in self.tasks.values() if task.lease and not task.fenced
        }
        if not held:
            return
        renewed = await self.store.tables.renew(
            settings.owner, held, seconds=settings.lease_seconds
        )
        for table_id in held.keys() - renewed:
            task = self.tasks[table_id]
            if task.lease == held[table_id]:  # not reloaded meanwhile under a new one
                task.ownership.lease_lost()

    async def _take_over_lapsed(self) -> None:
        """Take the free tables (on a shared bus: up to this node's share of the room), and
        give one up when this node runs more than its share and another runs less."""
        leases = await self.store.tables.leases()
        await self._adopt(leases)
        elsewhere = [task for task in self.tasks.values() if task.fenced]
        if not elsewhere and not self.bus.shared:
            return
        self.relay.track(leases)
        name = self.services.settings.owner
        spreading = self.bus.shared and self.services.settings.spread_tables
        try:
            others = await self.bus.nodes() if spreading else None
        except Exception as error:  # the bus is down: the free tables wait for a round
            log.warning("room: the live nodes not read: %s", error)
            return
        limit = None if others is None else spread.share(name, leases, others)
        running = sum(not task.fenced for task in self.tasks.values())
        for task in elsewhere:
            lease = leases.get(task.id)
            if lease is not None and lease.free and (limit is None or running < limit):
                task.ownership.take_over()  # in the table's own task: renewals never wait for it
                running += 1
        if others is not None and spread.over(name, leases, others):
            # A tournament's tables stay with their tournament.
            mine = [task for task in self.tasks.values() if not task.fenced and not task.tournament]
            # The emptiest tables first (fewest players to pause), between hands if any is;
            # a quarter of the surplus a round (at least one): a few pauses at a time.
            mine.sort(key=lambda task: (task.table.hand is not None, len(task.users), task.id))
            assert limit is not None
            for task in mine[: max(1, (len(mine) - limit) // 4)]:
                task.ownership.hand_over()

    # ------------------------------------------------------------ the lobby

    async def _adopt(self, leases: Mapping[int, TableLease]) -> None:
        """Know the tables opened since this node started (a private table another node
        opened): each waits here as every table another node runs, and is taken over as
        they are if that node dies. A tournament's tables stay its own; a closed table
        never runs again."""
        for table_id, known in list(self.tasks.items()):
            if known.policy.closed:  # a home game done: nothing more to run
                del self.tasks[table_id]
                self._not_mine.add(table_id)
                await known.stop()
        unknown = [t for t in leases if t not in self.tasks and t not in self._not_mine]
        if not unknown:
            return
        closed = await self.store.private.closed()
        for table_id in unknown:
            definition = await self.store.tables.get(table_id)
            if table_id in self.tasks:  # opened here meanwhile (open_private)
                continue
            if definition.config.tournament is not None or table_id in closed:
                self._not_mine.add(table_id)
                continue
            task = self._task_for(definition)
            self.tasks[table_id] = task
            await task.start()

    def lobby(self) -> list[dict[str, Any]]:
        """Every table's line in the lobby as plain values, as a client reads them."""
        lines: list[dict[str, Any]] = msgspec.to_builtins(self.lobby_lines())
        return lines

    def lobby_lines(self) -> list[TableLine]:
        """Every table's line in the lobby (a table another node runs: as it published it)."""
        remote = self._remote_lines
        return [
            remote.get(task.id) or task.summary() if task.fenced else task.summary()
            for task in self.tasks.values()
            # A tournament's tables are on its own page; a private table is for its guests.
            if not task.tournament and task.config.host is None
        ]

    def watch_lobby(self, conn: Connection, on: bool = True) -> None:
        """Send ``conn`` the lobby now and whenever it changes (at most once a second)."""
        if not on:
            self._lobby.discard(conn)
            return
        self._lobby.add(conn)
        conn.send(outgoing.encode(outgoing.LobbyLines(tables=self.lobby_lines())))

    def _changed(self, table_id: int) -> None:
        self._lobby_dirty = True

    async def _share_lobby(self) -> None:
        """Publish this node's tables' lines that changed; read the other nodes'."""
        self._rounds += 1
        if self._rounds % 10 == 0:
            self._published.clear()  # now and then all again: a Redis restarted empty
        lines = {
            task.id: msgspec.json.encode(task.summary())
            for task in self.tasks.values()
            if not task.fenced and task.config.host is None  # a private table: no line
        }
        published = self._published
        changed = {table: line for table, line in lines.items() if published.get(table) != line}
        await self.bus.publish_lobby(changed)
        self._published.update(changed)
        remote = {
            table: msgspec.json.decode(line, type=TableLine)
            for table, line in (await self.bus.lobby()).items()
            if table in self.tasks and self.tasks[table].fenced
        }
        if remote != self._remote_lines:
            self._remote_lines = remote
            self._lobby_dirty = True

    async def _lobby_loop(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            if self.bus.shared:
                for task in self.tasks.values():
                    task.ownership.keep_carried()
                try:
                    await self._share_lobby()
                except Exception as error:  # the bus is down: the lobby waits for it
                    log.debug("room: lobby not shared: %s", error)
            if not self._lobby_dirty or not self._lobby:
                continue
            self._lobby_dirty = False
            frame = outgoing.encode(outgoing.LobbyLines(tables=self.lobby_lines()))
            for conn in list(self._lobby):
                if conn.closed:
                    self._lobby.discard(conn)
                else:
                    conn.send(frame)
