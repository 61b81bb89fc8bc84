"""A tournament's messages between the room's nodes: it runs on one, players are on all.

Each tournament runs on the node that holds its lease (:mod:`.tournaments`).
A player's socket and HTTP requests may reach any node; this node sends what
they ask of a tournament it does not run to the one that does:

- **following** (``watch_tournament``): the owner adds the address (its
  node's number above :data:`~.bus.NODE_SHIFT`) to the tournament's
  watchers, and its frames come back as :class:`~.bus.Told`; when the
  tournament moves to another node (its node stopped or died), when the bus
  lost messages, or when the owner is gone, each follow is sent again to
  the owner of the moment (read off the leases), who sends the line as it is
  then;
- **registering and unregistering**: a :class:`~.bus.TournamentAsk`, answered
  by a :class:`~.bus.TournamentAnswer` with the status and code the owner's
  own endpoint would give. An answer that does not come in
  :data:`ASK_SECONDS` is ``room_unavailable``: the question may have been
  carried out (asking again says ``already_registered`` then).

A tournament's tables are relayed like any table (:mod:`.relay`).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

from pokerhouse.errors import PokerError
from pokerhouse.server.cluster.bus import (
    LOCAL_MASK,
    NODE_SHIFT,
    BusMessage,
    Told,
    TournamentAnswer,
    TournamentAsk,
    TournamentWatch,
)
from pokerhouse.server.cluster.relay import Relay
from pokerhouse.server.socket import outgoing
from pokerhouse.server.table.services import Services
from pokerhouse.server.tournaments.task import TournamentTask
from pokerhouse.store import InsufficientFunds, StoreError, TournamentBookError, User
from pokerhouse.tournament.errors import TournamentError

log = logging.getLogger("pokerhouse.tournament")

#: Seconds a registration asked of another node waits for its answer.
ASK_SECONDS = 15.0
#: What a question for a tournament whose node is not reached now hears.
UNREACHABLE = "that tournament's node cannot be reached now: try again soon"

Deliver = Callable[[int, Sequence[bytes]], None]


class Refused(Exception):
    """A registration or unregistration refused: the HTTP status and the stable code."""

    def __init__(self, status: int, code: str, text: str) -> None:
        super().__init__(text)
        self.status, self.code, self.text = status, code, text


async def carry_out(task: TournamentTask, user: User, register: bool) -> None:
    """``user`` registers for (or unregisters from) ``task``'s tournament, which runs here;
    a refusal raised as :class:`Refused`."""
    try:
        if register:
            await task.register(user)
        else:
            await task.unregister(user)
    except (TournamentError, InsufficientFunds, TournamentBookError) as error:
        raise Refused(409, error.code, str(error)) from error
    except (StoreError, OSError) as error:
        code = getattr(error, "code", "room_unavailable")
        raise Refused(503, "room_unavailable", f"the room could not save that ({code})") from error
    except PokerError as error:
        raise Refused(409, error.code, str(error)) from error


class TournamentRelay:
    """This node's part in the tournaments other nodes run, and theirs in this node's."""

    def __init__(
        self,
        services: Services,
        relay: Relay,
        tasks: Mapping[int, TournamentTask],
        local: Deliver,
    ) -> None:
        self.services = services
        self.relay = relay
        self.tasks = tasks
        self._local = local
        #: Each live tournament's node, as last read (``None``: between nodes).
        self.owners: dict[int, str | None] = {}
        #: This node's clients following tournaments run elsewhere: (tournament, address)
        #: to the node the follow was sent to (``None``: not sent yet).
        self.following: dict[tuple[int, int], str | None] = {}
        self._asks: dict[int, asyncio.Future[TournamentAnswer]] = {}
        self._numbers = itertools.count(1)
        self._background: set[asyncio.Task[None]] = set()
        relay.tournament_listener = self.received
        relay.resync_listeners.append(self._resync)
        relay.gone_listeners.append(self._gone)

    @property
    def shared(self) -> bool:
        """Whether the room has other nodes."""
        return self.relay.bus.shared

    def deliver(self, address: int, frames: Sequence[bytes]) -> None:
        """A tournament's frames for ``address``: to the socket here, or to its node."""
        if address <= LOCAL_MASK:
            self._local(address, frames)
            return
        node = self.relay.peers.get(address >> NODE_SHIFT)
        if node is not None:
            self.relay.bus.send(node, Told(address, list(frames)))

    # ------------------------------------------------------------ following

    def follow(self, address: int, tournament: int, on: bool) -> None:
        """This node's client ``address`` follows (or stops following) a tournament this
        node does not run: on the node that does, or here once this node takes it (a
        live tournament between nodes, or not taken yet, is followed when it is)."""
        key = (tournament, address)
        if not on:
            node = self.following.pop(key, None)
            if node is not None:
                self._send_follow(node, tournament, address, on=False)
            return
        self.following[key] = None
        self._spawn(self._follow(tournament, address))

    async def _follow(self, tournament: int, address: int) -> None:
        if tournament not in self.owners:
            await self.refresh()  # sends it, once the owner is known
        elif (
            self.shared
            and (node := self.owners[tournament]) not in (None, self.relay.name)
            and (tournament, address) in self.following
        ):
            assert node is not None
            self.following[(tournament, address)] = node
            self._send_follow(node, tournament, address, on=True)
        if tournament not in self.owners and tournament not in self.tasks:
            self.following.pop((tournament, address), None)
            text = f"tournament {tournament} is not running now (its page has the results)"
            self._local(address, [outgoing.error("unknown_tournament", text)])

    def _send_follow(self, node: str, tournament: int, address: int, *, on: bool) -> None:
        qualified = (self.relay.bus.number << NODE_SHIFT) | address
        self.relay.bus.send(node, TournamentWatch(tournament, self.relay.name, qualified, on))

    def forget(self, address: int) -> None:
        """A connection closed: it follows nothing any more, here or elsewhere."""
        for task in self.tasks.values():
            task.watchers.discard(address)
        for key in [key for key in self.following if key[1] == address]:
            node = self.following.pop(key)
            if node is not None:
                self._send_follow(node, key[0], address, on=False)

    async def refresh(self) -> None:
        """Read where each live tournament runs; send every follow whose tournament moved
        to its new node (one now run here becomes a watcher of its task; one of a
        tournament that has ended is dropped)."""
        if not self.shared and not self.following:
            return
        self.owners = await self.services.store.tournaments.owners()
        for key, sent in list(self.following.items()):
            tournament, address = key
            node = self.owners.get(tournament)
            task = self.tasks.get(tournament)
            if task is not None:
                del self.following[key]
                task.watch(address)
            elif tournament not in self.owners:
                del self.following[key]
            elif self.shared and node not in (None, sent, self.relay.name):
                assert node is not None
                self.following[key] = node
                self._send_follow(node, tournament, address, on=True)

    def _resync(self, origin: str | None) -> None:
        """The bus lost messages (between here and ``origin``, or ``None``: everywhere):
        follow again."""
        for key, sent in list(self.following.items()):
            if sent is not None and origin in (None, sent):
                self._send_follow(sent, key[0], key[1], on=True)

    def _gone(self, number: int) -> None:
        """Node ``number`` is gone: its clients follow nothing here any more."""
        for task in self.tasks.values():
            task.watchers = {a for a in task.watchers if a >> NODE_SHIFT != number}

    # ------------------------------------------------------------ questions

    async def ask(self, tournament: int, user: User, *, register: bool) -> None:
        """``user`` registers for (or unregisters from) ``tournament`` on whichever node
        runs it; a refusal raised as :class:`Refused`."""
        task = self.tasks.get(tournament)
        if task is not None:
            await carry_out(task, user, register)
            return
        await self.refresh()
        node = self.owners.get(tournament)
        if node is None or node == self.relay.name:
            raise Refused(503, "room_unavailable", UNREACHABLE)
        number = next(self._numbers)
        answer: asyncio.Future[TournamentAnswer] = asyncio.get_running_loop().create_future()
        self._asks[number] = answer
        try:
            self.relay.bus.send(
                node, TournamentAsk(tournament, self.relay.name, number, user.id, register)
            )
            got = await asyncio.wait_for(answer, ASK_SECONDS)
        except TimeoutError:
            raise Refused(503, "room_unavailable", UNREACHABLE) from None
        finally:
            self._asks.pop(number, None)
        if got.status != 200:
            raise Refused(got.status, got.code, got.text)

    async def _answer(self, asked: TournamentAsk) -> None:
        task = self.tasks.get(asked.tournament)
        answer = TournamentAnswer(asked.ask, 200)
        try:
            if task is None:
                raise Refused(503, "room_unavailable", UNREACHABLE)
            user = await self.services.store.users.get(asked.user)
            await carry_out(task, user, asked.register)
        except Refused as refused:
            answer = TournamentAnswer(asked.ask, refused.status, refused.code, refused.text)
        except (StoreError, OSError) as error:
            text = f"the room could not read the player ({error})"
            answer = TournamentAnswer(asked.ask, 503, "room_unavailable", text)
        self.relay.bus.send(asked.origin, answer)

    # ------------------------------------------------------------ off the bus

    def received(self, message: BusMessage) -> None:
        """A tournament's message from another node."""
        if isinstance(message, TournamentWatch):
            task = self.tasks.get(message.tournament)
            if task is not None:
                task.watch(message.address, message.on)
            elif message.on:  # ended, or moved on: the origin follows it there
                text = f"tournament {message.tournament} is not running here"
                self.deliver(message.address, [outgoing.error("unknown_tournament", text)])
        elif isinstance(message, TournamentAsk):
            self._spawn(self._answer(message))
        elif isinstance(message, TournamentAnswer):
            waiting = self._asks.get(message.ask)
            if waiting is not None and not waiting.done():
                waiting.set_result(message)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def stop(self) -> None:
        """Stop what is under way (questions asked of this node go unanswered)."""
        for task in list(self._background):
            task.cancel()
