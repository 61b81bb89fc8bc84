"""One room on several nodes joined by a bus on Redis: any client on any node, any table.

Real ``pokerhouse serve`` processes share one database and one Redis (a key
prefix of the test's own). The first node started runs the table; clients on
the other nodes play and watch it through the bus, and each gets the frames
it would get on the owner itself: the same events under the same sequence
numbers, gapless, and no card it may not see. When the owner dies, another
node takes the table over and its clients' watches follow it there.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import Client, Message
from tests.server.play import decision_of, passive, play_hand, sit
from tests.server.process import RedisServer, ServeProcess, free_port, wait_until
from tests.server.test_crash import own_cards
from tests.server.test_nodes import ROOM, TABLE, check_hand_one, health, play_a_little, players_on

pytestmark = pytest.mark.slow


def bus_config(tmp_path: Path, prefix: str, *more: str) -> Path:
    """The test room's room.toml, its Redis keys under ``prefix`` (``more``: [room] lines)."""
    config = tmp_path / "room.toml"
    lines = "\n".join((f'redis_prefix = "{prefix}"', *more))
    config.write_text(ROOM.replace("[room]", f"[room]\n{lines}"))
    return config


@pytest.fixture
def three(
    db_url: str, redis_bus: tuple[str, str], tmp_path: Path
) -> Iterator[tuple[ServeProcess, ServeProcess, ServeProcess]]:
    """Nodes ``a`` (started first: it runs the table), ``b`` and ``c`` on one bus."""
    url, prefix = redis_bus
    config = bus_config(tmp_path, prefix)
    nodes = tuple(ServeProcess(db_url, config, node=name, redis_url=url) for name in "abc")
    try:
        for node in nodes:
            node.start()
        yield nodes  # type: ignore[misc]
    finally:
        for node in nodes:
            if node.process is not None and node.process.poll() is None:
                node.process.send_signal(signal.SIGCONT)
            node.stop()


async def spectator_on(node: ServeProcess) -> Client:
    """Someone not signed in, watching the table from ``node``."""
    eye = Client(node.base, None)
    await eye.connect()
    await eye.send({"type": "watch", "table": TABLE})
    await eye.wait_for(lambda f: f.get("type") == "snapshot" and f.get("table") == TABLE)
    return eye


def events_after(client: Client, seq: int) -> list[Message]:
    """The client's events of the table after ``seq``."""
    return [frame for frame in client.events(TABLE) if frame["seq"] > seq]


def snapshot_seq(client: Client) -> int:
    """The sequence number of the client's first snapshot of the table."""
    return int(
        next(
            f["seq"]
            for f in client.frames
            if f.get("type") == "snapshot" and f.get("table") == TABLE
        )
    )


def gapless(frames: list[Message], start: int) -> bool:
    """Whether the events run ``start + 1, start + 2, ...`` with none missing or repeated."""
    return [frame["seq"] for frame in frames] == list(range(start + 1, start + 1 + len(frames)))


async def test_clients_on_three_nodes_play_one_table_each_seeing_what_it_would_on_one(
    three: tuple[ServeProcess, ServeProcess, ServeProcess],
) -> None:
    a, b, c = three
    assert health(a)["tables_elsewhere"] == []
    assert health(b)["tables_elsewhere"] == [TABLE] == health(c)["tables_elsewhere"]
    (cat,) = await players_on(c, "bus_cat")
    (dog,) = await players_on(b, "bus_dog")
    eyes = [await spectator_on(node) for node in (a, b, c)]
    start = max(snapshot_seq(eye) for eye in eyes)
    clients: list[Client] = [cat, dog, *eyes]
    try:
        await sit(cat, TABLE, 0, 100)
        await sit(dog, TABLE, 1, 100)
        # Each player's node, which does not run the table, knows its seat (the store's).
        for player, seat in ((cat, 0), (dog, 1)):
            me = (await player.http.get("/api/me")).json()
            assert me["seats"] == [{"table": TABLE, "seat": seat, "stack": 100}], me
        end = await play_hand([cat, dog], TABLE)
        assert end["type"] in ("table_hand_ended", "hand_voided")
        last = max(frame["seq"] for frame in cat.events(TABLE))
        for client in clients:
            await client.wait_for(
                lambda f: f.get("type") == "event" and f.get("seq") == last, timeout=30
            )
        # Every spectator, on every node, got the same frames, gapless, from one point on.
        # (Up to the hand's end: the next hand may be under way already.)
        seen: list[list[Message]] = [
            [f for f in events_after(eye, start) if f["seq"] <= last] for eye in eyes
        ]
        assert seen[0] == seen[1] == seen[2]
        assert gapless(seen[0], start) and seen[0][-1]["seq"] == last
        # The players too (from the snapshot each sat with), and public events alike.
        for player in (cat, dog):
            since = snapshot_seq(player)
            mine = [f for f in events_after(player, since) if f["seq"] <= last]
            assert gapless(mine, since) and mine[-1]["seq"] == last
            theirs = [f for f in events_after(eyes[0], since) if f["seq"] <= last]
            differ = [f for f, s in zip(mine, theirs, strict=True) if f != s]
            # Only the player's own cards differ from what a spectator saw.
            assert differ and all(f["event"]["type"] == "cards_dealt" for f in differ)
        # Each player saw its own cards and not the other's (until shown); the spectators
        # none of them while the hand ran.
        dealt_cat, dealt_dog = own_cards(cat, TABLE, 0), own_cards(dog, TABLE, 1)
        assert all(dealt_cat) and all(dealt_dog)
        assert not any(own_cards(dog, TABLE, 0)) and not any(own_cards(cat, TABLE, 1))
        for eye in eyes:
            assert not any(own_cards(eye, TABLE, 0)) and not any(own_cards(eye, TABLE, 1))
        # Whoever is on the owner's node or not: each frame came once.
        for client in clients:
            acks = [f.get("id") for f in client.frames if f.get("type") == "ack"]
            assert len(acks) == len(set(acks))
        # The lobby on every node shows the hand counted by its owner.
        await wait_until(
            lambda: all(_lobby_line(node)["hands_played"] >= 1 for node in (a, b, c)),
            timeout=30,
            what="every node's lobby line of the table",
        )
    finally:
        for client in clients:
            await client.close()


def _lobby_line(node: ServeProcess) -> dict[str, Any]:
    import httpx

    tables = httpx.get(f"{node.base}/api/tables", timeout=10).json()["tables"]
    line: dict[str, Any] = next(t for t in tables if t["id"] == TABLE)
    return line


async def test_the_owner_killed_mid_hand_another_node_goes_on_and_its_clients_follow(
    three: tuple[ServeProcess, ServeProcess, ServeProcess], db_url: str
) -> None:
    a, b, c = three
    (cat,) = await players_on(b, "bus_cat2")
    (dog,) = await players_on(c, "bus_dog2")
    eye = await spectator_on(c)
    try:
        await play_a_little([cat, dog], actions=2)
        marks = {id(client): len(client.frames) for client in (cat, dog, eye)}
        old_lease = max(frame["seq"] for frame in cat.events(TABLE)) >> 32  # a's
        await asyncio.sleep(2.5)  # the rules' record is kept within a second of a change
        a.kill()
        # b or c takes the table over; the clients on both kept their sockets, and each
        # has the table again (a snapshot, or the events it missed) from its new owner.
        await wait_until(
            lambda: (
                TABLE not in health(b)["tables_elsewhere"]
                or TABLE not in health(c)["tables_elsewhere"]
            ),
            timeout=60,
            what="the table taken over",
        )
        for client in (cat, dog, eye):
            await client.wait_for(
                lambda f: f.get("type") in ("snapshot", "private"), after=marks[id(client)],
                timeout=60,
            )  # fmt: skip
            # The decision under way goes on with the time it had left on a: no fresh
            # 600 s clock (the lease alone lapsed for 6 s of it).
            clock = await client.wait_for(
                lambda f: (
                    f.get("seq", 0) >> 32 != old_lease
                    and (f.get("type") == "clock" or bool(f.get("view", {}).get("clock")))
                ),
                after=marks[id(client)], timeout=60,
            )  # fmt: skip
            limit_ms = (clock if clock["type"] == "clock" else clock["view"]["clock"])["limit_ms"]
            assert limit_ms <= 600_000 - 5_000, clock
        end = await play_hand([cat, dog], TABLE, timeout=120)
        assert end["type"] == "table_hand_ended"
    finally:
        for client in (cat, dog, eye):
            await client.close()
    await check_hand_one(db_url, "bus_cat2", at_least=3)


async def act_once(player: Client) -> bool:
    """Answer the player's pending decision; whether there was one. Answered means an
    ``ack`` or ``error`` for it, or the hand moving on: after a bus failure the events
    are replayed to the player, the answer to its action is not."""
    pending = decision_of(player, TABLE)
    if pending is None:
        return False
    seq, hand, _seat, decision = pending
    ident = player.next_id()
    mark = len(player.frames)
    await player.send(
        {
            "type": "act",
            "table": TABLE,
            "hand": hand,
            "action": passive(decision, player),
            "id": ident,
        }
    )
    await player.wait_for(
        lambda f: f.get("id") == ident or (f.get("type") == "event" and f["seq"] > seq),
        after=mark,
        timeout=60,
    )
    return True


async def play_on(players: list[Client], timeout: float) -> Message:
    """Answer each decision until hand 1 ends, sending again an action that was refused
    (the bus was down): the table's rules refuse one that came twice."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        for player in players:
            for frame in player.events(TABLE):
                if frame["event"] is not None and frame["event"]["type"] == "table_hand_ended":
                    return dict(frame["event"])
        moved = False
        for player in players:
            moved = await act_once(player) or moved
        if not moved:
            await asyncio.sleep(0.05)
    raise AssertionError(f"hand 1 did not end in {timeout} s")


async def test_redis_restarted_mid_hand_the_nodes_reconnect_and_the_hand_goes_on(
    db_url: str, tmp_path: Path
) -> None:
    server = RedisServer(tmp_path)
    server.start()
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    a, b = (ServeProcess(db_url, config, node=name, redis_url=server.url) for name in "ab")
    clients: list[Client] = []
    try:
        a.start()
        b.start()
        (cat,) = await players_on(a, "bus_cat4")
        (dog,) = await players_on(b, "bus_dog4")
        eye = await spectator_on(b)
        clients = [cat, dog, eye]
        await play_a_little([cat, dog], actions=2)
        server.kill()
        # Play on meanwhile: the owner's frames for b, and b's actions for the owner, are lost.
        playing = asyncio.get_running_loop().create_task(play_on([cat, dog], timeout=120))
        await asyncio.sleep(2.0)
        server.start()
        end = await playing
        assert end["type"] == "table_hand_ended"
        # The relayed clients missed nothing in the end: every event of the hand, once each,
        # in order (the owner stayed: what the bus lost was replayed, not snapshotted).
        last = max(frame["seq"] for frame in cat.events(TABLE))
        for client in (dog, eye):
            await client.wait_for(
                lambda f: f.get("type") == "event" and f.get("seq") == last, timeout=60
            )
            since = snapshot_seq(client)
            assert gapless(events_after(client, since), since)
    finally:
        for client in clients:
            await client.close()
        for node in (a, b):
            node.stop()
        server.kill()
    await check_hand_one(db_url, "bus_cat4", at_least=3)


async def test_two_nodes_share_one_port_and_a_player_plays_on_whichever_it_reaches(
    db_url: str, redis_bus: tuple[str, str], tmp_path: Path
) -> None:
    url, prefix = redis_bus
    config = bus_config(tmp_path, prefix)
    port = free_port()
    a, b = (
        ServeProcess(db_url, config, port=port, node=name, redis_url=url, reuse_port=True)
        for name in "ab"
    )
    players: list[Client] = []
    try:
        a.start()
        b.start()
        # The kernel spreads new connections over both: each answers some (b's start may
        # have been answered by a: it is up once it answers too).
        answered: set[str] = set()
        await wait_until(
            lambda: answered.add(health(a)["node"]) or answered == {"a", "b"},
            timeout=60,
            what="both nodes answering on the shared port",
        )
        players = await players_on(a, "port_cat", "port_dog")
        for seat, player in enumerate(players):
            await sit(player, TABLE, seat, 100)
        end = await play_hand(players, TABLE)
        assert end["type"] == "table_hand_ended"
    finally:
        for player in players:
            await player.close()
        for node in (a, b):
            node.stop()


def remote_watchers(node: ServeProcess) -> float:
    """The node's ``pokerhouse_remote_watchers`` gauge."""
    import httpx

    for line in httpx.get(f"{node.base}/metrics", timeout=10).text.splitlines():
        if line.startswith("pokerhouse_remote_watchers "):
            return float(line.split()[1])
    raise AssertionError("no pokerhouse_remote_watchers in /metrics")


async def test_the_owner_drops_the_watchers_of_a_node_that_died(
    db_url: str, redis_bus: tuple[str, str], tmp_path: Path
) -> None:
    url, prefix = redis_bus
    config = bus_config(tmp_path, prefix, "metrics = true")
    a, b, c = (ServeProcess(db_url, config, node=name, redis_url=url) for name in "abc")
    clients: list[Client] = []
    try:
        for node in (a, b, c):
            node.start()
        (dog,) = await players_on(c, "gone_dog")
        clients = [dog, await spectator_on(c), await spectator_on(b)]
        await sit(dog, TABLE, 0, 100)
        await wait_until(lambda: remote_watchers(a) == 3, timeout=30, what="three relayed")
        # c dies without a word: a stops sending to (and counting as present) its two
        # watchers once c's sign of life lapses (two leases), and keeps b's.
        c.kill()
        await wait_until(lambda: remote_watchers(a) == 1, timeout=90, what="c's dropped")
        # b's spectator still gets the table: the dog, no longer present, is sat out
        # between hands (RULES.md, Disconnection) or the table goes on without it.
        assert health(a)["tables_elsewhere"] == []
    finally:
        for client in clients:
            await client.close()
        for node in (a, b, c):
            node.stop()


async def test_a_logout_on_one_node_closes_the_sessions_sockets_on_every_node(
    three: tuple[ServeProcess, ServeProcess, ServeProcess],
) -> None:
    a, b, c = three
    (ann,) = await players_on(a, "bus_ann")
    (other,) = await players_on(b, "bus_other")  # another session: left open
    elsewhere = []
    for node in (b, c):
        client = Client(node.base, ann.name)
        client.http.cookies = ann.http.cookies
        await client.connect()
        await client.wait_for(lambda f: f.get("type") == "hello" and f.get("user") == ann.name)
        elsewhere.append(client)
    try:
        response = await ann.http.post("/api/logout", headers=ann.csrf())
        assert response.status_code == 200
        for client in (ann, *elsewhere):
            error = await client.wait_for(lambda f: f.get("type") == "error", timeout=30)
            assert error["code"] == "signed_out"
            await asyncio.wait_for(client._reader, timeout=30)  # type: ignore[arg-type]
            assert client.ws is not None and client.ws.close_code == 1008
        # The other player's socket on b stays open and answers.
        await other.send({"type": "watch", "table": TABLE})
        await other.wait_for(lambda f: f.get("type") == "snapshot", timeout=30)
        # The ended session opens nothing on any node.
        for node in (a, b, c):
            late = Client(node.base, ann.name)
            late.http.cookies = ann.http.cookies
            await late.connect()
            hello = await late.wait_for(lambda f: f.get("type") == "hello", timeout=30)
            assert hello["user"] is None
            await late.close()
    finally:
        for client in (ann, other, *elsewhere):
            await client.close()


async def test_failed_logins_count_once_for_the_room_whichever_node_they_reach(
    three: tuple[ServeProcess, ServeProcess, ServeProcess],
) -> None:
    a, b, c = three
    (ann,) = await players_on(a, "bus_guessed")
    await ann.close()
    # Nine wrong guesses spread over three nodes, each waiting out the back-off it is told
    # of: a node counting alone would have three, under the five an account has free, and
    # ask for no wait; one count for the room asks for 1, 2 and 4 s after the 6th to 8th.
    failures, waits, turn = 0, [], 0
    while failures < 9:
        node = (a, b, c)[turn % 3]
        turn += 1
        response = await login_on(node, ann.name, f"wrong guess {turn}")
        if response.status_code == 429:
            waits.append(int(response.headers["Retry-After"]))
            await asyncio.sleep(waits[-1])
            continue
        assert response.status_code == 401, response.text
        failures += 1
    # (Fewer or shorter on a slow machine, if a request arrives late in a wait.)
    assert len(waits) >= 2 and all(1 <= wait <= 4 for wait in waits), waits
    for node in (a, b, c):
        # The right password too must wait now (up to 2 ** 4 s after the last failure).
        response = await login_on(node, ann.name, "correct horse battery")
        assert response.status_code == 429, response.text
        assert response.json()["code"] == "rate_limited"


async def login_on(node: ServeProcess, username: str, password: str) -> Any:
    """A login over HTTP on ``node``, from a fresh client."""
    async with httpx.AsyncClient(base_url=node.base, timeout=30) as http:
        csrf = (await http.get("/api/csrf")).json()["csrf"]
        return await http.post(
            "/api/login",
            json={"username": username, "password": password},
            headers={"X-CSRF-Token": csrf},
        )


def runs(node: ServeProcess, tables: int) -> int:
    """How many of the room's ``tables`` ``node`` runs."""
    return tables - len(health(node)["tables_elsewhere"])


async def test_nodes_that_join_draw_their_share_of_the_tables_and_a_stopped_ones_are_taken(
    db_url: str, redis_bus: tuple[str, str], tmp_path: Path
) -> None:
    url, prefix = redis_bus
    config = bus_config(tmp_path, prefix)
    table = ROOM[ROOM.index("[[tables]]") :]
    config.write_text(
        config.read_text()
        + "".join(table.replace("3x4 nodes", f"3x4 nodes {n}") for n in range(2, 7))
    )
    a, b, c = (ServeProcess(db_url, config, node=name, redis_url=url) for name in "abc")
    try:
        a.start()
        assert runs(a, 6) == 6  # the first node up runs every table
        ann, bob = await players_on(a, "spread_ann", "spread_bob")
        b.start()
        c.start()
        await wait_until(
            lambda: [runs(node, 6) for node in (a, b, c)] == [2, 2, 2],
            timeout=120,
            what="two tables on each node",
        )
        # A hand on a table that moved: its players play on, wherever their sockets are.
        moved = health(a)["tables_elsewhere"][0]
        for seat, player in enumerate((ann, bob)):
            await sit(player, moved, seat, 100)
        end = await play_hand([ann, bob], moved, timeout=120)
        assert end["type"] == "table_hand_ended"
        c.stop()  # its two tables go to a and b, one each
        await wait_until(
            lambda: [runs(node, 6) for node in (a, b)] == [3, 3],
            timeout=120,
            what="three tables on each of a and b",
        )
        await ann.close()
        await bob.close()
    finally:
        for node in (a, b, c):
            node.stop()
