"""What the hands' endpoints read and answer: a player's hands, a hand's history, its
equity street by street."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from pokerhouse.server.http.paging import MAX_ID, Before, Next

Share = Annotated[float, msgspec.Meta(ge=0, le=1)]


class HandPath(msgspec.Struct):
    """A hand named by its path."""

    hand_id: Annotated[int, msgspec.Meta(ge=1, le=MAX_ID)]


class HandsQuery(msgspec.Struct):
    """A page of the player's hands: those older than ``before``."""

    limit: Annotated[
        int, msgspec.Meta(ge=1, le=200, description="How many hands (default and most 200).")
    ] = 200
    before: Before | None = None


class HandFormat(msgspec.Struct):
    """How a hand's history is written: JSON, readable text, or PHH (Razz only)."""

    format: Annotated[
        Literal["json", "text", "phh"],
        msgspec.Meta(extra={"refusal": "format is json, text or phh"}),
    ] = "json"


class HandLine(msgspec.Struct):
    """One of a player's hands: where, when, and what they won or lost (``result``: null
    until it is settled)."""

    id: int
    table_id: int
    number: int
    game: str
    status: str
    started_at: float
    finished_at: float | None
    result: int | None


class HandList(msgspec.Struct):
    """A page of the player's hands, newest first."""

    hands: list[HandLine]
    next: Next


class HandPlayer(msgspec.Struct):
    """A player dealt in: their seat in the hand and at the table, their name, whether a
    bot."""

    hand_seat: int
    table_seat: int
    name: str
    bot: bool


class HandFacts(msgspec.Struct):
    """A hand's facts: its table and number, how it stands, its players, and the asker's
    hand seats (``you``: the first, or null for a spectator)."""

    id: int
    table: int
    number: int
    status: str
    players: list[HandPlayer]
    you: int | None
    yours: list[int]


class HandHistory(HandFacts):
    """A hand's history as the asker may see it: another player's unshown cards are null
    in it (docs/histories.md)."""

    history: dict[str, Any]


class EquityHand(msgspec.Struct):
    """A hand in play on a street: its cards as the asker knows them, and its share of the
    pot (Casino Hold'em: its share of its duel with the dealer)."""

    hand_seat: int
    cards: list[str | None]
    known: bool
    equity: Share
    dealer_equity: Share | UnsetType = UNSET


class DealerCards(msgspec.Struct):
    """Casino Hold'em: the dealer's cards as the asker knows them."""

    cards: list[str | None]


class EquityStreet(msgspec.Struct):
    """One street's equities: counted exactly, or sampled over ``deals`` deals."""

    street: str
    board: list[str]
    method: Literal["exact", "sampled"]
    deals: Annotated[int, msgspec.Meta(ge=1)]
    hands: list[EquityHand]
    dealer: DealerCards | UnsetType = UNSET


class HandEquity(HandFacts):
    """Each street's equities of a finished hand, from the asker's copy of it."""

    game: str
    samples: int
    streets: list[EquityStreet]
