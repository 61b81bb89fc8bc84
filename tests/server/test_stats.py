"""Players' statistics as the room keeps them, against a count of its own from the stored hands.

House bots play a few hundred hands of each game in a real room; then this
test reads every finished hand's stored history and counts each player's
figures with a small counter of its own (written from docs/stats.md's
definitions, on the JSON, with none of the room's code), and the room's
sums must be equal to the chip. Ends with the ledger check (the ``db_url``
fixture).
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from typing import Any

import pytest

from pokerhouse.store import Store
from pokerhouse.store.sql import Context, Stmt, Unit, all_rows
from pokerhouse.store.stats import COUNTERS
from tests.server.conftest import Harness, serve, table
from tests.server.play import play_hand, sit

HANDS = 200
OPTIONS: dict[str, dict[str, Any]] = {
    "3x4": {"ante": 1, "small_bet": 2},
    "razz": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
    "teen-patti": {"ante": 1, "sideshow": True},
    "casino-holdem": {},
}
_BETTING = ("vpip", "pfr", "aggressive", "calls", "showdown", "showdown_won")
EXERCISED = {
    "3x4": _BETTING,
    "razz": _BETTING,
    "teen-patti": ("vpip", "aggressive", "calls", "showdown", "showdown_won", "blind", "seen"),
    "casino-holdem": ("vpip", "calls", "called", "showdown", "showdown_won"),
}
FINISHED = Stmt(
    "SELECT h.id, h.history, p.hand_seat, p.user_id, p.result FROM hands h "
    "JOIN hand_players p ON p.hand_id = h.id WHERE h.status = 'finished' "
    "ORDER BY h.id, p.hand_seat"
)


def count_hand(history: dict[str, Any]) -> list[dict[str, int]]:
    """Each seat's counters in one hand, read straight from its JSON history."""
    events = history["events"]
    game = history["game"]
    seats = len(events[0]["stacks"])
    counts = [dict.fromkeys(COUNTERS[2:], 0) for _ in range(seats)]
    out = [False] * seats
    looked = [False] * seats
    box_net = [0] * seats
    stake = int(history["spec"].get("ante") or 0)
    rounds = 0
    for event in events:
        kind = event["type"]
        if kind == "street_started":
            rounds += 1
        elif kind == "cards_looked":
            looked[event["seat"]] = True
        elif kind == "box_settled":
            box_net[event["seat"]] = event["net"]
        elif kind == "sideshow_compared":
            out[event["loser"]] = True
        elif kind == "action_taken":
            seat, action = event["seat"], event["action"]
            move, amount = action["kind"], action["amount"]
            mine = counts[seat]
            if move == "fold":
                out[seat] = True
            elif game == "casino-holdem":
                if move == "call":
                    mine["vpip"] = mine["calls"] = mine["called"] = mine["showdown"] = 1
            elif game == "teen-patti":
                if move in ("bet", "sideshow", "show"):
                    mine["vpip"] = 1
                    # The stake a blind bet of X sets is X, a seen one's X // 2.
                    new = (amount // 2 if looked[seat] else amount) if amount else 0
                    if move != "show" and new > stake:
                        stake = new
                        mine["aggressive"] += 1
                    else:
                        mine["calls"] += 1
                    if move == "show":
                        looked[seat] = True  # a blind asker looks once paid
            elif move in ("bet", "raise", "complete"):
                mine["aggressive"] += 1
                if rounds == 1:
                    mine["vpip"] = mine["pfr"] = 1
            elif move == "call":
                mine["calls"] += 1
                if rounds == 1:
                    mine["vpip"] = 1
    if game == "teen-patti":
        for seat in range(seats):
            counts[seat]["seen" if looked[seat] else "blind"] = 1
    assert events[-1]["type"] == "hand_ended"
    if game == "casino-holdem":
        for seat in range(seats):
            # Won: the box's Ante and Call settled above zero, its AA Bonus aside.
            won = counts[seat]["called"] and box_net[seat] > 0
            counts[seat]["showdown_won"] = int(won)
        return counts
    if seats - sum(out) >= 2:
        for seat in range(seats):
            counts[seat]["showdown"] = int(not out[seat])
        for event in events:
            if event["type"] == "pot_awarded":
                for seat, share in zip(event["winners"], event["shares"], strict=True):
                    if share > 0 and not out[seat]:
                        counts[seat]["showdown_won"] = 1
    return counts


async def counted(store: Store) -> dict[tuple[int, str], dict[str, int]]:
    """Every player's counters per game, counted from the stored histories."""

    def unit(ctx: Context) -> Unit[list[Any]]:
        return (yield all_rows(FINISHED))

    totals: dict[tuple[int, str], dict[str, int]] = defaultdict(lambda: dict.fromkeys(COUNTERS, 0))
    seen: dict[int, list[dict[str, int]]] = {}
    for hand_id, text, hand_seat, user, result in await store.database.read(unit):
        history = json.loads(text)
        if hand_id not in seen:
            seen[hand_id] = count_hand(history)
        mine = totals[user, history["game"]]
        mine["hands"] += 1
        mine["net"] += result
        for name, value in seen[hand_id][hand_seat].items():
            mine[name] += value
    return totals


@pytest.mark.slow
async def test_the_rooms_stats_equal_a_count_from_the_stored_hands(db_url: str) -> None:
    tables = [
        table(game, game, options=OPTIONS[game], seats=4, bots=4, bot_kind="random")
        for game in OPTIONS
    ]
    async with serve(db_url, tables) as room:
        deadline = asyncio.get_running_loop().time() + 600
        while True:
            played = await room.site.store.hands.played_per_table()
            if len(played) == len(OPTIONS) and min(played.values()) >= HANDS:
                break
            assert asyncio.get_running_loop().time() < deadline, f"hands played: {played}"
            await asyncio.sleep(0.5)
    # The room has stopped: its books and its hands are read as they were left.
    async with await Store.open(db_url) as store:
        totals = await counted(store)
        kept = {
            (user, stats.game): {name: getattr(stats, name) for name in COUNTERS}
            for user, _ in totals
            for stats in await store.stats.player(user)
        }
    assert {game for _, game in totals} == set(OPTIONS)
    assert kept == totals
    # Every counter of each game was exercised: a count that stayed at zero proves nothing.
    for game, wanted in EXERCISED.items():
        for name in wanted:
            assert sum(mine[name] for (_, played), mine in totals.items() if played == game), (
                game,
                name,
            )


async def test_the_stats_pages_and_the_leaderboard_over_http(room: Harness) -> None:
    table = room.table_id("3x4")
    ann, bob = await room.player(), await room.player()
    await sit(ann, table, 0, 500)
    await sit(bob, table, 1, 500)
    for _ in range(3):
        await play_hand([ann, bob], table)
    await room.settle()
    mine = (await ann.http.get("/api/me/stats")).json()
    (line,) = mine["games"]
    assert (mine["name"], mine["bot"], mine["period"]) == (ann.name, False, "all")
    assert line["game"] == "3x4" and line["hands"] == 3
    hands = [h for h in (await ann.http.get("/api/me/hands")).json()["hands"] if h["result"]
             is not None]  # fmt: skip
    assert line["net"] == sum(hand["result"] for hand in hands) and len(hands) == 3
    # Anyone may read a player's figures, signed in or not; the same figures.
    theirs = await bob.http.get(f"/api/players/{ann.name}/stats", params={"period": "week"})
    assert theirs.json()["games"] == mine["games"]
    board = await bob.http.get("/api/leaderboards/people", params={"game": "3x4", "least": 3})
    assert board.status_code == 200
    people = board.json()["people"]
    assert sorted(p["name"] for p in people) == sorted([ann.name, bob.name])
    assert sum(p["net"] for p in people) == 0 and people[0]["net"] >= people[1]["net"]
    more = await bob.http.get("/api/leaderboards/people", params={"game": "3x4", "least": 4})
    assert more.json()["people"] == []
    for path, params, status, code in [
        ("/api/me/stats", {"period": "decade"}, 400, "bad_period"),
        ("/api/players/nobody_here/stats", {}, 404, "unknown_user"),
        ("/api/leaderboards/people", {"game": "go-fish"}, 400, "bad_game"),
        ("/api/leaderboards/people", {"game": "3x4", "week": "2026-12-01"}, 400, "bad_week"),
        ("/api/leaderboards/people", {"game": "3x4", "least": "-1"}, 400, "bad_least"),
        ("/api/leaderboards/people", {"game": "3x4", "least": "²"}, 400, "bad_least"),
    ]:
        answer = await ann.http.get(path, params=params)
        assert (answer.status_code, answer.json()["code"]) == (status, code), path
    # The hands played together, for either of the two, with the asker's result.
    together = (await ann.http.get(f"/api/players/{bob.name}/hands", params={"limit": 2})).json()
    assert together["count"] == 3 and len(together["hands"]) == 2
    assert [hand["id"] for hand in together["hands"]] == [hand["id"] for hand in hands[:2]]
    assert [hand["result"] for hand in together["hands"]] == [hand["result"] for hand in hands[:2]]
    older = await ann.http.get(
        f"/api/players/{bob.name}/hands", params={"before": together["next"]}
    )
    assert [hand["id"] for hand in older.json()["hands"]] == [hands[2]["id"]]
    assert older.json()["next"] is None
    signed_out = await room.spectator()
    for path in ("/api/me/stats", f"/api/players/{bob.name}/hands"):
        answer = await signed_out.http.get(path)
        assert (answer.status_code, answer.json()["code"]) == (401, "login_required")
    answer = await ann.http.get(f"/api/players/{bob.name}/hands", params={"limit": 0})
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_limit")
