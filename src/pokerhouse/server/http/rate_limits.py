"""How often a key (an account, an address, a socket) may ask: back-off and token buckets.

* Failed logins are throttled per account and per address with exponential
  back-off (:class:`Throttle`): a thousand guesses take hours, and the
  account's owner, who knows the password, is never locked out for good. An
  attempt is counted *before* its password is checked (and the count taken
  back when it was right), so guesses sent all at once get no more checks
  than guesses sent one by one.
* Message and request rates are token buckets (:class:`RateLimit`).

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

import time
from dataclasses import dataclass


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
