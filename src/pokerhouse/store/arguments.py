"""The store's checks of its callers' arguments, before any statement runs.

>>> whole(3, 2)
>>> lease_owner("node-a")
'node-a'
>>> check_before(True)
Traceback (most recent call last):
...
pokerhouse.store.errors.AccountError: before is a row id from 1 to 2**63-1, not True
"""

from __future__ import annotations

from pokerhouse.store.errors import AccountError, TableBookError
from pokerhouse.store.users import User


def user_id_of(user: object) -> int:
    """A user's id, from a :class:`User` or the id itself; ``unknown_user`` otherwise."""
    if isinstance(user, User):
        return user.id
    if type(user) is int and user >= 1:
        return user
    raise AccountError("unknown_user", f"a user is a User or a user id, not {user!r}")


#: The largest row id a database holds (a signed 64-bit integer): the top of ``before``.
MAX_ROW_ID = 2**63 - 1


def check_before(before: object) -> None:
    """Refuse a ``before`` cursor that is not a row id (None: the newest page)."""
    if before is None:
        return
    # type() is int, not isinstance: True is not a cursor.
    if type(before) is not int or not 1 <= before <= MAX_ROW_ID:
        raise AccountError("bad_before", f"before is a row id from 1 to 2**63-1, not {before!r}")


def lease_owner(owner: object) -> str:
    """A lease owner's name: 1 to 200 printable characters; ``bad_owner`` otherwise."""
    if not isinstance(owner, str) or not 1 <= len(owner) <= 200 or not owner.isprintable():
        raise TableBookError(
            "bad_owner", f"a lease owner is 1 to 200 printable characters: {owner!r}"
        )
    return owner


def lease_seconds(seconds: object) -> None:
    """Refuse a lease length outside (0, 86400] seconds (``bad_lease``)."""
    if type(seconds) not in (int, float) or not 0 < seconds <= 86_400:  # type: ignore[operator]
        raise TableBookError("bad_lease", f"a lease lasts 0 to 86400 s, not {seconds!r}")


def whole(table_id: object, seat: object) -> None:
    """Refuse a table id below 1 or a seat outside 0-99 (``unknown_table``, ``bad_seat``)."""
    if type(table_id) is not int or table_id < 1:
        raise TableBookError(
            "unknown_table", f"a table id is a whole number >= 1, not {table_id!r}"
        )
    if type(seat) is not int or not 0 <= seat < 100:
        raise TableBookError("bad_seat", f"a seat is a whole number from 0, not {seat!r}")
