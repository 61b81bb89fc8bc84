"""The room: its tables' tasks, the default tables of a new room, the lobby.

On start the room loads every table definition from the store (creating the
default room on an empty database), funds the house's bankroll, and starts
one :class:`~pokerhouse.server.runner.TableRunner` per table; each resumes
any hand its table was playing when the room last stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from pokerhouse.evaluate import tables as evaluator_tables
from pokerhouse.games.casino_holdem import BonusPays, CasinoHoldemSpec
from pokerhouse.history.json_history import spec_to_dict
from pokerhouse.server import frames
from pokerhouse.server.connection import Connection
from pokerhouse.server.runner import TableRunner
from pokerhouse.server.services import Services
from pokerhouse.store import HOUSE, IdempotencyConflict, TableConfig

log = logging.getLogger("pokerhouse.room")

#: The house bankroll a new room starts with (Casino Hold'em pays from it).
HOUSE_BANKROLL = 100_000_000


def default_tables() -> list[TableConfig]:
    """Two tables of each game, bots seated, a seat always free: a room to walk into."""
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
    """Every table of the room, and the lobby's watchers."""

    def __init__(self, services: Services, tables: Sequence[TableConfig] | None = None) -> None:
        self.services = services
        self.store = services.store
        self.runners: dict[int, TableRunner] = {}
        self._first_tables = tables
        self._lobby: set[Connection] = set()
        self._lobby_dirty = False
        self._lobby_task: asyncio.Task[None] | None = None
        services.lobby_listeners.append(self._changed)

    async def start(self) -> None:
        """Load (or create) the tables and start every table's task."""
        self.services.committer.start()
        definitions = await self.store.list_tables()
        if not definitions:
            for config in (
                self._first_tables if self._first_tables is not None else default_tables()
            ):
                definitions.append(await self.store.create_table(config))
            log.info("room: created %d tables", len(definitions))
        await self._fund_house()
        await asyncio.to_thread(prepare_evaluators, {d.config.game for d in definitions})
        for definition in definitions:
            runner = TableRunner(self.services, definition)
            self.runners[definition.id] = runner
        for runner in self.runners.values():
            await runner.start()
        self._lobby_task = asyncio.get_running_loop().create_task(self._lobby_loop())

    async def stop(self) -> None:
        """Stop every table task and the committer (what was committed stays)."""
        if self._lobby_task is not None:
            self._lobby_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lobby_task
        for runner in self.runners.values():
            await runner.stop()
        await self.services.committer.stop()

    async def _fund_house(self) -> None:
        if not any(runner.info.banked for runner in self.runners.values()) and not any(
            definition.config.game == "casino-holdem"
            for definition in await self.store.list_tables()
        ):
            return
        balance = await self.store.balance(HOUSE)
        if balance < HOUSE_BANKROLL // 10:
            with contextlib.suppress(IdempotencyConflict):
                await self.store.fund_house(
                    HOUSE_BANKROLL - balance, key=f"house-funding:{balance}", memo="house bankroll"
                )

    def runner(self, table_id: int) -> TableRunner | None:
        """The task of table ``table_id``, if there is such a table."""
        return self.runners.get(table_id)

    # ------------------------------------------------------------ the lobby

    def lobby(self) -> list[dict[str, Any]]:
        """Every table's line in the lobby."""
        return [runner.summary() for runner in self.runners.values()]

    def watch_lobby(self, conn: Connection, on: bool = True) -> None:
        """Send ``conn`` the lobby now and whenever it changes (at most once a second)."""
        if not on:
            self._lobby.discard(conn)
            return
        self._lobby.add(conn)
        conn.send(frames.message("lobby", tables=self.lobby()))

    def _changed(self, table_id: int) -> None:
        self._lobby_dirty = True

    async def _lobby_loop(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            if not self._lobby_dirty or not self._lobby:
                continue
            self._lobby_dirty = False
            frame = frames.message("lobby", tables=self.lobby())
            for conn in list(self._lobby):
                if conn.closed:
                    self._lobby.discard(conn)
                else:
                    conn.send(frame)
