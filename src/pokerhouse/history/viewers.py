"""Whose eyes a hand history is written for: the server, a seat, one person's seats, a spectator.

The server's history holds every card and can be replayed; a seat's, or a
spectator's (``None``), holds only what that viewer was shown.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, Literal

from pokerhouse.errors import HistoryError


class Audience(Enum):
    """Who a history is for, beyond one seat (an ``int``) or a spectator (``None``)."""

    SERVER = "server"


#: The full server-side history: every card, replayable.
SERVER: Final = Audience.SERVER

#: Whose eyes a history is written for: a seat, the seats one person holds (Casino
#: Hold'em boxes), a spectator (``None``) or the server.
Viewer = int | frozenset[int] | None | Literal[Audience.SERVER]


def check_viewer(seat: object, players: int) -> Viewer:
    """``seat`` if it may be a history's viewer: ``SERVER``, ``None`` or a seat of the hand.

    A bool is refused although ``True == 1``: it is never meant as a seat.

    Several seats (a frozenset) are one person's: one seat in it is just that seat.

    >>> check_viewer(1, 2), check_viewer(None, 2), check_viewer(frozenset({1}), 2)
    (1, None, 1)
    >>> sorted(check_viewer(frozenset({0, 2}), 3))
    [0, 2]
    >>> check_viewer(True, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pokerhouse.errors.HistoryError: a history is for ... a seat from 0 to 1, not True
    """
    if seat is SERVER or seat is None:
        return seat
    if (
        type(seat) is frozenset
        and seat
        and all(type(one) is int and 0 <= one < players for one in seat)
    ):
        return next(iter(seat)) if len(seat) == 1 else seat
    if type(seat) is not int or not 0 <= seat < players:
        raise HistoryError(
            "bad_viewer",
            "a history is for the server, a spectator (None) or a seat from 0 to "
            f"{players - 1}, not {seat!r}",
        )
    return seat
