"""What the private tables' endpoints read and answer: a new table, invitations, a table
as its host or a guest sees it, the session ledger, the stakes a table may play."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from pokerhouse.games import GAMES
from pokerhouse.server.http.paging import MAX_ID

Name = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
Token = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class NewTable(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/private-tables``: the table's game, stakes and options."""

    name: Name
    game: Annotated[str, msgspec.Meta(max_length=20, extra_json_schema={"enum": sorted(GAMES)})]
    options: Annotated[
        dict[str, Any], msgspec.Meta(description="The game's spec fields (stakes).")
    ] = {}
    seats: Annotated[int, msgspec.Meta(ge=1, le=10)] = 6
    min_buy_in: Annotated[int, msgspec.Meta(ge=1, le=10**9)] | None = None
    max_buy_in: Annotated[int, msgspec.Meta(ge=1, le=10**9)] | None = None
    max_boxes: Annotated[int, msgspec.Meta(ge=1, le=10)] = 1
    bots: Annotated[int, msgspec.Meta(ge=0, le=9)] = 0
    decision_seconds: Annotated[float, msgspec.Meta(ge=5, le=120)] = 30.0
    approve_seats: bool = False
    password: Annotated[str, msgspec.Meta(min_length=4, max_length=128)] | None = None


class Look(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/invitations/look``: an invitation's token."""

    token: Token


class Join(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/invitations/join``: the token, and the table's password if it has one."""

    token: Token
    password: Annotated[str, msgspec.Meta(max_length=128)] | None = None


class TablePath(msgspec.Struct):
    """A private table named by the path."""

    table_id: Annotated[int, msgspec.Meta(ge=1, le=MAX_ID)]


class LedgerFormat(msgspec.Struct):
    """How the session ledger is written: JSON, or CSV (a file for a spreadsheet)."""

    format: Literal["json", "csv"] = "json"


class TableOpened(msgspec.Struct):
    """The table opened, and its invitation token, shown this once (the link is
    ``/#/join/TOKEN``)."""

    id: int
    name: str
    game: str
    invitation: str


class PrivateTableLine(msgspec.Struct):
    """An open private table one hosts (``mine``) or came to."""

    id: int
    name: str
    game: str
    host: str
    mine: bool
    paused: bool


class PrivateTables(msgspec.Struct):
    """The open private tables the person hosts or came to."""

    tables: list[PrivateTableLine]


class GuestLine(msgspec.Struct):
    """A guest and their standing: ``asked`` (to sit), ``approved`` or ``removed``."""

    name: str
    status: str


class PrivateTable(msgspec.Struct):
    """A private table's settings and state: its guests for its host, a guest's own
    standing for a guest."""

    id: int
    name: str
    game: str
    host: str
    mine: bool
    approve_seats: bool
    password: bool
    paused: bool
    closed: bool
    guests: list[GuestLine] | UnsetType = UNSET
    standing: str | UnsetType = UNSET


class NewInvitation(msgspec.Struct):
    """A new invitation token (the old one stops working)."""

    id: int
    invitation: str


class SessionLine(msgspec.Struct):
    """A player's session at the table, in chips: ``net = buy_out + stack - buy_in``
    (``end``: when they last cashed out, null while they still have chips there)."""

    user_id: int
    username: str
    start: float
    end: float | None
    buy_in: int
    buy_out: int
    stack: int
    net: int


class SessionLedger(msgspec.Struct):
    """The session ledger: buy-ins, cash-outs, stacks and net per player."""

    id: int
    players: list[SessionLine]


class StakeLevel(msgspec.Struct):
    """One of a game's stakes: its name, the spec's amounts, the buy-ins a form offers."""

    name: str
    options: dict[str, Any]
    buy_in: list[int]


class PrivateLimits(msgspec.Struct):
    """The room's limits on a private table."""

    max_buy_in: int
    bots: int
    decision_seconds: float
    tables: int


class PrivateStakes(msgspec.Struct):
    """Each game's stakes, the spec fields a host chooses besides (the betting structure,
    Teen Patti's sideshow), and the room's limits."""

    games: dict[str, list[StakeLevel]]
    host_chooses: dict[str, list[str]]
    limits: PrivateLimits


class InvitationShown(msgspec.Struct):
    """What an invitation opens: the table, its host, whether it asks a password, whether
    the host approves each seat, whether it has closed."""

    table_id: int
    name: str
    game: str
    host: str
    password: bool
    approve_seats: bool
    closed: bool


class Joined(msgspec.Struct):
    """Come to the table: approved, or asked to wait for the host."""

    table: int
    status: Annotated[str, msgspec.Meta(extra_json_schema={"enum": ["approved", "asked"]})]
