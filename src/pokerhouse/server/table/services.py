"""What every table task shares: the store, the group committer, the clock, bots, the lobby.

Bots are players with ledger accounts like anyone (RULES.md, "The room"):
the room keeps a pool of bot accounts and hands a free one to a table that
wants a bot; a table tops a house bot's wallet up from the issuer inside
the step that brings its chips to the table.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable

from pokerhouse.server.cluster.bus import Bus
from pokerhouse.server.runtime.clock import Clock, SystemClock
from pokerhouse.server.runtime.metrics import Metrics
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.table.committer import Committer
from pokerhouse.store import AccountError, Store, User
from pokerhouse.store.names import HOUSE_BOT_NAMES

#: Names the room's bots play under (each with ``_bot`` after it).
BOT_NAMES = HOUSE_BOT_NAMES


class Services:
    """The room's shared parts, handed to each table task."""

    def __init__(
        self,
        store: Store,
        *,
        settings: RoomSettings | None = None,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.metrics = metrics if metrics is not None else Metrics()
        self.settings = settings if settings is not None else RoomSettings()
        self.clock: Clock = clock if clock is not None else SystemClock()
        #: Shuffles every deck: the system's secure source unless a test seeds one.
        self.rng: random.Random = rng if rng is not None else secrets.SystemRandom()
        self.committer = Committer(store)
        self.committer.stats.observers.append(self.metrics.committed)
        self._free_bots: list[User] = []
        self._busy_bots: set[int] = set()
        #: Every house bot account the room has handed out or found seated.
        self._house: set[int] = set()
        self._next_bot = 0
        self.lobby_listeners: list[Callable[[int], None]] = []
        #: The bus to the room's other nodes (the room sets its own; this one: alone).
        self.bus: Bus = Bus()

    def lobby_changed(self, table_id: int) -> None:
        """Tell the lobby that a table's seats or hands changed."""
        for listener in self.lobby_listeners:
            listener(table_id)

    async def bot_user(self) -> User:
        """A bot account not seated at any table (a new one when all are busy)."""
        while self._free_bots:
            user = self._free_bots.pop()
            if user.id not in self._busy_bots:
                self._busy_bots.add(user.id)
                return user
        while True:
            index = self._next_bot
            self._next_bot += 1
            base = BOT_NAMES[index % len(BOT_NAMES)]
            name = (
                f"{base}_bot" if index < len(BOT_NAMES) else f"{base}_bot{index // len(BOT_NAMES)}"
            )
            try:
                user = await self.store.users.get(name)
            except AccountError:
                try:
                    # A bot never logs in: it has no password at all.
                    user = await self.store.users.create(
                        name, None, bot=True, grant=self.settings.grant
                    )
                except AccountError:  # a look-alike of the name is an account's: the next
                    continue
            if user.id in self._busy_bots or not user.is_bot or user.api_bot:
                continue  # seated elsewhere, or (never) a person's or a bot account by that name
            self._busy_bots.add(user.id)
            self._house.add(user.id)
            return user

    def bot_seated(self, user: User) -> None:
        """A bot found in its seat at start-up, or seated now, is busy."""
        self._busy_bots.add(user.id)
        self._house.add(user.id)

    def is_house_bot(self, account: int) -> bool:
        """Whether ``account`` is one of the room's own bots."""
        return account in self._house

    def release_bot(self, user: User) -> None:
        """A bot stood up: it may sit elsewhere."""
        if user.id in self._busy_bots:
            self._busy_bots.discard(user.id)
            self._free_bots.append(user)
