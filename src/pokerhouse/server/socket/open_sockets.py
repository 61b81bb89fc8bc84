"""How many websockets one account and one address may hold open at once.

Every open socket costs the room memory and, when it sends, the loop's
time; without a cap one client could open hundreds. A handshake takes a
place for its address before anything else (before its session is looked
up) and, once it knows who is there, one for the account; a handshake past
either cap is refused, and the socket's places are given back when it
closes.

>>> limits = SocketLimits(per_account=1, per_address=2)
>>> first = limits.enter("10.0.0.1")
>>> first is not None and first.sign_in(7)
True
>>> second = limits.enter("10.0.0.1")
>>> second is not None and second.sign_in(7)    # the account's one place is taken
False
>>> second.leave()    # not the address's last socket: the first is still open
False
>>> limits.enter("10.0.0.1") is not None, limits.enter("10.0.0.1") is None
(True, True)
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")


class Place:
    """One socket's places: its address's, and its account's once it signs in."""

    __slots__ = ("_left", "_limits", "address", "user_id")

    def __init__(self, limits: SocketLimits, address: str) -> None:
        self._limits = limits
        self._left = False
        self.address = address
        self.user_id: int | None = None

    def sign_in(self, user_id: int) -> bool:
        """Take a place for the account too; ``False`` when it holds its cap already."""
        counts = self._limits.accounts
        if counts.get(user_id, 0) >= self._limits.per_account:
            return False
        counts[user_id] = counts.get(user_id, 0) + 1
        self.user_id = user_id
        return True

    def leave(self) -> bool:
        """Give the places back (once); whether this was the address's last open socket."""
        if self._left:
            return False
        self._left = True
        if self.user_id is not None:
            _down(self._limits.accounts, self.user_id)
        return _down(self._limits.addresses, self.address)


class SocketLimits:
    """Open websockets counted per account and per address, each under its cap."""

    def __init__(self, per_account: int, per_address: int) -> None:
        self.per_account = per_account
        self.per_address = per_address
        self.accounts: dict[int, int] = {}
        self.addresses: dict[str, int] = {}

    def enter(self, address: str) -> Place | None:
        """A place for one more socket from ``address``, or ``None`` past its cap."""
        count = self.addresses.get(address, 0)
        if count >= self.per_address:
            return None
        self.addresses[address] = count + 1
        return Place(self, address)


def _down(counts: dict[K, int], key: K) -> bool:
    """One fewer for ``key``; whether none are left."""
    count = counts.get(key, 0) - 1
    if count > 0:
        counts[key] = count
        return False
    counts.pop(key, None)
    return True
