"""Tournaments in a running room: real table tasks, the real store, websockets.

Each test ends with ``ledger check`` on the room's database (the autouse
fixture), which reconciles every entry, empties every ended pool and counts
the chips at the tournaments' tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import Callable
from typing import cast

import pytest

from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.table.inputs import Directed, Input
from pokerhouse.server.table.task import TableTask
from pokerhouse.server.tournaments.policy import Report, TournamentPolicy
from pokerhouse.store import EntryRecord, Store
from pokerhouse.store.accounts import FEES
from pokerhouse.tournament import HandReport, Structure, TournamentSpec, prizes
from pokerhouse.tournament.orders import Deal
from tests.conftest import FAST_HASHER
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import decision_of, passive, play_hand, showdown

pytestmark = pytest.mark.slow

SETTINGS = RoomSettings(
    bot_think=(0.0, 0.0),
    hand_pause=0.0,
    retry_seconds=0.2,
    registrations_per_hour=100_000,
    sockets_per_address=100_000,
    hashes_per_address=100_000,
    database_seconds=60.0,
    lease_seconds=300.0,
    sit_and_go_bots_after=0.0,
    sit_and_go_structure="hyper",
)

#: A cash table for the room to have one (the tournaments bring their own).
RAZZ = {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4}
CASH = [table("Razz cash", "razz", options=RAZZ)]


async def finished(harness: Harness, count: int, timeout: float = 300.0) -> list[int]:
    """Move the room's clock on until ``count`` tournaments have finished; their ids."""
    store = harness.site.services.store
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        done = await store.tournaments.find(["finished"])
        if len(done) >= count:
            return [record.id for record in done]
        assert loop.time() < deadline, f"{len(done)} of {count} tournaments finished"
        await harness.clock.advance(1.0)
        await asyncio.sleep(0.05)


async def ended(harness: Harness, tournament: int, timeout: float = 60.0) -> None:
    """Wait until the room has carried out the tournament's last orders (its task is done:
    the store says finished as soon as the last step is saved, before that)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while harness.site.room.tournaments.get(tournament) is not None:
        assert loop.time() < deadline, f"tournament {tournament}'s task never ended"
        await asyncio.sleep(0.05)


def assert_places(entries: list[EntryRecord], count: int) -> None:
    """Every entry has a place; entries tied for a place cover the places below it."""
    places = [entry.place for entry in entries]
    assert len(places) == count and None not in places
    expected = 1
    for place in sorted({p for p in places if p is not None}):
        tied = places.count(place)
        assert place == expected and all(e.tied == tied for e in entries if e.place == place)
        expected += tied
    assert expected == count + 1


async def report_twice(harness: Harness) -> list[HandReport]:
    """Once the first sit-and-go has its tables, make them report every hand twice (as a
    catch-up does when it looks before the table's own report is read); what they sent."""
    doubled: list[HandReport] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120
    tables: list[TableTask] = []
    while not tables:
        assert loop.time() < deadline, "no sit-and-go started"
        for task in harness.site.room.tournaments.tasks.values():
            tables.extend(task.tables.values())
        await harness.clock.advance(0.1)
        await asyncio.sleep(0.01)
    for table_task in tables:
        policy = cast(TournamentPolicy, table_task.policy)

        def twice(number: int, ended: HandReport, report: Report = policy.report) -> None:
            report(number, ended)
            report(number, ended)
            doubled.append(ended)

        policy.report = twice
    return doubled


async def test_a_deal_lost_on_its_way_to_the_table_is_made_good(db_url: str) -> None:
    """A table that drops the director's order to deal (its future answered, the hand
    never dealt) is seen idle while its hand is awaited, and is dealt again."""
    settings = dataclasses.replace(SETTINGS, sit_and_gos=("teen-patti",))
    async with serve(db_url, CASH, settings=settings) as harness:
        doubled = await report_twice(harness)  # the tables have opened
        dropped: list[Directed] = []
        (task,) = [t for t in harness.site.room.tournaments.tasks.values() if t.tables]
        for table_task in task.tables.values():
            post = table_task.post

            def drop_one_deal(item: Input, post: Callable[[Input], None] = post) -> None:
                if isinstance(item, Directed) and isinstance(item.order, Deal) and not dropped:
                    dropped.append(item)
                    item.done.set_result(None)  # as if carried out
                    return
                post(item)

            table_task.post = drop_one_deal  # type: ignore[method-assign]
        store = harness.site.services.store
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 300
        while (await store.tournaments.get(task.id)).status != "finished":
            assert loop.time() < deadline, f"tournament {task.id} never finished"
            await harness.clock.advance(1.0)
            await asyncio.sleep(0.05)
        done = task.id
        await ended(harness, done)
        assert dropped and doubled
        entries = await store.tournaments.entries(done)
        record = await store.tournaments.get(done)
        assert_places(entries, record.spec.seats)
    async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
        assert (await store.check()).ok


@pytest.mark.parametrize("game", ["3x4", "teen-patti"])  # Razz: the multi-table test below
async def test_a_sit_and_go_of_bots_plays_to_the_end(db_url: str, game: str) -> None:
    """Its tables report every hand twice: the second of each is refused as stale."""
    settings = dataclasses.replace(SETTINGS, sit_and_gos=(game,))
    async with serve(db_url, CASH, settings=settings) as harness:
        doubled = await report_twice(harness)
        (done,) = (await finished(harness, 1))[:1]
        await ended(harness, done)
        store = harness.site.services.store
        entries = await store.tournaments.entries(done)
        record = await store.tournaments.get(done)
        assert_places(entries, record.spec.seats)
        assert sum(e.prize for e in entries) == record.spec.buy_in * record.spec.seats
        assert await store.balance(record.pool) == 0
        assert doubled and [sent.hand for sent in doubled] == list(
            range(doubled[0].hand or 0, len(doubled) + (doubled[0].hand or 0))
        )
        # Another one opened as soon as this one filled (with bots joining at once it may
        # have filled, and even finished, by now).
        assert [t for t in await store.tournaments.find() if t.id != done]
        lobby = harness.site.room.lobby()
        assert [line["name"] for line in lobby] == ["Razz cash"]
    async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
        assert await store.balance(FEES) >= 10 * record.spec.seats
        assert (await store.check()).ok


async def test_a_player_registers_plays_and_is_paid_over_http_and_websockets(
    db_url: str,
) -> None:
    settings = dataclasses.replace(SETTINGS, sit_and_gos=("teen-patti",), sit_and_go_bots_after=1e9)
    async with serve(db_url, CASH, settings=settings) as harness:
        ann = await harness.player("ann")
        listed = (await ann.http.get("/api/tournaments")).json()["tournaments"]
        (line,) = [t for t in listed if t["status"] == "registering"]
        assert line["game"] == "teen-patti" and line["entrants"] == line["seats"] - 1
        path = f"/api/tournaments/{line['id']}"
        # Following the tournament: its line at once, then the news as it happens.
        await ann.send({"type": "watch_tournament", "tournament": line["id"]})
        first = await ann.wait_for(lambda f: f.get("type") == "tournament")
        assert first["line"]["entrants"] == line["entrants"] and first["news"] == []
        refused = await ann.http.post(f"{path}/register")
        assert refused.status_code == 403 and refused.json()["code"] == "csrf"
        joined = await ann.http.post(f"{path}/register", headers=ann.csrf())
        assert joined.status_code == 200, joined.text
        page = joined.json()
        assert page["status"] == "running" and page["entrants"] == page["seats"]
        assert (await ann.http.get("/api/me")).json()["wallet"] == 10_000 - 110
        for again, code in (("register", "not_registering"), ("unregister", "not_registering")):
            answer = await ann.http.post(f"{path}/{again}", headers=ann.csrf())
            assert (answer.status_code, answer.json()["code"]) == (409, code)
        missing = await ann.http.post("/api/tournaments/999999/register", headers=ann.csrf())
        assert (missing.status_code, missing.json()["code"]) == (404, "unknown_tournament")
        (mine,) = [s for s in page["standings"] if s["player"] == "ann"]
        (where,) = [t for t in page["tables_open"] if t["number"] == mine["table"]]
        table = where["table_id"]
        told = [
            item
            for frame in ann.frames
            if frame.get("type") == "tournament"
            for item in frame["news"]
        ]
        kinds = {item["kind"] for item in told}
        assert {"started", "registration_closed", "seated"} <= kinds
        (seated,) = [i for i in told if i["kind"] == "seated" and i["player"] == "ann"]
        assert seated["table_id"] == table
        # The table is the tournament's: nobody takes or leaves a seat by asking.
        mark = len(ann.frames)
        await ann.send({"type": "watch", "table": table})
        await ann.send({"type": "leave", "table": table})
        error = await ann.wait_for(lambda f: f.get("type") == "error", after=mark)
        assert error["code"] == "tournament_table"
        # Ann plays every decision she is offered until the tournament is over.
        store = harness.site.services.store
        while (await store.tournaments.get(line["id"])).status == "running":
            if harness.site.room.tournaments.get(line["id"]) is None:
                break
            try:
                await play_hand([ann], table, showdown, timeout=5.0)
            except AssertionError:
                await harness.clock.advance(1.0)  # she is out, or the clock moves a level on
        (done,) = await finished(harness, 1)
        assert done == line["id"]
        await ended(harness, done)
        await ann.wait_for(
            lambda f: (
                f.get("type") == "tournament"
                and any(item["kind"] == "finished" for item in f["news"])
            )
        )
        final = (await ann.http.get(path)).json()
        assert final["status"] == "finished"
        (standing,) = [s for s in final["standings"] if s["player"] == "ann"]
        assert standing["place"] is not None
        # The house's bots filled the seats: each marked a bot, and Ann not.
        assert {s["player"]: s["bot"] for s in final["standings"]} == {
            s["player"]: s["player"] != "ann" for s in final["standings"]
        }
        wallet = (await ann.http.get("/api/me")).json()["wallet"]
        assert wallet == 10_000 - 110 + standing["prize"]
        told = [f for f in ann.frames if f.get("type") == "tournament"]
        placed = [i for f in told for i in f["news"] if i["kind"] == "placed"]
        assert {i["player"] for i in placed} >= {"ann"} and len(placed) == line["seats"]
        assert told[-1]["news"][-1] == {"kind": "finished"}
        assert line["id"] not in [
            t["id"]
            for t in (await ann.http.get("/api/tournaments?status=running")).json()["tournaments"]
        ]
        assert (await ann.http.get("/api/tournaments?status=paused")).status_code == 400


async def play_through(
    harness: Harness, people: list[Client], tournament: int, timeout: float = 900.0
) -> None:
    """The people play every decision they are offered, following themselves from table
    to table by the tournament's page, until it is over; the clock moves a second a turn
    (breaks pass, and a person who does not answer in time has the clock act)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    watching: dict[str, int] = {}
    acted: set[tuple[str, int, int]] = set()
    path = f"/api/tournaments/{tournament}"
    while True:
        page = (await people[0].http.get(path)).json()
        if page["status"] != "running":
            return
        assert loop.time() < deadline, f"tournament {tournament} still running"
        tables = {t["number"]: t["table_id"] for t in page["tables_open"]}
        for person in people:
            (mine,) = [s for s in page["standings"] if s["player"] == person.name]
            table = tables.get(mine["table"]) if not mine["busted"] else None
            if table is None:
                continue
            if watching.get(str(person.name)) != table:
                watching[str(person.name)] = table
                await person.send({"type": "watch", "table": table})
            pending = decision_of(person, table)
            if pending is None or (str(person.name), pending[0], pending[1]) in acted:
                continue
            seq, hand, _, decision = pending
            acted.add((str(person.name), seq, hand))
            action = passive(decision, person)
            message = {"type": "act", "table": table, "hand": hand, "action": action}
            await person.send({**message, "id": person.next_id()})
        seated_as_they_are(harness, tournament)
        await harness.clock.advance(1.0)
        await asyncio.sleep(0.05)


def seated_as_they_are(harness: Harness, tournament: int) -> None:
    """Every tournament table knows who holds each of its seats, and plays its bots itself
    (a player seated or moved by the director is no stranger to the table: a bot that was
    not known as one would wait out every decision's clock)."""
    task = harness.site.room.tournaments.get(tournament)
    if task is None:
        return
    for table_task in task.tables.values():
        if not table_task.available or table_task.busy:
            continue
        occupied = set(table_task.table.occupied)
        assert set(table_task.users) == occupied, (table_task.id, table_task.users, occupied)
        bots = {seat for seat, user in table_task.users.items() if user.is_bot and not user.api_bot}
        assert set(table_task.bots.seats) == bots, (table_task.id, table_task.bots.seats, bots)


async def test_a_multi_table_tournament_of_bots_and_people_to_the_final_table(
    db_url: str,
) -> None:
    """62 entrants at eight tables of Razz, levels of three hands, a break every three levels:
    players move, tables break, the bubble is dealt hand for hand, one table is left.

    A hand that busts two players at once may jump the bubble (then no hand for hand is
    due): up to three tournaments are played until one comes to it.
    """
    structure = Structure(
        "razz", (4, 6, 8, 12, 16, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960, 1280),
        level_seconds=None, level_hands=3, break_every=3, break_seconds=30, starting_stack=300,
    )  # fmt: skip
    spec = TournamentSpec(
        "Evening Razz", "razz", "scheduled", structure, buy_in=100, fee=10, seats=8,
        min_entrants=2,
    )  # fmt: skip
    async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
        records = [
            await store.tournaments.create(spec, starts_at=time.time() + 3600) for _ in range(3)
        ]
        bots = [await store.create_user(f"mtt_bot{i}", None, bot=True) for i in range(60)]
    async with serve(db_url, CASH, settings=SETTINGS) as harness:
        people = [await harness.player("ann"), await harness.player("bob")]
        wallets = {str(person.name): 10_000 for person in people}
        bubbles = 0
        for played, record in enumerate(records, start=1):
            task = harness.site.room.tournaments.get(record.id)
            assert task is not None
            for bot in bots:
                await task.register(bot)
            path = f"/api/tournaments/{record.id}"
            for person in people:
                joined = await person.http.post(f"{path}/register", headers=person.csrf())
                assert joined.status_code == 200, joined.text
            # Unregistering gives it back; registering again pays again.
            bob = people[1]
            back = await bob.http.post(f"{path}/unregister", headers=bob.csrf())
            assert back.status_code == 200 and back.json()["entrants"] == 61
            assert (await bob.http.get("/api/me")).json()["wallet"] == wallets["bob"]
            again = await bob.http.post(f"{path}/register", headers=bob.csrf())
            assert again.json()["entrants"] == 62
            assert (await task.start_now()).status == "running"
            page = (await people[0].http.get(path)).json()
            assert page["tables"] == 8 and page["prizes"] == list(prizes(62 * 100, 62))
            await play_through(harness, people, record.id)
            await finished(harness, played)
            await ended(harness, record.id)
            state = task.director.state
            assert state.status == "finished" and state.moves > 0 and state.broken == 7
            assert task.seen["BreakStarted"] >= 1 and task.seen["LevelUp"] >= 3
            assert state.hands > 60 and task.seen["Placed"] == 62
            final = (await people[0].http.get(path)).json()
            for person in people:
                (mine,) = [s for s in final["standings"] if s["player"] == person.name]
                wallets[str(person.name)] += mine["prize"] - 110
                wallet = (await person.http.get("/api/me")).json()["wallet"]
                assert mine["place"] is not None and wallet == wallets[str(person.name)]
            assert sum(s["prize"] for s in final["standings"]) == 6_200
            bubbles += task.seen["HandForHand"] >= 1
            if bubbles:
                break
        assert bubbles, "three tournaments, and none came to the bubble with two tables"


async def test_two_nodes_on_one_database_run_each_tournament_once(db_url: str) -> None:
    """Each tournament is leased to one node; when that node stops, the other carries it on."""
    settings = dataclasses.replace(
        SETTINGS, sit_and_gos=("razz",), sit_and_go_bots_after=1e9, lease_seconds=1.5
    )
    rooms: dict[str, contextlib.AbstractAsyncContextManager[Harness]] = {
        name: serve(db_url, CASH, settings=dataclasses.replace(settings, owner=name))
        for name in ("node-a", "node-b")
    }
    a = await rooms["node-a"].__aenter__()
    b = await rooms["node-b"].__aenter__()
    running = {"node-a": a, "node-b": b}
    try:
        store = a.site.services.store
        for _ in range(3):  # both look after the sit-and-gos a few times
            await a.clock.advance(1.0)
            await b.clock.advance(1.0)
        registering = await store.tournaments.find(["registering"])
        assert [r.spec.game for r in registering] == ["razz"]
        (sng,) = registering
        runners = [n for n, room in running.items() if room.site.room.tournaments.get(sng.id)]
        assert len(runners) == 1
        # The runner's bots entered; the other node put none in.
        assert len((await store.tournaments.get(sng.id)).state().entries) == 7
        # The runner stops (giving its lease up): the other takes the sit-and-go over.
        (runner,) = runners
        await rooms[runner].__aexit__(None, None, None)
        del running[runner]
        (other,) = running.values()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while (task := other.site.room.tournaments.get(sng.id)) is None:
            assert loop.time() < deadline, "the other node never took the sit-and-go over"
            await other.clock.advance(1.0)
            await asyncio.sleep(0.05)
        assert len(task.director.entries) == 7
    finally:
        for name in list(running):
            await rooms[name].__aexit__(None, None, None)
