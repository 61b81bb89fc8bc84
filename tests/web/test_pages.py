"""The rules, hand history and account pages in a real browser against a real ``serve``.

One ``pokerhouse serve`` subprocess on a fresh SQLite database serves the
module; two players play a Razz hand and a 3x4 hand over websockets (Bob
folds the Razz hand, so his down cards are never shown), then Ann opens her
pages in Chromium.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import shutil
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pokerhouse.cards import Card
from pokerhouse.history import replay
from pokerhouse.store import Store
from tests.conftest import check
from tests.server.conftest import Client
from tests.server.play import passive, play_hand, showdown, sit
from tests.server.process import ServeProcess
from tests.web.pages import Person, axe_violations

#: The ``screenshots`` fixture: save a page's picture by name.
Shooter = Callable[[Any, str], None]

GAMES = ["3x4", "razz", "teen-patti", "casino-holdem"]

ROOM = """
[room]
hand_pause = 0.2
bot_think = [0.0, 0.0]

[[tables]]
name = "Razz 2/4, ante 1"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000

[[tables]]
name = "3x4 No-Limit, ante 1, bet 2"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000

[[tables]]
name = "Teen Patti No-Limit, ante 1"
game = "teen-patti"
options = { ante = 1 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000

[[tables]]
name = "Casino Hold'em, ante 1 to 100"
game = "casino-holdem"
options = { min_ante = 1, max_ante = 100, max_payout = 10000 }
seats = 7
bots = 0
max_boxes = 3
min_buy_in = 20
max_buy_in = 1000
"""


def _run(coro: Any) -> Any:
    """Run a coroutine to its end on a loop of its own thread (pytest's loop may be running)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class Played:
    """What the module's room holds: the server, Ann's session and the hands she played."""

    def __init__(self, server: ServeProcess, db_url: str) -> None:
        self.server = server
        self.db_url = db_url
        self.cookies: list[dict[str, Any]] = []
        self.ann = ""
        self.bob = ""
        self.razz_hand = 0
        self.hands: dict[str, int] = {}  # a finished hand of each game Ann played
        self.hidden: set[str] = set()  # Bob's cards Ann was never shown


def folds_when_it_can(decision: dict[str, Any], client: Client) -> dict[str, Any]:
    if any(option["kind"] == "fold" for option in decision["actions"]):
        return {"kind": "fold"}
    return passive(decision, client)


async def _play(played: Played) -> None:
    base = played.server.base
    ann, bob = Client(base, "pages_ann"), Client(base, "pages_bob")
    try:
        for client in (ann, bob):
            await client.register()
            await client.connect()
        tables = (await ann.http.get("/api/tables")).json()["tables"]
        ids = {table["game"]: table["id"] for table in tables}
        for game in ("razz", "3x4"):
            await sit(ann, ids[game], 0, 100)
            await sit(bob, ids[game], 1, 100)

        def choose(decision: dict[str, Any], client: Client) -> dict[str, Any]:
            policy = folds_when_it_can if client is bob else passive
            return policy(decision, client)

        await play_hand([ann, bob], ids["razz"], choose)
        await _finished(ann, "razz")
        await play_hand([ann, bob], ids["3x4"])
        await _finished(ann, "3x4")
        await sit(ann, ids["teen-patti"], 0, 100)
        await sit(bob, ids["teen-patti"], 1, 100)
        await play_hand([ann, bob], ids["teen-patti"], showdown)
        await _finished(ann, "teen-patti")
        # Casino Hold'em: Ann's two boxes against the house, with the AA Bonus on one.
        casino = ids["casino-holdem"]
        await sit(ann, casino, 0, 200)
        await sit(ann, casino, 3, 200)
        for seat, bonus in ((0, 5), (3, 0)):
            await ann.send(
                {"type": "wager", "table": casino, "seat": seat, "ante": 10, "bonus": bonus}
            )
        await play_hand([ann], casino, lambda decision, client: {"kind": "call"})
        await _finished(ann, "casino-holdem")
        for table in ids.values():
            for client in (ann, bob):
                await client.send({"type": "leave", "table": table})
        for client in (ann, bob):  # each seat's chips are back in the wallet
            deadline = asyncio.get_running_loop().time() + 60
            while (await client.http.get("/api/me")).json()["seats"]:
                assert asyncio.get_running_loop().time() < deadline, f"{client.name} stays seated"
                await asyncio.sleep(0.1)
        hands = (await ann.http.get("/api/me/hands")).json()["hands"]
        for hand in reversed(hands):  # oldest first: the first hand of each game
            if hand["status"] == "finished":
                played.hands.setdefault(hand["game"], hand["id"])
        assert set(played.hands) == set(GAMES), played.hands
        played.razz_hand = played.hands["razz"]
        played.ann, played.bob = "pages_ann", "pages_bob"
        played.cookies = [
            {"name": name, "value": value, "url": base} for name, value in ann.http.cookies.items()
        ]
    finally:
        await ann.close()
        await bob.close()
    # Which of Bob's cards Ann never saw: from the server's own copy of the hand.
    store = await Store.open(played.db_url, upgrade=False)
    try:
        stored = await store.hands.get(played.razz_hand)
    finally:
        await store.close()
    assert stored.history is not None
    hand = replay(stored.history)
    bob_seat = next(i for i, seat in enumerate(stored.seats) if seat.table_seat == 1)
    seen_by_ann = set()
    for event in hand.events_for(1 - bob_seat):
        for card in getattr(event, "cards", None) or ():
            if card is not None:
                seen_by_ann.add(str(card))
    dealt_to_bob = {
        str(card)
        for event in hand.events
        if type(event).__name__ == "CardsDealt" and event.seat == bob_seat  # type: ignore[attr-defined]
        for card in event.cards  # type: ignore[attr-defined]
    }
    played.hidden = dealt_to_bob - seen_by_ann
    assert len(played.hidden) >= 2


async def _finished(client: Client, game: str, timeout: float = 10.0) -> None:
    """Wait until the player's hand list holds a finished hand of ``game``."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        hands = (await client.http.get("/api/me/hands")).json()["hands"]
        if any(h["game"] == game and h["status"] == "finished" for h in hands):
            return
        statuses = [(h["game"], h["number"], h["status"]) for h in hands]
        assert asyncio.get_running_loop().time() < deadline, f"no {game} hand ended: {statuses}"
        await asyncio.sleep(0.1)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[Played]:
    folder = tmp_path_factory.mktemp("pages")
    shutil.copy(sqlite_template, folder / "room.db")
    db_url = f"sqlite:///{folder / 'room.db'}"
    config = folder / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(db_url, config)
    server.start()
    result = Played(server, db_url)
    try:
        _run(_play(result))
        yield result
    finally:
        server.stop()
    report = _run(check(db_url))
    assert report.ok, report.summary()


def _page(
    browser: Any, played: Played, *, signed_in: bool, lang: str = "en", width: int = 1200
) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 900}, accept_downloads=True)
    if signed_in:
        context.add_cookies(played.cookies)
    context.add_init_script(f"localStorage.setItem('pokerhouse.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _open(page: Any, played: Played, path: str) -> None:
    page.goto(f"{played.server.base}/#{path}")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("main#view > *")


# ---------------------------------------------------------------- how to play

NAMES = {
    "en": {"As": "ace of spades", "Ah": "ace of hearts", "Kh": "king of hearts"},
    "ru": {"As": "туз пик", "Ah": "туз червей", "Kh": "король червей"},
}
LABELS = "cards => cards.map(card => card.getAttribute('aria-label'))"
CARD_NAME = {
    "en": (
        r"^(ace|king|queen|jack|ten|nine|eight|seven|six|five|four|three|two)"
        r" of (spades|hearts|diamonds|clubs)$"
    ),
    "ru": (
        r"^(туз|король|дама|валет|десятка|девятка|восьмёрка|семёрка|шестёрка|пятёрка"
        r"|четвёрка|тройка|двойка) (пик|червей|бубён|треф)$"
    ),
}
TITLES = {
    "en": {
        "3x4": ("How to play 3x4 Poker", "Straight flush", "Unlike Texas Hold'em"),
        "razz": ("How to play Razz", "5-4-3-2-A", "Unlike other stud games"),
        "teen-patti": ("How to play Teen Patti", "Trail", "Where these rules differ"),
        "casino-holdem": ("How to play Casino Hold'em", "Royal flush", "Where these rules differ"),
    },
    "ru": {
        "3x4": ("Как играть: Покер 3x4", "Стрит-флеш", "Чем отличается от техасского холдема"),
        "razz": ("Как играть: Разз", "5-4-3-2-A, колесо", "Чем отличается от других стадов"),
        "teen-patti": ("Как играть: Тин Патти", "Трейл", "В чём эти правила особые"),
        "casino-holdem": ("Как играть: Казино Холдем", "Роял-флеш", "В чём эти правила особые"),
    },
}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_rules_page_with_the_ranking_drawn_in_named_cards(
    browser: Any, played: Played, game: str, lang: str
) -> None:
    page = _page(browser, played, signed_in=False, lang=lang)
    _open(page, played, f"/rules/{game}")
    title, best, differs = TITLES[lang][game]
    assert page.locator("h1").inner_text() == title
    hands = page.locator(".ranking .hands > li")
    assert hands.count() >= 8
    assert hands.first.locator(".hand-name").inner_text() == best
    # Every card of the ranking is drawn and named for a screen reader, in this language.
    labels = page.locator(".ranking .card").evaluate_all(LABELS)
    assert len(labels) >= 3 * 8 and all(labels)
    assert all(re.match(CARD_NAME[lang], label) for label in labels), labels
    assert page.get_by_role("heading", name=differs).count() == 1
    # No catalogue key shows through untranslated, and nothing failed.
    text = page.locator("main").inner_text()
    assert not re.search(r"\brules\.[a-z-]+\.", text), text
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_the_rules_pages_say_the_rule_book_s_figures(
    browser: Any, played: Played, screenshots: Shooter
) -> None:
    page = _page(browser, played, signed_in=False)
    _open(page, played, "/rules/casino-holdem")
    tables = page.locator("table.pay-table")
    assert tables.count() == 3
    ante = [row.split("\t") for row in tables.nth(0).locator("tbody").inner_text().splitlines()]
    assert ante == [
        ["Royal flush", "100:1"], ["Straight flush", "20:1"], ["Four of a kind", "10:1"],
        ["Full house", "3:1"], ["Flush", "2:1"], ["Straight or lower", "1:1"],
    ]  # fmt: skip
    assert "7:1" in tables.nth(1).inner_text()
    common = tables.nth(2).locator("tbody td").all_inner_texts()
    assert common == ["100:1", "50:1", "40:1", "30:1", "20:1", "7:1"]
    text = page.locator("main").inner_text()
    for figure in ("pair of fours", "2.16%", "82%", "75.8%", "exactly twice the ante"):
        assert figure in text, figure
    _open(page, played, "/rules/teen-patti")
    order = page.locator(".ranking .hand-name").all_inner_texts()
    assert order[:6] == [
        "Trail", "Pure sequence, A-2-3", "Pure sequence, A-K-Q", "Sequence", "Colour", "Pair",
    ]  # fmt: skip
    assert "K-A-2" in page.locator("main").inner_text()
    _open(page, played, "/rules/razz")
    text = page.locator("main").inner_text()
    for words in ("5-4-3-2-A", "straights and flushes do not count", "king of spades"):
        assert words in text, words
    screenshots(page, "rules-razz-desktop")
    page.context.close()
    phone = _page(browser, played, signed_in=False, lang="ru", width=360)
    _open(phone, played, "/rules/teen-patti")
    # Nothing wider than the phone: the page never scrolls sideways.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    screenshots(phone, "rules-teen-patti-phone-ru")
    phone.context.close()


# ---------------------------------------------------------------- my hands and the replayer


def test_my_hands_lists_the_hands_and_the_replayer_steps_through_one(
    browser: Any, played: Played, screenshots: Shooter
) -> None:
    page = _page(browser, played, signed_in=True)
    _open(page, played, "/hands")
    rows = page.locator("table.data tbody tr")
    rows.first.wait_for()
    assert rows.count() >= 2
    games = page.locator("table.data tbody td:nth-child(2)").all_inner_texts()
    assert "Razz" in games and "3x4 Poker" in games
    page.locator(f'tr[data-hand="{played.razz_hand}"] a').click()
    replayer = page.locator(".replayer")
    replayer.wait_for()
    counter = page.locator(".replay-counter")
    total = int(re.search(r"of (\d+)", counter.inner_text()).group(1))  # type: ignore[union-attr]
    assert total > 8
    assert counter.inner_text() == f"Step 1 of {total}"
    # Step with the buttons, then the keyboard alone.
    page.get_by_role("button", name="Step forward").click()
    assert counter.inner_text() == f"Step 2 of {total}"
    replayer.focus()
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    assert counter.inner_text() == f"Step 8 of {total}"
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text() == f"Step 7 of {total}"
    page.keyboard.press("End")
    assert counter.inner_text() == f"Step {total} of {total}"
    assert page.locator(".replay-said").inner_text() == "The hand is over."
    # Ann's own cards are face up to her; Bob's down cards are backs, named as such.
    labels = page.locator(".replay-table .card").evaluate_all(LABELS)
    assert "face-down card" in labels
    names = {label for label in labels if label != "face-down card"}
    assert not {_name(card) for card in played.hidden} & names
    assert not set(played.hidden) & set(
        page.locator(".replay-table .card[data-card]").evaluate_all(
            "cards => cards.map(card => card.dataset.card)"
        )
    )
    page.keyboard.press("Home")
    assert counter.inner_text() == f"Step 1 of {total}"
    page.keyboard.press("End")
    page.wait_for_selector(".replay-equity:not([hidden]) table.equity-table")
    screenshots(page, "replayer-desktop")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
    phone = _page(browser, played, signed_in=True, lang="ru", width=360)
    _open(phone, played, f"/hands/{played.razz_hand}?step=7")
    phone.locator(".replayer").wait_for()
    assert phone.locator(".replay-counter").inner_text() == f"Шаг 8 из {total}"
    screenshots(phone, "replayer-phone-ru")
    phone.context.close()


RANK_NAMES = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack"]
RANK_NAMES += ["queen", "king", "ace"]


@pytest.mark.parametrize("game", GAMES)
def test_the_replayer_plays_a_hand_of_each_game_to_its_end(
    browser: Any, played: Played, screenshots: Shooter, game: str
) -> None:
    page = _page(browser, played, signed_in=True)
    _open(page, played, f"/hands/{played.hands[game]}")
    page.locator(".replayer").focus()
    page.keyboard.press("End")
    assert page.locator(".replay-said").inner_text() == "The hand is over."
    steps = page.locator(".replay-log li").all_inner_texts()
    assert not [step for step in steps if step.startswith("hands.") or step.endswith("_")]
    document = page.evaluate(f"fetch('/api/hands/{played.hands[game]}').then(r => r.json())")
    # The last picture's stacks are the history's finishing stacks.
    stacks = page.locator(".replay-seat .seat-chips").all_inner_texts()
    finishing = document["history"]["finishing_stacks"]
    assert [int(re.sub(r"\D", "", text.split("·")[0])) for text in stacks] == finishing
    if game == "3x4":
        assert page.locator(".replay-board .card").count() == 4
    if game == "casino-holdem":
        assert page.locator(".replay-dealer .card[data-card]").count() == 2
        assert any("AA Bonus" in step for step in steps)
    if game == "teen-patti":
        assert "current stake" in page.locator(".replay-pot").inner_text()
        badges = page.locator(".replay-seat .badge").all_inner_texts()
        assert "blind" in badges or "seen" in badges
    # The analysis: every street's equity for the hands this player may see, in figures too.
    page.wait_for_selector(".replay-equity:not([hidden]) table.equity-table")
    rows = page.locator(".equity-table tbody tr")
    assert rows.count() >= 1
    assert page.locator(".equity-table tbody tr.current").count() == 1
    assert page.locator(".replay-seat .seat-equity").count() >= 1
    screenshots(page, f"replayer-{game}-desktop")
    page.keyboard.press("Home")
    assert page.locator(".replay-counter").inner_text().startswith("Step 1 of")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def _name(card: str) -> str:
    ranks = dict(zip("23456789TJQKA", RANK_NAMES, strict=True))
    suits = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
    return f"{ranks[card[0]]} of {suits[card[1]]}"


def test_the_downloads_hold_only_what_the_player_was_shown(
    browser: Any, played: Played, tmp_path: Path
) -> None:
    page = _page(browser, played, signed_in=True)
    _open(page, played, f"/hands/{played.razz_hand}")
    page.locator(".downloads a").first.wait_for()
    files: dict[str, str] = {}
    for label in ("JSON", "PHH (Razz)", "Text"):
        with page.expect_download() as info:
            page.get_by_role("link", name=label).click()
        download = info.value
        target = tmp_path / download.suggested_filename
        download.save_as(target)
        files[label] = target.read_text()
    assert set(files) == {"JSON", "PHH (Razz)", "Text"}
    document = json.loads(files["JSON"])
    assert document["id"] == played.razz_hand and document["history"]["view"] == document["you"]
    phh = tomllib.loads(files["PHH (Razz)"])
    assert phh["variant"] == "FR" and played.ann in phh["players"]
    assert played.ann in files["Text"]
    shown = {
        "JSON": set(re.findall(r'"([2-9TJQKA][cdhs])"', files["JSON"])),
        "PHH (Razz)": {
            text[i : i + 2]
            for line in phh["actions"]
            for text in line.split()
            if re.fullmatch(r"([2-9TJQKA?][cdhs?])+", text)
            for i in range(0, len(text), 2)
        },
        "Text": set(re.findall(r"\b[2-9TJQKA][cdhs]\b", files["Text"])),
    }
    for label, found in shown.items():
        assert found, f"{label} shows no card at all"
        assert not found & played.hidden, f"{label} shows {sorted(found & played.hidden)}"
        # Card.parse raises on anything that is not a card; the card 2c is the int 0.
        assert all(card == "??" or isinstance(Card.parse(card), Card) for card in found)
    assert "??" in shown["PHH (Razz)"]  # Bob's down cards, written as unknown
    page.context.close()


# ---------------------------------------------------------------- the account


def test_the_account_shows_balance_statement_and_a_chart_with_its_words(
    browser: Any, played: Played, screenshots: Shooter
) -> None:
    page = _page(browser, played, signed_in=True)
    _open(page, played, "/account")
    page.locator(".statement").wait_for()
    me = page.evaluate("fetch('/api/me').then(r => r.json())")
    assert page.locator('[data-figure="wallet"]').inner_text() == f"{me['wallet']:,}"
    kinds = page.locator(".statement tbody td:nth-child(2)").all_inner_texts()
    assert "Welcome chips" in kinds and "Buy-in" in kinds and "Cash-out" in kinds
    screenshots(page, "account-desktop")
    chart = page.locator("svg.chart")
    assert chart.get_attribute("role") == "img"
    assert chart.locator("path.line").count() == 1
    summary = page.locator("#chart-summary").inner_text()
    assert "10,000" in summary and f"{me['wallet']:,}" in summary
    # A top-up is refused while the wallet is not low: the page says why, nothing moves.
    page.get_by_role("button", name="Top up to 10,000").click()
    message = page.locator(".top-up-message")
    message.filter(has_text="fewer than 1,000 chips").wait_for()
    assert page.locator('[data-figure="wallet"]').inner_text() == f"{me['wallet']:,}"
    # Russian: the same page, words and numbers in Russian.
    page.select_option("#lang", "ru")
    page.get_by_role("heading", name="Мой счёт").wait_for()
    assert "Приветственные фишки" in page.locator(".statement").inner_text()
    assert re.search(r"10[\u00a0\u202f ]000", page.locator("#chart-summary").inner_text())
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


# ---------------------------------------------------------------- accessibility


@pytest.mark.parametrize(
    ("path", "signed_in", "width"),
    [
        *((f"/rules/{game}", False, 1200) for game in GAMES),
        ("/rules/razz", False, 360),
        ("/hands", True, 1200),
        ("/hands", True, 360),
        ("/hands/{razz}", True, 1200),
        ("/hands/{razz}", True, 360),
        ("/account", True, 1200),
        ("/account", True, 360),
    ],
)
def test_the_pages_have_no_serious_accessibility_violation(
    browser: Any, played: Played, axe_source: str, path: str, signed_in: bool, width: int
) -> None:
    page = _page(browser, played, signed_in=signed_in, width=width)
    _open(page, played, path.format(razz=played.razz_hand))
    page.wait_for_selector(".ranking, table.data, .replayer, .statement")
    if path.startswith("/hands/"):  # the replayer with its analysis come
        page.wait_for_selector(".replay-equity:not([hidden]) table.equity-table")
    violations = axe_violations(Person(page.context, page, played.server.base), axe_source)
    assert violations == [], violations
    if width <= 360:  # usable on a phone: nothing makes the page scroll sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.context.close()


def test_the_lobby_links_each_table_s_game_to_its_rules(browser: Any, played: Played) -> None:
    page = _page(browser, played, signed_in=False)
    _open(page, played, "/")
    page.locator(".table-card").first.wait_for()
    links = page.locator(".table-card a.game-tag")
    hrefs = set(links.evaluate_all("links => links.map(link => link.getAttribute('href'))"))
    assert hrefs == {f"#/rules/{game}" for game in GAMES}
    page.locator(".table-card.game-razz a.game-tag").click()
    page.get_by_role("heading", name="How to play Razz").wait_for()
    page.context.close()
