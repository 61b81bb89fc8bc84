"""What the parts of a table's task use of it: its policy and its ownership see it so.

:class:`~pokerhouse.server.table.task.TableTask` is the one class that has
all of this; its policy (:mod:`.policy`, a home game's, a tournament's) and
its ownership (:mod:`.ownership`) are given the task and reach it only
through :class:`TaskHandle`, so that neither imports the task itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from pokerhouse.games import GameInfo
from pokerhouse.server.table.house_bots import HouseBots
from pokerhouse.server.table.inputs import Caller, Input
from pokerhouse.server.table.outbox import Outbox
from pokerhouse.server.table.room_rules import Intent, RoomRules
from pokerhouse.server.table.services import Services
from pokerhouse.server.table.timers import Timers
from pokerhouse.store import Batch, HandLog, TableConfig, User
from pokerhouse.table import Command, Step, Table


class LoadHooks(Protocol):
    """The hooks of a table's policy that its loading calls."""

    async def loaded(self) -> None:
        """The table was (re)loaded from the store."""
        ...

    async def resuming(self, stored: HandLog) -> None:
        """The stored hand ``stored`` is about to be carried on."""
        ...


class TaskHandle(Protocol):
    """A table's task as its policy and its ownership use it."""

    id: int
    config: TableConfig
    spec: Any
    info: GameInfo
    table: Table
    rules: RoomRules
    services: Services
    outbox: Outbox
    users: dict[int, User]
    bots: HouseBots
    timers: Timers
    lease: int
    available: bool
    fenced: bool
    applied: dict[int, set[tuple[int, str]]]

    @property
    def policy(self) -> LoadHooks:
        """The table's policy (the hooks its loading calls)."""
        ...

    async def step(self, command: Command, caller: Caller | None = None) -> Step:
        """Apply, store and tell one command."""
        ...

    async def attempt(self, command: Command, user: User | None = None) -> Step | None:
        """A step the room takes itself; a refusal is logged, not raised."""
        ...

    async def perform(self, items: Iterable[Command | Intent]) -> None:
        """Carry out what the rules ask."""
        ...

    async def seat(
        self, command: Command, users: Mapping[int, User], caller: Caller | None = None
    ) -> Step:
        """A command that seats ``users`` (by seat)."""
        ...

    def prepare(self, command: Command, users: Mapping[int, User]) -> tuple[Step, Batch]:
        """Apply a command whose writes someone else stores."""
        ...

    def confirm(self, step: Step, users: Mapping[int, User]) -> None:
        """A prepared step's writes are stored: tell it."""
        ...

    def abandon(self, error: BaseException) -> None:
        """A prepared step's writes were not stored: load the table again."""
        ...

    async def commit(self, step: Step) -> None:
        """Store a step's records in one fenced transaction."""
        ...

    def perform_intents(self, intents: Iterable[Intent]) -> None:
        """Set and cancel the timers the rules ask for; announce clocks and windows."""
        ...

    def post(self, item: Input) -> None:
        """Queue an input for the task."""
        ...

    def extras(self) -> dict[str, Any]:
        """What the room adds to the table's view."""
        ...
