"""The ``?limit=`` and ``?before=`` of the API's paged lists, read strictly.

A list is paged by key (keyset pagination): ``before`` is the id of the
oldest item a client has, and the answer's ``next`` is what to send as
``before`` for the page after, or null when there is nothing older.

>>> read_page({"limit": "20", "before": "981"}, default=50, most=200)
Page(limit=20, before=981)
>>> read_page({}, default=50, most=200)
Page(limit=50, before=None)
>>> read_page({"limit": "0"}, default=50, most=200)
Traceback (most recent call last):
...
pokerhouse.server.http.paging.BadPage: limit is a whole number from 1 to 200
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated

import msgspec

#: The largest id a row may have (a signed 64-bit integer).
MAX_ID = 2**63 - 1
#: Longer than any id's digits: a number this long is refused before it is parsed.
_MOST_DIGITS = 19

#: ``?before=``: only what is older than this id (the ``next`` of the page before).
Before = Annotated[
    int,
    msgspec.Meta(
        ge=1,
        le=MAX_ID,
        description="Only what is older than this: the next of the page before.",
        extra={"refusal": "before is an id from a page's next (1 to 2**63-1)"},
    ),
]
#: An answer's ``next``: the ``before`` of the next older page, or null.
Next = Annotated[
    int | None,
    msgspec.Meta(description="The before of the next older page; null when there is none."),
]


class BadPage(ValueError):
    """A ``limit`` or ``before`` that is not one (``code``: ``bad_limit``, ``bad_before``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Page:
    """Which page a request asks for."""

    limit: int
    before: int | None


def _whole(text: str | None, low: int, high: int) -> int | None:
    """``text`` as an int in ``low..high``, or None. ASCII digits only: int() would take
    "+5", " 5", "5_0" and other scripts' digits, which no client of ours sends."""
    if text is None or not 1 <= len(text) <= _MOST_DIGITS:
        return None
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if low <= value <= high else None


def read_page(query: Mapping[str, str], *, default: int, most: int) -> Page:
    """The page ``query`` asks for; raises :class:`BadPage` for a bad value."""
    limit = default
    if "limit" in query:
        found = _whole(query["limit"], 1, most)
        if found is None:
            raise BadPage("bad_limit", f"limit is a whole number from 1 to {most}")
        limit = found
    before = None
    if "before" in query:
        before = _whole(query["before"], 1, MAX_ID)
        if before is None:
            raise BadPage("bad_before", "before is an id from a page's next (1 to 2**63-1)")
    return Page(limit, before)


def path_id(params: Mapping[str, object], name: str) -> int | None:
    """The row id a path gives as ``name`` (a route's ``{name:int}``), or ``None`` when it
    is past any row's (a database driver refuses such a number outright).

    >>> path_id({"id": 7}, "id"), path_id({"id": 2**63}, "id"), path_id({"id": 0}, "id")
    (7, None, None)
    """
    value = params.get(name)
    if type(value) is not int or not 1 <= value <= MAX_ID:
        return None
    return value
