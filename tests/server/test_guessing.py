"""Password guessing against a real room: concurrent guesses, other spellings, floods of hashes.

The server sees the address a request comes from: a client bound to
127.0.0.2 is "another address" than one on 127.0.0.1 (both loopback), so
a test can spread guesses over many addresses as a botnet would.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import Harness, serve, table
from tests.server.process import wait_until

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


async def register(http: httpx.AsyncClient, username: str) -> httpx.Response:
    csrf = http.cookies.get("ph_csrf") or (await http.get("/api/csrf")).json()["csrf"]
    return await http.post(
        "/api/register",
        json={"username": username, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf},
    )


SETTINGS = RoomSettings(
    bot_think=(0.0, 0.0), hand_pause=0.0, idle_seconds=10**7, registrations_per_hour=1000
)


@pytest.fixture
async def quiet(db_url: str) -> AsyncIterator[Harness]:
    """A room whose one table looks for players rarely."""
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]
    async with serve(db_url, tables, settings=SETTINGS) as harness:
        yield harness


async def test_concurrent_guesses_are_counted_before_the_hash(quiet: Harness) -> None:
    """40 guesses at once from 40 addresses: only the account's budget is checked, not 40."""
    room = quiet
    await room.player("carol")
    clients = [from_address(room, f"127.0.0.{n + 2}") for n in range(40)]
    for client in clients:  # each has its CSRF cookie first, so the guesses go out together
        await client.get("/api/csrf")
    answers = await asyncio.gather(
        *(login(client, "carol", f"guess {n}") for n, client in enumerate(clients))
    )
    statuses = [answer.status_code for answer in answers]
    assert 200 not in statuses
    # Five free failures, and the sixth that sets the back-off: every other one is refused
    # unchecked, with a Retry-After.
    assert statuses.count(401) <= 6, statuses
    refused = [answer for answer in answers if answer.status_code == 429]
    assert refused and all(int(a.headers["Retry-After"]) >= 1 for a in refused)
    assert {a.json()["code"] for a in refused} == {"rate_limited"}
    # A success clears the account's count: the owner, once the back-off has run out.
    await room.clock.advance(1000)
    owner = from_address(room, "127.0.0.1")
    assert (await login(owner, "carol", PASSWORD)).status_code == 200
    assert (await login(owner, "carol", "wrong again")).status_code == 401
    for client in [*clients, owner]:
        await client.aclose()


async def test_every_spelling_of_a_name_shares_one_budget(quiet: Harness) -> None:
    """Fullwidth and mathematical letters name the same account: they get no fresh guesses."""
    room = quiet
    await room.player("carol")
    first = from_address(room, "127.0.0.2")
    statuses = [(await login(first, "carol", f"guess {n}")).status_code for n in range(6)]
    assert statuses == [401] * 6
    spellings = ["ｃａｒｏｌ", "𝐜𝐚𝐫𝐨𝐥", "𝕔𝕒𝕣𝕠𝕝", "CAROL", "ｃａｒｏｌ"]
    for n, spelling in enumerate(spellings):
        other = from_address(room, f"127.0.1.{n + 1}")  # a fresh address each time
        answer = await login(other, spelling, f"guess {n}")
        assert answer.status_code == 429, (spelling, answer.text)
        await other.aclose()
    # Once the back-off runs out, the owner logs in under any spelling.
    await room.clock.advance(1000)
    owner = from_address(room, "127.0.0.1")
    assert (await login(owner, "𝐜𝐚𝐫𝐨𝐥", PASSWORD)).status_code == 200
    await first.aclose()
    await owner.aclose()


async def test_sign_up_refuses_every_spelling_of_a_taken_name(quiet: Harness) -> None:
    room = quiet
    http = from_address(room, "127.0.0.1")
    assert (await register(http, "Julie")).status_code == 201
    for twin in ["julie", "JULIE", "Ｊｕｌｉｅ", "𝐉𝐮𝐥𝐢𝐞", "𝕁𝕦𝕝𝕚𝕖"]:
        other = from_address(room, "127.0.0.1")
        answer = await register(other, twin)
        assert (answer.status_code, answer.json()["code"]) == (409, "username_taken"), twin
        await other.aclose()
    await http.aclose()


class WatchedHasher(PasswordHasher):
    """A real argon2id hasher, slow enough to queue on, that notes which password each
    check was for, in the order the checks started (checks run in worker threads), and
    how many checks of unknown users (an empty password) ran at once at most."""

    def __init__(self) -> None:
        super().__init__(time_cost=3, memory_cost=16384, parallelism=1)
        self.started: list[str] = []
        self.most_bogus_at_once = 0
        self._bogus_now = 0
        self._lock = threading.Lock()

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        text = password if isinstance(password, str) else password.decode()
        with self._lock:
            self.started.append(text)
            if text == "":
                self._bogus_now += 1
                self.most_bogus_at_once = max(self.most_bogus_at_once, self._bogus_now)
        try:
            return bool(super().verify(hash, password))
        finally:
            if text == "":
                with self._lock:
                    self._bogus_now -= 1


async def test_a_flood_of_bogus_logins_does_not_starve_a_real_one(db_url: str) -> None:
    """64 bogus logins in flight from one address: a real login from another is not
    queued behind them (at most two hashes an address are in flight; the rest: 429)."""
    hasher = WatchedHasher()
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]
    options: dict[str, Any] = {"password_hasher": hasher}
    async with serve(db_url, tables, settings=SETTINGS, store_options=options) as room:
        await room.player("dora")
        flood = from_address(room, "127.0.0.2")
        await flood.get("/api/csrf")
        bogus = [asyncio.ensure_future(login(flood, f"nobody{n}", f"guess {n}")) for n in range(64)]
        # Once the flood's hashes are running, the owner logs in from elsewhere.
        while not [p for p in hasher.started if p == ""]:
            await asyncio.sleep(0.005)
        sent = len(hasher.started)
        owner = from_address(room, "127.0.0.1")
        started = asyncio.get_running_loop().time()
        answer = await login(owner, "dora", PASSWORD)
        took = asyncio.get_running_loop().time() - started
        assert answer.status_code == 200
        answers = await asyncio.gather(*bogus)
        # An unknown user's check runs on a dummy hash with an empty password: those are
        # the flood's. Never more than two of them ran at once, so the owner's check
        # queued behind two at most. (How many got checked, and how many started before
        # the owner's, depends on how fast the machine hashes and parses: reported only.)
        ahead = hasher.started[sent:].index(PASSWORD)
        statuses = [a.status_code for a in answers]
        checked = statuses.count(401)
        print(f"real login {took:.3f} s, {ahead} bogus checks ahead of it, {checked} checked")
        assert hasher.most_bogus_at_once <= 2, hasher.most_bogus_at_once
        refused = [a for a in answers if a.status_code == 429]
        assert refused and checked + len(refused) == len(answers), statuses
        assert all(a.json()["code"] == "rate_limited" for a in refused)
        assert all(int(a.headers["Retry-After"]) >= 1 for a in refused)
        await flood.aclose()
        await owner.aclose()


async def test_sign_up_refuses_look_alikes_invisible_letters_and_bot_names(db_url: str) -> None:
    """A room with a bot at its table: no person may sign up as its double."""
    tables = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2}, bots=1)]
    async with serve(db_url, tables, settings=SETTINGS) as room:
        bots: list[str] = []

        def seated() -> bool:  # the table seats its bot as it starts
            bots[:] = [u.username for t in room.site.room.tasks.values() for u in t.users.values()]
            return bool(bots)

        await wait_until(seated, what="the table's bot seated")
        bot = bots[0]
        assert bot.endswith("_bot")
        http = from_address(room, "127.0.0.1")
        assert (await register(http, "Alice")).status_code == 201
        cyrillic = bot.replace("a", "\u0430").replace("o", "\u043e")
        assert cyrillic != bot
        for name, status, code in [
            (cyrillic, 400, "bad_username"),  # Cyrillic letters among Latin ones
            (bot, 400, "bad_username"),  # a bot's name: the room's bots only
            (bot.replace("o", "0"), 400, "bad_username"),
            ("Zed_bot", 400, "bad_username"),
            ("Bob\u3164", 400, "bad_username"),  # an invisible Hangul filler
            ("\u3164\u3164\u3164", 400, "bad_username"),
            ("AIice", 409, "username_taken"),  # capital I for l: Alice's double
            ("A1ice", 409, "username_taken"),
        ]:
            other = from_address(room, "127.0.0.1")
            answer = await register(other, name)
            assert (answer.status_code, answer.json()["code"]) == (status, code), name
            assert answer.json()["message"]
            await other.aclose()
        await http.aclose()
