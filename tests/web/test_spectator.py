"""A spectator sees no hole card: not in the page, not in any frame it was sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.conftest import TABLES, start_room
from tests.web.pages import person


def cards_in(value: Any) -> set[str]:
    """Every card-like string (``"As"``) anywhere in a frame."""
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= cards_in(item)
    elif (
        isinstance(value, str)
        and len(value) == 2
        and value[0] in "23456789TJQKA"
        and value[1] in "shdc"
    ):
        found.add(value)
    return found


def public_cards(event: dict[str, Any]) -> set[str]:
    """The cards an event shows everyone: the board, face-up cards, hands shown."""
    kind = event["type"]
    if kind == "board_dealt":
        return set(event["cards"])
    if kind == "cards_dealt":
        return {c for c, up in zip(event["cards"], event["face_up"], strict=True) if up and c}
    if kind == "hand_shown":
        return set(event["cards"])
    return set()


def test_a_spectator_sees_no_hole_card(db_url: str, tmp_path: Path, browser: Any) -> None:
    room = start_room(db_url, tmp_path, pause=0.5, bots=2)
    eve = person(browser, room.base)
    try:
        table = TABLES["3x4"]
        eve.goto(f"/table/{table}")
        page = eve.page
        # A whole hand from its deal to its end, watched.
        started = page.wait_for_selector("#log li[data-event='table_hand_started']", timeout=60_000)
        number = started.get_attribute("data-number")
        page.wait_for_selector(
            f"#log li[data-event='table_hand_ended'][data-number='{number}']", timeout=60_000
        )
        # The page: every card drawn face up is one that was shown (read first: the frames
        # that showed them are all in by the time the frames are read below).
        drawn = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
        # In order: a card may appear in a frame only once an event showed it to everyone.
        # (From the first deal Eve saw: a hand she walked in on may have shown cards before.)
        first = next(
            index
            for index, frame in enumerate(eve.frames)
            if frame.get("type") == "event"
            and (frame["event"] or {}).get("type") == "table_hand_started"
        )
        shown: set[str] = set()
        hole_seen_as_hidden = 0
        for frame in eve.frames[first:]:
            if frame.get("type") == "event" and frame["event"]:
                event = frame["event"]
                shown |= public_cards(event)
                if event["type"] == "cards_dealt":
                    hole_seen_as_hidden += sum(1 for c in event["cards"] if c is None)
            leaked = cards_in(frame) - shown
            assert not leaked, (frame.get("type"), leaked)
        assert hole_seen_as_hidden >= 6  # two players' three hole cards came, face down
        assert drawn <= shown
        assert page.locator("#action-bar .actions").count() == 0
        assert eve.errors == []
    finally:
        eve.close()
        room.stop()
