"""The room's own bots at one table: who they are, their policies, keeping them seated.

RULES.md, "Bots and bot accounts": house bots are accounts of their own; a
table keeps its number of them seated while there is room and always leaves
a seat for a person. Between hands :meth:`HouseBots.tend` says which
commands bring the table to that number: a busted bot's chips topped up, a
bot stood up for a person, a free bot account seated. Their chips come from
their wallets like anyone's; the room tops a bot's wallet up from the
issuer inside the same stored step (``fund`` in the store's seat moves).
"""

from __future__ import annotations

import random

from pokerhouse.bots import Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.server.services import Services
from pokerhouse.store import TableConfig, User
from pokerhouse.table import AddChips, Command, Leave, Sit, Table


class HouseBots:
    """The house bots seated at one table, and the policy each plays."""

    def __init__(self, services: Services, config: TableConfig, game: str) -> None:
        self._services = services
        self._config = config
        self._game = game
        #: A tournament's table: its bots are entrants like anyone, never topped up,
        #: seated or stood up by the room (their moves are still the policy's).
        self.house = config.tournament is None
        #: The bot seated at each seat (house bots only).
        self.users: dict[int, User] = {}
        self._policies: dict[int, Bot] = {}

    @property
    def seats(self) -> frozenset[int]:
        """The seats house bots hold."""
        return frozenset(self.users)

    def is_bot_account(self, account: int) -> bool:
        """Whether ``account`` is one of the room's bots (its chips are topped up)."""
        return self.house and self._services.is_house_bot(account)

    def seated(self, seat: int, user: User) -> None:
        """A bot holds ``seat`` (it sat down, or was found there at start-up)."""
        self.users[seat] = user
        self._policies[seat] = self._policy()
        if self.house:
            self._services.bot_seated(user)

    def left(self, seat: int) -> None:
        """The bot at ``seat`` stood up: its account is free for another table."""
        user = self.users.pop(seat, None)
        self._policies.pop(seat, None)
        if user is not None and self.house:
            self._services.release_bot(user)

    def clear(self) -> None:
        """Forget every seat (the table reloads from the store)."""
        for seat in list(self.users):
            self.left(seat)

    def policy(self, seat: int) -> Bot:
        """The policy the bot at ``seat`` plays."""
        found = self._policies.get(seat)
        if found is None:
            found = self._policies[seat] = self._policy()
        return found

    def _policy(self) -> Bot:
        seed = self._services.rng.getrandbits(64)
        return get_bot(self._config.bot_kind, game=self._game, rng=random.Random(seed))

    def wanted(self, table: Table) -> int:
        """Bots the table wants: its number, always leaving a seat free for a person."""
        people = sum(1 for seat in table.occupied if seat not in self.users)
        return max(0, min(self._config.bots, table.size - people - 1))

    async def tend(self, table: Table) -> list[tuple[Command, User | None]]:
        """Between hands: the commands that refill busted bots and bring the table to the
        number of bots it wants, each with the bot a new seat is for."""
        config = self._config
        assert config.min_buy_in is not None and config.max_buy_in is not None
        commands: list[tuple[Command, User | None]] = []
        if not self.house:
            return commands
        bots = sorted(self.users)
        for seat in bots:
            info = table.seat(seat)
            if info is not None and (info.stack < config.min_buy_in or info.busted):
                commands.append((AddChips(seat, config.max_buy_in - info.stack), None))
        wanted = self.wanted(table)
        while len(bots) > wanted:
            commands.append((Leave(bots.pop()), None))
        free = [seat for seat in range(table.size) if table.seat(seat) is None]
        while len(bots) < wanted and free:
            seat = free.pop(0)
            user = await self._services.bot_user()
            commands.append((Sit(seat, user.username, config.max_buy_in, account=user.id), user))
            bots.append(seat)
        return commands

    def unused(self, user: User, *, elsewhere: bool = False) -> None:
        """A bot account handed out for a seat it did not take (its step was refused);
        ``elsewhere``: refused because it sits at another table (another node seated it),
        so it stays out of this room's pool of free bots."""
        if not elsewhere:
            self._services.release_bot(user)
