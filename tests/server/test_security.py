"""The security review's findings, each attacked as an attacker would, against a real
``pokerhouse serve`` on SQLite and PostgreSQL: every one refused, and the ledger check
(``db_url``'s, after each test) passing.

1. a home game's host takes a guest's pot by removing them on their turn;
2. a player and their own bot account both enter one tournament by racing;
3. password hashing flooded through home games (opens and joins rate limited);
5. huge ids answered ``500``;
6. people taking the room's bot names;
7. ``/healthz`` naming private tables;
8. a bot account's chip grant outside its owner's sign-up limit.

4, the bots' leaderboard read once however many ask at once, is in ``test_bot_accounts``;
the store's own tests have the rest of 3 and 8 (no hash for a host at the table limit, a
join refused when its invitation changed under it, one top-up an hour a person).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from tests.server.conftest import Client, Message
from tests.server.play import decision_of, passive, play_hand, sit
from tests.server.process import ServeProcess

ROOM = """
[room]
hand_pause = 0.5
bots_pause = 0.0
bot_think = [0.0, 0.0]
window_seconds = 3
registrations_per_hour = {sign_ups}
scheduled_games = ["razz"]
scheduled_bots = 1
scheduled_every = 86400.0
argon2 = [1, 256, 1]

[[tables]]
name = "Public 3x4"
game = "3x4"
options = {{ ante = 1, small_bet = 2 }}
seats = 2
bots = 0
"""

PRIVATE_RAZZ = {
    "name": "Friday razz",
    "game": "razz",
    "options": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
    "seats": 2,
    "min_buy_in": 40,
    "max_buy_in": 400,
    "decision_seconds": 30,
}


@contextlib.asynccontextmanager
async def room(db_url: str, folder: Path, *, sign_ups: int = 1000) -> AsyncIterator[str]:
    """A room of :data:`ROOM` served by a process of its own; its base URL."""
    config = folder / "room.toml"
    config.write_text(ROOM.format(sign_ups=sign_ups))
    server = ServeProcess(db_url, config)
    await asyncio.to_thread(server.start)
    try:
        yield server.base
    finally:
        await asyncio.to_thread(server.stop)


async def player(base: str, name: str, clients: list[Client]) -> Client:
    """A new person, signed up and connected."""
    client = Client(base, name)
    clients.append(client)
    await client.register()
    await client.connect()
    return client


async def post(client: Client, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return await client.http.post(path, json=body or {}, headers=client.csrf())


async def close_all(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


def folds(client: Client, table: int, after: int) -> list[Message]:
    """The folds at ``table`` that ``client`` was told of from frame ``after`` on."""
    return [
        frame["event"]
        for frame in client.frames[after:]
        if frame.get("table") == table
        and frame.get("type") == "event"
        and (frame["event"] or {}).get("type") == "action_taken"
        and frame["event"]["action"]["kind"] == "fold"
    ]


# ---------------------------------------------------------------- 1. the host's remove


async def test_a_host_removing_a_guest_on_their_turn_takes_no_pot(
    db_url: str, tmp_path: Path
) -> None:
    """The host removes the guest as the guest faces a real decision: the guest's hand is
    not folded for them; they play it out, watching, and are cashed out when it ends."""
    clients: list[Client] = []
    async with room(db_url, tmp_path) as base:
        try:
            ann = await player(base, "ann_host", clients)
            bob = await player(base, "bob_guest", clients)
            opened = await post(ann, "/api/private-tables", {**PRIVATE_RAZZ})
            assert opened.status_code == 201, opened.text
            table, token = opened.json()["id"], opened.json()["invitation"]
            joined = await post(bob, "/api/invitations/join", {"token": token})
            assert joined.json()["status"] == "approved", joined.text
            await sit(ann, table, 0, 200)
            await sit(bob, table, 1, 200)

            # Both play passively until bob faces a decision he may fold or check or call
            # in (not a forced bring-in): then the host removes him.
            async def bobs_real_decision() -> tuple[int, dict[str, Any]]:
                deadline = asyncio.get_running_loop().time() + 60
                while asyncio.get_running_loop().time() < deadline:
                    mine = decision_of(bob, table)
                    if mine is not None:
                        _, hand, _, decision = mine
                        kinds = {option["kind"] for option in decision["actions"]}
                        if kinds & {"check", "call"}:
                            return hand, decision
                    pending = decision_of(ann, table)
                    for who, found in ((ann, pending), (bob, mine)):
                        if found is not None:
                            seq, hand, _, decision = found
                            await who.send(
                                {"type": "act", "table": table, "hand": hand,
                                 "action": passive(decision, who), "id": who.next_id()}
                            )  # fmt: skip
                            await who.wait_for(
                                lambda f, s=seq: f.get("table") == table and f.get("seq", 0) > s
                            )
                    await asyncio.sleep(0.05)
                raise AssertionError("bob never faced a decision of his own")

            await bobs_real_decision()
            mark = len(bob.frames)
            await ann.send({"type": "host", "table": table, "op": "remove", "user": "bob_guest"})
            await ann.wait_for(lambda f: f.get("type") == "home" and f.get("table") == table)
            # The old rule folded him at once, on a zero-second clock. Now his turn is his.
            await asyncio.sleep(1.0)
            assert folds(bob, table, mark) == []
            assert not [f for f in bob.frames[mark:] if f.get("code") == "removed"]
            ended = await play_hand([ann, bob], table, timeout=90)
            assert ended["type"] == "table_hand_ended"
            assert folds(ann, table, mark) == []  # both played on: nobody was folded
            # The hand over, he is stood up, cashed out, and told.
            await bob.wait_for(lambda f: f.get("type") == "error" and f.get("code") == "removed")
            me = (await bob.http.get("/api/me")).json()
            assert me["seats"] == [] and me["in_play"] == 0
            again = await bob.http.get(f"/api/private-tables/{table}")
            assert again.status_code == 404
        finally:
            await close_all(clients)


# ---------------------------------------------------------------- 2. one person, one entry


async def test_a_player_and_her_bot_racing_into_one_tournament_get_one_entry(
    db_url: str, tmp_path: Path
) -> None:
    clients: list[Client] = []
    async with room(db_url, tmp_path) as base:
        try:
            ann = await player(base, "ann_racer", clients)
            made = await post(ann, "/api/bots", {"name": "ann_racer_bot"})
            assert made.status_code == 201, made.text
            bot = Client(base, "ann_racer_bot")
            clients.append(bot)
            bot.signed_in_as_bot(made.json()["token"])
            listed = (await ann.http.get("/api/tournaments")).json()["tournaments"]
            (line,) = [t for t in listed if t["status"] == "registering"]
            path = f"/api/tournaments/{line['id']}"
            for round_ in range(3):  # sent at once, again and again: one entry each time
                if round_:
                    await asyncio.sleep(2.5)  # within the asks' rate (one a second)
                answers = await asyncio.gather(
                    post(ann, f"{path}/register"), bot.http.post(f"{path}/register")
                )
                codes = sorted("ok" if a.status_code == 200 else a.json()["code"] for a in answers)
                assert codes == ["ok", "same_owner"], [a.text for a in answers]
                page = (await ann.http.get(path)).json()
                names = {entry["player"] for entry in page["standings"]}
                assert len(names & {"ann_racer", "ann_racer_bot"}) == 1
                for who, headers in ((ann, ann.csrf()), (bot, {})):
                    await who.http.post(f"{path}/unregister", headers=headers)
        finally:
            await close_all(clients)


# ---------------------------------------------------------------- 3. hashing floods


async def test_opens_and_joins_are_rate_limited_whether_they_succeed_or_not(
    db_url: str, tmp_path: Path
) -> None:
    clients: list[Client] = []
    async with room(db_url, tmp_path) as base:
        try:
            ann = await player(base, "ann_opens", clients)
            bob = await player(base, "bob_joins", clients)
            secret = {**PRIVATE_RAZZ, "password": "river-rat"}
            opened = await post(ann, "/api/private-tables", secret)
            token = opened.json()["invitation"]
            # Correct-password joins, each one a full hash, sent on and on: refused soon.
            come = {"token": token, "password": "river-rat"}
            codes = [(await post(bob, "/api/invitations/join", come)).status_code
                     for _ in range(30)]  # fmt: skip
            assert codes[0] == 200 and 429 in codes
            assert codes.count(200) <= 8, codes  # the burst, and a refill or two
            refused = await post(bob, "/api/invitations/join", come)
            assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
            assert int(refused.headers["Retry-After"]) >= 1
            # Opens past the host's three tables: each refused, each counted all the same.
            answers = [
                await post(ann, "/api/private-tables", {**secret, "name": f"game {n}"})
                for n in range(30)
            ]
            codes = [a.status_code for a in answers]
            assert codes.count(201) == 2  # three open at most: one was open already
            assert {a.json()["code"] for a in answers if a.status_code == 409} == {
                "too_many_tables"
            }
            assert 429 in codes
        finally:
            await close_all(clients)


# ------------------------------------------------ 5, 6, 7: ids, names, health


async def test_huge_ids_bot_names_and_private_tables_in_health(db_url: str, tmp_path: Path) -> None:
    clients: list[Client] = []
    async with room(db_url, tmp_path) as base:
        try:
            ann = await player(base, "ann_probe", clients)
            huge = "99999999999999999999"
            for method, path, code in [
                ("GET", f"/api/tournaments/{huge}", "unknown_tournament"),
                ("POST", f"/api/tournaments/{huge}/register", "unknown_tournament"),
                ("POST", f"/api/tournaments/{huge}/unregister", "unknown_tournament"),
                ("GET", f"/api/tournaments/{2**63}", "unknown_tournament"),
                ("GET", f"/api/hands/{huge}", "unknown_hand"),
                ("GET", f"/api/hands/{huge}/equity", "unknown_hand"),
                ("GET", f"/api/private-tables/{huge}", "unknown_table"),
                ("GET", f"/api/private-tables/{huge}/ledger", "unknown_table"),
                ("POST", f"/api/private-tables/{huge}/invitation", "unknown_table"),
            ]:
                answer = await ann.http.request(method, path, headers=ann.csrf())
                assert (answer.status_code, answer.json()["code"]) == (404, code), path
            assert (await ann.http.get("/api/me")).status_code == 200  # still connected

            # The room's bots' names, and look-alikes of them, are not a person's to take.
            for name in ("Jax_tb9", "Chen_tb2", "Ada_bot", "Zoe-tb", "Jax_TB1"):
                taken = Client(base, name)
                clients.append(taken)
                csrf = (await taken.http.get("/api/csrf")).json()["csrf"]
                answer = await taken.http.post(
                    "/api/register",
                    json={"username": name, "password": "correct horse battery"},
                    headers={"X-CSRF-Token": csrf},
                )
                assert (answer.status_code, answer.json()["code"]) == (400, "bad_username")

            # A private table's id is never in /healthz, even while it is loading: the
            # health is asked over and over while each table opens.
            async with httpx.AsyncClient(base_url=base, timeout=30) as http:
                named: set[int] = set()
                opening = True

                async def watch_health() -> None:
                    while opening:
                        health = (await http.get("/healthz")).json()
                        named.update(health["tables_unavailable"] + health["tables_elsewhere"])

                watchers = [asyncio.create_task(watch_health()) for _ in range(4)]
                private = []
                for number in range(3):
                    body = {**PRIVATE_RAZZ, "name": f"secret {number}"}
                    private.append((await post(ann, "/api/private-tables", body)).json()["id"])
                    await asyncio.sleep(0.5)
                opening = False
                await asyncio.gather(*watchers)
                assert not named & set(private), named
                for _ in range(600):
                    health = (await http.get("/healthz")).json()
                    if health["private_tables_unavailable"] == 0:
                        break
                    await asyncio.sleep(0.1)
                assert health["tables"] == 1 + 3 and health["tables_available"] == 4
        finally:
            await close_all(clients)


# ---------------------------------------------------------------- 8. grants


async def test_a_bot_accounts_grant_is_a_sign_up_from_its_owners_address(
    db_url: str, tmp_path: Path
) -> None:
    clients: list[Client] = []
    async with room(db_url, tmp_path, sign_ups=3) as base:
        try:
            ann = await player(base, "ann_owner", clients)  # sign-up 1 of 3 this hour
            codes = [
                (await post(ann, "/api/bots", {"name": f"ann_grant{n}_bot"})).status_code
                for n in range(3)
            ]
            assert codes == [201, 201, 429]  # two more grants, then the address's hour is up
            late = Client(base, "late_person")
            clients.append(late)
            csrf = (await late.http.get("/api/csrf")).json()["csrf"]
            signed = await late.http.post(
                "/api/register",
                json={"username": "late_person", "password": "correct horse battery"},
                headers={"X-CSRF-Token": csrf},
            )
            assert (signed.status_code, signed.json()["code"]) == (429, "rate_limited")
        finally:
            await close_all(clients)
