"""A real ``pokerhouse serve`` for the client's tests: one table per game, and bot accounts."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from pokerhouse.store import Store
from tests.server.process import ServeProcess

#: One table per game with no house bots (table ids 1 to 4 in this order), and one for people.
ROOM = """
[room]
hand_pause = 0.0
bots_pause = 0.0
bot_think = [0.0, 0.0]
window_seconds = 3

[[tables]]
name = "3x4"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 200

[[tables]]
name = "Razz"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 200

[[tables]]
name = "Teen Patti"
game = "teen-patti"
options = { ante = 1 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 200

[[tables]]
name = "Casino Hold'em"
game = "casino-holdem"
options = { min_ante = 1, max_ante = 10 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 200

[[tables]]
name = "People"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
people_only = true
"""

GAME_TABLES = {"3x4": 1, "razz": 2, "teen-patti": 3, "casino-holdem": 4}
PEOPLE_TABLE = 5


async def bot_tokens(database_url: str, names: list[str]) -> dict[str, str]:
    """Bot accounts made in the store, as ``pokerhouse accounts create NAME --bot`` does."""
    store = await Store.open(database_url)
    try:
        return {name: (await store.bots.create(name))[1] for name in names}
    finally:
        await store.close()


@asynccontextmanager
async def serving(database_url: str, folder: Path) -> AsyncIterator[ServeProcess]:
    """The room of :data:`ROOM` running, stopped afterwards."""
    config = folder / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(database_url, config)
    server.start()
    try:
        yield server
    finally:
        server.stop()
