"""What the accounts' endpoints read and answer: credentials, the player, the statement.

>>> import msgspec
>>> msgspec.json.encode(Me("ann", False, 9900, 100, [SeatHeld(1, 0, 100)]))
b'{"username":"ann","bot":false,"wallet":9900,"in_play":100,"seats":[{"table":1,"seat":0,"stack":100}]}'
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from pokerhouse.server.http.paging import Before, Next


class Credentials(msgspec.Struct, forbid_unknown_fields=True):
    """``{"username", "password"}`` for register and login."""

    username: Annotated[str, msgspec.Meta(max_length=64)]
    password: Annotated[str, msgspec.Meta(max_length=1024)]


class CsrfToken(msgspec.Struct):
    """The CSRF token, also set as the ``ph_csrf`` cookie: send it as ``X-CSRF-Token``."""

    csrf: str


class SignedOut(msgspec.Struct):
    """The session ended (its cookie cleared)."""

    ok: bool


class SeatHeld(msgspec.Struct):
    """A seat the player holds, with its stack (at a table another node runs: as of its
    last hand settled)."""

    table: int
    seat: int
    stack: int


class Me(msgspec.Struct):
    """The signed-in player: their wallet, the chips at tables, and their seats (a seat at a
    tournament's table holds tournament chips and is on the tournament's page, not here)."""

    username: str
    bot: Annotated[
        bool, msgspec.Meta(description="A bot account or a house bot: marked wherever named.")
    ]
    wallet: int
    in_play: int
    seats: list[SeatHeld]


class LedgerQuery(msgspec.Struct):
    """A page of the wallet's statement: its lines ending before entry ``before``."""

    limit: Annotated[
        int, msgspec.Meta(ge=1, le=500, description="How many lines (default and most 500).")
    ] = 500
    before: Before | None = None


class WalletLine(msgspec.Struct):
    """One entry of the wallet's statement, with the running balance after it."""

    entry: int
    transaction: int
    kind: str
    memo: str
    at: Annotated[float, msgspec.Meta(description="When, in seconds since the epoch.")]
    amount: int
    balance: int


class WalletStatement(msgspec.Struct):
    """The wallet's statement, a page at a time, newest first; ``in_play``: the chips at
    each table (by its id)."""

    username: str
    wallet: int
    in_play: dict[str, int]
    lines: list[WalletLine]
    next: Next
