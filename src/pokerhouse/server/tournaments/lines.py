"""What the room shows of a tournament, typed: its lobby line, its page, and the news a
follower is told.

The line is the same in ``GET /api/tournaments`` and in the websocket's
``tournament`` message; the page (``GET /api/tournaments/{id}``) is the line
with the structure, the standings and the tables.

>>> import msgspec
>>> msgspec.json.encode([LevelUpNews(3, {"ante": 2}), BreakOverNews()])
b'[{"kind":"level_up","level":3,"stakes":{"ante":2}},{"kind":"break_over"}]'
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from pokerhouse.server.http.paging import MAX_ID
from pokerhouse.tournament.spec import FORMATS
from pokerhouse.tournament.state import CANCELLED, FINISHED, REGISTERING, RUNNING

#: Chips of each kind of bet at a level (``ante``, ``small_bet``...).
Stakes = dict[str, int]
Status = Annotated[
    str, msgspec.Meta(extra_json_schema={"enum": [REGISTERING, RUNNING, FINISHED, CANCELLED]})
]


class TournamentLine(msgspec.Struct):
    """A tournament's line in the lobby's Tournaments tab: its game and money, who entered,
    and its clock (the level's stakes and the next's, the seconds left in the level or
    the break: null unless it runs on a clock)."""

    id: int
    name: str
    game: str
    title: str
    format: Annotated[str, msgspec.Meta(extra_json_schema={"enum": sorted(FORMATS)})]
    status: Status
    buy_in: int
    fee: int
    guarantee: int
    seats: int
    min_entrants: int
    max_entrants: int | None
    entrants: int
    left: int
    tables: int
    registering: bool
    level: int
    prizes: list[int]
    stakes: Stakes
    next_stakes: Stakes
    on_break: bool
    seconds_left: float | None
    hand_for_hand: bool


class TournamentStructure(msgspec.Struct):
    """The structure: the starting stack, each level's length (in seconds or in hands)
    and stakes, the breaks, late registration and re-entries."""

    starting_stack: int
    level_seconds: int | None
    level_hands: int | None
    break_every: int
    break_seconds: int
    late_levels: int
    reentries: int
    levels: list[Stakes]


class EntrantLine(msgspec.Struct):
    """An entry's line in the standings: chips and seat while in, place and prize once out
    (``tied``: how many share the place)."""

    entry: int
    player: str
    bot: bool
    chips: int
    table: int | None
    seat: int | None
    busted: bool
    place: int | None
    tied: int | None
    prize: int


class OpenTableLine(msgspec.Struct):
    """One of the tournament's tables: its number, the room's table id (to watch it), how
    many sit there, whether it deals."""

    number: int
    table_id: int | None
    players: int
    playing: bool


class TournamentPage(TournamentLine):
    """A tournament's page: its line, its structure, chip counts (those still in, biggest
    first, then the places), and its tables."""

    structure: TournamentStructure
    average_stack: int
    standings: list[EntrantLine]
    tables_open: list[OpenTableLine]


class TournamentNewsItem(msgspec.Struct, tag_field="kind", frozen=True):
    """Something that just happened at a tournament (``kind`` names it)."""


class StartedNews(TournamentNewsItem, tag="started", frozen=True):
    """It started, with so many entrants at so many tables."""

    entrants: int
    tables: int


class RegistrationClosedNews(TournamentNewsItem, tag="registration_closed", frozen=True):
    """Registration closed: the entrants, the prize pool and the prizes."""

    entrants: int
    pool: int
    prizes: list[int]


class SeatedNews(TournamentNewsItem, tag="seated", frozen=True):
    """A player seated at a new table, or a late entry (``table_id``: the room's table)."""

    entry: int
    player: str
    table: int
    table_id: int | None


class MovedNews(TournamentNewsItem, tag="moved", frozen=True):
    """A player moved to balance or break tables: a client follows them to ``table_id``."""

    entry: int
    player: str
    table: int
    table_id: int | None


class LevelUpNews(TournamentNewsItem, tag="level_up", frozen=True):
    """The next level (counted from 1) and its stakes."""

    level: int
    stakes: Stakes


class BreakNews(TournamentNewsItem, tag="break", frozen=True):
    """A break of so many seconds."""

    seconds: int


class BreakOverNews(TournamentNewsItem, tag="break_over", frozen=True):
    """The break is over."""


class HandForHandNews(TournamentNewsItem, tag="hand_for_hand", frozen=True):
    """Hand for hand play starts (``on``) or ends."""

    on: bool


class PlacedNews(TournamentNewsItem, tag="placed", frozen=True):
    """An entry finished: its place, how many share it, its prize."""

    entry: int
    player: str
    place: int
    tied: int
    prize: int


class FinishedNews(TournamentNewsItem, tag="finished", frozen=True):
    """The tournament is over."""


class CancelledNews(TournamentNewsItem, tag="cancelled", frozen=True):
    """The tournament was cancelled, and why."""

    reason: str


#: Every kind of news.
TournamentNewsKind = (
    StartedNews
    | RegistrationClosedNews
    | SeatedNews
    | MovedNews
    | LevelUpNews
    | BreakNews
    | BreakOverNews
    | HandForHandNews
    | PlacedNews
    | FinishedNews
    | CancelledNews
)


class TournamentList(msgspec.Struct):
    """The tournaments open or running, and the last ones ended."""

    tournaments: list[TournamentLine]


class TournamentsQuery(msgspec.Struct):
    """Only the tournaments of one status."""

    status: Status | None = None


class TournamentPath(msgspec.Struct):
    """A tournament named by its path."""

    tournament_id: Annotated[int, msgspec.Meta(ge=1, le=MAX_ID)]
