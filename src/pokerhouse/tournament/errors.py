"""The tournament director's error: a stable ``code`` and a message in words."""

from __future__ import annotations

from pokerhouse.errors import PokerError


class TournamentError(PokerError, ValueError):
    """A tournament setting, registration or report the director cannot take.

    Codes: ``bad_structure``, ``bad_tournament``, ``unknown_structure``,
    ``not_registering``, ``already_registered``, ``not_registered``,
    ``tournament_full``, ``no_reentry``, ``same_owner``, ``bad_report``,
    ``stale_report``, ``not_running``.
    """

    default_code = "bad_tournament"


def whole(name: str, value: object, least: int, code: str) -> None:
    """Refuse ``value`` (as ``code``) unless it is an int, not a bool, of at least ``least``."""
    if type(value) is not int or value < least:
        raise TournamentError(code, f"{name} must be a whole number >= {least}, not {value!r}")
