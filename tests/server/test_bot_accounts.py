"""Bot accounts in the room: made over HTTP, signed in with their tokens (HTTP and the
websocket), refused where the rules refuse them, ranked on their own board."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
from typing import Any

import pytest
import websockets

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import play_hand, showdown, sit


async def make_bot(owner: Client, name: str) -> str:
    """``owner`` makes a bot account; its token."""
    made = await owner.http.post("/api/bots", json={"name": name}, headers=owner.csrf())
    assert made.status_code == 201, made.text
    body = made.json()
    assert body["name"] == name and body["bot"] is True
    return str(body["token"])


async def bot_client(room: Harness, name: str, token: str, *, connect: bool = True) -> Client:
    """A client signed in as the bot account of ``token``."""
    client = Client(room.base, name)
    client.signed_in_as_bot(token)
    if connect:
        await client.connect()
    room.clients.append(client)
    return client


async def lobby_lines(client: Client) -> list[dict[str, Any]]:
    """The lobby's lines, over HTTP."""
    answer = (await client.http.get("/api/tables")).json()
    return list(answer["tables"])


async def refused_handshake(room: Harness, headers: dict[str, str]) -> tuple[Any, int | None]:
    """The first message and the close code of a handshake with these headers."""
    url = room.base.replace("http://", "ws://") + "/ws"
    async with websockets.connect(url, additional_headers=headers, open_timeout=30) as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), timeout=30)
        return first, ws.close_code


async def test_a_bots_token_signs_it_in_until_renewed_or_revoked(room: Harness) -> None:
    ann = await room.player("ann")
    bob = await room.player("bob")
    token = await make_bot(ann, "ann_bot")
    listed = (await ann.http.get("/api/bots")).json()
    assert listed["most"] == 5
    assert [(b["name"], b["live_tokens"]) for b in listed["bots"]] == [("ann_bot", 1)]
    assert (await bob.http.get("/api/bots")).json()["bots"] == []

    bot = await bot_client(room, "ann_bot", token)
    me = await bot.http.get("/api/me")
    assert me.status_code == 200, me.text
    assert me.json()["username"] == "ann_bot" and me.json()["bot"] is True
    assert me.json()["wallet"] == 10_000
    hello = await bot.wait_for(lambda f: f.get("type") == "hello")
    assert hello["user"] == "ann_bot"
    # Managing bots is a person's business; the bot's token needs no CSRF header to be heard.
    mine = await bot.http.post("/api/bots", json={"name": "sub_bot"})
    assert mine.status_code == 403 and mine.json()["code"] == "people_only"

    # Bad tokens, and a person's session sent as one: refused by name, never taken for a
    # spectator's.
    person = "Bearer " + ann.http.cookies["ph_session"]
    for header in ("Bearer " + "x" * 43, person, "Bearer", "Bearer a b"):
        answer = await bot.http.get("/api/me", headers={"Authorization": header})
        assert answer.status_code == 401, header
        assert answer.json()["code"] == "bad_token", header
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")
        # Any endpoint: a token is believed or refused, never dropped for a spectator's.
        lobby = await bot.http.get("/api/tables", headers={"Authorization": header})
        assert lobby.status_code == 401 and lobby.json()["code"] == "bad_token", header
    assert (await bot.http.get("/api/tables")).status_code == 200
    # Another scheme's header (a proxy's HTTP Basic) is not the room's: the cookie decides.
    basic = {"Authorization": "Basic YW5uOnB3"}
    assert (await bot.http.get("/api/tables", headers=basic)).status_code == 200
    assert (await bot.http.get("/api/me", headers=basic)).json()["code"] == "login_required"
    assert (await ann.http.get("/api/me", headers=basic)).json()["username"] == "ann"
    first, code = await refused_handshake(room, {"Authorization": person})
    assert first[0]["code"] == "bad_token" and code == 1008
    first, code = await refused_handshake(room, {"Authorization": "Bearer " + "y" * 43})
    assert first[0]["code"] == "bad_token" and code == 1008

    # Names: a bot's ends in _bot and is none of the house's; another's bot is not yours.
    for name, code_wanted in (("plain", "bad_username"), ("Ada_bot", "bad_username")):
        answer = await ann.http.post("/api/bots", json={"name": name}, headers=ann.csrf())
        assert answer.status_code == 400 and answer.json()["code"] == code_wanted, name
    answer = await ann.http.post("/api/bots", json={"name": "ANN_bot"}, headers=ann.csrf())
    assert answer.status_code == 409 and answer.json()["code"] == "username_taken"
    stolen = await bob.http.post("/api/bots/ann_bot/revoke", headers=bob.csrf())
    assert stolen.status_code == 404 and stolen.json()["code"] == "unknown_bot"
    assert (await ann.http.post("/api/bots/ann_bot/token")).status_code == 403  # no CSRF

    # A new token ends the old one, and the socket signed in with it is closed.
    renewed = await ann.http.post("/api/bots/ann_bot/token", headers=ann.csrf())
    assert renewed.status_code == 200 and renewed.json()["ended"] == 1
    await bot.wait_for(lambda f: f.get("code") == "signed_out")
    assert (await bot.http.get("/api/me")).json()["code"] == "bad_token"
    again = await bot_client(room, "ann_bot", renewed.json()["token"], connect=False)
    assert (await again.http.get("/api/me")).status_code == 200
    revoked = await ann.http.post("/api/bots/ann_bot/revoke", headers=ann.csrf())
    assert revoked.json() == {"name": "ann_bot", "ended": 1}
    assert (await again.http.get("/api/me")).status_code == 401

    # At most five bots a player.
    for n in range(2, 6):
        await make_bot(ann, f"ann{n}_bot")
    full = await ann.http.post("/api/bots", json={"name": "ann6_bot"}, headers=ann.csrf())
    assert full.status_code == 409 and full.json()["code"] == "too_many_bots"


async def test_a_token_revoked_from_the_command_line_closes_its_open_sockets(
    room: Harness,
) -> None:
    """The command line ends the tokens in the store and tells no room: the room finds the
    ended session at its next look and closes the socket; a person's socket stays open."""
    ann = await room.player("ann")
    bot = await bot_client(room, "ann_bot", await make_bot(ann, "ann_bot"))
    await bot.wait_for(lambda f: f.get("type") == "hello")
    assert room.site.database_url is not None
    command = [sys.executable, "-m", "pokerhouse", "accounts", "revoke", "ann_bot"]
    done = await asyncio.to_thread(
        subprocess.run,
        [*command, "--database-url", room.site.database_url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    await bot.wait_for(lambda f: f.get("code") == "signed_out", timeout=60)
    assert (await bot.http.get("/api/me")).status_code == 401
    assert not [frame for frame in ann.frames if frame.get("code") == "signed_out"]
    assert (await ann.http.get("/api/me")).json()["username"] == "ann"


KINDS = [
    table("Open", "teen-patti", options={"ante": 1}, seats=3),
    table("People", "3x4", options={"ante": 1, "small_bet": 2}, seats=2, people_only=True),
    table(
        "Bots",
        "razz",
        options={"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
        seats=2,
        bots_only=True,
    ),
]


async def test_bots_sit_where_the_rules_let_them_play_and_are_ranked(db_url: str) -> None:
    async with serve(db_url, KINDS) as room:
        ann = await room.player("ann")
        bob = await room.player("bob")
        ann_bot = await bot_client(room, "ann_bot", await make_bot(ann, "ann_bot"))
        bob_bot = await bot_client(room, "bob_bot", await make_bot(bob, "bob_bot"))
        ann2_bot = await bot_client(room, "ann2_bot", await make_bot(ann, "ann2_bot"))
        open_, people, bots = (room.table_id(n) for n in ("Open", "People", "Bots"))

        async def refused(client: Client, table_id: int, seat: int, code: str) -> None:
            mark = len(client.frames)
            await client.send({"type": "watch", "table": table_id})
            await client.send({"type": "sit", "table": table_id, "seat": seat, "buy_in": 100})
            error = await client.wait_for(lambda f: f.get("type") == "error", after=mark)
            assert error["code"] == code, error

        await refused(ann_bot, people, 0, "people_only")
        await refused(ann, bots, 0, "bots_only")
        lobby = {line["name"]: line for line in await lobby_lines(ann)}
        assert lobby["People"]["people_only"] and lobby["Bots"]["bots_only"]
        assert not lobby["Open"]["people_only"] and not lobby["Open"]["bots_only"]

        # One mind, one seat: a player and her bot, or two of her bots, never at one table.
        await sit(ann, open_, 0)
        await refused(ann_bot, open_, 1, "same_owner")
        await sit(bob_bot, open_, 1)
        for _ in range(2):
            ended = await play_hand([ann, bob_bot], open_, showdown)
            assert ended["type"] == "table_hand_ended"
        mark = len(ann.frames)
        await ann.send({"type": "watch", "table": open_})  # a fresh snapshot
        snapshot = await ann.wait_for(lambda f: f.get("type") == "snapshot", after=mark)
        assert snapshot["view"]["bots"] == [1]  # bob_bot's seat wears the bot badge
        (open_line,) = [line for line in await lobby_lines(ann) if line["name"] == "Open"]
        players = {p["name"]: p["bot"] for p in open_line["players"]}
        assert players == {"ann": False, "bob_bot": True}

        # Bots alone at the bots' table: their hands make the razz board.
        await sit(ann_bot, bots, 0)
        await refused(ann2_bot, bots, 1, "same_owner")
        await sit(bob_bot, bots, 1)
        for _ in range(3):
            await play_hand([ann_bot, bob_bot], bots)
        await room.settle()
        board = (await ann.http.get("/api/leaderboards/bots", params={"game": "razz"})).json()
        lines = {line["name"]: line for line in board["bots"]}
        assert set(lines) == {"ann_bot", "bob_bot"}
        assert all(line["hands"] >= 3 and line["bot"] for line in lines.values())
        assert sum(line["net"] for line in lines.values()) == 0  # no rake at this table
        for line in lines.values():
            assert line["low"] <= line["per_100"] <= line["high"]
        assert board["bots"][0]["per_100"] >= board["bots"][1]["per_100"]
        # The board is the counters the settlements kept: each bot's hands and net there.
        store = room.site.store
        for name, line in lines.items():
            played = [
                hand.result
                for hand in await store.hands.played_by(await store.users.get(name), limit=1000)
                if hand.table_id == bots and hand.result is not None
            ]
            assert (line["hands"], line["net"]) == (len(played), sum(played)), name
        # Fifty asking at once, nothing kept in memory yet: one read of the store.
        book = store.bots
        reads = []
        leaderboard = book.leaderboard

        async def counted(game: str) -> Any:
            reads.append(game)
            await asyncio.sleep(0.05)  # a slow read: everyone arrives while it runs
            return await leaderboard(game)

        book.leaderboard = counted  # type: ignore[method-assign]
        try:
            answers = await asyncio.gather(
                *(ann.http.get("/api/leaderboards/bots", params={"game": "teen-patti"})
                  for _ in range(50))
            )  # fmt: skip
        finally:
            book.leaderboard = leaderboard  # type: ignore[method-assign]
        assert {a.status_code for a in answers} == {200} and reads == ["teen-patti"]
        empty = (await ann.http.get("/api/leaderboards/bots", params={"game": "3x4"})).json()
        assert empty == {"game": "3x4", "bots": []}  # people's hands never count
        bad = await ann.http.get("/api/leaderboards/bots", params={"game": "chess"})
        assert bad.status_code == 400 and bad.json()["code"] == "bad_game"


async def test_a_bot_is_held_to_the_message_rate_a_person_is(db_url: str) -> None:
    settings = dataclasses.replace(
        RoomSettings(registrations_per_hour=1000, sockets_per_address=1000),
        messages_per_second=1.0,
        message_burst=5,
    )
    async with serve(db_url, KINDS[:1], settings=settings) as room:
        ann = await room.player("ann")
        bot = await bot_client(room, "ann_bot", await make_bot(ann, "ann_bot"))
        for _ in range(12):
            await bot.send({"type": "ping"})
        limited = await bot.wait_for(lambda f: f.get("code") == "rate_limited")
        assert limited["type"] == "error"
        pongs = [f for f in bot.frames if f.get("type") == "pong"]
        assert 1 <= len(pongs) <= 7  # the burst, and at most a refill or two


async def test_a_player_and_her_bot_never_play_one_tournament(db_url: str) -> None:
    settings = dataclasses.replace(
        RoomSettings(registrations_per_hour=1000, sockets_per_address=1000),
        sit_and_gos=("teen-patti",),
        sit_and_go_bots_after=1e9,
    )
    async with serve(db_url, KINDS[:1], settings=settings) as room:
        ann = await room.player("ann")
        bob = await room.player("bob")
        ann_bot = await bot_client(room, "ann_bot", await make_bot(ann, "ann_bot"))
        ann2_bot = await bot_client(room, "ann2_bot", await make_bot(ann, "ann2_bot"))
        bob_bot = await bot_client(room, "bob_bot", await make_bot(bob, "bob_bot"))
        listed = (await ann.http.get("/api/tournaments")).json()["tournaments"]
        (line,) = [t for t in listed if t["status"] == "registering"]
        path = f"/api/tournaments/{line['id']}/register"
        assert (await ann_bot.http.post(path)).status_code == 200  # a token needs no CSRF
        for who in (ann, ann2_bot):
            refused = await who.http.post(path, headers=who.csrf())
            assert refused.status_code == 409, refused.text
            assert refused.json()["code"] == "same_owner"
        # The house's bots hold all seats but one: ann_bot's entry filled it, and it started.
        late = await bob_bot.http.post(path)
        assert late.status_code == 409 and late.json()["code"] == "not_registering"
        page = (await bob.http.get(f"/api/tournaments/{line['id']}")).json()
        entered = {s["player"]: s["bot"] for s in page["standings"]}
        assert "ann_bot" in entered and "ann" not in entered and "ann2_bot" not in entered
        assert all(entered.values())  # every entrant a bot, each marked so
