"""A tournament run by one node of a room of several, played by a player on another.

Two rooms on one database and one Redis (the real bus): node a opens the
sit-and-go, and Ann's socket and HTTP requests are all on node b. She finds
it in b's list, follows it, registers and is refused over b; the news, her
table's frames and her actions pass over the bus; she plays to the end and
is paid. Ledger check after (the autouse fixture).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

import pytest

from tests.server.conftest import Client, Harness, serve
from tests.server.play import play_hand, showdown
from tests.server.test_tournaments import CASH, SETTINGS, ended, finished

pytestmark = pytest.mark.slow


def told(client: Client, kind: str) -> list[dict[str, object]]:
    """The news of ``kind`` the client has heard."""
    return [
        item
        for frame in client.frames
        if frame.get("type") == "tournament"
        for item in frame["news"]
        if item["kind"] == kind
    ]


async def opened_on(a: Harness) -> int:
    """Node a's clock moves until it runs a sit-and-go; its id."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not a.site.room.tournaments.tasks:
        assert loop.time() < deadline, "node a opened no sit-and-go"
        await a.clock.advance(1.0)
        await asyncio.sleep(0.05)
    (tournament,) = a.site.room.tournaments.tasks
    return tournament


async def test_a_player_on_another_node_registers_follows_and_plays(
    db_url: str, redis_bus: tuple[str, str]
) -> None:
    url, prefix = redis_bus
    settings = dataclasses.replace(
        SETTINGS, sit_and_gos=("teen-patti",), sit_and_go_bots_after=1e9, redis_prefix=prefix
    )

    def node(name: str) -> contextlib.AbstractAsyncContextManager[Harness]:
        only = dataclasses.replace(settings, owner=name)
        return serve(db_url, CASH, settings=only, redis_url=url)

    async with node("node-a") as a:
        tournament = await opened_on(a)
        async with node("node-b") as b:
            assert not b.site.room.tournaments.tasks, "node b runs no second sit-and-go"
            ann = await b.player("ann")
            listed = (await ann.http.get("/api/tournaments")).json()["tournaments"]
            (line,) = [t for t in listed if t["id"] == tournament]
            assert line["status"] == "registering" and line["entrants"] == line["seats"] - 1
            # Following it over b: its line at once, from a.
            await ann.send({"type": "watch_tournament", "tournament": tournament})
            first = await ann.wait_for(lambda f: f.get("type") == "tournament", timeout=30)
            assert first["tournament"] == tournament and first["news"] == []
            path = f"/api/tournaments/{tournament}"
            joined = await ann.http.post(f"{path}/register", headers=ann.csrf())
            assert joined.status_code == 200, joined.text
            assert joined.json()["entrants"] == line["seats"]
            assert (await ann.http.get("/api/me")).json()["wallet"] == 10_000 - 110
            # Refused by a, in a's words, over b.
            again = await ann.http.post(f"{path}/register", headers=ann.csrf())
            assert (again.status_code, again.json()["code"]) == (409, "not_registering")
            # Seated by a: the news reaches b, and so does her table.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while not [i for i in told(ann, "seated") if i["player"] == "ann"]:
                assert loop.time() < deadline, "Ann heard no seat"
                await a.clock.advance(1.0)
                await asyncio.sleep(0.05)
            (seated,) = [i for i in told(ann, "seated") if i["player"] == "ann"]
            table = seated["table_id"]
            assert isinstance(table, int) and b.site.room.task(table) is None
            page = (await ann.http.get(path)).json()  # b's page, from the store
            assert table in [t["table_id"] for t in page["tables_open"]]
            mark = len(ann.frames)
            await ann.send({"type": "watch", "table": table})
            await ann.wait_for(
                lambda f: f.get("type") == "snapshot" and f.get("table") == table, after=mark
            )
            await ann.send({"type": "watch", "table": 987_654})
            unknown = await ann.wait_for(lambda f: f.get("type") == "error", after=mark)
            assert (unknown["code"], unknown["table"]) == ("unknown_table", 987_654)
            # She plays every decision, over the bus, until it is over.
            while a.site.room.tournaments.get(tournament) is not None:
                try:
                    await play_hand([ann], table, showdown, timeout=5.0)
                except AssertionError:
                    await a.clock.advance(1.0)  # she is out, or a level passes
            await finished(a, 1)
            await ended(a, tournament)
            await ann.wait_for(lambda f: bool(told(ann, "finished")), timeout=30)
            acted = [f for f in ann.frames if f.get("type") == "ack"]
            assert acted, "Ann's actions were never answered"
            final = (await ann.http.get(path)).json()
            assert final["status"] == "finished"
            (standing,) = [s for s in final["standings"] if s["player"] == "ann"]
            assert standing["place"] is not None
            wallet = (await ann.http.get("/api/me")).json()["wallet"]
            assert wallet == 10_000 - 110 + standing["prize"]
            placed = told(ann, "placed")
            assert len(placed) == line["seats"]


async def test_a_follower_on_another_node_follows_the_tournament_to_its_new_node(
    db_url: str, redis_bus: tuple[str, str]
) -> None:
    """Node a stops; node b takes the sit-and-go over, and its follower hears it from b."""
    url, prefix = redis_bus
    settings = dataclasses.replace(
        SETTINGS,
        sit_and_gos=("razz",),
        sit_and_go_bots_after=1e9,
        redis_prefix=prefix,
        lease_seconds=1.5,
    )
    first = serve(
        db_url, CASH, settings=dataclasses.replace(settings, owner="node-a"), redis_url=url
    )
    a = await first.__aenter__()  # stopped in the middle of the test
    a_room: contextlib.AbstractAsyncContextManager[Harness] | None = first
    try:
        tournament = await opened_on(a)
        async with serve(
            db_url, CASH, settings=dataclasses.replace(settings, owner="node-b"), redis_url=url
        ) as b:
            ann = await b.player("ann")
            await ann.send({"type": "watch_tournament", "tournament": tournament})
            await ann.wait_for(lambda f: f.get("type") == "tournament", timeout=30)
            mark = len(ann.frames)
            assert a_room is not None
            await a_room.__aexit__(None, None, None)
            a_room = None
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 60
            while b.site.room.tournaments.get(tournament) is None:
                assert loop.time() < deadline, "node b never took the sit-and-go over"
                await b.clock.advance(1.0)
                await asyncio.sleep(0.05)
            task = b.site.room.tournaments.get(tournament)
            assert task is not None
            again = await ann.wait_for(lambda f: f.get("type") == "tournament", after=mark)
            assert again["tournament"] == tournament
            assert ann.ws is not None and task.watchers, "Ann follows it on b"
            joined = await ann.http.post(
                f"/api/tournaments/{tournament}/register", headers=ann.csrf()
            )
            assert joined.status_code == 200, joined.text
    finally:
        if a_room is not None:
            await a_room.__aexit__(None, None, None)
