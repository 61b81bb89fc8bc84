"""The room's tournaments: their tasks, their tables' tasks, a sit-and-go of each game open.

At start the room carries on every tournament the store has registering or
running (:class:`~pokerhouse.server.tournaments.task.TournamentTask`), and
keeps a sit-and-go open for each game of ``RoomSettings.sit_and_gos``: when
one fills and starts, another opens; and the next scheduled tournament (on
the hour by default, the games of ``scheduled_games`` in turn, with a
guaranteed pool, late registration and a re-entry). Bots register for them as players
would (RULES.md, "Bots and bot accounts"): all seats but one at once, and
the last one too when no person has taken it for
``sit_and_go_bots_after`` seconds, so a newcomer finds one running and one
to join.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence

from pokerhouse.errors import PokerError
from pokerhouse.games import get_game
from pokerhouse.server.cluster.relay import Relay
from pokerhouse.server.runtime.stopping import cancel_and_wait
from pokerhouse.server.table.outbox import Deliver
from pokerhouse.server.table.services import BOT_NAMES, Services
from pokerhouse.server.table.task import TableTask
from pokerhouse.server.tournaments.policy import Report, TournamentPolicy
from pokerhouse.server.tournaments.relay import TournamentRelay
from pokerhouse.server.tournaments.task import TournamentTask
from pokerhouse.store import AccountError, StoreError, TableDef, TournamentRecord, User
from pokerhouse.store.accounts import Account
from pokerhouse.tournament import Structure, TournamentSpec, built_in, from_mapping, sit_and_go
from pokerhouse.tournament.state import REGISTERING, RUNNING

log = logging.getLogger("pokerhouse.tournament")

#: What a default sit-and-go (and the scheduled one) costs: buy-in and fee (play money).
SIT_AND_GO_BUY_IN, SIT_AND_GO_FEE = 100, 10
#: The scheduled tournament's least prize pool: the room adds what the buy-ins lack.
SCHEDULED_GUARANTEE = 5_000


class Tournaments:
    """Every tournament this room runs, and the tables they play at."""

    def __init__(
        self,
        services: Services,
        tasks: dict[int, TableTask],
        deliver_for: Callable[[int], Deliver],
        deliver: Callable[[int, Sequence[bytes]], None],
        relay: Relay,
    ) -> None:
        self.services = services
        self.store = services.store
        #: The room's table tasks (a tournament's tables join them while they run).
        self._tables = tasks
        self._deliver_for = deliver_for
        self.tasks: dict[int, TournamentTask] = {}
        #: Where this node's tournaments meet the other nodes' players, and theirs this one's.
        self.relay = TournamentRelay(services, relay, self.tasks, deliver)
        #: When each sit-and-go came to its last free seat (bots take it after a while).
        self._waiting: dict[int, float] = {}
        self._loop: asyncio.Task[None] | None = None
        #: Each tournament this node runs holds a lease on it (one node runs it at a time).
        self._leases: dict[int, int] = {}
        self._renewed = 0.0

    async def start(self) -> None:
        """Carry on the stored tournaments no other node runs, open the sit-and-gos and
        the next scheduled one, and keep them open."""
        await self._take_free()
        settings = self.services.settings
        if settings.sit_and_gos or settings.scheduled_games:
            await self._keep_open()
        self._renewed = self.services.clock.now()
        self._loop = asyncio.get_running_loop().create_task(self._keep(), name="tournaments")

    async def stop(self) -> None:
        """Stop every tournament's task and give its lease up (what was saved stays)."""
        if self._loop is not None:
            await cancel_and_wait(self._loop)
        await self.relay.stop()
        owner = self.services.settings.owner
        for task in list(self.tasks.values()):
            await task.stop()
            token = self._leases.pop(task.id, None)
            if token is not None:
                with contextlib.suppress(Exception):  # the next node waits out the lease
                    await self.store.tournaments.release(task.id, owner, token)

    async def _take_free(self) -> None:
        """Run every live tournament whose lease is free or lapsed (its node stopped)."""
        settings = self.services.settings
        for record in reversed(await self.store.tournaments.find([REGISTERING, RUNNING])):
            if record.id in self.tasks:
                continue
            token = await self.store.tournaments.acquire(
                record.id, settings.owner, seconds=settings.lease_seconds
            )
            if token is None:
                continue  # another node runs it
            # Read again under the lease: the last node may have saved a step meanwhile.
            fresh = await self.store.tournaments.get(record.id)
            self._leases[record.id] = token
            await self._run(TournamentTask(self.services, fresh, self, self._ended))

    async def _keep_leases(self) -> None:
        """Renew this node's leases; stop a tournament whose lease went to another node;
        take over the ones whose node stopped renewing theirs."""
        settings = self.services.settings
        held = await self.store.tournaments.renew(
            settings.owner, dict(self._leases), seconds=settings.lease_seconds
        )
        for lost in set(self._leases) - held:
            self._leases.pop(lost, None)
            task = self.tasks.pop(lost, None)
            if task is not None:
                log.warning("tournament %s: lease lost; it stops here", lost)
                await task.stop()
        await self._take_free()
        await self.relay.refresh()

    def get(self, tournament_id: int) -> TournamentTask | None:
        """The task of a tournament this room runs."""
        return self.tasks.get(tournament_id)

    async def _run(self, task: TournamentTask) -> None:
        self.tasks[task.id] = task
        task.deliver = self.relay.deliver
        await task.start()

    # ------------------------------------------------------------ watchers

    def watch(self, address: int, tournament: int, *, on: bool = True) -> None:
        """``address`` follows ``tournament`` (``on`` false: stops), wherever it runs."""
        task = self.tasks.get(tournament)
        if task is not None:
            task.watch(address, on)
        else:
            self.relay.follow(address, tournament, on)

    def forget(self, address: int) -> None:
        """A connection closed: it follows no tournament any more."""
        self.relay.forget(address)

    async def _ended(self, task: TournamentTask) -> None:
        self.tasks.pop(task.id, None)
        self._leases.pop(task.id, None)
        self._waiting.pop(task.id, None)
        log.info("tournament %s: %s", task.id, task.director.status)

    # ------------------------------------------------------------ tables

    async def open_table(self, definition: TableDef, report: Report) -> TableTask:
        """Start a tournament table's task among the room's tables."""
        deliver = self._deliver_for(definition.id)
        table = TableTask(self.services, definition, deliver, TournamentPolicy(report))
        self._tables[definition.id] = table
        await table.start()
        return table

    async def close_table(self, task: TableTask) -> None:
        """Stop a tournament table's task; watchers are told it has closed."""
        await task.stop()
        self._tables.pop(task.id, None)

    # ------------------------------------------------------------ sit-and-gos

    async def _keep(self) -> None:
        settings = self.services.settings
        while True:
            await self.services.clock.sleep(1.0)
            try:
                now = self.services.clock.now()
                if now - self._renewed >= settings.lease_seconds / 3:
                    self._renewed = now
                    await self._keep_leases()
                if settings.sit_and_gos or settings.scheduled_games:
                    await self._keep_open()
            except (PokerError, StoreError, OSError) as error:
                log.warning("tournaments: sit-and-gos not kept: %s", error)
            except Exception:  # a bug: logged, and tried again next second
                log.exception("tournaments: a bug keeping the sit-and-gos")

    async def _keep_open(self) -> None:
        # Whichever node runs them: the room's nodes open no second one of a kind.
        registering = await self.store.tournaments.find([REGISTERING])
        await self._keep_sit_and_gos(registering)
        await self._keep_scheduled(registering)

    async def _open(self, record: TournamentRecord) -> TournamentTask | None:
        """Run a tournament just created here (unless another node leased it first)."""
        settings = self.services.settings
        token = await self.store.tournaments.acquire(
            record.id, settings.owner, seconds=settings.lease_seconds
        )
        if token is None:
            return None
        self._leases[record.id] = token
        task = TournamentTask(self.services, record, self, self._ended)
        await self._run(task)
        return task

    async def _keep_scheduled(self, registering: list[TournamentRecord]) -> None:
        """The next scheduled tournament registering, its bots entered."""
        settings = self.services.settings
        games = settings.scheduled_games
        if not games or any(record.spec.format == "scheduled" for record in registering):
            return
        every = settings.scheduled_every
        starts_at = (time.time() // every + 1) * every
        game = games[int(starts_at // every) % len(games)]
        spec = TournamentSpec(
            f"{get_game(game).title} hourly" if every == 3600.0 else f"{get_game(game).title}",
            game,
            "scheduled",
            self._structure(settings.scheduled_structure, game),
            buy_in=SIT_AND_GO_BUY_IN,
            fee=SIT_AND_GO_FEE,
            guarantee=SCHEDULED_GUARANTEE,
            late_levels=2,
            reentries=1,
        )
        record = await self.store.tournaments.create(spec, starts_at=starts_at)
        task = await self._open(record)
        if task is not None:
            await self._bots_enter(task, settings.scheduled_bots)

    async def _keep_sit_and_gos(self, registering: list[TournamentRecord]) -> None:
        """A sit-and-go registering for every game; bots in all its seats but one, and
        in that one too once it has waited long enough for a person."""
        now = self.services.clock.now()
        open_games: dict[str, int] = {}
        for record in registering:
            if record.spec.format == "sit-and-go":
                open_games.setdefault(record.spec.game, record.id)
        for task in self.tasks.values():  # filled since it was read: another one is due
            if task.spec.format == "sit-and-go" and task.director.status != REGISTERING:
                open_games = {g: i for g, i in open_games.items() if i != task.id}
        for game in self.services.settings.sit_and_gos:
            found = self.tasks.get(open_games[game]) if game in open_games else None
            if found is None and game in open_games:
                continue  # open on another node: its bots are that node's
            if found is None:
                structure = self._structure(self.services.settings.sit_and_go_structure, game)
                spec = sit_and_go(
                    game, buy_in=SIT_AND_GO_BUY_IN, fee=SIT_AND_GO_FEE, structure=structure
                )
                found = await self._open(await self.store.tournaments.create(spec))
                if found is None:
                    continue
            task = found
            free = task.spec.seats - len(task.director.entries)
            if free > 1:
                await self._bots_enter(task, free - 1)
                self._waiting[task.id] = now
            elif free == 1:
                since = self._waiting.setdefault(task.id, now)
                if now - since >= self.services.settings.sit_and_go_bots_after:
                    await self._bots_enter(task, 1)

    def _structure(self, name: str, game: str) -> Structure:
        """A structure of room.toml's ``[structures]`` for ``game``, or a built-in one."""
        settings = self.services.settings.structures.get(name)
        return built_in(name, game) if settings is None else from_mapping(game, settings)

    async def _bots_enter(self, task: TournamentTask, count: int) -> None:
        entered = {entry.account for entry in task.director.entries}
        for _ in range(count):
            bot = await self._bot(entered)
            entered.add(bot.id)
            await task.register(bot)

    async def _bot(self, taken: set[int]) -> User:
        """A tournament bot not entered in this one yet (the same few accounts, tournament
        after tournament), its wallet holding a buy-in."""
        for index in range(10 * len(BOT_NAMES)):
            name = f"{BOT_NAMES[index % len(BOT_NAMES)]}_tb{index // len(BOT_NAMES) or ''}"
            try:
                user = await self.store.users.get(name)
            except AccountError:
                try:
                    user = await self.store.users.create(
                        name, None, bot=True, grant=self.services.settings.grant
                    )
                except AccountError:  # a look-alike of the name is an account's: the next
                    continue
            if not user.is_bot or user.api_bot or user.id in taken:
                continue
            cost = SIT_AND_GO_BUY_IN + SIT_AND_GO_FEE
            held = await self.store.ledger.balance(Account.wallet(user.id))
            if held < cost:
                short = self.services.settings.grant - held
                key = f"tournament-bot:{user.id}:{held}:{self.services.clock.now()}"
                await self.store.ledger.top_up(
                    user, max(short, cost - held), key=key[:200], memo="bot"
                )
            return user
        raise AccountError("no_bot", "every tournament bot account is entered already")
