"""The decision clock and the time bank (RULES.md, "The room", Clock).

Each decision has a time limit; when it runs out, the player's time bank
starts; when both are spent the room acts for the player. A bank is spent
only by the time used past the limit, and refilled by a few seconds for
each hand played, up to its size.

>>> banks = TimeBanks(limit=15, bank=30, refill=5)
>>> banks.start(seat=2, now=100.0).deadline  # 15 s, then the full 30 s bank
145.0
>>> banks.finish(2, now=120.0)  # acted 5 s into the bank
>>> banks.left(2)
25.0
>>> banks.refill([2])
>>> banks.left(2)
30.0
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DecisionTime:
    """A running decision: whose, when it began, when the limit ends, when the bank ends."""

    seat: int
    started: float
    limit_end: float
    deadline: float

    def remaining(self, now: float) -> tuple[float, float]:
        """Seconds left of the limit, and of the bank after it."""
        limit = max(0.0, self.limit_end - now)
        bank = max(0.0, self.deadline - max(now, self.limit_end))
        return limit, bank


class TimeBanks:
    """Every seat's time bank, and the decision under way."""

    def __init__(self, limit: float, bank: float, refill: float = 5.0) -> None:
        self.limit = float(limit)
        self.size = float(bank)
        self.refill_by = float(refill)
        self._left: dict[int, float] = {}
        self.current: DecisionTime | None = None

    def left(self, seat: int) -> float:
        """Seconds in ``seat``'s bank."""
        return self._left.get(seat, self.size)

    def start(self, seat: int, now: float) -> DecisionTime:
        """Start ``seat``'s decision now."""
        limit_end = now + self.limit
        self.current = DecisionTime(seat, now, limit_end, limit_end + self.left(seat))
        return self.current

    def finish(self, seat: int, now: float) -> None:
        """``seat`` acted at ``now``: what it used past the limit comes out of its bank."""
        decision = self.current
        if decision is None or decision.seat != seat:
            return
        over = max(0.0, now - decision.limit_end)
        self._left[seat] = max(0.0, self.left(seat) - over)
        self.current = None

    def time_out(self, seat: int) -> None:
        """``seat`` used everything: its bank is empty."""
        self._left[seat] = 0.0
        if self.current is not None and self.current.seat == seat:
            self.current = None

    def refill(self, seats: Iterable[int]) -> None:
        """A hand played: each seat's bank grows by the refill, up to its size."""
        for seat in seats:
            self._left[seat] = min(self.size, self.left(seat) + self.refill_by)

    def lefts(self) -> dict[int, float]:
        """Every seat's bank that is not full."""
        return {seat: left for seat, left in self._left.items() if left < self.size}

    def restore(self, lefts: dict[int, float]) -> None:
        """The banks as :meth:`lefts` gave them (on another node, maybe)."""
        self._left = {seat: min(self.size, max(0.0, left)) for seat, left in lefts.items()}

    def forget(self, seat: int) -> None:
        """A player left the seat: the next one starts with a full bank."""
        self._left.pop(seat, None)
