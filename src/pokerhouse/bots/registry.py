"""Bots by name: ``get("random")``, ``get("smart", game="razz")``, ``get("pro", game="3x4")``.

``random`` plays every game at random; ``smart`` is each game's equity bot;
``pro`` each game's reading, sizing, bluffing bot with a style of its own
(Casino Hold'em's is best play, as its ``smart`` one); ``exploiter`` and
``station`` are the fixed strategies bots are measured against
(:mod:`pokerhouse.bots.fixed`).

>>> import random
>>> get("random", rng=random.Random(1)).name
'random'
>>> type(get("smart", game="3x4")).__name__
'ThreeByFourBot'
>>> type(get("pro", game="razz")).__name__
'RazzProBot'
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
from pokerhouse.bots.fixed import ExploiterBot, StationBot
from pokerhouse.bots.pro import RazzProBot, ThreeByFourProBot
from pokerhouse.bots.pro_teen_patti import TeenPattiProBot
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

#: The pro bot of each game (Casino Hold'em: best play, nothing to read or bluff).
PRO_BOTS: dict[str, Callable[..., Bot]] = {
    "3x4": ThreeByFourProBot,
    "razz": RazzProBot,
    "teen-patti": TeenPattiProBot,
    "casino-holdem": CasinoHoldemBot,
}

#: Every bot name :func:`get` knows.
BOT_NAMES = ("random", "smart", "pro", "exploiter", "station")


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
    if key == "exploiter":
        return ExploiterBot(rng=rng, **params)
    if key == "station":
        return StationBot(rng=rng, **params)
    if key in ("smart", "pro"):
        if game is None:
            raise InvalidSpec("game_required", f"the {key} bot plays one game: name it (game=...)")
        info = get_game(game)
        factory = (SMART_BOTS if key == "smart" else PRO_BOTS).get(info.name)
        if factory is None:
            raise InvalidSpec(f"no_{key}_bot", f"there is no {key} bot for {info.title} yet")
        return factory(rng=rng, **params)
    raise InvalidSpec("unknown_bot", f"unknown bot {name!r} (bots: {', '.join(BOT_NAMES)})")
