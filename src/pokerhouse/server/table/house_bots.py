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

import asyncio
import logging
import random
from collections.abc import Mapping

from pokerhouse.bots import Bot
from pokerhouse.bots import get as get_bot
from pokerhouse.bots.base import hand_over as tell_hand_over
from pokerhouse.bots.base import new_hand as tell_new_hand
from pokerhouse.engine import Action
from pokerhouse.server.socket.outgoing import ChatLine, encode
from pokerhouse.server.table.bot_chat import PHRASES, BotChat, Line
from pokerhouse.server.table.outbox import Outbox
from pokerhouse.server.table.services import Services
from pokerhouse.store import TableConfig, User
from pokerhouse.table import (
    AddChips,
    Command,
    Leave,
    PlayerLeft,
    PlayerSat,
    Sit,
    Step,
    Table,
    TableHandEnded,
    TableHandStarted,
)

log = logging.getLogger("pokerhouse.table")


class HouseBots:
    """The house bots seated at one table, and the policy each plays."""

    def __init__(
        self, services: Services, config: TableConfig, game: str, outbox: Outbox | None = None
    ) -> None:
        self._services = services
        self._config = config
        self._game = game
        #: Where the bots' chat lines go (``None`` or the table's ``bot_chat`` off: nowhere).
        self._outbox = outbox if config.bot_chat else None
        self._table_id = outbox.table_id if outbox is not None else None
        self._chat = BotChat(random.Random(services.rng.getrandbits(64)))
        #: House bots that stood up in the step being followed.
        self._gone: set[str] = set()
        #: A tournament's table: its bots are entrants like anyone, never topped up,
        #: seated or stood up by the room (their moves are still the policy's).
        self.house = config.tournament is None
        #: The bot seated at each seat (house bots only).
        self.users: dict[int, User] = {}
        self._policies: dict[int, Bot] = {}
        #: The policies of the bots seated when the table last reloaded, by account: a bot
        #: found in its seat again keeps its style and what it learned.
        self._kept: dict[int, Bot] = {}

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
        kept = self._kept.pop(user.id, None)
        self._policies[seat] = kept if kept is not None else self._policy()
        if self.house:
            self._services.bot_seated(user)

    def left(self, seat: int) -> None:
        """The bot at ``seat`` stood up: its account is free for another table."""
        user = self.users.pop(seat, None)
        self._policies.pop(seat, None)
        if user is not None:
            self._gone.add(user.username)
        if user is not None and self.house:
            self._services.release_bot(user)

    def clear(self) -> None:
        """Forget every seat (the table reloads from the store); a bot seated again
        keeps its policy."""
        self._kept = {
            user.id: self._policies[seat]
            for seat, user in self.users.items()
            if seat in self._policies
        }
        for seat in list(self.users):
            self.left(seat)
        self._gone.clear()  # nobody stood up: the table is read again

    def policy(self, seat: int) -> Bot:
        """The policy the bot at ``seat`` plays."""
        found = self._policies.get(seat)
        if found is None:
            found = self._policies[seat] = self._policy()
        return found

    async def choose(self, seat: int, table: Table) -> Action:
        """The action of the bot at ``seat``, thought out off the loop every table shares.

        A bot that fails (a bug in its policy) plays the table's default action (check,
        else fold) and the failure is logged: the hand goes on with its clock."""
        try:
            return await asyncio.to_thread(self.policy(seat).choose, table.view(seat))
        except Exception:
            log.exception("table %s: the bot at seat %s could not choose", self._table_id, seat)
            return table.default_action(seat)

    def follow(self, step: Step, table: Table, users: Mapping[int, User]) -> None:
        """A stored step: at a hand's start or end the bots in it are told; now and then
        a bot says a few words (after the step's events, so a word follows what it is on).
        A bot's failure here is logged: the table goes on."""
        try:
            self._follow(step, table, users)
        except Exception:
            log.exception("table %s: the house bots could not follow a step", self._table_id)
        finally:
            self._gone.clear()

    def _follow(self, step: Step, table: Table, users: Mapping[int, User]) -> None:
        now = self._services.clock.now()
        for logged in step:
            event = logged.event
            line = None
            if isinstance(event, TableHandStarted):
                self.hand_started(table, users)
            elif isinstance(event, TableHandEnded):
                self.hand_ended(table)
                line = self._after_hand(event, table, users, now)
            elif isinstance(event, PlayerSat) and event.seat in self.users:
                line = self._chat.sat(event.player, now=now)
            elif isinstance(event, PlayerLeft) and event.player in self._gone:
                line = self._chat.left(event.player, now=now)
            if line is not None and self._outbox is not None:
                name, phrase = line
                chat = ChatLine(self._outbox.table_id, table.seq, name, PHRASES[phrase], phrase)
                self._outbox.broadcast(encode(chat))

    def _after_hand(
        self, event: TableHandEnded, table: Table, users: Mapping[int, User], now: float
    ) -> Line | None:
        """A pot shown down between a bot and another player: a word, maybe."""
        hand = table.last_hand
        if hand is None or not self.users or table.banked:
            return None  # (at a banked game a pot is the house's, not a bot's)
        seen = hand.view(None)
        shown = [
            not folded and bool(cards) and None not in cards
            for folded, cards in zip(seen.folded, seen.cards, strict=True)
        ]
        if sum(shown) < 2:
            return None
        showed = dict(zip(table.last_hand_seats, shown, strict=True))
        names = {seat: user.username for seat, user in users.items()}
        results = [(seat, net) for seat, net in zip(event.seats, event.net, strict=True)]
        winners = [names[s] for s, net in results if net > 0 and showed.get(s) and s in names]
        losers = [names[s] for s, net in results if net < 0 and showed.get(s) and s in names]
        bots = [user.username for user in self.users.values()]
        return self._chat.showdown(bots, winners, losers, now=now)

    def hand_started(self, table: Table, users: Mapping[int, User]) -> None:
        """A hand was dealt: each bot in it is told who sits in each of its seats."""
        seats = table.hand_seats
        if not any(seat in self._policies for seat in seats):
            return
        players = [users[seat].username if seat in users else f"seat {seat}" for seat in seats]
        for seat in seats:
            policy = self._policies.get(seat)
            if policy is not None:
                tell_new_hand(policy, players)

    def hand_ended(self, table: Table) -> None:
        """A hand ended: each bot that played it sees its last view (what was shown)."""
        hand = table.last_hand
        if hand is None:
            return
        for index, seat in enumerate(table.last_hand_seats):
            policy = self._policies.get(seat)
            if policy is not None:
                tell_hand_over(policy, hand.view(index))

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
