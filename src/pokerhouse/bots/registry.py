"""Bots by name: ``get("random")``, ``get("smart", game="razz")``.

>>> import random
>>> get("random", rng=random.Random(1)).name
'random'
>>> type(get("smart", game="3x4")).__name__
'ThreeByFourBot'
>>> get("smart")
Traceback (most recent call last):
...
pokerhouse.errors.InvalidSpec: the smart bot plays one game: name it (game=...)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from pokerhouse.bots.base import Bot
from pokerhouse.bots.casino_holdem import CasinoHoldemBot
from pokerhouse.bots.random_bot import RandomBot
from pokerhouse.bots.razz import RazzBot
from pokerhouse.bots.teen_patti import TeenPattiBot
from pokerhouse.bots.three_by_four import ThreeByFourBot
from pokerhouse.errors import InvalidSpec
from pokerhouse.games import get_game

#: The sensible bot of each game, by the game's registry name.
SMART_BOTS: dict[str, Callable[..., Bot]] = {
    "3x4": ThreeByFourBot,
    "razz": RazzBot,
    "teen-patti": TeenPattiBot,
    "casino-holdem": CasinoHoldemBot,
}

#: Every bot name :func:`get` knows.
BOT_NAMES = ("random", "smart")


def register_smart(game: str, factory: Callable[..., Bot]) -> None:
    """Make ``factory(rng=..., **params)`` the smart bot for ``game``."""
    SMART_BOTS[game] = factory


def get(
    name: str, *, game: str | None = None, rng: random.Random | None = None, **params: Any
) -> Bot:
    """A new bot called ``name`` (``random`` or ``smart``) for ``game``.

    ``params`` go to the bot's constructor (``fold=0.2`` for a random bot).
    """
    key = name.strip().lower()
    if key == "random":
        return RandomBot(rng=rng, **params)
    if key == "smart":
        if game is None:
            raise InvalidSpec("game_required", "the smart bot plays one game: name it (game=...)")
        info = get_game(game)
        factory = SMART_BOTS.get(info.name)
        if factory is None:
            raise InvalidSpec("no_smart_bot", f"there is no smart bot for {info.title} yet")
        return factory(rng=rng, **params)
    raise InvalidSpec("unknown_bot", f"unknown bot {name!r} (bots: {', '.join(BOT_NAMES)})")
