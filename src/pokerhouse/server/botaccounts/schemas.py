"""What the bot accounts' endpoints read and answer: a new bot, its tokens, the board."""

from __future__ import annotations

from typing import Annotated

import msgspec

from pokerhouse.games import GAMES

#: A game's name, one of the room's.
GameName = Annotated[str, msgspec.Meta(extra_json_schema={"enum": sorted(GAMES)})]


class NewBot(msgspec.Struct, forbid_unknown_fields=True):
    """``{"name"}`` for ``POST /api/bots``: the name follows the rules of names and ends in
    ``_bot``."""

    name: Annotated[str, msgspec.Meta(max_length=64)]


class BotPath(msgspec.Struct):
    """One of the player's bot accounts, named by the path."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class BotAccountLine(msgspec.Struct):
    """A bot account as its owner sees it: its name, when it was made, its live tokens."""

    name: str
    created_at: float
    live_tokens: int


class BotAccounts(msgspec.Struct):
    """The player's bot accounts, oldest first, and how many one may keep."""

    bots: list[BotAccountLine]
    most: int


class BotMade(msgspec.Struct):
    """A new bot account and its token, shown this once (the room keeps only its hash)."""

    name: str
    bot: bool
    token: Annotated[str, msgspec.Meta(description="Shown this once: keep it.")]


class BotToken(msgspec.Struct):
    """A new token for the bot (shown this once), and how many earlier ones ended."""

    name: str
    token: Annotated[str, msgspec.Meta(description="Shown this once: keep it.")]
    ended: int


class BotRevoked(msgspec.Struct):
    """How many of the bot's tokens ended."""

    name: str
    ended: int


class BotBoardQuery(msgspec.Struct):
    """The game whose board is asked for."""

    game: GameName


class BotRank(msgspec.Struct):
    """A bot's line on the board: its hands, net chips, and chips per 100 hands with the
    95% interval ``low``..``high`` (normal approximation over hands)."""

    name: str
    bot: bool
    hands: int
    net: int
    per_100: float
    low: float
    high: float


class BotBoard(msgspec.Struct):
    """The game's bots over their hands at tables for bots only, best per 100 hands
    first."""

    game: str
    bots: list[BotRank]
