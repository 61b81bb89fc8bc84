"""What the statistics' endpoints read and answer: a player's figures by game, the hands
played together, the people's weekly board."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import UNSET, UnsetType

from pokerhouse.server.botaccounts.schemas import GameName
from pokerhouse.server.hands.schemas import HandLine
from pokerhouse.server.http.paging import Before, Next
from pokerhouse.store.stats import PERIODS

#: A share of hands, in percent (null: none to go on).
Percent = Annotated[float | None, msgspec.Meta(description="Percent, or null: none to go on.")]


class StatsQuery(msgspec.Struct):
    """The period a player's figures cover."""

    period: Annotated[
        str,
        msgspec.Meta(
            description="week (this week), month (the last four), year (the last 52) or all.",
            extra_json_schema={"enum": list(PERIODS)},
        ),
    ] = "all"


class PlayerPath(msgspec.Struct):
    """A player named by the path."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class GameFigures(msgspec.Struct):
    """A player's figures in one game (percentages are of hands; ``won_at_showdown``: of
    showdowns); a figure a game does not have, or with no hands to go on, is null, and
    the figures of one game only are left out of the others'."""

    game: GameName
    hands: int
    net: Annotated[int, msgspec.Meta(description="Chips won (or lost, below zero).")]
    per_100: float | None
    vpip: Percent
    pfr: Annotated[float | None, msgspec.Meta(description="3x4 and Razz only.")]
    aggression: Annotated[
        float | None,
        msgspec.Meta(description="Bets, raises and completions per call (not Casino Hold'em)."),
    ]
    went_to_showdown: Percent
    won_at_showdown: Percent
    blind: (
        Annotated[
            float | None, msgspec.Meta(description="Teen Patti: hands played without looking.")
        ]
        | UnsetType
    ) = UNSET
    seen: (
        Annotated[
            float | None,
            msgspec.Meta(description="Teen Patti: hands in which the cards were seen."),
        ]
        | UnsetType
    ) = UNSET
    call_rate: (
        Annotated[float | None, msgspec.Meta(description="Casino Hold'em: boxes that called.")]
        | UnsetType
    ) = UNSET


class StatsPage(msgspec.Struct):
    """A player's figures by game, from money play (tournament chips are not counted)."""

    name: str
    bot: bool
    period: str
    games: list[GameFigures]


class TogetherQuery(msgspec.Struct):
    """A page of the hands played together: those older than ``before``."""

    limit: Annotated[
        int, msgspec.Meta(ge=1, le=50, description="How many hands (default and most 50).")
    ] = 50
    before: Before | None = None


class HandsTogether(msgspec.Struct):
    """The finished hands the asker played with the player (``count`` in all), newest first,
    with the asker's result in each."""

    name: str
    count: int
    hands: list[HandLine]
    next: Next


class PeopleBoardQuery(msgspec.Struct):
    """A game's board of a week, of those with ``least`` hands or more."""

    game: GameName
    week: (
        Annotated[
            str,
            msgspec.Meta(
                description="The week's Monday (UTC); this week when left out.",
                extra_json_schema={"format": "date"},
            ),
        ]
        | None
    ) = None
    least: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            description="The fewest hands a line may have.",
            extra={"refusal": "least is a whole number of hands, not {shown}"},
        ),
    ] = 50


class PersonRank(msgspec.Struct):
    """A person's line on the board: hands, net chips, chips won per 100 hands."""

    name: str
    hands: int
    net: int
    per_100: float


class PeopleBoard(msgspec.Struct):
    """The week's best people at public tables, best chips won per 100 hands first (at
    most 100 lines)."""

    game: str
    week: Annotated[str, msgspec.Meta(extra_json_schema={"format": "date"})]
    least: int
    people: list[PersonRank]
