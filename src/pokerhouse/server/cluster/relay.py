"""This node's part in a room of several: inputs to a table's owner, its frames back.

A client may be on any node. Its input for a table this node does not run
goes over the bus to the node that does (the table's **owner**, as its
lease names it); the owner's outbox sends the client's frames, already
filtered for its account, back to this node, which hands them to the
socket. What this node relays is kept per table and connection (a
:class:`Relayed`: the watch, and the last event's sequence number relayed),
so that when the owner changes (a node died and another took the table
over, or this one did) or the bus lost messages, every relayed watch is
resumed from where it was: the owner replays what was missed, or sends a
snapshot. Each event is passed on once and in order: one already relayed is
dropped (a duplicate of a replay), and one that skips a number is held back
and the watch resumed from the last one relayed.

A Redis that restarts loses what it held: the actions forwarded in the last
:data:`RESEND_SECONDS` and not answered yet are sent again once the bus is
back, or to a table's new owner (the owner answers one it has applied
``repeated``, by its id, and applies it once).

The owners are read from the leases (each round of the room's lease loop):
a request for a table whose owner is not known yet is answered
``room_unavailable`` (try again soon) and changes nothing.

A tournament's tables run only on the node that runs the tournament: the
other nodes have no task for them, and relay their inputs and frames all the
same (the table's owner read off its lease). The tournaments' own messages
(a watch, a registration, its answer, the news) go to
:attr:`Relay.tournament_listener`, and their frames straight to the socket.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import operator
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

import msgspec

from pokerhouse.server.cluster.bus import (
    LOCAL_MASK,
    NODE_SHIFT,
    Bus,
    BusMessage,
    ForwardRequest,
    ForwardWatch,
    Frames,
    Resync,
    SessionEnded,
    Told,
    TournamentAnswer,
    TournamentAsk,
    TournamentWatch,
)
from pokerhouse.server.socket import incoming as p
from pokerhouse.server.socket import outgoing
from pokerhouse.server.socket.connection import Connection
from pokerhouse.server.table.inputs import Caller, Request, WatchInput
from pokerhouse.server.table.outbox import Deliver
from pokerhouse.server.table.task import TableTask
from pokerhouse.store import TableLease

log = logging.getLogger("pokerhouse.relay")

#: What a request for a table whose owner cannot be reached now hears.
UNREACHABLE = "the table's node cannot be reached now: try again soon"
#: Seconds for which forwarded actions are sent again after the bus failed.
RESEND_SECONDS = 10.0
#: Inputs held for one table while its owner is looked up; past them, refused at once.
MAX_WAITING = 256
#: Times a forwarded input is sent on by nodes that no longer run its table.
MAX_HOPS = 2


@dataclass(slots=True)
class Relayed:
    """A local connection's watch of a table run elsewhere, and the last sequence number
    relayed to it (``None``: nothing yet); ``asked``: resumed from there already."""

    watch: WatchInput
    seq: int | None
    asked: int | None = None


class _Head(msgspec.Struct, gc=False):
    """What a relay reads of a frame: its type and sequence number."""

    type: str
    seq: int | None = None
    id: str | None = None


_head = msgspec.json.Decoder(_Head)


class Relay:
    """Forwarding and relaying for one node: what :class:`~pokerhouse.server.room.Room`
    does with tables other nodes run."""

    def __init__(
        self,
        bus: Bus,
        tasks: Mapping[int, TableTask],
        connections: Mapping[int, Connection],
        leases: Callable[[], Awaitable[Mapping[int, TableLease]]] | None = None,
    ) -> None:
        self.bus = bus
        self.tasks = tasks
        self.connections = connections
        #: Reads every table's lease now (the store's), for a table whose owner is not known.
        self.leases = leases
        # Inputs for tables whose owner is being looked up: (input, the message it came in
        # on from another node, or None for a local client's).
        self._waiting: dict[int, list[tuple[Request | WatchInput, BusMessage | None]]] = {}
        self._looking: asyncio.Task[None] | None = None
        #: Each table's owner, as last read (this node's name for its own).
        self.owners: dict[int, str | None] = {}
        # Each table's owner and lease token: a new token under one name is a new run.
        self._runs: dict[int, tuple[str, int] | None] = {}
        #: Other nodes by number, learned from what they forward here.
        self.peers: dict[int, str] = {}
        self.relayed: dict[tuple[int, int], Relayed] = {}
        # Node numbers found not alive at the last look (gone if still so at the next).
        self._missing: set[int] = set()
        # Actions forwarded lately and not answered yet, by (address, id): (when, message),
        # sent again after a failure or to a new owner.
        self._recent: dict[tuple[int, str], tuple[float, ForwardRequest]] = {}
        #: Called with the hash of a session another node ended (its sockets here close).
        self.session_listeners: list[Callable[[str], None]] = []
        # Ends of sessions the bus could not carry: broadcast again once it is back.
        self._unsent_ends: list[SessionEnded] = []
        #: Takes the tournaments' messages from other nodes (set by the room's tournaments).
        self.tournament_listener: Callable[[BusMessage], None] | None = None
        #: Called with a node that lost messages (its name; every node's: ``None``).
        self.resync_listeners: list[Callable[[str | None], None]] = []
        #: Called with the number of a node that is gone.
        self.gone_listeners: list[Callable[[int], None]] = []

    @property
    def name(self) -> str:
        """This node's name."""
        return self.bus.name

    # ------------------------------------------------------------ inputs

    def post(self, table: int, task: TableTask | None, item: Request | WatchInput) -> None:
        """A local client's input for ``table``: to its task here, or to its owner (``task``
        ``None``: a table only other nodes run, a tournament's)."""
        caller = item.caller
        if isinstance(item, WatchInput) and not item.on:
            self.relayed.pop((table, caller.address), None)  # whoever runs the table now
        if task is not None and (not task.fenced or not self.bus.shared):
            task.post(item)
            return
        if not self.bus.shared:
            self._unreachable(table, item, None)
            return
        if isinstance(item, WatchInput):
            key = (table, caller.address)
            if item.on:
                known = self.relayed.get(key)
                since = item.since if known is None or item.since is not None else known.seq
                self.relayed[key] = Relayed(item, since)
        owner = self.owners.get(table)
        if owner is None or owner == self.name:
            if isinstance(item, Request) or item.on:
                # Just moved (or not known yet): look the owner up, then send it on.
                self._wait_for_owner(table, item, None)
            return
        self._forward(owner, table, item)

    def _forward(self, owner: str, table: int, item: Request | WatchInput) -> None:
        caller = msgspec.structs.replace(
            item.caller, address=(self.bus.number << NODE_SHIFT) | item.caller.address
        )
        if isinstance(item, WatchInput):
            watch = msgspec.structs.replace(item, caller=caller)
            self.bus.send(owner, ForwardWatch(table, self.name, watch))
        else:
            forward = ForwardRequest(table, self.name, msgspec.structs.replace(item, caller=caller))
            self.bus.send(owner, forward)
            if isinstance(item.message, p.ActMessage):
                now = asyncio.get_running_loop().time()
                recent = self._recent
                recent[(item.caller.address, item.message.id)] = (now, forward)
                while recent:  # oldest first: a dict keeps its order of insertion
                    oldest = next(iter(recent))
                    if recent[oldest][0] >= now - RESEND_SECONDS:
                        break
                    del recent[oldest]

    def _tell(self, address: int, table: int, item: Request | WatchInput) -> None:
        conn = self.connections.get(address & LOCAL_MASK)
        if conn is not None:
            conn.send(self._refusal(table, item))

    def _refusal(self, table: int, item: Request | WatchInput) -> bytes:
        """``room_unavailable`` for a table whose owner is not reached now; ``unknown_table``
        for one no node has (no task here, no lease in the store)."""
        ident = getattr(item.message, "id", None) if isinstance(item, Request) else None
        if table not in self.tasks and table not in self.owners:
            return outgoing.error("unknown_table", f"there is no table {table}", ident, table)
        return outgoing.error("room_unavailable", UNREACHABLE, ident, table)

    # ------------------------------------------------------------ frames

    def deliver_for(self, table: int, local: Deliver) -> Deliver:
        """The ``deliver`` of ``table``'s outbox: local addresses by ``local``, the others'
        frames over the bus to their node."""

        def deliver(address: int, frames: Sequence[bytes]) -> None:
            if address <= LOCAL_MASK:
                local(address, frames)
                return
            node = self.peers.get(address >> NODE_SHIFT)
            if node is not None:
                self.bus.send(node, Frames(table, address, list(frames)))

        return deliver

    # ------------------------------------------------------------ off the bus

    def received(self, message: BusMessage) -> None:
        """A message for this node."""
        if isinstance(message, Frames):
            conn = self.connections.get(message.address & LOCAL_MASK)
            if conn is None or message.address >> NODE_SHIFT != self.bus.number:
                return  # closed meanwhile, or for this node's previous run
            relayed = self.relayed.get((message.table, conn.id))
            if relayed is None and not self._recent:
                conn.send_all(message.frames)  # nothing to order, no action to hear of
            else:
                conn.send_all(self._in_order(message.table, conn.id, relayed, message.frames))
        elif isinstance(message, Resync):
            # The origin lost messages: our watches of its tables, and our unanswered
            # actions there, again (an action it has applied is answered repeated).
            self._resume(lambda table: self.owners.get(table) == message.origin)
            self._resend(lambda table: self.owners.get(table) == message.origin)
            for resync in self.resync_listeners:
                resync(message.origin)
        elif isinstance(message, SessionEnded):
            for listener in self.session_listeners:
                listener(message.session)
        elif isinstance(message, Told):
            conn = self.connections.get(message.address & LOCAL_MASK)
            if conn is not None and message.address >> NODE_SHIFT == self.bus.number:
                conn.send_all(message.frames)
        elif isinstance(message, TournamentWatch | TournamentAsk | TournamentAnswer):
            if isinstance(message, TournamentWatch):
                self.peers[message.address >> NODE_SHIFT] = message.origin
            if self.tournament_listener is not None:
                self.tournament_listener(message)
        else:
            item = message.watch if isinstance(message, ForwardWatch) else message.request
            self.peers[item.caller.address >> NODE_SHIFT] = message.origin
            table = message.table
            task = self.tasks.get(table)
            if task is None and table not in self.owners:
                return  # no such table here, nor known elsewhere
            if task is None or task.fenced:
                # Not ours (any more): on to its owner, if this node knows it (two nodes
                # that each think the other runs it send it on once each, then look).
                owner = self.owners.get(table)
                if owner is not None and owner != self.name and message.hops < MAX_HOPS:
                    self.bus.send(owner, msgspec.structs.replace(message, hops=message.hops + 1))
                elif isinstance(item, Request) or item.on:
                    self._wait_for_owner(table, item, message)
                return
            task.post(item)

    # ------------------------------------------------------------ owners not known

    def _wait_for_owner(
        self, table: int, item: Request | WatchInput, came: BusMessage | None
    ) -> None:
        """Hold ``item`` while the leases are read again (a table that just moved: this
        node reads the owners only every third of a lease otherwise)."""
        waiting = self._waiting.setdefault(table, [])
        if self.leases is None or len(waiting) >= MAX_WAITING:
            self._unreachable(table, item, came)
            return
        waiting.append((item, came))
        if self._looking is None or self._looking.done():
            loop = asyncio.get_running_loop()
            self._looking = loop.create_task(self._look_up(), name="owners")

    async def _look_up(self) -> None:
        assert self.leases is not None
        try:
            self.track(await self.leases())
        except Exception as error:  # the store is down: the inputs are refused below
            log.warning("relay: the owners not read: %s", error)
        waiting, self._waiting = self._waiting, {}
        for table, items in waiting.items():
            task, owner = self.tasks.get(table), self.owners.get(table)
            for item, came in items:
                if task is not None and not task.fenced:
                    task.post(item)  # taken over here meanwhile
                elif owner is None or owner == self.name:
                    self._unreachable(table, item, came)
                elif came is None:
                    self._forward(owner, table, item)
                elif isinstance(came, ForwardRequest | ForwardWatch):
                    self.bus.send(owner, came)

    def _unreachable(self, table: int, item: Request | WatchInput, came: BusMessage | None) -> None:
        """Tell ``item``'s client ``room_unavailable`` (try again soon), on its node."""
        if came is None:
            self._tell(item.caller.address, table, item)
            return
        frame = self._refusal(table, item)
        origin = came.origin if isinstance(came, ForwardRequest | ForwardWatch) else self.name
        self.bus.send(origin, Frames(table, item.caller.address, [frame]))

    def _in_order(
        self, table: int, address: int, relayed: Relayed | None, frames: list[bytes]
    ) -> list[bytes]:
        """The frames to pass on: each event once, none after a missing one (the watch is
        resumed from the last one passed on instead). An answer to an action forwarded
        from here ends its wait to be sent again."""
        passing = []
        for frame in frames:
            head = _head.decode(frame)
            if head.id is not None and head.type in ("ack", "error"):
                self._recent.pop((address, head.id), None)
            if relayed is None:
                pass
            elif head.seq is not None and head.type == "snapshot":
                relayed.seq, relayed.asked = head.seq, None
            elif head.seq is not None and head.type == "event":
                last = relayed.seq
                if last is not None and head.seq <= last:
                    continue  # relayed already: a replay's duplicate
                if last is not None and head.seq > last + 1:
                    owner = self.owners.get(table)
                    if relayed.asked != last and owner is not None and owner != self.name:
                        relayed.asked = last
                        watch = msgspec.structs.replace(relayed.watch, since=last)
                        self._forward(owner, table, watch)
                    continue
                relayed.seq = head.seq
            passing.append(frame)
        return passing

    def undelivered(self, node: str, message: BusMessage) -> None:
        """A message the bus could not send."""
        if isinstance(message, SessionEnded):
            if message not in self._unsent_ends:
                self._unsent_ends.append(message)
        elif isinstance(message, ForwardRequest):
            # Refused now (the client may send it again), so not sent again by us.
            request = message.request
            ident = getattr(request.message, "id", None)
            if ident is not None:
                self._recent.pop((request.caller.address & LOCAL_MASK, ident), None)
            self._tell(request.caller.address, message.table, request)
        # Lost watches and frames: resumed, everywhere, once the bus is back (recovered).

    def recovered(self) -> None:
        """The bus works again (or this node fell behind and lost messages): ask every node
        to resume what it relays from here and send its unanswered actions again, resume
        ours, and send our last actions again (the bus may have lost any of them)."""
        self.bus.broadcast(Resync(self.name))
        for ended in self._unsent_ends:
            self.bus.broadcast(ended)
        self._unsent_ends.clear()
        self._resume(lambda table: True)
        self._resend(lambda table: True)
        for resync in self.resync_listeners:
            resync(None)

    def _resend(self, which: Callable[[int], bool]) -> None:
        """Send again the unanswered actions of the last seconds for the tables ``which``
        takes, to each table's owner now."""
        since = asyncio.get_running_loop().time() - RESEND_SECONDS
        for when, forward in list(self._recent.values()):
            owner = self.owners.get(forward.table)
            if when >= since and which(forward.table) and owner and owner != self.name:
                self.bus.send(owner, forward)

    def _resume(self, which: Callable[[int], bool]) -> None:
        tables = {table for table, _ in self.relayed if which(table)}
        for table in sorted(tables):
            owner = self.owners.get(table)
            if owner is not None and owner != self.name:
                self._send_watches(table, owner)

    def _send_watches(self, table: int, owner: str) -> None:
        for (relayed_table, _), relayed in list(self.relayed.items()):
            if relayed_table == table:
                watch = msgspec.structs.replace(relayed.watch, since=relayed.seq)
                self._forward(owner, table, watch)

    # ------------------------------------------------------------ other nodes' life

    def remote_watchers(self) -> int:
        """Addresses on other nodes watching the tables this node runs."""
        return sum(
            1
            for task in self.tasks.values()
            if not task.fenced
            for address in task.outbox.watchers
            if address > LOCAL_MASK
        )

    async def prune(self) -> None:
        """Stop sending to the watchers of nodes that are gone (died without a word, or
        stopped): found not alive twice in a row, so that a Redis restarted empty,
        which forgets every node until its next beat, drops nobody."""
        numbers = set(self.peers)
        for task in self.tasks.values():
            numbers.update(a >> NODE_SHIFT for a in task.outbox.watchers if a > LOCAL_MASK)
        missing = numbers - await self.bus.alive(numbers) if numbers else set()
        gone, self._missing = missing & self._missing, missing
        for number in sorted(gone):
            name = self.peers.pop(number, None)
            dropped = 0
            for task in self.tasks.values():
                for address, watcher in list(task.outbox.watchers.items()):
                    if address >> NODE_SHIFT == number:
                        task.post(WatchInput(Caller(address, watcher.account), on=False))
                        dropped += 1
            for listener in self.gone_listeners:
                listener(number)
            log.warning("node %s (%s) is gone: %d watchers dropped", number, name, dropped)
            if name is not None:
                # Should it come back (frozen, not dead), it resumes what it relays.
                self.bus.send(name, Resync(self.name))

    # ------------------------------------------------------------ owners

    def track(self, leases: Mapping[int, TableLease]) -> None:
        """Read each table's owner off the leases; resume relayed watches of a table whose
        owner changed at its new owner."""
        for task in self.tasks.values():
            lease = leases.get(task.id)
            run: tuple[str, int] | None
            if not task.fenced:
                run = (self.name, task.lease)
            elif lease is not None and not lease.free and lease.owner is not None:
                run = (lease.owner, lease.token)
            else:
                run = None
            before = self._runs.get(task.id)
            self._runs[task.id] = run
            self.owners[task.id] = None if run is None else run[0]
            # A new token under the same name too: that node restarted, a new run.
            if run is not None and run != before:
                self._moved(task, run[0])
        # Tables only other nodes run (a tournament's): their owners, and a watch relayed
        # from here resumed at a new one.
        relayed = {table for table, _ in self.relayed}
        for table, lease in leases.items():
            if table in self.tasks:
                continue
            run = None if lease.free or lease.owner is None else (lease.owner, lease.token)
            before = self._runs.get(table)
            self._runs[table] = run
            self.owners[table] = None if run is None else run[0]
            if run is not None and run != before and table in relayed and self.bus.shared:
                self._send_watches(table, run[0])
                self._resend(functools.partial(operator.eq, table))

    def _moved(self, task: TableTask, owner: str) -> None:
        if not self.bus.shared:
            return
        if owner == self.name:
            # Taken over here: the relayed watches become the table's own watchers.
            for key in [key for key in self.relayed if key[0] == task.id]:
                relayed = self.relayed.pop(key)
                if key[1] in self.connections:  # not closed meanwhile
                    task.post(msgspec.structs.replace(relayed.watch, since=relayed.seq))
            # Actions sent to the last owner and not answered: the table's task here has
            # them (one it has in its log is answered repeated).
            since = asyncio.get_running_loop().time() - RESEND_SECONDS
            for when, forward in list(self._recent.values()):
                request = forward.request
                if forward.table == task.id and when >= since:
                    local = request.caller.address & LOCAL_MASK
                    caller = msgspec.structs.replace(request.caller, address=local)
                    task.post(msgspec.structs.replace(request, caller=caller))
            return
        # Run elsewhere now: this node's own watchers of it are relayed from here on.
        for address, watcher in list(task.outbox.watchers.items()):
            if address > LOCAL_MASK:
                continue  # its own node resumes it
            conn = self.connections.get(address)
            task.outbox.remove(address)
            if conn is None:
                continue
            caller = Caller(address, conn.identity.user_id, conn.identity.username)
            self.relayed[(task.id, address)] = Relayed(
                WatchInput(caller, on=True, views=watcher.views), task.table.seq
            )
        log.info("table %s: run by %s", task.id, owner)
        self._send_watches(task.id, owner)
        self._resend(lambda table: table == task.id)
