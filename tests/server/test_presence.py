"""Drops and returns, the clock, leaving: the room's house rules over real websockets."""

from __future__ import annotations

from tests.server.conftest import Client, Harness
from tests.server.play import decision_of, last_seq, passive, play_hand, sit


async def start_3x4(room: Harness) -> tuple[int, Client, Client]:
    table = room.table_id("3x4")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 100)
    await sit(bob, table, 1, 100)
    for client in (ann, bob):
        await client.wait_for(lambda f: f.get("type") == "private" and f.get("hand") == 1)
    return table, ann, bob


async def act_once(client: Client, table: int) -> None:
    """Answer the client's pending decision, if it has one, passively."""
    pending = decision_of(client, table)
    if pending is not None:
        _seq, hand, _seat, decision = pending
        mark = len(client.frames)
        await client.send(
            {
                "type": "act",
                "table": table,
                "hand": hand,
                "action": passive(decision, client),
                "id": client.next_id(),
            }
        )
        await client.wait_for(lambda f: f.get("type") in ("ack", "error"), after=mark)


async def test_a_dropped_player_resumes_mid_hand_and_misses_nothing(room: Harness) -> None:
    table, ann, bob = await start_3x4(room)
    task = room.site.room.tasks[table]
    while task.table.to_act() != 1:  # Ann drops while Bob is to act
        await act_once(ann, table)
        await room.settle()
    seen = last_seq(ann, table)
    mine = [
        f["event"]["cards"]
        for f in ann.events(table)
        if f["event"]["type"] == "cards_dealt" and f["event"]["seat"] == 0
    ]
    await ann.ws.close()
    await act_once(bob, table)  # the hand goes on without her
    await room.settle()
    assert task.table.seq > seen and task.table.hand_number == 1
    # Back on a new socket (same account): what was missed, gapless, then the decision.
    back = Client(room.base, ann.name)
    back.http.cookies.update(ann.http.cookies)
    await back.connect()
    room.clients.append(back)
    await back.send({"type": "resume", "table": table, "since": seen})
    await back.wait_for(lambda f: f.get("type") == "private")
    missed = [f["seq"] for f in back.events(table)]
    assert missed == list(range(seen + 1, task.table.seq + 1))
    assert not any(f.get("type") == "snapshot" for f in back.frames)
    ended = await play_hand([back, bob], table)
    assert ended["number"] == 1
    assert mine and all(all(card for card in cards) for cards in mine)


async def test_a_resume_from_too_far_back_gets_a_fresh_snapshot(room: Harness) -> None:
    table, ann, _bob = await start_3x4(room)
    mark = len(ann.frames)
    await ann.send({"type": "resume", "table": table, "since": 3})  # long before this run
    snapshot = await ann.wait_for(lambda f: f.get("type") == "snapshot", after=mark)
    mine = snapshot["view"]["seats"][0]
    theirs = snapshot["view"]["seats"][1]
    assert all(mine["cards"]) and not any(theirs["cards"])
    assert snapshot["view"]["hand"]["number"] == 1


async def test_a_timeout_acts_by_default_and_two_in_a_row_sit_the_player_out(room: Harness) -> None:
    table, ann, bob = await start_3x4(room)
    task = room.site.room.tasks[table]
    timed_out = 0
    for _ in range(20):
        if task.table.hand_number != 1:
            break
        if task.table.to_act() == 0:
            # Ann never acts: her limit and then her bank run out, and not a moment more.
            decision, due = task.rules.banks.current, task.rules.due_at
            assert due is not None
            if decision is not None:
                assert decision.seat == 0 and decision.deadline == due
            await room.clock.advance(due - room.clock.now() + 0.01)
            await room.settle()
            timed_out += 1  # a showdown's show-or-muck (no bank) times out into a muck
        else:
            await act_once(bob, table)
            await room.settle()
    events = [f["event"] for f in bob.events(table)]
    outs = [e for e in events if e["type"] == "timed_out"]
    # Bob only checks, so each of Ann's timeouts checks for her (or, losing at the
    # showdown, mucks): two or more in a row.
    assert len(outs) >= 2 and timed_out >= 2
    assert all(e["seat"] == 0 and e["action"]["kind"] in ("check", "muck") for e in outs), [
        (e["seat"], e["action"]["kind"]) for e in outs
    ]
    sat_out = {
        "type": "sitting_out",
        "seat": 0,
        "player": ann.name,
        "out": True,
        "reason": "timeouts",
    }
    await bob.wait_for(lambda f: f.get("type") == "event" and f["event"] == sat_out)
    info = task.table.seat(0)
    assert info is not None and info.sitting_out
    # Back in, she is dealt in again.
    await ann.send({"type": "sit_in", "table": table})
    await room.settle()
    assert not task.table.seat(0).sitting_out  # type: ignore[union-attr]


async def test_leaving_mid_hand_cashes_out_when_the_hand_ends(room: Harness) -> None:
    table, ann, bob = await start_3x4(room)
    await ann.send({"type": "leave", "table": table})
    await ann.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["type"] == "player_leaving"
    )
    ended = await play_hand([ann, bob], table)
    left = await ann.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["type"] == "player_left"
    )
    result = dict(zip(ended["seats"], ended["net"], strict=True))[0]
    assert left["event"]["chips"] == 100 + result
    await room.settle()
    me = (await ann.http.get("/api/me")).json()
    assert me["wallet"] == 10_000 + result and me["seats"] == []


async def test_a_leaver_to_act_is_folded_at_once_and_not_waited_for(room: Harness) -> None:
    table, ann, bob = await start_3x4(room)
    task = room.site.room.tasks[table]
    while task.table.to_act() != 0:  # Bob plays until it is Ann's turn
        await act_once(bob, table)
        await room.settle()
    assert task.table.hand_number == 1
    before = room.clock.now()
    await ann.send({"type": "leave", "table": table})
    await bob.wait_for(
        lambda f: (
            f.get("type") == "event"
            and f["event"]["type"] == "action_taken"
            and f["event"]["seat"] == 0
            and f["event"]["action"]["kind"] == "fold"
        )
    )
    left = await ann.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["type"] == "player_left"
    )
    # Nobody's clock moved: the fold came from the leave, not from a timeout.
    assert room.clock.now() == before
    events = [f["event"] for f in bob.events(table)]
    assert not any(e["type"] == "timed_out" for e in events)
    ended = next(e for e in events if e["type"] == "table_hand_ended" and e["number"] == 1)
    result = dict(zip(ended["seats"], ended["net"], strict=True))[0]
    assert left["event"]["chips"] == 100 + result and result < 0
    await room.settle()
    me = (await ann.http.get("/api/me")).json()
    assert me["wallet"] == 10_000 + result and me["seats"] == []


async def test_away_at_the_end_of_a_hand_sits_out_and_after_ten_minutes_stands_up(
    room: Harness,
) -> None:
    table, ann, bob = await start_3x4(room)
    task = room.site.room.tasks[table]
    await ann.ws.close()  # gone, and not back
    while task.table.hand is not None:
        seat = task.table.to_act()
        if seat == 0:
            due = task.rules.due_at  # the clock and bank, or a showdown's show-or-muck
            assert due is not None
            await room.clock.advance(due - room.clock.now() + 0.01)
        else:
            await act_once(bob, table)
        await room.settle()
    await bob.wait_for(
        lambda f: (
            f.get("type") == "event"
            and f["event"]["type"] == "sitting_out"
            and f["event"]["seat"] == 0
        )
    )
    await room.clock.advance(room.site.settings.away_seconds + 1)
    await room.settle()
    left = await bob.wait_for(
        lambda f: f.get("type") == "event" and f["event"]["type"] == "player_left"
    )
    assert left["event"]["seat"] == 0
    me = (await ann.http.get("/api/me")).json()
    assert me["seats"] == [] and me["wallet"] == 10_000 - 100 + left["event"]["chips"]


async def test_a_low_player_may_top_up_once_an_hour(room: Harness) -> None:
    rich = await room.player()
    refused = await rich.http.post("/api/me/top-up", headers=rich.csrf())
    assert (refused.status_code, refused.json()["code"]) == (409, "not_low")
    # A player down to 500 chips: topped up to the grant, then not again within the hour.
    await room.site.store.users.create("short_stack", "correct horse battery", grant=500)
    poor = Client(room.base, "short_stack")
    room.clients.append(poor)
    csrf = (await poor.http.get("/api/csrf")).json()["csrf"]
    login = await poor.http.post(
        "/api/login",
        json={"username": "short_stack", "password": "correct horse battery"},
        headers={"X-CSRF-Token": csrf},
    )
    assert login.json()["wallet"] == 500
    topped = await poor.http.post("/api/me/top-up", headers=poor.csrf())
    assert topped.status_code == 200 and topped.json()["wallet"] == 10_000
    again = await poor.http.post("/api/me/top-up", headers=poor.csrf())
    assert again.status_code in (409, 429)
    ledger = (await poor.http.get("/api/me/ledger")).json()
    assert sorted(line["kind"] for line in ledger["lines"]) == ["grant", "top-up"]
