"""Password hashes in turn: bounded per address, handed round the addresses that wait.

A client that sends many logins at once gets ``429`` for those beyond the
bound, and the ones it has waiting delay another address's login by one
hash, not by all of them (:class:`HashGate`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict, deque
from collections.abc import AsyncIterator


class HashesBusy(Exception):
    """An address already has its most password hashes in flight: refused, not queued."""


class HashGate:
    """Password hashes (argon2id: the costliest thing a request can ask for) in turn.

    At most ``slots`` run at once (the store's pool of hashing threads), and
    they go round the addresses that wait, the one served longest ago first (a
    newcomer joins the end of the round), not to whoever queued first: an
    address with many requests waiting delays another address's one request by
    at most one hash of its own. An address holds at most ``per_key`` places
    (running or waiting); beyond them :meth:`turn` refuses at once
    (:class:`HashesBusy`) rather than queueing. Hashes of a ``side`` errand (a
    home game's password) run in ``slots - 1`` of the slots at most: logins
    and sign-ups always have one of their own.

    >>> import asyncio
    >>> async def hashes(asked: list[tuple[str, bool]]) -> list[str]:
    ...     gate, order = HashGate(slots=2, per_key=4), []
    ...     async def hash_for(key: str, side: bool) -> None:
    ...         async with gate.turn(key, side=side):
    ...             order.append(key)
    ...             await asyncio.sleep(0.01)
    ...     await asyncio.gather(*(hash_for(key, side) for key, side in asked))
    ...     return order
    >>> asyncio.run(hashes([("a", False)] * 4 + [("b", False)]))  # b waits for one of a's
    ['a', 'a', 'a', 'b', 'a']
    >>> asyncio.run(hashes([("x", True)] * 3 + [("y", True), ("z", False)]))
    ['x', 'z', 'x', 'y', 'x']
    >>> async def third_at_once() -> str:
    ...     gate = HashGate(slots=1, per_key=2)
    ...     async def hash_for() -> None:
    ...         async with gate.turn("a"):
    ...             await asyncio.sleep(0.01)
    ...     two = [asyncio.create_task(hash_for()) for _ in range(2)]
    ...     await asyncio.sleep(0)
    ...     busy = gate.busy("a"), gate.busy("b")
    ...     try:
    ...         async with gate.turn("a"):
    ...             return "ran"
    ...     except HashesBusy:
    ...         await asyncio.gather(*two)
    ...         return f"refused; busy {busy}"
    >>> asyncio.run(third_at_once())
    'refused; busy (True, False)'
    """

    #: Addresses whose last turn is remembered (past it, the oldest are forgotten).
    REMEMBERED = 10_000

    def __init__(self, slots: int, per_key: int) -> None:
        self.slots = slots
        self.side_slots = max(1, slots - 1)
        self.per_key = per_key
        self._running = 0
        self._side_running = 0
        self._places: dict[str, int] = {}
        # Who waits, by address: the main errands' and the side errands' each in order.
        self._waiting: dict[bool, dict[str, deque[asyncio.Future[None]]]] = {
            False: {},
            True: {},
        }
        # Each address's last turn (or its arrival), oldest first: a count of turns.
        self._served: OrderedDict[str, int] = OrderedDict()
        self._turns = 0

    def busy(self, key: str) -> bool:
        """Whether ``key`` holds its most places now (a :meth:`turn` would be refused)."""
        return self._places.get(key, 0) >= self.per_key

    @contextlib.asynccontextmanager
    async def turn(self, key: str, *, side: bool = False) -> AsyncIterator[None]:
        """A place for ``key``: entering it waits for its turn, then the hash runs inside;
        entering raises :class:`HashesBusy` at once when ``key`` holds its most places."""
        if self.busy(key):
            raise HashesBusy(key)
        self._places[key] = self._places.get(key, 0) + 1
        try:
            await self._start(key, side)
            try:
                yield
            finally:
                self._finished(side)
        finally:
            left = self._places[key] - 1
            if left:
                self._places[key] = left
            else:
                del self._places[key]

    def _free(self, side: bool) -> bool:
        return self._running < self.slots and (not side or self._side_running < self.side_slots)

    def _startable(self) -> list[bool]:
        """The errands (main, side) with someone waiting who could start now."""
        return [side for side in (False, True) if self._waiting[side] and self._free(side)]

    async def _start(self, key: str, side: bool) -> None:
        if self._free(side) and not self._startable():
            self._begin(key, side)
            return
        if key not in self._served:
            # A newcomer takes its place at the end of the round: however many new
            # addresses a flood brings, none goes ahead of those already waiting.
            self._turns += 1
            self._served[key] = self._turns
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[side].setdefault(key, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._finished(side)  # given a slot just as it was cancelled: passed on
            else:
                queue = self._waiting[side].get(key)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[side][key]
            raise

    def _begin(self, key: str, side: bool) -> None:
        self._running += 1
        self._side_running += side
        self._turns += 1
        self._served[key] = self._turns
        self._served.move_to_end(key)
        if len(self._served) > self.REMEMBERED:
            self._served.popitem(last=False)

    def _finished(self, side: bool) -> None:
        self._running -= 1
        self._side_running -= side
        self._hand_on()

    def _hand_on(self) -> None:
        """Give free slots to the waiting addresses served longest ago."""
        while True:
            errands = self._startable()
            if not errands:
                return
            side, key = min(
                ((side, key) for side in errands for key in self._waiting[side]),
                key=lambda pair: self._served.get(pair[1], 0),
            )
            queue = self._waiting[side][key]
            future = queue.popleft()
            if not queue:
                del self._waiting[side][key]
            if future.done():  # cancelled while it waited: its task is leaving
                continue
            self._begin(key, side)
            future.set_result(None)
