"""The room's own refusals, with stable codes, as the protocol sends them.

>>> RoomError("not_seated", "you have no seat at this table").code
'not_seated'
"""

from __future__ import annotations

from pokerhouse.errors import PokerError


class RoomError(PokerError):
    """A request the room refuses: not signed in, not seated, unavailable, too fast...

    Codes: ``login_required``, ``unknown_table``, ``not_seated``,
    ``not_your_seat``, ``no_wagers``, ``room_unavailable``, ``rate_limited``,
    ``bad_action``, ``bad_request``.
    """

    default_code = "room_error"


class Unavailable(RoomError):
    """The database is not answering: the table takes nothing until it is back."""

    default_code = "room_unavailable"
