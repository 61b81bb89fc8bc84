"""No card outside RULES.md "Information" ever reaches a client, over hundreds of hands a game.

Players (bots of the room and people on websockets) play every game while
spectators watch. Every frame every client receives is kept. Afterwards each
hand's server-side history (the whole truth) says which cards each client
could know: its own seats' cards (once it may see them), face-up cards, the
board and what was shown. Every card in every frame of that hand, and in the
histories the HTTP API gives each client, must be among them.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from pokerhouse.cards import Card
from pokerhouse.history.replay import replay
from tests.helpers import allowed_cards
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import decision_of, sit

#: Hands each table plays (issue 14 asks 2,000 a game: POKERHOUSE_INFO_HANDS=2000).
HANDS = int(os.environ.get("POKERHOUSE_INFO_HANDS", "120"))
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")

TABLES = [
    table("3x4 info", "3x4", options={"ante": 1, "small_bet": 2}, seats=4, bots=2),
    table(
        "Razz info",
        "razz",
        options={"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
        seats=5,
        bots=3,
    ),
    table("Teen Patti info", "teen-patti", options={"ante": 1, "sideshow": True}, seats=4, bots=2),
    table(
        "Casino info",
        "casino-holdem",
        options={"min_ante": 1, "max_ante": 50, "max_payout": 2000},
        seats=5,
        max_boxes=2,
        bots=2,
    ),
]


def cards_in(value: Any) -> Iterator[Card]:
    """Every card named anywhere in a JSON value."""
    if isinstance(value, str):
        if CARD.match(value):
            yield Card.parse(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def choose(decision: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A person playing loosely at random among the offered actions."""
    options = decision["actions"]
    option = rng.choice(options)
    if "min" in option:
        return {"kind": option["kind"], "amount": rng.randint(option["min"], option["max"])}
    return {"kind": option["kind"]}


async def play_people(
    harness: Harness, people: list[tuple[Client, int, list[int]]], stop: asyncio.Event
) -> None:
    """People answer their decisions, bet at Casino Hold'em windows, and top up when broke."""
    rng = random.Random(7)
    acted: set[tuple[int, int, int]] = set()
    windows: set[tuple[int, int]] = set()
    while not stop.is_set():
        for client, table_id, seats in people:
            pending = decision_of(client, table_id)
            if pending is not None:
                seq, hand, _seat, decision = pending
                key = (id(client), seq, hand)
                if key not in acted:
                    acted.add(key)
                    await client.send(
                        {
                            "type": "act",
                            "table": table_id,
                            "hand": hand,
                            "action": choose(decision, rng),
                            "id": client.next_id(),
                        }
                    )
            for frame in client.frames[-20:]:
                seen = (id(client), frame.get("seq"))
                if (
                    frame.get("type") == "window"
                    and frame["table"] == table_id
                    and seen not in windows
                ):
                    windows.add((id(client), frame["seq"]))
                    for seat in seats:
                        bonus = rng.choice((0, 0, 1))
                        await client.send(
                            {
                                "type": "wager",
                                "table": table_id,
                                "seat": seat,
                                "ante": 2,
                                "bonus": bonus,
                            }
                        )
            runner = harness.site.room.runners[table_id]
            for seat in seats:
                info = runner.table.seat(seat)
                if info is not None and info.stack < 40 and runner.table.hand is None:
                    await client.send(
                        {
                            "type": "add_chips",
                            "table": table_id,
                            "seat": seat,
                            "amount": 200 - info.stack,
                        }
                    )
        await asyncio.sleep(0.005)


def hand_of(frame: dict[str, Any], ranges: dict[int, tuple[int, int]]) -> int | None:
    """The hand a frame belongs to, by its number or its sequence number."""
    if frame.get("type") == "private":
        return frame.get("hand")
    if frame.get("type") == "snapshot":
        hand = frame["view"]["hand"]
        return None if hand is None else hand["number"]
    seq = frame.get("seq")
    for number, (first, last) in ranges.items():
        if seq is not None and first < seq <= last:
            return number
    return None


@pytest.mark.slow
async def test_no_client_ever_sees_a_card_it_may_not_know(db_url: str) -> None:
    async with serve(db_url, TABLES) as harness:
        room = harness.site.room
        ids = {runner.config.name: runner.id for runner in room.runners.values()}
        people: list[tuple[Client, int, list[int]]] = []
        spectators: list[tuple[Client, int]] = []
        for name, table_id in ids.items():
            runner = room.runners[table_id]
            # Bots take the lowest free seats: people sit at the highest.
            free = [s for s in range(runner.config.seats) if runner.table.seat(s) is None][::-1]
            if name.startswith("Casino"):
                ann = await harness.player()
                seats = free[:2]
                for seat in seats:
                    await sit(ann, table_id, seat, 200)
                people.append((ann, table_id, seats))
            else:
                client = await harness.player()
                await sit(client, table_id, free[0], 200)
                people.append((client, table_id, [free[0]]))
            watcher = await harness.spectator()
            await watcher.send({"type": "watch", "table": table_id})
            spectators.append((watcher, table_id))
        stop = asyncio.Event()
        driver = asyncio.get_running_loop().create_task(play_people(harness, people, stop))
        deadline = asyncio.get_running_loop().time() + 900
        while min(runner.table.hands_played for runner in room.runners.values()) < HANDS:
            assert asyncio.get_running_loop().time() < deadline, (
                "the tables did not play enough hands"
            )
            assert not driver.done(), driver.exception()
            await harness.clock.advance(11)  # windows close; nobody else waits on the clock
            await asyncio.sleep(0.05)
        stop.set()
        await driver
        # Stop every table (the bots would play on) and let the last frames arrive.
        for runner in room.runners.values():
            await runner.stop()
        await asyncio.sleep(0.5)
        await check_every_frame(harness, people, spectators)


async def check_every_frame(
    harness: Harness,
    people: list[tuple[Client, int, list[int]]],
    spectators: list[tuple[Client, int]],
) -> None:
    store = harness.site.store
    viewers = [(c, t, seats) for c, t, seats in people] + [(c, t, []) for c, t in spectators]
    checked_frames = checked_hands = 0
    for client, table_id, seats in viewers:
        ends = {
            f["event"]["number"]: f["seq"]
            for f in client.events(table_id)
            if f["event"] is not None and f["event"]["type"] in ("table_hand_ended", "hand_voided")
        }
        starts = {
            f["event"]["number"]: f["seq"] - 1
            for f in client.events(table_id)
            if f["event"] is not None and f["event"]["type"] == "table_hand_started"
        }
        # A hand already running when the client came in has no start in its stream.
        ranges: dict[int, tuple[int, int]] = {}
        previous = 0
        for number in sorted(ends):
            ranges[number] = (starts.get(number, previous), ends[number])
            previous = ends[number]
        # The hand the table was stopped in (running, or ended but not yet told):
        # its frames are checked against the table's own copy of it.
        runner = harness.site.room.runners[table_id]
        running = runner.table.hand_number or runner.table.hands_played
        if running not in ends:
            ranges[running] = (previous, 2**62)
        by_hand: dict[int, list[dict[str, Any]]] = {}
        for frame in client.frames:
            if frame.get("table") != table_id:
                continue
            number = hand_of(frame, ranges)
            if number is None:
                assert set(cards_in(frame)) <= _public_outside_hands(frame), frame
                continue
            by_hand.setdefault(number, []).append(frame)
        records = {h.number: h for h in await _hands_at(store, table_id)}
        for number, frames in by_hand.items():
            if number == running and number not in ends:
                hand = runner.table.last_hand
                assert hand is not None
                places = runner.table.hand_seats or runner.table.last_hand_seats
                mine = [i for i, seat in enumerate(places) if seat in seats]
                record = None
            else:
                if number not in records:
                    continue
                record = await store.get_hand(records[number].id)
                if record.history is None:
                    continue  # voided
                hand = replay(record.history)
                mine = [i for i, s in enumerate(record.seats) if s.table_seat in seats]
            allowed: set[Card] = set(allowed_cards(hand, None))
            for index in mine:
                allowed |= allowed_cards(hand, index)
            for frame in frames:
                leaked = set(cards_in(frame)) - allowed
                assert not leaked, f"{client.name or 'spectator'} saw {sorted(leaked)} in {frame}"
                checked_frames += 1
            checked_hands += 1
            if record is not None and number % 10 == 0:
                await _check_api_history(client, record.id, allowed)
    assert checked_hands >= HANDS * len(viewers) // 2, (checked_hands, checked_frames)


def _public_outside_hands(frame: dict[str, Any]) -> set[Card]:
    """Between hands only the seat draw's cards are dealt, face up."""
    event = frame.get("event")
    if frame.get("type") == "event" and event is not None and event["type"] == "seat_draw_card":
        return {Card.parse(event["card"])}
    return set()


async def _hands_at(store: Any, table_id: int) -> list[Any]:
    seen: dict[int, Any] = {}
    for user_id in range(1, 200):
        try:
            user = await store.get_user(user_id)
        except Exception:
            break
        for summary in await store.user_hands(user, limit=10_000):
            if summary.table_id == table_id:
                seen[summary.number] = summary
    return list(seen.values())


async def _check_api_history(client: Client, hand_id: int, allowed: set[Card]) -> None:
    response = await client.http.get(f"/api/hands/{hand_id}")
    assert response.status_code == 200, response.text
    leaked = set(cards_in(response.json())) - allowed
    assert not leaked, f"the history of hand {hand_id} shows {sorted(leaked)}"
    text = (await client.http.get(f"/api/hands/{hand_id}", params={"format": "text"})).text
    words = {Card.parse(word) for word in re.findall(r"\b[2-9TJQKA][cdhs]\b", text)}
    assert not words - allowed, (
        f"the text history of hand {hand_id} shows {sorted(words - allowed)}"
    )
    phh = await client.http.get(f"/api/hands/{hand_id}", params={"format": "phh"})
    if phh.status_code == 400:  # PHH is for Razz only
        assert phh.json()["code"] == "no_phh"
        return
    assert phh.status_code == 200, phh.text
    written = {
        Card.parse(word[i : i + 2])
        for line in tomllib.loads(phh.text)["actions"]
        for word in line.split()
        if re.fullmatch(r"([2-9TJQKA?][cdhs?])+", word)
        for i in range(0, len(word), 2)
        if word[i : i + 2] != "??"
    }
    assert not written - allowed, (
        f"the PHH history of hand {hand_id} shows {sorted(written - allowed)}"
    )
