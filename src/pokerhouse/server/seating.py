"""Who holds which seat at a table, and which seats each account holds.

Every message a table sends asks, for each watcher, which seats its player
holds (that decides which cards it may see): a table step asks a dozen
times. :class:`Seating` is the table's seat-to-player dict, and keeps that
answer per account, rebuilt only after the seats change.

>>> seating = Seating()
>>> seating[2] = Player(User(7, "ann", False, 0.0))
>>> seating[4] = Player(User(7, "ann", False, 0.0))
>>> seating.seats_of(7), seating.seats_of(8)
(frozenset({2, 4}), frozenset())
>>> _ = seating.pop(2)
>>> seating.seats_of(7)
frozenset({4})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pokerhouse.store import User

_NONE: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Player:
    """Who holds a seat: the account, the name shown, and whether it is one of the room's bots."""

    user: User

    @property
    def user_id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.username

    @property
    def bot(self) -> bool:
        return self.user.is_bot


class Seating(dict[int, Player]):
    """Seat number to player, with each account's seats kept for the asking."""

    def __init__(self, players: Mapping[int, Player] | Iterable[tuple[int, Player]] = ()) -> None:
        super().__init__(players)
        self._by_user: dict[int, frozenset[int]] | None = None

    def seats_of(self, user: int) -> frozenset[int]:
        """The seats ``user`` holds (empty if none)."""
        by_user = self._by_user
        if by_user is None:
            groups: dict[int, set[int]] = {}
            for seat, player in self.items():
                groups.setdefault(player.user.id, set()).add(seat)
            by_user = self._by_user = {user: frozenset(seats) for user, seats in groups.items()}
        return by_user.get(user, _NONE)

    # Every way to change the dict forgets the index.

    def __setitem__(self, seat: int, player: Player) -> None:
        self._by_user = None
        super().__setitem__(seat, player)

    def __delitem__(self, seat: int) -> None:
        self._by_user = None
        super().__delitem__(seat)

    def pop(self, seat: int, *default: Any) -> Any:
        self._by_user = None
        return super().pop(seat, *default)

    def popitem(self) -> tuple[int, Player]:
        self._by_user = None
        return super().popitem()

    def clear(self) -> None:
        self._by_user = None
        super().clear()

    def update(self, *args: Any, **kwargs: Any) -> None:
        self._by_user = None
        super().update(*args, **kwargs)

    def setdefault(self, seat: int, player: Player) -> Player:
        self._by_user = None
        return super().setdefault(seat, player)
