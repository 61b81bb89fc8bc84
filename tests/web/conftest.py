"""Browser tests: Debian's Chromium driven by Playwright against a real ``pokerhouse serve``.

Each test gets a fresh SQLite database and its own ``serve`` subprocess on a
free port, with a room whose bots (if any) act at once and whose clocks are
short. Chromium is the system's (``/usr/bin/chromium``; never a downloaded
build); axe-core comes from npm (``.ci/run`` installs it under ``.ci/node``).
Without either the tests are skipped, except on CI (``CI=true``), where
that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import _run, check
from tests.server.process import START_SECONDS, ServeProcess

CHROMIUM = Path(os.environ.get("POKERHOUSE_CHROMIUM", "/usr/bin/chromium"))
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(
    os.environ.get("POKERHOUSE_AXE")
    or ROOT / ".ci" / "node" / "node_modules" / "axe-core" / "axe.min.js"
)
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PASSWORD = "correct horse battery"

#: One two-seat table of each game (Casino Hold'em: seven boxes, three a player), no bots.
#: The decision clocks are the room's own: a closed page's seat times out and frees its
#: seat for the module's next test.
ROOM = """
[room]
hand_pause = {pause}
bot_think = [0.0, 0.0]
window_seconds = 3

[[tables]]
name = "3x4 No-Limit, ante 1, bet 2"
game = "3x4"
options = {{ ante = 1, small_bet = 2 }}
seats = {seats}
bots = {bots}
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 20
time_bank_seconds = 10

[[tables]]
name = "Razz 2/4, ante 1"
game = "razz"
options = {{ ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }}
seats = 2
min_buy_in = 40
max_buy_in = 1000
decision_seconds = 20
time_bank_seconds = 10

[[tables]]
name = "Teen Patti No-Limit, boot 1"
game = "teen-patti"
options = {{ ante = 1 }}
seats = 2
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 20
time_bank_seconds = 10

[[tables]]
name = "Casino Hold'em, ante 1 to 100"
game = "casino-holdem"
options = {{ min_ante = 1, max_ante = 100, max_payout = 10000 }}
seats = 7
max_boxes = 3
min_buy_in = 20
max_buy_in = 1000
decision_seconds = 20
time_bank_seconds = 10
"""


TABLES = {"3x4": 1, "razz": 2, "teen-patti": 3, "casino-holdem": 4}


def _on_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def _need(ok: bool, what: str) -> None:
    if ok:
        return
    if _on_ci():
        pytest.fail(f"CI=true but {what} is missing")
    pytest.skip(f"{what} is missing: the browser tests are skipped")


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """A fresh SQLite database (the browser tests run on SQLite only); checked after the test."""
    path = tmp_path / "room.db"
    shutil.copy(sqlite_template, path)
    return f"sqlite:///{path}"


def start_room(
    db_url: str,
    tmp_path: Path,
    *,
    pause: float = 1.0,
    bots: int = 0,
    seats: int | None = None,
    config: str | None = None,
) -> ServeProcess:
    """``pokerhouse serve`` on a free port over ``db_url`` with the test room.

    ``pause`` is the room's pause between hands; the 3x4 table has ``seats``
    seats (default two more than its ``bots``). ``config``: a room.toml of
    the caller's own instead.
    """
    path = tmp_path / "room.toml"
    seats = 2 + bots if seats is None else seats
    path.write_text(config or ROOM.format(pause=pause, seats=seats, bots=bots))
    server = ServeProcess(db_url, path)
    server.start(timeout=START_SECONDS)
    return server


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path) -> Iterator[ServeProcess]:
    """The test room, served for one test module (its tests use tables or names of their own).

    Starting a room is most of a browser test's time on a loaded machine, so a
    module shares one; the ledger check runs when the module is done with it.
    """
    folder = tmp_path_factory.mktemp("web-room")
    path = folder / "room.db"
    shutil.copy(sqlite_template, path)
    with checked_room(f"sqlite:///{path}", folder) as server:
        yield server


@contextlib.contextmanager
def checked_room(
    db_url: str,
    folder: Path,
    *,
    pause: float = 1.0,
    seats: int | None = None,
    config: str | None = None,
) -> Iterator[ServeProcess]:
    """The test room (or the room.toml ``config``) served over ``db_url``; stopped, then
    its ledger checked."""
    server = start_room(db_url, folder, pause=pause, seats=seats, config=config)
    try:
        yield server
    finally:
        server.stop()
    report = _run(check(db_url))
    assert report.ok, report.summary()


def module_room(
    tmp_path_factory: pytest.TempPathFactory,
    sqlite_template: Path,
    *,
    pause: float = 1.0,
    seats: int | None = None,
    config: str | None = None,
) -> Iterator[ServeProcess]:
    """A test room of a module's own (a longer pause, more seats at 3x4, or the room.toml
    ``config``), checked after."""
    folder = tmp_path_factory.mktemp("web-room")
    path = folder / "room.db"
    shutil.copy(sqlite_template, path)
    with checked_room(
        f"sqlite:///{path}", folder, pause=pause, seats=seats, config=config
    ) as server:
        yield server


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless.

    Package-scoped, not session-scoped: Playwright's sync API keeps an event
    loop running in the main thread while it is open, and the doctests and
    async tests that run after the browser tests need the thread's loop free.
    """
    _need(CHROMIUM.exists(), str(CHROMIUM))
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the test extra installs it
        _need(False, "playwright (pip)")
        raise
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script, to inject into a page."""
    _need(AXE.is_file(), f"axe-core ({AXE})")
    return AXE.read_text()


@pytest.fixture
def screenshots(tmp_path: Path) -> Callable[[Any, str], None]:
    """Save a page's screenshot as NAME.png: into POKERHOUSE_SCREENSHOTS, or a tmp folder."""
    folder = Path(os.environ.get("POKERHOUSE_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)

    def save(page: Any, name: str) -> None:
        # From the top of the page, as one arrives; a phone's picture is the whole page, taken
        # in a window as tall as the page (so what stays in sight while one scrolls, the action
        # bar at one's turn, is drawn where it stands in the page, not over the middle of it).
        page.evaluate("window.scrollTo(0, 0)")
        size = page.viewport_size
        if size["width"] >= 600:
            page.screenshot(path=str(folder / f"{name}.png"))
            return
        tall = page.evaluate("document.documentElement.scrollHeight")
        page.set_viewport_size({"width": size["width"], "height": max(size["height"], tall)})
        try:
            page.wait_for_timeout(100)
            page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        finally:
            page.set_viewport_size(size)

    return save
