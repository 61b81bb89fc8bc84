"""What the lobby shows of a table: its line, and who sits where.

The same line is the HTTP lobby's (``GET /api/tables``), the websocket's
(``lobby``) and what a node publishes of its tables to the others.

>>> import msgspec
>>> line = TableLine(1, "Razz", "razz", "Razz", {"ante": 1}, 2, [PlayerLine(0, "ann", False)],
...     1, 0, 0, 20, 100, True, False, False)
>>> msgspec.json.decode(msgspec.json.encode(line), type=TableLine) == line
True
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec


class PlayerLine(msgspec.Struct, frozen=True):
    """A seated player as the lobby shows them."""

    seat: int
    name: str
    bot: bool


class TableLine(msgspec.Struct, frozen=True):
    """A table's line in the lobby: its game and stakes, who sits where, how busy it is,
    and who may sit (everyone, people only, or bots only)."""

    id: int
    name: str
    game: str
    title: str
    spec: Annotated[dict[str, Any], msgspec.Meta(description="The game's settings (stakes).")]
    seats: int
    players: list[PlayerLine]
    free: int
    hands_played: int
    hands_per_hour: int
    min_buy_in: int | None
    max_buy_in: int | None
    available: bool
    people_only: bool
    bots_only: bool
