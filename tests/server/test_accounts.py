"""Accounts under attack: guessing, stolen and stale tokens, forged requests, floods.

The server sees the address a request comes from: a client bound to
127.0.0.2 is "another address" than one on 127.0.0.1 (both loopback).
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import sit

PASSWORD = "correct horse battery"


def from_address(room: Harness, address: str) -> httpx.AsyncClient:
    """An HTTP client whose requests come from ``address``."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=room.base, timeout=30, transport=transport)


async def login(http: httpx.AsyncClient, username: str, password: str) -> httpx.Response:
    csrf = http.cookies.get("ph_csrf") or (await http.get("/api/csrf")).json()["csrf"]
    return await http.post(
        "/api/login",
        json={"username": username, "password": password},
        headers={"X-CSRF-Token": csrf},
    )


@pytest.fixture
async def quiet(db_url: str) -> AsyncIterator[Harness]:
    """A room whose one table looks for players rarely: its clock can leap days cheaply."""
    settings = RoomSettings(
        bot_think=(0.0, 0.0), hand_pause=0.0, idle_seconds=10**7, registrations_per_hour=1000
    )
    async with serve(db_url, [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})],
                     settings=settings) as harness:  # fmt: skip
        yield harness


async def test_a_thousand_guesses_get_nowhere_and_the_owner_gets_back_in(quiet: Harness) -> None:
    room = quiet
    await room.player("carol")
    thief = from_address(room, "127.0.0.2")
    # Hammering without waiting: after the free tries every guess is refused unchecked.
    statuses = [(await login(thief, "carol", f"guess {n}")).status_code for n in range(200)]
    assert 200 not in statuses
    assert statuses.count(401) <= 6 and statuses[-1] == 429
    # A patient thief waits out every back-off: the room's clock says what that costs.
    started = room.clock.now()
    checked = statuses.count(401)
    for n in range(200, 1000):
        response = await login(thief, "carol", f"guess {n}")
        assert response.status_code in (401, 429), response.text
        if response.status_code == 429:
            wait = int(response.headers["Retry-After"])
            assert 1 <= wait <= 901 and response.json()["code"] == "rate_limited"
            await room.clock.advance(wait)
        else:
            checked += 1
    days = (room.clock.now() - started) / 86_400
    assert checked < 500 and days > 2, (checked, days)
    # The owner, who knows the password, is held back only while the account's window lasts:
    # at most 15 minutes after the last wrong guess, from any address.
    owner = from_address(room, "127.0.0.1")
    held = await login(owner, "carol", PASSWORD)
    if held.status_code == 429:
        assert int(held.headers["Retry-After"]) <= 901
        await room.clock.advance(int(held.headers["Retry-After"]))
    assert (await login(owner, "CAROL", PASSWORD)).status_code == 200
    print(f"brute force: 1000 guesses, {checked} checked, {days:.1f} days of back-off")
    await thief.aclose()
    await owner.aclose()


async def test_guessing_many_accounts_from_one_address_stops_that_address_only(
    room: Harness,
) -> None:
    await room.player("dana")
    spray = from_address(room, "127.0.0.2")
    statuses = [(await login(spray, f"user{n}", "password1")).status_code for n in range(40)]
    assert statuses[:30] == [401] * 30 and set(statuses[31:]) == {429}
    # The address is throttled, the accounts are not: dana logs in from elsewhere at once.
    elsewhere = from_address(room, "127.0.0.1")
    assert (await login(elsewhere, "dana", PASSWORD)).status_code == 200
    assert (await login(spray, "dana", PASSWORD)).status_code == 429
    await spray.aclose()
    await elsewhere.aclose()


async def test_tokens_are_random_rotated_at_login_and_dead_after_logout(room: Harness) -> None:
    ann = await room.player("erin")
    first = ann.http.cookies["ph_session"]
    # 256 random bits, URL-safe; twenty logins give twenty different tokens.
    assert len(first) >= 43 and math.log2(64) * len(first) >= 256
    tokens = {first}
    for _ in range(20):
        assert (await login(ann.http, "erin", PASSWORD)).status_code == 200
        tokens.add(ann.http.cookies["ph_session"])
    assert len(tokens) == 21
    # Every replaced token is dead: a thief holding one gets nothing.
    for token in [first, *sorted(tokens - {ann.http.cookies["ph_session"]})[:3]]:
        stolen = httpx.AsyncClient(base_url=room.base, cookies={"ph_session": token})
        assert (await stolen.get("/api/me")).status_code == 401
        await stolen.aclose()
    # Logout ends the session on the server, not just in this browser.
    current = ann.http.cookies["ph_session"]
    csrf = ann.http.cookies["ph_csrf"]
    assert (await ann.http.post("/api/logout", headers={"X-CSRF-Token": csrf})).status_code == 200
    replay = httpx.AsyncClient(base_url=room.base, cookies={"ph_session": current})
    assert (await replay.get("/api/me")).status_code == 401
    await replay.aclose()
    url = room.base.replace("http://", "ws://") + "/ws"
    async with websockets.connect(
        url, additional_headers={"Cookie": f"ph_session={current}"}, open_timeout=30
    ) as ws:
        assert json.loads(await ws.recv()) == [{"type": "hello", "user": None}]


async def test_logout_closes_the_sockets_of_that_session(room: Harness) -> None:
    ann = await room.player()
    table_id = room.table_id("3x4")
    await sit(ann, table_id, 0, 100)
    second = Client(room.base, ann.name)
    second.http.cookies.update(ann.http.cookies)
    await second.connect()
    await second.wait_for(lambda f: f.get("type") == "hello" and f.get("user") == ann.name)
    csrf = ann.http.cookies["ph_csrf"]
    assert (await ann.http.post("/api/logout", headers={"X-CSRF-Token": csrf})).status_code == 200
    for client in (ann, second):
        error = await client.wait_for(lambda f: f.get("type") == "error")
        assert error["code"] == "signed_out"
        await asyncio.wait_for(client._reader, timeout=30)  # type: ignore[arg-type]
        assert client.ws.close_code == 1008
    await second.close()


async def test_cookies_are_httponly_samesite_and_csrf_guards_every_change(room: Harness) -> None:
    ann = await room.player("frank")
    http = from_address(room, "127.0.0.1")
    response = await login(http, "frank", PASSWORD)
    cookies = {c.split("=")[0]: c for c in response.headers.get_list("set-cookie")}
    assert "HttpOnly" in cookies["ph_session"] and "SameSite=lax" in cookies["ph_session"]
    # The CSRF cookie must be readable by the page (that is the double submit) but never
    # sent by another site's request.
    assert "HttpOnly" not in cookies["ph_csrf"] and "SameSite=strict" in cookies["ph_csrf"]
    for path in ("/api/logout", "/api/me/top-up", "/api/login", "/api/register"):
        body = {"username": "frank", "password": PASSWORD}
        bare = await ann.http.post(path, json=body)
        assert (bare.status_code, bare.json()["code"]) == (403, "csrf"), path
        forged = await ann.http.post(
            path,
            json=body,
            headers={**ann.csrf(), "Origin": "https://evil.example"},
        )
        assert (forged.status_code, forged.json()["code"]) == (403, "bad_origin"), path
    # None of it did anything: the session is alive.
    assert (await ann.http.get("/api/me")).json()["username"] == "frank"
    await http.aclose()


@pytest.mark.parametrize(
    "origin", ["https://evil.example", "null", "http://127.0.0.1:1", "https://127.0.0.1"]
)
async def test_websocket_handshakes_from_elsewhere_are_refused(room: Harness, origin: str) -> None:
    ann = await room.player()
    url = room.base.replace("http://", "ws://") + "/ws"
    cookie = f"ph_session={ann.http.cookies['ph_session']}"
    if origin == "https://127.0.0.1":
        origin = room.base.replace("http://", "https://")  # this host, the wrong scheme
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(
            url,
            origin=origin,  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie},
            open_timeout=30,
        )
    assert refused.value.response.status_code == 403


async def test_registrations_are_limited_per_address(db_url: str) -> None:
    settings = RoomSettings(bot_think=(0.0, 0.0), hand_pause=0.0, registrations_per_hour=3)
    # The sign-ups are counted in the database, on the store's clock.
    now = [time.time()]
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]
    clock = {"clock": lambda: now[0]}
    async with serve(db_url, tables, settings=settings, store_options=clock) as room:
        codes = []
        for n in range(5):
            http = from_address(room, "127.0.0.2")
            csrf = (await http.get("/api/csrf")).json()["csrf"]
            response = await http.post(
                "/api/register",
                json={"username": f"new{n}", "password": PASSWORD},
                headers={"X-CSRF-Token": csrf},
            )
            codes.append(response.status_code)
            await http.aclose()
        assert codes == [201, 201, 201, 429, 429]
        # Another address is not held back; an hour later this one may open accounts again.
        other = Client(room.base, "fromelsewhere")
        await other.register()
        await other.http.aclose()
        now[0] += 3601  # any hour holds at most three
        http = from_address(room, "127.0.0.2")
        csrf = (await http.get("/api/csrf")).json()["csrf"]
        again = await http.post(
            "/api/register",
            json={"username": "new9", "password": PASSWORD},
            headers={"X-CSRF-Token": csrf},
        )
        assert again.status_code == 201
        await http.aclose()
