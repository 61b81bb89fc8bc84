"""The store's typed errors, each with a stable ``code``.

They derive from :class:`pokerhouse.errors.PokerError`, so the command line
and the server catch them with everything else. Whatever raises one has
written nothing: every check runs before, or inside, the one database
transaction that would have written.

>>> try:
...     raise InsufficientFunds("insufficient_funds", "wallet:3 holds 10 chips, not 50")
... except LedgerError as error:
...     print(error.code)
insufficient_funds
"""

from __future__ import annotations

from pokerhouse.errors import PokerError


class StoreError(PokerError):
    """Base class of every error the store raises."""

    default_code = "store_error"


class DatabaseError(StoreError):
    """The database itself: a bad URL, an old schema, a server that does not answer.

    Codes: ``bad_url``, ``schema_outdated``, ``schema_newer``,
    ``database_unavailable``, ``database_busy``, ``database_error``.
    """

    default_code = "database_error"


class LedgerError(StoreError):
    """A posting the ledger refuses.

    Codes: ``bad_key``, ``bad_kind``, ``reserved_kind``, ``bad_account``,
    ``unknown_account``, ``in_play_account``, ``too_few_entries``,
    ``bad_amount``, ``zero_amount``, ``negative_amount``, ``amount_too_large``,
    ``unbalanced``, ``bad_memo``, ``bad_meta`` (and the subclasses' codes).
    """

    default_code = "ledger_error"


class InsufficientFunds(LedgerError):
    """An account other than the issuer would go below zero."""

    default_code = "insufficient_funds"


class IdempotencyConflict(LedgerError):
    """An idempotency key already used for a different transaction."""

    default_code = "idempotency_conflict"


class AccountError(StoreError):
    """Users and sessions.

    Codes: ``bad_username``, ``username_taken``, ``bad_password``,
    ``login_failed`` (unknown user and wrong password alike), ``unknown_user``,
    ``bad_ttl``.
    """

    default_code = "account_error"


class TableBookError(StoreError):
    """Table definitions and seats.

    Codes: ``bad_name``, ``name_taken``, ``bad_table``, ``unknown_table``,
    ``bad_seat``, ``seat_taken``, ``not_seated``, ``too_many_boxes``,
    ``buy_in_too_small``, ``buy_in_too_large``, ``seat_in_hand``, ``bot_busy`` (one of
    the room's bots already sits at another table).
    """

    default_code = "table_error"


class HandLogError(StoreError):
    """Hand logs: starts, actions and finishes that do not fit the stored hand.

    Codes: ``bad_hand``, ``unknown_hand``, ``hand_exists``, ``hand_running``,
    ``hand_not_running``, ``bad_sequence``, ``seat_mismatch``, ``bad_results``,
    ``stale_lease``, ``damaged_log``.
    """

    default_code = "hand_log_error"


class StaleLease(HandLogError):
    """A write for a table under a lease that a newer one has replaced."""

    default_code = "stale_lease"


class DamagedLog(HandLogError):
    """A stored hand log that does not replay (the server voids such a hand)."""

    default_code = "damaged_log"


class TournamentBookError(StoreError):
    """A tournament's books: a step that does not fit the stored tournament.

    Codes: ``bad_tournament``, ``unknown_tournament``, ``stale_tournament``
    (another step was saved first), ``bad_entry`` (an entry without a room
    account), ``pool_short`` (the prizes would take more than the buy-ins and
    the guarantee), ``bad_status``, ``bad_limit``.
    """

    default_code = "tournament_error"
