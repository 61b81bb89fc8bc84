"""The house bots' few words: phrases at a table that allows them, nothing where it is off.

Each test ends with ``ledger check`` (the autouse fixture).
"""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.table.bot_chat import PHRASES, QUIET_SECONDS
from tests.server.conftest import serve, table

pytestmark = pytest.mark.slow

SETTINGS = RoomSettings(bot_think=(0.0, 0.0), hand_pause=0.0)
RAZZ = {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}


async def test_bots_chat_in_phrases_where_the_table_allows_it(db_url: str) -> None:
    tables = [
        table("Chatty", "razz", options=RAZZ, seats=4, bots=3),
        table("Quiet", "razz", options=RAZZ, seats=4, bots=3, bot_chat=False),
    ]
    async with serve(db_url, tables, settings=dataclasses.replace(SETTINGS)) as harness:
        ids = {line["name"]: line["id"] for line in harness.site.room.lobby()}
        watcher = await harness.spectator()
        for table_id in ids.values():
            await watcher.send({"type": "watch", "table": table_id})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 240
        said: list[dict[str, object]] = []
        while len(said) < 2:
            assert loop.time() < deadline, f"the bots said {said} in four minutes"
            # Each step of the clock lets the table's bots speak again.
            await harness.clock.advance(QUIET_SECONDS)
            await asyncio.sleep(0.2)
            said = [f for f in watcher.frames if f.get("type") == "chat"]
        assert {line["table"] for line in said} == {ids["Chatty"]}
        bots = {p["name"] for p in harness.site.room.lobby()[0]["players"]} | {
            p["name"] for p in harness.site.room.lobby()[1]["players"]
        }
        for line in said:
            assert line["phrase"] in PHRASES and line["text"] == PHRASES[str(line["phrase"])]
            assert line["user"] in bots or str(line["user"]).endswith("_bot")
        snapshot = next(
            f for f in watcher.frames if f.get("type") == "snapshot" and f["table"] == ids["Quiet"]
        )
        assert snapshot["view"]["table"]["bot_chat"] is False
