"""A seat's next occupant reads nothing its last occupant was dealt, even resuming from before.

An event that only some seats may read (a hand's hole cards, a Teen Patti
look, a sideshow, a Casino Hold'em bonus) is read by the accounts that held
those seats when it happened. Someone who sits in a seat a person or a bot
just left and sends ``resume`` with an older ``since`` is replayed exactly
what a spectator saw of the hands they were not in.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import play_hand, showdown, sit

OPTIONS: dict[str, dict[str, Any]] = {
    "3x4": {"ante": 1, "small_bet": 2},
    "razz": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
    "teen-patti": {"ante": 1},
    "casino-holdem": {"min_ante": 1, "max_ante": 100, "max_payout": 1000},
}

SETTINGS = RoomSettings(
    bot_think=(0.0, 0.0),
    hand_pause=0.0,
    window_seconds=0.0,  # Casino Hold'em deals at once: the boxes' bets stand
    retry_seconds=0.2,
    registrations_per_hour=100_000,
)


def events_by_seq(client: Client, table_id: int) -> dict[int, Any]:
    return {frame["seq"]: frame["event"] for frame in client.events(table_id)}


async def wait_event(client: Client, table_id: int, kind: str, seat: int, after: int = 0) -> int:
    """The sequence number of ``client``'s first ``kind`` event of ``seat`` after ``after``."""
    frame = await client.wait_for(
        lambda f: (
            f.get("type") == "event"
            and f.get("table") == table_id
            and f["event"] is not None
            and f["event"]["type"] == kind
            and f["event"].get("seat") == seat
        ),
        after=after,
        timeout=30,
    )
    return int(frame["seq"])


async def resume_from(client: Client, table_id: int, since: int) -> list[dict[str, Any]]:
    """Send ``resume``; the events it replayed (live ones may follow them)."""
    mark = len(client.frames)
    await client.send({"type": "resume", "table": table_id, "since": since})
    first = await client.wait_for(
        lambda f: (
            f.get("table") == table_id
            and (f.get("type") in ("snapshot", "error") or f.get("seq") == since + 1)
        ),
        after=mark,
    )
    assert first.get("type") == "event", f"the replay did not reach back: {first}"
    start = client.frames.index(first, mark)
    return [f for f in client.frames[start:] if f.get("type") == "event"]


def assert_read_as_spectator(
    replayed: list[dict[str, Any]], spectator: Client, table_id: int, before: int
) -> None:
    """Every replayed event older than ``before`` is exactly the spectator's copy."""
    seen = events_by_seq(spectator, table_id)
    compared = 0
    for frame in replayed:
        if frame["seq"] >= before:
            continue
        assert frame["event"] == seen[frame["seq"]], (
            f"event {frame['seq']}: {frame['event']} (a spectator saw {seen[frame['seq']]})"
        )
        compared += 1
    assert compared > 20  # whole hands were replayed


async def play_until_seat_left(
    room: Harness, players: list[Client], table_id: int, seat: int, watch: Client, mark: int
) -> int:
    """Play hands (every person in ``players``) until ``seat``'s player has left (after
    ``watch``'s frame ``mark``); the sequence number of its leaving."""
    left = asyncio.get_running_loop().create_task(
        wait_event(watch, table_id, "player_left", seat, after=mark)
    )
    while not left.done():
        with_hand = asyncio.get_running_loop().create_task(
            play_hand(players, table_id, showdown, timeout=30)
        )
        await asyncio.wait({left, with_hand}, return_when=asyncio.FIRST_COMPLETED)
        if not with_hand.done():
            with_hand.cancel()
        await room.settle()
    return left.result()


@pytest.mark.parametrize("game", sorted(OPTIONS))
async def test_a_seat_left_by_a_person_is_replayed_to_its_next_occupant_as_a_spectator_saw_it(
    db_url: str, game: str
) -> None:
    config = table(game, game, options=OPTIONS[game], seats=3)
    async with serve(db_url, [config], settings=SETTINGS) as room:
        table_id = room.table_id(game)
        spectator = await room.spectator()
        await spectator.send({"type": "watch", "table": table_id})
        await spectator.wait_for(lambda f: f.get("type") == "snapshot")
        ann, bob, cy = await room.player(), await room.player(), await room.player()
        since = max([f["seq"] for f in spectator.frames if f.get("table") == table_id], default=0)
        await sit(ann, table_id, 0)
        await sit(bob, table_id, 1)
        await play_hand([ann, bob], table_id, showdown, timeout=30)
        mark = len(spectator.frames)
        await bob.send({"type": "leave", "table": table_id})
        gone = await play_until_seat_left(room, [ann, bob], table_id, 1, spectator, mark)
        await sit(cy, table_id, 1)
        replayed = await resume_from(cy, table_id, since)
        assert_read_as_spectator(replayed, spectator, table_id, before=gone + 1)


@pytest.mark.parametrize("game", sorted(OPTIONS))
async def test_a_seat_left_by_a_bot_is_replayed_to_its_next_occupant_as_a_spectator_saw_it(
    db_url: str, game: str
) -> None:
    # Three seats and two bots wanted, always a seat left for a person: two bots play
    # alone; once a person sits the table wants one, and the second bot gives its seat up.
    config = table(game, game, options=OPTIONS[game], seats=3, bots=2, bot_kind="random")
    async with serve(db_url, [config], settings=SETTINGS) as room:
        table_id = room.table_id(game)
        spectator = await room.spectator()
        await spectator.send({"type": "watch", "table": table_id})
        await spectator.wait_for(lambda f: f.get("type") == "snapshot")
        task = room.site.room.tasks[table_id]
        for _ in range(2):  # the bots play two hands alone (a Teen Patti hand may be short)
            await spectator.wait_for(
                lambda f: f.get("type") == "event" and f["event"]["type"] == "table_hand_ended",
                after=len(spectator.frames),
                timeout=30,
            )
        assert len(task.bots.seats) == 2
        since = min(f["seq"] for f in spectator.events(table_id)) - 1
        ann, dee = await room.player(), await room.player()
        (free,) = (seat for seat in range(3) if seat not in task.bots.seats)
        leaving = max(task.bots.seats)
        mark = len(spectator.frames)
        await sit(ann, table_id, free)
        gone = await play_until_seat_left(room, [ann], table_id, leaving, spectator, mark)
        await sit(dee, table_id, leaving)
        replayed = await resume_from(dee, table_id, since)
        assert_read_as_spectator(replayed, spectator, table_id, before=gone + 1)
