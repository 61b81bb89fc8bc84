"""The ``?before=`` of the API's paged lists, and the ``next`` of their answers.

A list is paged by key (keyset pagination): ``before`` is the id of the
oldest item a client has, and the answer's ``next`` is what to send as
``before`` for the page after, or null when there is nothing older. Each
list's query is a struct of its own (its ``limit``'s default and most are
its own), read by :func:`.queries.read_query`.

>>> import msgspec
>>> from pokerhouse.server.http.queries import read_query
>>> Page = msgspec.defstruct("Page", [("before", Before | None, None)])
>>> read_query({"before": "981"}, Page)
Page(before=981)
>>> read_query({"before": " 7"}, Page)
Traceback (most recent call last):
...
pokerhouse.server.http.queries.BadQuery: before is an id from a page's next (1 to 2**63-1)
"""

from __future__ import annotations

from typing import Annotated

import msgspec

#: The largest id a row may have (a signed 64-bit integer).
MAX_ID = 2**63 - 1

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
