"""Playing through the protocol alone: sit, then answer each decision the server sends."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, Message

#: Events about seats, not the hand: a decision offered before them still stands.
TABLE_EVENTS = frozenset(
    {"player_sat", "player_leaving", "player_left", "chips_added", "sitting_out", "wager_set"}
)

#: A test's policy: (the decision the server offered, the client) -> {"kind", "amount"?}.
Chooser = Callable[[dict[str, Any], Client], dict[str, Any]]


def passive(decision: dict[str, Any], client: Client) -> dict[str, Any]:
    """Check, call, bring in, or the smallest bet: the cheapest way to the end."""
    kinds = {option["kind"]: option for option in decision["actions"]}
    for kind in ("check", "call", "bring_in", "show_hand"):
        if kind in kinds:
            return {"kind": kind}
    for option in decision["actions"]:
        if "min" in option:
            return {"kind": option["kind"], "amount": option["min"]}
    return {"kind": decision["actions"][0]["kind"]}


def showdown(decision: dict[str, Any], client: Client) -> dict[str, Any]:
    """Teen Patti's quickest end: ask for a show when offered, else play passively."""
    if any(option["kind"] == "show" for option in decision["actions"]):
        return {"kind": "show"}
    return passive(decision, client)


async def sit(client: Client, table: int, seat: int, buy_in: int = 100) -> None:
    """Watch ``table`` and sit at ``seat``; wait until the table says so."""
    mark = len(client.frames)
    await client.send({"type": "watch", "table": table})
    await client.send({"type": "sit", "table": table, "seat": seat, "buy_in": buy_in})
    await client.wait_for(
        lambda f: (
            f.get("type") == "error"
            or (
                f.get("type") == "event"
                and f["event"]["type"] == "player_sat"
                and f["event"]["seat"] == seat
            )
        ),
        after=mark,
    )
    errors = [f for f in client.frames[mark:] if f.get("type") == "error"]
    assert not errors, errors


def last_seq(client: Client, table: int) -> int:
    seqs = [f["seq"] for f in client.frames if f.get("table") == table and "seq" in f]
    return max(seqs, default=0)


def decision_of(client: Client, table: int) -> tuple[int, int, str, dict[str, Any]] | None:
    """The client's pending decision: (seq, hand, seat, decision), from its latest ``private``."""
    for frame in reversed(client.frames):
        if frame.get("table") != table:
            continue
        if frame.get("type") == "event":
            if frame["event"] is not None and frame["event"]["type"] in TABLE_EVENTS:
                continue  # seating news: the decision stands
            return None  # the hand moved on since the last private message
        if frame.get("type") in ("private", "snapshot"):
            if frame["type"] == "snapshot":
                hand = frame["view"]["hand"]
                if hand is None:
                    return None
                number, mine = hand["number"], hand["mine"]
            else:
                number, mine = frame["hand"], frame.get("mine") or {}
            for seat, facts in mine.items():
                if facts.get("decision"):
                    return frame["seq"], number, seat, facts["decision"]
            return None
    return None


async def play_hand(
    clients: list[Client], table: int, choose: Chooser = passive, *, timeout: float = 60.0
) -> Message:
    """Answer every decision until ``table``'s running (or next) hand ends; its end event."""
    marks = {id(c): len(c.frames) for c in clients}
    acted: set[tuple[int, int, int]] = set()
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        for client in clients:
            for frame in client.frames[marks[id(client)] :]:
                # Only this table's end: a client may be seated at several tables.
                event = frame.get("event") if frame.get("table") == table else None
                if (
                    frame.get("type") == "event"
                    and event is not None
                    and event["type"] in ("table_hand_ended", "hand_voided")
                ):
                    return dict(event)
        for client in clients:
            pending = decision_of(client, table)
            if pending is None:
                continue
            seq, hand, _seat, decision = pending
            key = (id(client), seq, hand)
            if key in acted:
                continue
            acted.add(key)
            action = choose(decision, client)
            await client.send(
                {
                    "type": "act",
                    "table": table,
                    "hand": hand,
                    "action": action,
                    "id": client.next_id(),
                }
            )
        await asyncio.sleep(0.01)
    raise AssertionError(f"table {table}: the hand did not end in {timeout} s")
