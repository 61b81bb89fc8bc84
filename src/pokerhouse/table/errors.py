"""The table's typed error: bad seating, buy-ins and out-of-order hand control.

>>> try:
...     raise TableError("seat_taken", "seat 3 is taken by Ann")
... except PokerError as error:
...     print(error.code)
seat_taken
"""

from __future__ import annotations

from pokerhouse.errors import PokerError


class TableError(PokerError):
    """A table request the rules or the table's limits do not allow.

    Codes: ``bad_seat``, ``seat_taken``, ``seat_empty``, ``already_seated``,
    ``bad_name``, ``bad_amount``, ``buy_in_too_small``, ``buy_in_too_large``,
    ``in_hand``, ``hand_in_progress``, ``no_hand``, ``hand_not_over``,
    ``not_enough_players``, ``not_in_hand``, ``bad_limits``, ``bad_wager``,
    ``bad_spec``.
    """

    default_code = "table_error"
