"""The table page: its log across a reload, refusals in words, Russian names, show or muck,
one websocket message holding a step's messages, and a full stud table that fits.

Some of these drive the page with a websocket of the test's own
(Playwright's ``route_web_socket``): the page then gets exactly the frames a
test writes (a decision to show or muck in both its forms;
an eight-seat Razz table with seven cards in every hand) or the room's own
frames batched into arrays, as the room will send them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from tests.server.process import ServeProcess
from tests.web.conftest import DESKTOP, PHONE, TABLES, checked_room
from tests.web.mockroom import MockRoom, overlap, rects
from tests.web.pages import (
    Person,
    axe_violations,
    hand_over,
    notice_when_logged,
    person,
    play_hand,
    register,
    sit,
    table_frames,
    to_act,
    watch_notice,
)

#: How long the page keeps a refusal's notice by itself (``NOTICE_MS`` in pages/table.js).
NOTICE_MS = 8000

#: Records each text of the red notice, with the page's time (the first: the one it has now).
WATCH_NOTICE_CHANGES = """() => {
  const notice = document.querySelector('#table-notice');
  const changes = [{text: notice.textContent, at: performance.now()}];
  new MutationObserver(() => {
    const text = notice.textContent;
    if (text !== changes[changes.length - 1].text) changes.push({text, at: performance.now()});
  }).observe(notice, {subtree: true, childList: true, characterData: true});
  window.noticeChanges = changes;
}"""


@pytest.fixture
def own_room(db_url: str, tmp_path: Path) -> Iterator[ServeProcess]:
    """A room of the test's own: its table's seats are free whatever the module did before."""
    with checked_room(db_url, tmp_path) as server:
        yield server


def log_lines(who: Person) -> list[str]:
    lines: list[str] = who.page.eval_on_selector_all(
        "#log li", "els => els.map(e => e.textContent)"
    )
    return lines


def from_hand(lines: list[str], number: int) -> list[str]:
    start = lines.index(f"Hand #{number} begins")
    return lines[start:]


def test_the_hand_s_log_survives_a_reload_and_chips_wait_for_the_hand_s_end(
    room: ServeProcess, browser: Any
) -> None:
    table = TABLES["3x4"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, "ann_reload")
        register(bob, "bob_reload")
        sit(ann, table, 0, 100)
        sit(bob, table, 1, 100)
        # Two checks into hand 1: whoever acts first, then the other.
        first = to_act([ann, bob])
        for who in (first, bob if first is ann else ann):
            who.page.click("#action-bar button.act[data-kind='check']")
        taken = "document.querySelectorAll(\"#log li[data-event='action_taken']\").length"
        ann.page.wait_for_function(f"{taken} >= 2")
        before = from_hand(log_lines(ann), 1)
        assert len(before) >= 4
        ann.page.reload()
        ann.page.wait_for_selector("body[data-ready='1']")
        ann.page.wait_for_selector(".seat.mine .hole .card")
        ann.page.wait_for_function(f"document.querySelectorAll('#log li').length >= {len(before)}")
        after = from_hand(log_lines(ann), 1)
        assert after[: len(before)] == before, (before, after)
        assert len(after) == len(set(zip(range(len(after)), after, strict=True)))
        # Chips asked for during the hand are added when it is over (not refused).
        ann.page.click("#add-chips")
        ann.page.fill("#add-amount", "50")
        ann.page.click("form.sit-form button[type=submit]")
        ann.page.locator(
            "#log li", has_text="50 chips go to seat 1 when this hand is over"
        ).wait_for()
        play_hand([ann, bob], 1)
        ann.page.locator("#log li[data-event='chips_added']", has_text="50").wait_for()
        assert ann.page.inner_text("#table-notice") == ""
        # The lines after the reload follow on, each once.
        final = from_hand(log_lines(ann), 1)
        assert final[: len(before)] == before
        assert sum(line == "Hand #1 is over" for line in final) == 1
        assert ann.errors == [] and bob.errors == []
        # Both leave, so the module's later tests find the table's seats free.
        for who in (ann, bob):
            who.page.click("#leave")
        for who in (ann, bob):
            who.page.wait_for_selector(".seat.mine", state="detached")
    finally:
        ann.close()
        bob.close()


def test_my_hands_links_a_hand_in_play_to_its_table_and_replays_it_by_its_number(
    room: ServeProcess, browser: Any
) -> None:
    """A running hand is "in play" with a link to its table (no replay of a hand not over);
    once over it replays under its number at the table, not the room's id for it."""
    table = TABLES["razz"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, "ann_myhands")
        register(bob, "bob_myhands")
        sit(ann, table, 0, 100)
        sit(bob, table, 1, 100)
        ann.page.wait_for_selector("#log li[data-event='table_hand_started'][data-number='1']")
        ann.goto("/hands")
        row = ann.page.locator("table.data tbody tr").first
        row.wait_for()
        assert "in play" in row.inner_text()
        link = row.locator("a.in-play")
        assert link.get_attribute("href") == f"#/table/{table}"
        assert row.get_by_role("link", name="Replay").count() == 0
        link.click()
        ann.page.wait_for_selector(".seat.mine .hole .card")
        play_hand([ann, bob], 1)
        ann.goto("/hands")
        row = ann.page.locator("table.data tbody tr").first
        row.wait_for()
        assert "#1" in row.inner_text() and "in play" not in row.inner_text()
        replay = row.get_by_role("link", name="Replay hand #1")
        replay.click()
        title = ann.page.locator("#hand-title")
        title.filter(has_text="Razz, hand #1").wait_for()
        assert title.inner_text() == "Razz, hand #1"
        assert ann.page.title().startswith("Razz, hand #1")
        assert "voided" not in ann.page.inner_text("main")
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_refusals_are_in_words_with_the_page_s_seat_numbers(
    room: ServeProcess, browser: Any
) -> None:
    table = TABLES["casino-holdem"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, "ann_words")
        register(bob, "bob_words")
        ann.goto(f"/table/{table}")
        # Ann opens the buy-in form for box 5 (seat 4); Bob takes it first.
        ann.page.click(".seat.empty[data-seat='4'] button.sit-here")
        sit(bob, table, 4)
        ann.page.click("#sit-down")
        ann.page.locator("#table-notice", has_text="Box 5 is taken.").wait_for()
        # In Russian too, and the notice clears when the next request goes through.
        ann.page.select_option("#lang", "ru")
        ann.page.click(".seat.empty[data-seat='5'] button.sit-here")
        sit(bob, table, 5)
        ann.page.click("#sit-down")
        ann.page.locator("#table-notice", has_text="Бокс 6 занят.").wait_for()
        ann.page.click(".seat.empty[data-seat='0'] button.sit-here")
        watch_notice(ann, "player_sat")
        ann.page.click("#sit-down")
        ann.page.wait_for_selector(".seat.mine[data-seat='0']")
        assert notice_when_logged(ann, "player_sat") == ""
        # An AA Bonus above the ante is refused before it is sent, in words.
        ann.page.select_option("#lang", "en")
        ann.page.fill("#ante-0", "5")
        ann.page.fill("#bonus-0", "10")
        mark = len(ann.frames)
        ann.page.evaluate(WATCH_NOTICE_CHANGES)
        ann.page.click("button.place-bets")
        notice = ann.page.locator("#table-notice")
        notice.filter(has_text="Box 1: the AA Bonus is 0, or 1 up to the ante (5).").wait_for()
        ann.page.fill("#bonus-0", "5")
        ann.page.click("button.place-bets")
        # The refusal's own timer clears it NOTICE_MS after it was said; the bets going
        # through cleared it before that.
        ann.page.wait_for_function("window.noticeChanges.slice(1).some(c => c.text === '')")
        changes = ann.page.evaluate("window.noticeChanges")
        cleared = next(i for i, c in enumerate(changes) if i and c["text"] == "")
        said = changes[cleared - 1]
        assert said["text"] and changes[cleared]["at"] - said["at"] < NOTICE_MS, changes
        assert not [f for f in ann.frames[mark:] if f.get("type") == "error"]
        # The room's sentence counts seats from 0; the page says the seat as it numbers it.
        words = ann.page.evaluate(
            """async () => {
              const [{ refusalText }, i18n] = await Promise.all([
                import('./js/table/refusals.js'), import('./js/i18n.js')]);
              const view = { game: '3x4', table: { min_buy_in: 20, max_buy_in: 1000, spec: {} },
                             seats: [null, null, null, null, { stack: 80 }] };
              const ctx = { t: i18n.t, formatChips: i18n.formatChips };
              const message = 'seat 4 is in the hand: add chips after it';
              const error = { code: 'in_hand', message };
              const request = { type: 'add_chips', table: 1, seat: 4, amount: 50 };
              const english = refusalText(error, request, view, ctx);
              await i18n.setLanguage('ru');
              const russian = refusalText(error, request, view, ctx);
              await i18n.setLanguage('en');
              return [english, russian];
            }"""
        )
        assert words == [
            "Seat 5 is in a hand: chips are added when it is over.",
            "Место 5 в раздаче: фишки докупаются, когда она кончится.",
        ]
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_russian_names_tables_and_hands_in_russian(room: ServeProcess, browser: Any) -> None:
    ann = person(browser, room.base)
    try:
        ann.goto("/")
        ann.page.select_option("#lang", "ru")
        names = ann.page.locator(".table-card h2")
        names.filter(has_text="Казино").wait_for()
        assert names.all_inner_texts() == [
            "3x4 Безлимит, анте 1, ставка 2",
            "Разз 2/4, анте 1",
            "Тин Патти Безлимит, бут 1",
            "Казино Холдем, анте от 1 до 100",
        ]
        ann.page.click(".table-card[data-table='3'] h2 a")
        ann.page.locator("h1", has_text="Тин Патти Безлимит, бут 1").wait_for()
        # The room's default names are said again from the game and stakes; a name of the
        # table's own stays as it is.
        names = ann.page.evaluate(
            """async () => {
              const { tableName } = await import('./js/tablename.js');
              const i18n = await import('./js/i18n.js');
              await i18n.setLanguage('en');
              const spec = { ante: 1, limit: 'no-limit' };
              return [
                tableName({ name: 'Teen Patti No-Limit, ante 1', game: 'teen-patti', spec }),
                tableName({ name: 'Friday game', game: 'teen-patti', spec }),
              ];
            }"""
        )
        assert names == [
            {"name": "Teen Patti No-Limit, boot 1", "own": False},
            {"name": "Friday game", "own": True},
        ]
    finally:
        ann.close()


# ---------------------------------------------------------------- the page's own websocket


def stud_view(user: str, table: int) -> dict[str, Any]:
    """An eight-seat Razz table on seventh street: seven cards in every hand, long names."""
    seats = []
    for seat in range(8):
        mine = seat == 0
        cards = ["Ah", "2d", "3c", "4s", "5h", "6d", "7c"] if mine else [None, None]
        if not mine:
            cards += ["Kc", "Qd", "Jh", "Ts", None]
        seats.append(
            {
                "seat": seat,
                "player": user if mine else f"Konstantinopolsky_{seat}",
                "stack": 1234 * (seat + 1),
                "in_hand": True,
                "sitting_out": False,
                "leaving": False,
                "busted": False,
                "ante": 0,
                "bonus": 0,
                "bet": 4 if seat % 3 == 0 else 0,
                "cards": cards,
                "face_up": [False, False, True, True, True, True, False],
                "folded": False,
                "all_in": seat == 5,
            }
        )
    return {
        "game": "razz",
        "size": 8,
        "seq": 100,
        "hands_played": 4,
        "button": 3,
        "seats": seats,
        "hand": {
            "number": 5,
            "street": "seventh",
            "board": [],
            "pot": 120,
            "pots": [{"amount": 96, "eligible": list(range(8))}],
            "to_act": 3,
            "facts": {"current_bet": 4, "bets_and_raises": 1, "bring_in": None},
            "mine": {"0": {"hand_name": "7-5-4-3-2 low", "decision": None}},
        },
        "table": {
            "id": table,
            "name": "Razz 2/4, ante 1",
            "game": "razz",
            "title": "Razz",
            "spec": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4, "max_raises": 3},
            "min_buy_in": 40,
            "max_buy_in": 1000,
            "max_boxes": 1,
            "decision_seconds": 20,
            "time_bank_seconds": 10,
            "rake_bps": 0,
            "rake_cap": 0,
        },
        "bots": [1, 2, 3, 4, 5, 6, 7],
        "clock": None,
        "window": None,
    }


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_eight_stud_hands_of_seven_cards_fit_without_covering_each_other(
    room: ServeProcess, browser: Any, axe_source: str, screenshots: Any, viewport: dict[str, int]
) -> None:
    who = person(browser, room.base, viewport)
    name = f"ann_stud_{viewport['width']}"
    try:
        MockRoom(who, name, stud_view(name, TABLES["razz"]))
        register(who, name)
        who.goto(f"/table/{TABLES['razz']}")
        who.page.wait_for_selector(".felt.game-razz .seat.mine .hole .card")
        # Measured once the cards have stopped moving (a loaded machine deals them slowly).
        who.page.wait_for_function(
            "document.getAnimations().every(a => a.playState !== 'running'"
            " || a.effect.getTiming().iterations === Infinity)"
        )
        seats = rects(who, ".felt .seat")
        assert len(seats) == 8
        for a, b in combinations(seats, 2):
            assert not overlap(a, b), f"seat {a['seat']} and seat {b['seat']} overlap: {a} {b}"
        width = who.page.evaluate("document.documentElement.clientWidth")
        felt = rects(who, ".felt")[0]
        for card in rects(who, ".felt .seat .card"):
            assert card["left"] >= 0 and card["right"] <= width, card
            assert felt["left"] <= card["left"] and card["right"] <= felt["right"], (card, felt)
        # Every card's corner (rank and suit) is in sight: the next card starts after it.
        corners = who.page.eval_on_selector_all(
            ".felt .seat .hole .cards",
            "rows => rows.every(row => [...row.children].every((card, i, all) => i === 0 ||"
            " all[i].getBoundingClientRect().left - all[i - 1].getBoundingClientRect().left"
            " >= card.getBoundingClientRect().width * 0.45))",
        )
        assert corners
        assert who.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshots(who.page, f"razz-8-seats-{'phone' if viewport is PHONE else 'desktop'}")
        assert axe_violations(who, axe_source) == []
        assert who.errors == []
    finally:
        who.close()


def test_show_or_muck_when_the_room_offers_it(room: ServeProcess, browser: Any) -> None:
    who = person(browser, room.base)
    name = "ann_muck"
    try:
        view = stud_view(name, TABLES["razz"])
        view["hand"]["to_act"] = 0
        mock = MockRoom(who, name, view)
        register(who, name)
        who.goto(f"/table/{TABLES['razz']}")
        page = who.page
        page.wait_for_selector(".seat.mine")
        choice = {"hand_seat": 0, "stack": 50, "actions": [{"kind": "show_hand"}, {"kind": "muck"}]}
        # The room's decision at a showdown: show or muck.
        mock.private(choice)
        page.wait_for_selector("#action-bar button.act[data-kind='muck']")
        assert page.inner_text("#action-bar button.act[data-kind='show_hand']").startswith(
            "Show hand"
        )
        page.keyboard.press("m")
        mock.wait_sent(who, {"kind": "muck"})
        # Offered as kinds show and muck: Show hand sends the room's own kind back.
        mock.private(None)
        mock.private({**choice, "actions": [{"kind": "show"}, {"kind": "muck"}]})
        page.click("#action-bar button.act[data-kind='show_hand']")
        mock.wait_sent(who, {"kind": "show"})
        # With auto-muck on, a losing hand goes without a question.
        page.click("#table-settings summary")
        page.check("#setting-autoMuck")
        mock.private(None)
        count = len([m for m in mock.sent if m.get("type") == "act"])
        mock.private(choice)
        page.locator(".pre-note", has_text="Mucked without showing").wait_for()
        acts = [m for m in mock.sent if m.get("type") == "act"]
        assert len(acts) == count + 1 and acts[-1]["action"] == {"kind": "muck"}
        assert page.locator("#action-bar .actions").count() == 0
        assert who.errors == []
    finally:
        who.close()


def test_a_player_who_loses_at_the_showdown_is_offered_show_or_muck(
    own_room: ServeProcess, browser: Any
) -> None:
    room = own_room
    """In the real room: the loser of a 3x4 showdown gets Show hand and Muck; mucked, the
    hand's cards never reach the other player's page."""
    table = TABLES["3x4"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    try:
        register(ann, "ann_shows")
        register(bob, "bob_shows")
        sit(ann, table, 0, 100)
        sit(bob, table, 1, 100)
        mucked: tuple[int, Person, Person] | None = None
        for number in range(1, 9):
            ann.page.wait_for_selector(
                f"#log li[data-event='table_hand_started'][data-number='{number}']",
                timeout=60_000,
            )
            taken = play_hand([ann, bob], number, ("check", "call", "muck"))
            if "muck" in taken:
                loser = next(
                    who
                    for who in (ann, bob)
                    if any(m.get("action") == {"kind": "muck"} for m in who.sent)
                )
                mucked = (number, loser, bob if loser is ann else ann)
                break
        assert mucked is not None, "no showdown lost in eight hands of checking"
        number, loser, winner = mucked
        seat = 0 if loser is ann else 1
        for who in (ann, bob):  # one page may show the end before the other's frames have it
            who.page.wait_for_selector(
                f"#log li[data-event='table_hand_ended'][data-number='{number}']"
            )

        def this_hand(who: Person) -> list[dict[str, Any]]:
            """``who``'s event frames at the table from hand ``number``'s start to its end."""
            frames = [f for f in table_frames(who, table) if f.get("type") == "event"]
            kinds = [(f["event"]["type"], f["event"].get("number")) for f in frames]
            first = kinds.index(("table_hand_started", number))
            last = kinds.index(("table_hand_ended", number))
            return frames[first : last + 1]

        dealt = [
            card
            for f in this_hand(loser)
            if f["event"]["type"] == "cards_dealt" and f["event"]["seat"] == seat
            for card in f["event"]["cards"]
        ]
        assert dealt and all(dealt)
        theirs = this_hand(winner)
        shown = [
            f["event"]
            for f in theirs
            if f["event"]["type"] in ("hand_shown", "hand_mucked") and f["event"]["seat"] == seat
        ]
        assert [e["type"] for e in shown] == ["hand_mucked"], shown
        # The loser's cards of that hand reached the winner's page in none of its frames.
        seen = json.dumps(theirs)
        assert not [card for card in dealt if f'"{card}"' in seen]
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()


def test_one_message_may_hold_a_step_s_messages_as_an_array(
    own_room: ServeProcess, browser: Any
) -> None:
    room = own_room
    """The room's frames batched into arrays (a step's events, then its snapshot): all plays."""
    table = TABLES["razz"]
    ann, bob = person(browser, room.base), person(browser, room.base)
    arrays = {"frames": 0, "longest": 0}

    def batch(ws: Any) -> None:
        server = ws.connect_to_server()
        held: list[Any] = []

        def from_server(message: str | bytes) -> None:
            # The room's own arrays, taken apart and batched again differently: every
            # event held until the next message that is not one.
            for data in json.loads(message):
                held.append(data)
                if data.get("type") == "event":
                    continue  # the step goes on: its snapshot follows
                ws.send(json.dumps(held))
                arrays["frames"] += 1
                arrays["longest"] = max(arrays["longest"], len(held))
                held.clear()

        server.on_message(from_server)
        ws.on_message(lambda message: server.send(message))

    try:
        ann.page.route_web_socket("**/ws", batch)
        register(ann, "ann_batched")
        register(bob, "bob_batched")
        sit(ann, table, 0)
        sit(bob, table, 1)
        play_hand([ann, bob], 1, ("bring_in", "check", "call"))
        assert hand_over(ann, 1)
        ann.page.wait_for_selector(".felt.over")
        lines = log_lines(ann)
        assert "Hand #1 begins" in lines and "Hand #1 is over" in lines
        assert lines.count("Hand #1 is over") == 1  # each message handled once, in order
        assert arrays["frames"] > 10 and arrays["longest"] >= 3, arrays
        assert ann.errors == [] and bob.errors == []
    finally:
        ann.close()
        bob.close()
