"""A ``pokerhouse serve`` killed with SIGKILL mid-tournament carries it on when it restarts,
with every tournament clock stood still while it was down (RULES.md, "Tournaments")."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from pokerhouse.store import Store
from pokerhouse.tournament import Director, Register, Structure, TournamentSpec
from tests.conftest import FAST_HASHER
from tests.server.process import ServeProcess, ledger_check

pytestmark = pytest.mark.slow

ROOM = """
[room]
hand_pause = 0.0
bot_think = [{low}, {high}]
sit_and_gos = []
scheduled_games = []

[[tables]]
name = "Razz cash"
game = "razz"
options = {{ ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }}
seats = 2
bots = 0
"""

#: Longer than the most the room goes without saving its clock (SAVE_SECONDS, 10 s).
DOWN_SECONDS = 14.0


async def saved(url: str, tournament: int) -> tuple[str, float, int]:
    """The tournament as the store has it: status, seconds played, hands."""
    async with await Store.open(url, password_hasher=FAST_HASHER, upgrade=False) as store:
        record = await store.tournaments.get(tournament)
        state = record.state()
        return record.status, state.played, state.hands


async def wait_for(url: str, tournament: int, test: object, timeout: float = 300.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        found = await saved(url, tournament)
        if test(*found):  # type: ignore[operator]
            return
        assert time.monotonic() < deadline, f"tournament {tournament} is at {found}"
        await asyncio.sleep(0.5)


async def test_a_tournament_killed_mid_way_carries_on_with_its_clock_stood_still(
    db_url: str, tmp_path: Path
) -> None:
    structure = Structure(
        "razz", (4, 8, 12, 20, 40, 80, 160, 320, 640), level_seconds=20, starting_stack=200
    )
    spec = TournamentSpec(
        "Night Razz", "razz", "scheduled", structure, buy_in=100, fee=10, seats=6,
        min_entrants=2,
    )  # fmt: skip
    async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
        record = await store.tournaments.create(spec, starts_at=time.time() + 1)
        director = Director(spec, state=record.state())
        for index in range(12):
            bot = await store.users.create(f"night_bot{index}", None, bot=True)
            orders = director.apply(Register(bot.username, bot.id))
            record = await store.tournaments.step(record, director.state, orders)
    config = tmp_path / "room.toml"
    config.write_text(ROOM.format(low=0.2, high=0.3))
    server = ServeProcess(db_url, config)
    server.start()
    try:
        await wait_for(db_url, record.id, lambda status, played, hands: hands >= 4)
        _, played_before, hands_before = await saved(db_url, record.id)
        read_at = time.monotonic()
        await asyncio.sleep(1.0)
        killed_at = time.monotonic()
        server.kill()
    except BaseException:
        server.stop()
        raise
    status, played_killed, _ = await saved(db_url, record.id)
    assert status == "running" and played_killed >= played_before
    await ledger_check(db_url)
    await asyncio.sleep(DOWN_SECONDS)
    config.write_text(ROOM.format(low=0.0, high=0.0))
    restarted_at = time.monotonic()
    server.start()
    try:
        await wait_for(db_url, record.id, lambda status, played, hands: hands >= hands_before + 3)
        checked_at = time.monotonic()
        _, played_after, _ = await saved(db_url, record.id)
        # What ran before the kill was saved at most 10 s late; the time down is not played.
        ran = (killed_at - read_at) + (checked_at - restarted_at) + 10.0
        assert played_after - played_before <= ran, (played_after - played_before, ran)
        # Had the time down been played, the clock would be past that bound by this much.
        assert (checked_at - read_at) - (ran - 10.0) >= DOWN_SECONDS
        await wait_for(db_url, record.id, lambda status, played, hands: status == "finished")
    finally:
        server.stop()
    async with await Store.open(db_url, password_hasher=FAST_HASHER, upgrade=False) as store:
        entries = await store.tournaments.entries(record.id)
        assert sum(entry.prize for entry in entries) == 1_200
        assert all(entry.place is not None for entry in entries)
        assert await store.ledger.balance((await store.tournaments.get(record.id)).pool) == 0
    await ledger_check(db_url)
