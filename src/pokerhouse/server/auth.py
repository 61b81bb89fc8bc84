"""Who is asking: session cookies, CSRF protection, same-origin checks, login throttling.

* The session token lives in an HttpOnly, SameSite=Lax cookie; the database
  keeps only its hash.
* A state-changing request must carry the ``X-CSRF-Token`` header equal to
  the ``ph_csrf`` cookie (double submit: another site can make the browser
  send the cookie, but cannot read it to copy it into a header), and, when
  the browser says where the request comes from (``Origin``), come from
  this site. The websocket handshake checks ``Origin`` the same way.
* Failed logins are throttled per account and per address with exponential
  back-off: a thousand guesses take hours, and the account's owner, who
  knows the password, is never locked out for good. An attempt is counted
  *before* its password is checked (and the count taken back when it was
  right), so guesses sent all at once get no more checks than guesses sent
  one by one.
* Password hashes in flight are bounded per address and taken in turn
  between addresses (:class:`HashGate`): a client that sends many logins at
  once gets ``429`` for those beyond the bound, and the ones it has waiting
  delay another address's login by one hash, not by all of them.

>>> throttle = Throttle(free=2, base=1.0, cap=60.0)
>>> throttle.wait("ann", now=0.0)
0.0
>>> for _ in range(3):
...     throttle.attempt("ann", now=0.0)
>>> throttle.wait("ann", now=0.0), throttle.wait("bob", now=0.0)
(1.0, 0.0)
>>> throttle.attempt("ann", now=0.0)
>>> throttle.wait("ann", now=0.5)
1.5
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

SESSION_COOKIE = "ph_session"
CSRF_COOKIE = "ph_csrf"
CSRF_HEADER = "x-csrf-token"


def new_csrf_token() -> str:
    """A fresh random token for the double-submit cookie."""
    return secrets.token_urlsafe(24)


def csrf_ok(cookies: Mapping[str, str], headers: Mapping[str, str]) -> bool:
    """Whether the request's CSRF header matches its CSRF cookie (compared in constant time)."""
    cookie = cookies.get(CSRF_COOKIE, "")
    header = headers.get(CSRF_HEADER, "")
    return bool(cookie) and len(cookie) <= 200 and hmac.compare_digest(cookie, header)


def same_origin(origin: str | None, host: str | None, scheme: str) -> bool:
    """Whether ``origin`` (the ``Origin`` header) is this site; no header is not a browser's.

    >>> same_origin("http://127.0.0.1:8000", "127.0.0.1:8000", "http")
    True
    >>> same_origin("https://evil.example", "127.0.0.1:8000", "http")
    False
    >>> same_origin(None, "127.0.0.1:8000", "http")
    True
    """
    if origin is None:
        return True
    if origin == "null" or not host:
        return False
    parts = urlsplit(origin)
    wanted = "https" if scheme in ("https", "wss") else "http"
    return parts.scheme == wanted and parts.netloc.lower() == host.lower()


@dataclass
class _Record:
    failures: int = 0
    until: float = 0.0
    last: float = 0.0


class Throttle:
    """Exponential back-off after failures, per key (an account, an address).

    After ``free`` failures each further one doubles the wait, from ``base``
    seconds up to ``cap``; a success clears the key; a key left alone for
    ``forget`` seconds starts over.
    """

    def __init__(
        self, free: int = 5, base: float = 1.0, cap: float = 300.0, forget: float = 3600.0
    ) -> None:
        self.free = free
        self.base = base
        self.cap = cap
        self.forget = forget
        self._records: dict[str, _Record] = {}

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds ``key`` must wait before its next attempt (0: go ahead)."""
        now = time.monotonic() if now is None else now
        record = self._records.get(key)
        if record is None:
            return 0.0
        if now - record.last > self.forget:
            del self._records[key]
            return 0.0
        return max(0.0, record.until - now)

    def attempt(self, key: str, now: float | None = None) -> None:
        """One more attempt for ``key``, counted as a failure until :meth:`succeeded`
        or :meth:`undo` says otherwise: count it before the check, so that attempts
        made at once cannot all pass :meth:`wait` before any of them is counted."""
        now = time.monotonic() if now is None else now
        record = self._records.setdefault(key, _Record())
        record.failures += 1
        record.last = now
        over = record.failures - self.free
        if over > 0:
            record.until = now + min(self.cap, self.base * 2 ** (over - 1))
        if len(self._records) > 100_000:
            self._prune(now)

    def succeeded(self, key: str) -> None:
        """A success clears ``key``'s failures."""
        self._records.pop(key, None)

    def undo(self, key: str) -> None:
        """Take back one attempt of ``key`` that succeeded, leaving its other failures.

        >>> throttle = Throttle(free=1)
        >>> throttle.attempt("10.0.0.1", now=0.0); throttle.attempt("10.0.0.1", now=0.0)
        >>> throttle.wait("10.0.0.1", now=0.0)
        1.0
        >>> throttle.undo("10.0.0.1")
        >>> throttle.wait("10.0.0.1", now=0.0)
        0.0
        """
        record = self._records.get(key)
        if record is None:
            return
        record.failures -= 1
        if record.failures <= 0:
            del self._records[key]
        elif record.failures <= self.free:
            record.until = 0.0

    def _prune(self, now: float) -> None:
        for key in [k for k, r in self._records.items() if now - r.last > self.forget]:
            del self._records[key]


class RateLimit:
    """At most ``rate`` events a second per key, with bursts up to ``burst`` (a token bucket).

    >>> limit = RateLimit(rate=1.0, burst=2)
    >>> [limit.allow("c", now=0.0) for _ in range(3)], limit.allow("c", now=1.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str, now: float | None = None) -> bool:
        """Take a token for ``key`` if one is there."""
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - stamp) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 100_000:
            self._buckets.clear()
        return True

    def forget(self, key: str) -> None:
        """Drop ``key``'s bucket (its owner is gone: a closed spectator's socket)."""
        self._buckets.pop(key, None)


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
    >>> gate = HashGate(slots=1, per_key=1)
    >>> _ = gate.turn("a")
    >>> gate.turn("a")
    Traceback (most recent call last):
    ...
    pokerhouse.server.auth.HashesBusy: a
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

    def turn(self, key: str, *, side: bool = False) -> contextlib.AbstractAsyncContextManager[None]:
        """A place for ``key``: ``async with`` it waits for its turn and runs the hash;
        raises :class:`HashesBusy` at once when ``key`` holds its most places."""
        if self._places.get(key, 0) >= self.per_key:
            raise HashesBusy(key)
        self._places[key] = self._places.get(key, 0) + 1
        return self._turn(key, side)

    @contextlib.asynccontextmanager
    async def _turn(self, key: str, side: bool) -> AsyncIterator[None]:
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
