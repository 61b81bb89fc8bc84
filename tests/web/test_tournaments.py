"""Tournaments in the browser: the Tournaments tab, a tournament's page, registering, a
player taken to their table when the sit-and-go starts, and taken along when the
tournament moves them to another table, in English and Russian."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokerhouse.store import Store
from pokerhouse.tournament import Director, Register, Structure, TournamentSpec
from pokerhouse.tournament.orders import OpenTable, Start
from tests.conftest import FAST_HASHER
from tests.conftest import _run as run_async
from tests.server.process import START_SECONDS, ServeProcess
from tests.web.conftest import PHONE
from tests.web.pages import Person, act, axe_violations, person, register

ROOM = """
[room]
hand_pause = 0.5
bot_think = [0.0, 0.0]
sit_and_gos = ["teen-patti"]
sit_and_go_bots_after = 1000000
sit_and_go_structure = "hyper"

[[tables]]
name = "Razz 2/4, ante 1"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 2
min_buy_in = 40
max_buy_in = 1000
"""


def test_a_player_finds_registers_for_and_is_seated_in_a_sit_and_go(
    db_url: str,
    tmp_path: Path,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    room = ServeProcess(db_url, config)
    room.start(timeout=START_SECONDS)
    eve = person(browser, room.base)
    try:
        register(eve, "eve_sng")
        page = eve.page
        eve.goto("/tournaments")
        card = page.locator("article[data-tournament]").first
        card.wait_for()
        assert "Teen Patti" in card.inner_text() and "100 + 10" in card.inner_text()
        assert card.locator("button", has_text="Register").count() == 1
        assert axe_violations(eve, axe_source) == []
        screenshots(page, "tournaments-desktop")
        card.locator("a.button", has_text="Open").click()
        page.locator("#tournament-title").wait_for()
        assert page.locator("h2", has_text="Structure").count() == 1
        assert page.locator("td", has_text="eve_sng").count() == 0
        assert axe_violations(eve, axe_source) == []
        page.set_viewport_size(PHONE)
        screenshots(page, "tournament-phone")
        page.set_viewport_size({"width": 1280, "height": 800})
        # Registering fills the last seat: the sit-and-go starts, and eve is taken there.
        page.get_by_role("button", name="Register (110)").click()
        page.wait_for_url("**/#/table/*", timeout=60_000)
        strip = page.locator(".tournament-strip")
        strip.wait_for(timeout=60_000)
        page.wait_for_function(
            "() => /level \\d+/i.test(document.querySelector('.tournament-strip').textContent)"
        )
        page.locator(".seat.mine").first.wait_for(timeout=60_000)
        # No seat to take or leave by hand at a tournament's table.
        assert page.locator("button.sit-here").count() == 0
        assert axe_violations(eve, axe_source) == []
        screenshots(page, "tournament-table-desktop")
        # The same in Russian.
        page.select_option("#lang", "ru")
        strip.locator("text=Уровень").first.wait_for()
        assert eve.errors == []
    finally:
        eve.close()
        room.stop()


# Only the Razz cash table: the room opens no tournament of its own.
QUIET_ROOM = """
[room]
hand_pause = 0.3
bot_think = [0.0, 0.0]

[[tables]]
name = "Razz 2/4, ante 1"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 2
min_buy_in = 40
max_buy_in = 1000
"""
#: Four entrants at tables of two: two bots at table 1, the player and a second person
#: at table 2. The second person folds until out; once a bot is out too, the two tables
#: left hold one player each, and table 2 (the highest numbered of equal ones) breaks:
#: the player moves to table 1.
MOVE = TournamentSpec(
    "Razz move",
    "razz",
    "scheduled",
    Structure("razz", (4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256),
              level_seconds=None, level_hands=4, starting_stack=200),
    buy_in=100,
    fee=10,
    seats=2,
    min_entrants=2,
)  # fmt: skip
#: What the second person does: give up at once, else what is forced.
GIVE_UP = ("fold", "bring_in", "show_hand", "show", "check", "call")
#: What the player does: bet, so that the second person gives up before any showdown.
PRESS = ("complete", "bet", "raise", "call", "check", "show_hand", "show")


def drawn_together_at_table_two(entrants: list[tuple[str, int]], people: set[str]) -> int:
    """A seed whose draw seats ``people`` at table 2 (entrants register in order)."""
    for seed in range(1_000):
        director = Director(MOVE, seed=seed)
        for name, account in entrants:
            director.apply(Register(name, account, 0.0))
        opened = [o for o in director.apply(Start(0.0)) if isinstance(o, OpenTable)]
        if {s.player for o in opened if o.table == 2 for s in o.seats} == people:
            return seed
    raise AssertionError(f"no seed seats {people} at table 2")


async def enter_move_tournament(db_url: str, people: list[str]) -> int:
    """Two bots and ``people`` registered for :data:`MOVE`, drawn as it needs, starting in
    a few seconds; its id. Leased to the test while it registers them, so the room takes
    it once it is ready."""
    async with await Store.open(db_url, password_hasher=FAST_HASHER) as store:
        bots = [await store.create_user(f"mover{i}", None, bot=True, grant=1_000) for i in (1, 2)]
        users = bots + [await store.get_user(name) for name in people]
        entrants = [(user.username, user.id) for user in users]
        director = Director(MOVE, seed=drawn_together_at_table_two(entrants, set(people)))
        record = await store.tournaments.create(
            MOVE, starts_at=time.time() + 10, state=director.state
        )
        token = await store.tournaments.acquire(record.id, "test", seconds=60)
        assert token is not None
        for name, account in entrants:
            orders = director.apply(Register(name, account, time.time()))
            record = await store.tournaments.step(record, director.state, orders)
        await store.tournaments.release(record.id, "test", token)
        return record.id


def at_own_table(who: Person, name: str, tournament: int) -> int:
    """Open the tournament's page and get to one's table (taken there at the start, or by
    one's row's link); its id."""
    page = who.page
    who.goto(f"/tournament/{tournament}")
    page.locator("#tournament-title").wait_for()
    mine = page.locator("tr", has_text=name).locator("a[href^='#/table/']")
    deadline = time.monotonic() + 120
    while "#/table/" not in page.url:
        assert time.monotonic() < deadline, (
            f"{name} was never seated: {page.inner_text('main')[:2000]}"
        )
        if mine.count():
            mine.first.click()
        page.wait_for_timeout(250)
    page.locator(".tournament-strip").wait_for()
    return int(page.url.rsplit("/", 1)[1])


def test_a_player_moved_to_another_table_is_taken_there(
    db_url: str,
    tmp_path: Path,
    browser: Any,
    axe_source: str,
    screenshots: Callable[[Any, str], None],
) -> None:
    config = tmp_path / "room.toml"
    config.write_text(QUIET_ROOM)
    room = ServeProcess(db_url, config)
    room.start(timeout=START_SECONDS)
    eve, dan = person(browser, room.base), person(browser, room.base)
    try:
        register(eve, "eve_move")
        register(dan, "dan_move")
        tournament = int(run_async(enter_move_tournament(db_url, ["eve_move", "dan_move"])))
        first = at_own_table(eve, "eve_move", tournament)
        assert at_own_table(dan, "dan_move", tournament) == first
        # Dan gives up every hand; a bot busts at table 1; table 2 breaks, and Eve's page
        # follows her to table 1 by itself.
        deadline = time.monotonic() + 300
        while eve.page.url.endswith(f"/table/{first}"):
            assert time.monotonic() < deadline, "Eve was never moved"
            act(eve, PRESS)
            act(dan, GIVE_UP)
            eve.page.wait_for_timeout(100)
        moved_to = int(eve.page.url.rsplit("/", 1)[1])
        assert moved_to != first
        eve.page.locator(".seat.mine").first.wait_for(timeout=60_000)
        eve.page.locator(".tournament-strip").wait_for()
        assert axe_violations(eve, axe_source) == []
        screenshots(eve.page, "tournament-moved")
        assert eve.errors == [] and dan.errors == []
    finally:
        eve.close()
        dan.close()
        room.stop()
