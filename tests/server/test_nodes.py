"""Several ``serve`` nodes on one database: each table run by one of them, under its lease.

Two real ``pokerhouse serve`` processes, ``--node a`` and ``--node b``, share
one database. The first to start runs the table; the other waits with it
unloaded. When the owner is killed, the other takes the table over once the
lease lapses and the hand goes on from its log; when the owner is frozen past
its lease and thawed, its writes are refused by the fencing token and it
gives the table up for good.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerhouse.history.replay import replay
from pokerhouse.store import Store
from tests.server.conftest import Client
from tests.server.play import decision_of, passive, play_hand, sit
from tests.server.process import ServeProcess, wait_until
from tests.server.test_crash import act, own_cards

# Leases of 6 s, renewed every 2 s: a loaded machine's stall of a few seconds does not
# lose one, and a dead node's tables move within 8 s.
ROOM = """
[room]
hand_pause = 0.0
bot_think = [0.0, 0.0]
lease_seconds = 6

[[tables]]
name = "3x4 nodes"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 600
"""
TABLE = 1


def health(node: ServeProcess) -> dict[str, Any]:
    """The node's ``/healthz`` answer."""
    body: dict[str, Any] = httpx.get(f"{node.base}/healthz", timeout=10).json()
    return body


@pytest.fixture
def nodes(db_url: str, tmp_path: Path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Nodes ``a`` (started first: it runs the table) and ``b`` on one database."""
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    a = ServeProcess(db_url, config, node="a")
    b = ServeProcess(db_url, config, node="b")
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        for node in (a, b):
            if node.process is not None and node.process.poll() is None:
                node.process.send_signal(signal.SIGCONT)
            node.stop()


async def players_on(node: ServeProcess, *names: str) -> list[Client]:
    """Registered players with open websockets on ``node``."""
    clients = [Client(node.base, name) for name in names]
    for client in clients:
        await client.register()
        await client.connect()
    return clients


async def moved_to(node: ServeProcess, players: list[Client]) -> list[Client]:
    """The same players (same sessions) on ``node``, watching the table: once it runs
    there, each has its snapshot."""
    moved = []
    for player in players:
        client = Client(node.base, player.name)
        client.http.cookies = player.http.cookies
        await client.connect()
        await client.send({"type": "watch", "table": TABLE})
        moved.append(client)
    for client in moved:
        await client.wait_for(lambda f: f.get("type") == "snapshot", timeout=60)
    return moved


async def play_a_little(players: list[Client], actions: int) -> None:
    """Sit both, then take ``actions`` decisions of hand 1."""
    for seat, client in enumerate(players):
        await sit(client, TABLE, seat, 100)
    for client in players:
        await client.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
    acted = 0
    deadline = asyncio.get_running_loop().time() + 60
    while acted < actions:
        assert asyncio.get_running_loop().time() < deadline, "no decision came"
        moved = 0
        for client in players:
            moved += await act(client, TABLE)
        if not moved:
            await asyncio.sleep(0.05)
        acted += moved


async def check_hand_one(db_url: str, name: str, at_least: int) -> None:
    """Hand 1 is finished, its history replays to its results, with ``at_least`` actions."""
    store = await Store.open(db_url, upgrade=False)
    try:
        hands = await store.user_hands(await store.get_user(name), limit=10)
        first = next(hand for hand in hands if hand.number == 1)
        record = await store.get_hand(first.id)
        assert record.status == "finished" and record.history is not None
        replayed = replay(record.history)
        assert len(replayed.actions) >= at_least
        assert list(replayed.results()) == list(record.results or ())
    finally:
        await store.close()


@pytest.mark.slow
async def test_the_first_node_runs_the_table_and_the_other_waits_until_it_stops(
    nodes: tuple[ServeProcess, ServeProcess], db_url: str
) -> None:
    a, b = nodes
    assert health(a)["node"] == "a" and health(a)["tables_elsewhere"] == []
    assert health(b)["node"] == "b" and health(b)["tables_elsewhere"] == [TABLE]
    # Asked on the node that does not run it, the table says so, and nothing changes.
    (cat,) = await players_on(b, "nodes_cat")
    try:
        mark = len(cat.frames)
        await cat.send({"type": "sit", "table": TABLE, "seat": 0, "buy_in": 100})
        refused = await cat.wait_for(lambda f: f.get("type") == "error", after=mark)
        assert refused["code"] == "table_moved" and refused["table"] == TABLE
    finally:
        await cat.close()
    assert health(b)["tables_elsewhere"] == [TABLE]
    store = await Store.open(db_url, upgrade=False)
    try:
        assert await store.seats(TABLE) == []
    finally:
        await store.close()
    # Stopped, a gives its lease up; b takes the table at its next look.
    a.stop()
    await wait_until(lambda: health(b)["tables_elsewhere"] == [], 30, "b takes the table")
    assert health(b)["tables_available"] == 1


@pytest.mark.slow
async def test_a_killed_nodes_hand_goes_on_at_the_other_node(
    nodes: tuple[ServeProcess, ServeProcess], db_url: str
) -> None:
    a, b = nodes
    players = await players_on(a, "kill_ann", "kill_bob")
    moved: list[Client] = []
    try:
        await play_a_little(players, 3)
        cards = {seat: own_cards(client, TABLE, seat) for seat, client in enumerate(players)}
        a.kill()
        # The lease lapses (6 s) and node b, looking every 2 s, takes the table over.
        moved = await moved_to(b, players)
        assert health(b)["tables_elsewhere"] == []
        for seat, client in enumerate(moved):
            view = [f for f in client.frames if f.get("type") == "snapshot"][-1]["view"]
            assert view["hand"]["number"] == 1
            assert view["seats"][seat]["cards"] == cards[seat]
            assert not any(view["seats"][1 - seat]["cards"])
        ended = await play_hand(moved, TABLE)
        assert ended["number"] == 1 and sum(ended["net"]) == 0
    finally:
        for client in [*players, *moved]:
            await client.close()
    await check_hand_one(db_url, "kill_ann", 3)


@pytest.mark.slow
async def test_a_frozen_owner_thawed_is_fenced_off_and_gives_the_table_up(
    nodes: tuple[ServeProcess, ServeProcess], db_url: str
) -> None:
    a, b = nodes
    players = await players_on(a, "stop_ann", "stop_bob")
    moved: list[Client] = []
    try:
        await play_a_little(players, 2)
        assert a.process is not None
        a.process.send_signal(signal.SIGSTOP)
        moved = await moved_to(b, players)
        # One action at b under its new lease, then a wakes up with its old one.
        acted = [await act(client, TABLE) for client in moved]
        assert acted.count(True) >= 1, "nobody had a decision at b"
        stale = [(client, decision_of(client, TABLE)) for client in players]
        a.process.send_signal(signal.SIGCONT)
        # Whoever held a decision at a answers it there: never taken (a's lease is gone).
        sent = []
        for client, pending in stale:
            if pending is not None:
                _, hand, _, decision = pending
                ident = client.next_id()
                sent.append((client, ident))
                await client.send(
                    {
                        "type": "act",
                        "table": TABLE,
                        "hand": hand,
                        "action": passive(decision, client),
                        "id": ident,
                    }
                )
        for client, ident in sent:
            answer = await client.wait_for(lambda f, i=ident: f.get("id") == i)  # type: ignore[misc]
            assert answer["type"] == "error" and answer["code"] == "table_moved", answer
        for client in players:
            await client.wait_for(
                lambda f: f.get("type") == "error" and f.get("code") == "table_moved"
            )
        await wait_until(
            lambda: health(a)["tables_elsewhere"] == [TABLE], 30, "node a gives the table up"
        )
        assert "lease lost" in a.log.read_text()
        ended = await play_hand(moved, TABLE)
        assert ended["number"] == 1 and sum(ended["net"]) == 0
        # Three lease periods on, a has not taken it back: b renews it.
        await asyncio.sleep(12)
        assert health(a)["tables_elsewhere"] == [TABLE]
        assert health(b)["tables_elsewhere"] == []
    finally:
        for client in [*players, *moved]:
            await client.close()
    await check_hand_one(db_url, "stop_ann", 3)


@pytest.mark.slow
async def test_a_private_table_opened_on_a_killed_node_goes_on_at_the_other(
    nodes: tuple[ServeProcess, ServeProcess], db_url: str
) -> None:
    """Node b learns of a private table node a opened after both started, waits with it,
    and takes it over when a dies: the guests play on at b, their standing kept."""
    a, b = nodes
    host, guest = await players_on(a, "home_ann", "home_bob")
    moved: list[Client] = []
    known = health(b)["tables"]
    try:
        made = await host.http.post(
            "/api/private-tables",
            json={"name": "Nodes home game", "game": "3x4", "options": {"ante": 1, "small_bet": 2},
                  "seats": 2, "min_buy_in": 20, "max_buy_in": 500},
            headers=host.csrf(),
        )  # fmt: skip
        assert made.status_code == 201, made.text
        table, token = made.json()["id"], made.json()["invitation"]
        joined = await guest.http.post(
            "/api/invitations/join", json={"token": token}, headers=guest.csrf()
        )
        assert joined.json()["status"] == "approved"
        await wait_until(
            # Counted, never named: a private table's id is its guests' business.
            lambda: health(b)["tables"] == known + 1,
            30,
            "b learns of the new table",
        )
        a.kill()
        moved = []
        for player in (host, guest):
            client = Client(b.base, player.name)
            client.http.cookies = player.http.cookies
            await client.connect()
            moved.append(client)
        deadline = asyncio.get_running_loop().time() + 60
        while True:  # refused (table_moved) until b's lease round takes the table
            mark = len(moved[1].frames)
            await moved[1].send({"type": "watch", "table": table})
            found = await moved[1].wait_for(
                lambda f: f.get("table") == table and f.get("type") in ("snapshot", "error"),
                after=mark,
            )
            if found["type"] == "snapshot":
                break
            assert asyncio.get_running_loop().time() < deadline, found
            await asyncio.sleep(1)
        for seat, client in enumerate(moved):
            await sit(client, table, seat, 100)
        ended = await play_hand(moved, table)
        assert ended["number"] == 1 and sum(ended["net"]) == 0
    finally:
        for client in [host, guest, *moved]:
            await client.close()
