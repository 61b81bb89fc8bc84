"""Private tables (RULES.md, "Home games"): a host opens one, friends come by the link, the
host approves, pauses, removes and closes; strangers never find it; the session ledger
matches the books to the chip. Every test ends with the ledger check (``db_url``)."""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import AsyncIterator
from typing import Any

import pytest

from pokerhouse.server.private.policy import IDLE_CLOSE
from pokerhouse.store import Account
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import play_hand, sit

NEW_TABLE = {
    "name": "Friday 3x4",
    "game": "3x4",
    "options": {"ante": 1, "small_bet": 2},
    "seats": 4,
    "min_buy_in": 20,
    "max_buy_in": 500,
    "approve_seats": True,
    "password": "river-rat",
}


@pytest.fixture
async def room(db_url: str) -> AsyncIterator[Harness]:
    public = table("Public 3x4", "3x4", options={"ante": 1, "small_bet": 2})
    async with serve(db_url, [public]) as harness:
        yield harness


async def post(client: Client, path: str, body: dict[str, Any] | None = None) -> Any:
    return await client.http.post(path, json=body or {}, headers=client.csrf())


async def opened(host: Client, **changes: Any) -> tuple[int, str]:
    answer = await post(host, "/api/private-tables", {**NEW_TABLE, **changes})
    assert answer.status_code == 201, answer.text
    body = answer.json()
    return body["id"], body["invitation"]


async def hosting(host: Client, table_id: int, op: str, user: str | None = None) -> dict[str, Any]:
    """Send a host's ``op`` and wait for the table's next ``home`` message."""
    mark = len(host.frames)
    message: dict[str, Any] = {"type": "host", "table": table_id, "op": op}
    if user is not None:
        message["user"] = user
    await host.send(message)
    frame = await host.wait_for(
        lambda f: f.get("table") == table_id and f.get("type") in ("home", "error"), after=mark
    )
    assert frame["type"] == "home", frame
    return frame


async def wait_for_hand(room: Harness, table_id: int) -> None:
    """Wait until the table is dealing a hand (the next one starts as the last ends)."""
    task = room.site.room.tasks[table_id]
    for _ in range(500):
        if task.table.hand is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"table {table_id} dealt no hand")


async def refused(client: Client, message: dict[str, Any]) -> str:
    """The code of the error ``message`` is answered with."""
    mark = len(client.frames)
    await client.send(message)
    frame = await client.wait_for(lambda f: f.get("type") == "error", after=mark)
    return str(frame["code"])


async def test_a_home_game_from_the_link_to_the_close(room: Harness) -> None:
    ann, bob, cid, eve = [await room.player(name) for name in ("ann", "bob", "cid", "eve")]
    table_id, token = await opened(ann)

    # Not in the lobby; a stranger can neither watch it nor read it nor guess the link.
    lobby = (await eve.http.get("/api/tables")).json()["tables"]
    assert table_id not in [line["id"] for line in lobby] and lobby
    # A stranger hears of no such table, whatever they send: as of one that does not exist.
    for message in (
        {"type": "watch", "table": table_id},
        {"type": "chat", "table": table_id, "text": "let me in"},
        {"type": "sit", "table": table_id, "seat": 0, "buy_in": 100},
        {"type": "leave", "table": table_id},
        {"type": "host", "table": table_id, "op": "pause"},
    ):
        assert await refused(eve, message) == "unknown_table", message
    taken = await post(eve, "/api/private-tables", {**NEW_TABLE, "password": None})
    assert taken.status_code == 201  # the same name: a private table's name is its host's
    assert (await eve.http.get(f"/api/private-tables/{table_id}")).status_code == 404
    assert (await eve.http.get(f"/api/private-tables/{table_id}/ledger")).status_code == 404
    forged = {"token": f"{token[:-2]}xx", "password": "river-rat"}
    wrong = await post(eve, "/api/invitations/join", forged)
    assert (wrong.status_code, wrong.json()["code"]) == (404, "not_invited")
    guess = await post(eve, "/api/invitations/join", {"token": token, "password": "lake-rat"})
    assert (guess.status_code, guess.json()["code"]) == (403, "wrong_password")

    # Friends come by the link and ask to sit; the host sees them and approves.
    invited = (await post(bob, "/api/invitations/look", {"token": token})).json()
    assert (invited["host"], invited["password"], invited["approve_seats"]) == ("ann", True, True)
    for friend in (bob, cid):
        come = {"token": token, "password": "river-rat"}
        joined = await post(friend, "/api/invitations/join", come)
        assert joined.json() == {"table": table_id, "status": "asked"}
    await bob.send({"type": "watch", "table": table_id})
    assert (
        await refused(bob, {"type": "sit", "table": table_id, "seat": 1, "buy_in": 200})
        == "not_approved"
    )
    state = (await ann.http.get(f"/api/private-tables/{table_id}")).json()
    assert state["guests"] == [
        {"name": "bob", "status": "asked"},
        {"name": "cid", "status": "asked"},
    ]
    await ann.send({"type": "watch", "table": table_id})
    for friend in ("bob", "cid"):
        await hosting(ann, table_id, "approve", friend)
    assert await refused(bob, {"type": "host", "table": table_id, "op": "pause"}) == "not_host"
    # The host lets in only those who came by the link.
    let_in = {"type": "host", "table": table_id, "op": "approve", "user": "eve"}
    assert await refused(ann, let_in) == "not_asked"
    await sit(bob, table_id, 1, 200)
    await sit(cid, table_id, 2, 200)
    for _ in range(2):
        await play_hand([bob, cid], table_id)

    # The host, watching, is a spectator: no face-down card ever reached them (RULES.md,
    # "Home games": the host never sees a card the rules would hide from them).
    dealt = [f["event"] for f in ann.events(table_id) if (f["event"] or {}).get("type") ==
             "cards_dealt"]  # fmt: skip
    assert dealt and all(
        card is None for event in dealt for card, up in zip(event["cards"], event["face_up"],
        strict=True) if not up
    )  # fmt: skip
    assert not [f for f in ann.frames if f.get("type") == "private" and f.get("mine")]

    # Paused: the hand in play ends, and no other is dealt until the host deals again.
    home = await hosting(ann, table_id, "pause")
    assert (home["host"], home["paused"], home["closing"]) == ("ann", True, False)
    await play_hand([bob, cid], table_id)
    await room.settle()
    task = room.site.room.tasks[table_id]
    played = task.table.hands_played
    await room.clock.advance(30)
    await room.settle()
    assert task.table.hand is None and task.table.hands_played == played
    assert (await hosting(ann, table_id, "resume"))["paused"] is False
    await play_hand([bob, cid], table_id)

    # Removed mid-hand: the hand is played out (the host never takes it from a guest:
    # RULES.md, "Home games"), then cashed out, and kept out after.
    await wait_for_hand(room, table_id)
    store = room.site.store
    cid_id = (await store.users.get("cid")).id
    hand_number = task.table.hand_number
    await hosting(ann, table_id, "remove", "cid")
    await hosting(ann, table_id, "remove", "cid")  # twice: nothing more to do, no refusal
    assert task.table.seats_of_account(cid_id) and task.table.hand_number == hand_number
    ended = await play_hand([bob, cid], table_id)  # cid still plays, and is answered
    assert ended["type"] == "table_hand_ended"
    folded = [f for f in cid.events(table_id) if (f["event"] or {}).get("type") == "action_taken"
              and (f["event"].get("action") or {}).get("kind") == "fold"]  # fmt: skip
    assert folded == []  # nobody folded cid's hand for them
    await room.settle()
    await room.clock.advance(5)
    await room.settle()
    assert task.table.seats_of_account(cid_id) == frozenset()
    # Removed: put out of the table's stream once the hand is over, and hears of it no more.
    await cid.wait_for(lambda f: f.get("type") == "error" and f.get("code") == "removed")
    assert (
        await refused(cid, {"type": "sit", "table": table_id, "seat": 2, "buy_in": 200})
        == "unknown_table"
    )
    assert (await cid.http.get(f"/api/private-tables/{table_id}/ledger")).status_code == 404

    # Private play counts in its players' own stats, not in what others read of them,
    # and on no leaderboard.
    (mine,) = await store.stats.player(await store.users.get("bob"))
    assert mine.hands >= 5
    assert [g["game"] for g in (await bob.http.get("/api/me/stats")).json()["games"]] == ["3x4"]
    assert (await eve.http.get("/api/players/bob/stats")).json()["games"] == []
    assert await store.stats.board("3x4", store.stats.this_week(), least=1) == []

    # Its hands' histories are for those at the table: a stranger hears of no such hand.
    hand = next(h for h in (await bob.http.get("/api/me/hands")).json()["hands"] if h["result"]
                is not None)  # fmt: skip
    assert (await bob.http.get(f"/api/hands/{hand['id']}")).status_code == 200
    assert (await ann.http.get(f"/api/hands/{hand['id']}")).status_code == 200
    for path in (f"/api/hands/{hand['id']}", f"/api/hands/{hand['id']}/equity"):
        stranger = await eve.http.get(path)
        assert (stranger.status_code, stranger.json()["code"]) == (404, "unknown_hand"), path

    # The session ledger: what the books say, to the chip, in JSON and in CSV.
    await check_ledger(room, bob, table_id, {"bob": 200, "cid": 200})

    # Closed: every stack cashed out, the table closed to everyone.
    home = await hosting(ann, table_id, "close")
    assert home["closing"] is True
    await room.clock.advance(5)
    await room.settle()
    final = await bob.wait_for(
        lambda f: f.get("type") == "home" and f.get("table") == table_id and f.get("closed")
    )
    assert final["closed"] is True
    for name in ("bob", "cid"):
        user = (await store.users.get(name)).id
        assert await store.ledger.balance(Account.in_play(table_id, user)) == 0
    late = await post(eve, "/api/invitations/join", {"token": token, "password": "river-rat"})
    assert late.json()["code"] == "table_closed"
    lines = (await bob.http.get(f"/api/private-tables/{table_id}/ledger")).json()["players"]
    assert all(line["stack"] == 0 and line["end"] is not None for line in lines)


async def check_ledger(
    room: Harness, viewer: Client, table_id: int, bought: dict[str, int]
) -> None:
    """The session ledger equals the books: buy-ins made, in-play balances, net = results."""
    await room.settle()
    store = room.site.store
    lines = (await viewer.http.get(f"/api/private-tables/{table_id}/ledger")).json()["players"]
    by_name = {line["username"]: line for line in lines}
    assert set(by_name) == set(bought)
    for name, amount in bought.items():
        line = by_name[name]
        user = await store.users.get(name)
        results = [
            hand.result
            for hand in await store.hands.played_by(user, limit=1000)
            if hand.table_id == table_id and hand.result is not None
        ]
        assert line["buy_in"] == amount
        assert line["stack"] == await store.ledger.balance(Account.in_play(table_id, user.id))
        assert line["net"] == sum(results)
        assert line["buy_out"] == line["buy_in"] + line["net"] - line["stack"]
    text = (await viewer.http.get(f"/api/private-tables/{table_id}/ledger?format=csv")).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [row["player_nickname"] for row in rows] == [line["username"] for line in lines]
    for row, line in zip(rows, lines, strict=True):
        assert int(row["player_id"]) == line["user_id"]
        for column in ("buy_in", "buy_out", "stack", "net"):
            assert int(row[column]) == line[column], column


async def test_a_table_nobody_sits_at_for_an_hour_closes_itself(room: Harness) -> None:
    ann = await room.player("ann")
    table_id, _ = await opened(ann, approve_seats=False, password=None)
    await ann.send({"type": "watch", "table": table_id})
    await room.settle()
    await room.clock.advance(IDLE_CLOSE / 2)
    await room.settle()
    assert not (await ann.http.get(f"/api/private-tables/{table_id}")).json()["closed"]
    await room.clock.advance(IDLE_CLOSE / 2 + 10)
    await room.settle()
    frame = await ann.wait_for(lambda f: f.get("type") == "home" and f.get("closed"))
    assert frame["table"] == table_id
    assert (await ann.http.get(f"/api/private-tables/{table_id}")).json()["closed"] is True


async def test_opening_a_private_table_is_checked(room: Harness) -> None:
    ann = await room.player("ann")
    for change, status, code in [
        ({"game": "go-fish"}, 400, "bad_table"),
        ({"max_buy_in": 10**8}, 400, "over_limit"),
        ({"bots": 4}, 400, "over_limit"),
        ({"password": "abc"}, 400, "bad_request"),
        ({"seats": 0}, 400, "bad_request"),
        ({"options": {"ante": 3, "small_bet": 6}}, 400, "over_limit"),
        ({"game": "casino-holdem", "options": {"max_payout": 10**9}}, 400, "over_limit"),
    ]:
        answer = await post(ann, "/api/private-tables", {**NEW_TABLE, **change})
        assert (answer.status_code, answer.json()["code"]) == (status, code), change
    for number in range(3):
        made = await post(ann, "/api/private-tables", {**NEW_TABLE, "name": f"Game {number}"})
        assert made.status_code == 201
    answer = await post(ann, "/api/private-tables", {**NEW_TABLE, "name": "Game 4"})
    assert (answer.status_code, answer.json()["code"]) == (409, "too_many_tables")
    signed_out = await room.spectator()
    answer = await signed_out.http.post("/api/private-tables", json=NEW_TABLE)
    assert answer.status_code == 403  # no CSRF cookie: refused before anything else
    ann_id = (await room.site.store.users.get("ann")).id
    assert len(await room.site.store.private.tables_of(ann_id)) == 3
