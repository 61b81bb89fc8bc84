"""The top-up hour and the sign-ups per address are kept in the database: a restart resets neither.

Each test serves a room, stops it, and serves a new one (a new Site, as
after a restart or on another node) on the same database.
"""

from __future__ import annotations

import asyncio
import time

import httpx

from pokerhouse.server.settings import RoomSettings
from pokerhouse.store import ISSUER, Account
from tests.server.conftest import Client, Harness, serve, table

PASSWORD = "correct horse battery"
TABLES = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]


def settings(per_hour: int = 1000) -> RoomSettings:
    return RoomSettings(
        bot_think=(0.0, 0.0), hand_pause=0.0, idle_seconds=10**7, registrations_per_hour=per_hour
    )


async def signed_in(room: Harness, name: str) -> Client:
    client = Client(room.base, name)
    room.clients.append(client)
    csrf = (await client.http.get("/api/csrf")).json()["csrf"]
    answer = await client.http.post(
        "/api/login", json={"username": name, "password": PASSWORD}, headers={"X-CSRF-Token": csrf}
    )
    assert answer.status_code == 200, answer.text
    return client


async def top_ups(room: Harness, name: str) -> int:
    statement = await room.site.store.ledger.statement(name, limit=1000)
    return sum(1 for line in statement.lines if str(line.kind) == "top-up")


async def spend(room: Harness, name: str, down_to: int) -> None:
    """Take a wallet down to ``down_to`` chips (as losing at the tables would), in one
    balanced transaction back to the issuer."""
    store = room.site.store
    user = await store.users.get(name)
    wallet = Account.wallet(user.id)
    lost = await store.ledger.balance(wallet) - down_to
    await store.ledger.post(
        f"lost:{name}:{lost}", "grant", {wallet: -lost, ISSUER: lost}, memo="lost"
    )


async def test_a_restart_does_not_reset_the_top_up_hour(db_url: str) -> None:
    async with serve(db_url, TABLES, settings=settings()) as room:
        await room.site.store.users.create("short_stack", PASSWORD, grant=500)
        poor = await signed_in(room, "short_stack")
        topped = await poor.http.post("/api/me/top-up", headers=poor.csrf())
        assert topped.status_code == 200 and topped.json()["wallet"] == 10_000
        await spend(room, "short_stack", down_to=400)
    # A new room on the same database: the wallet is low again, but the hour is not over.
    async with serve(db_url, TABLES, settings=settings()) as room:
        poor = await signed_in(room, "short_stack")
        again = await poor.http.post("/api/me/top-up", headers=poor.csrf())
        assert (again.status_code, again.json()["code"]) == (429, "rate_limited")
        assert (await poor.http.get("/api/me")).json()["wallet"] == 400
        assert await top_ups(room, "short_stack") == 1
    # An hour later (by the store's clock) the wallet may be topped up again.
    later = {"clock": lambda: time.time() + 3601}
    async with serve(db_url, TABLES, settings=settings(), store_options=later) as room:
        poor = await signed_in(room, "short_stack")
        third = await poor.http.post("/api/me/top-up", headers=poor.csrf())
        assert third.status_code == 200 and third.json()["wallet"] == 10_000
        assert await top_ups(room, "short_stack") == 2


async def test_two_top_ups_at_once_pay_once(db_url: str) -> None:
    async with serve(db_url, TABLES, settings=settings()) as room:
        await room.site.store.users.create("broke", PASSWORD, grant=100)
        first = await signed_in(room, "broke")
        second = await signed_in(room, "broke")  # another device, another session
        answers = await asyncio.gather(
            first.http.post("/api/me/top-up", headers=first.csrf()),
            second.http.post("/api/me/top-up", headers=second.csrf()),
        )
        # One top-up; the other finds the wallet full (409), the hour taken (429), or the
        # same transaction (200: its key is the same).
        statuses = [a.status_code for a in answers]
        assert 200 in statuses and set(statuses) <= {200, 409, 429}, statuses
        assert await top_ups(room, "broke") == 1
        assert (await first.http.get("/api/me")).json()["wallet"] == 10_000


async def test_a_restart_does_not_reset_the_sign_ups_of_an_address(db_url: str) -> None:
    async def sign_up(room: Harness, name: str, address: str) -> int:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=room.base, transport=transport) as http:
            csrf = (await http.get("/api/csrf")).json()["csrf"]
            answer = await http.post(
                "/api/register",
                json={"username": name, "password": PASSWORD},
                headers={"X-CSRF-Token": csrf},
            )
            return answer.status_code

    async with serve(db_url, TABLES, settings=settings(per_hour=3)) as room:
        codes = [await sign_up(room, f"early{n}", "127.0.0.2") for n in range(4)]
        assert codes == [201, 201, 201, 429]
    async with serve(db_url, TABLES, settings=settings(per_hour=3)) as room:
        assert await sign_up(room, "late1", "127.0.0.2") == 429
        assert await sign_up(room, "late2", "127.0.0.3") == 201
