"""A real room on a real socket: uvicorn serving the app on a free loopback port.

The room runs in the test's event loop with a manual clock (tests move time
by hand to run out a decision or a betting window) and no pauses; clients
talk to it over real HTTP and real websockets. Every test ends with the
ledger check of the shared ``db_url`` fixture.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import json
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from pokerhouse.server.app import create_app
from pokerhouse.server.http.guards import uvicorn_options
from pokerhouse.server.runtime.clock import ManualClock
from pokerhouse.server.runtime.listener import listening_socket
from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.site import Site
from pokerhouse.server.socket.incoming import MAX_SOCKET_FRAME
from pokerhouse.store import TableConfig
from tests.conftest import FAST_HASHER
from tests.server.process import START_SECONDS

Message = dict[str, Any]
_names = itertools.count(1)
_act_ids = itertools.count(1)


class Client:
    """One player (or spectator): an HTTP session and a websocket, every frame kept."""

    def __init__(self, base: str, name: str | None) -> None:
        self.base = base
        self.name = name
        self.http = httpx.AsyncClient(base_url=base, timeout=30)
        self.ws: Any = None
        self.frames: list[Message] = []
        #: Websocket messages received (each carries one or more of ``frames``).
        self.writes = 0
        self._arrived = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        # Act ids must not repeat across a player's sockets: a reused id is a resend.
        self._ids = _act_ids
        #: A bot account's API token: sent as ``Authorization: Bearer`` instead of cookies.
        self.token: str | None = None

    def signed_in_as_bot(self, token: str) -> None:
        """From now on, this client is the bot account of ``token`` (HTTP and websocket)."""
        self.token = token
        self.http.cookies.clear()
        self.http.headers["Authorization"] = f"Bearer {token}"

    async def register(self, password: str = "correct horse battery") -> Message:
        csrf = (await self.http.get("/api/csrf")).json()["csrf"]
        response = await self.http.post(
            "/api/register",
            json={"username": self.name, "password": password},
            headers={"X-CSRF-Token": csrf},
        )
        assert response.status_code == 201, response.text
        return dict(response.json())

    def csrf(self) -> dict[str, str]:
        return {"X-CSRF-Token": self.http.cookies.get("ph_csrf") or ""}

    async def connect(
        self, *, compression: str | None = "deflate", address: str = "127.0.0.1"
    ) -> None:
        """Open the websocket (``compression=None``: without permessage-deflate) from
        ``address`` (another loopback address is another client's to the room)."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = self.base.replace("http://", "ws://") + "/ws"
        headers = {"Cookie": cookie} if cookie else {}
        if self.token is not None:
            headers = {"Authorization": f"Bearer {self.token}"}
        self.ws = await websockets.connect(
            url,
            additional_headers=headers,
            max_size=2**22,
            compression=compression,
            local_addr=(address, 0),
            open_timeout=30,  # a loaded machine's handshake, not a fault
        )
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                # Each websocket message is a JSON array of the server's messages.
                batch = json.loads(text)
                assert isinstance(batch, list) and batch, f"not a list of messages: {text!r}"
                self.frames.extend(batch)
                self.writes += 1
                self._arrived.set()

    async def send(self, message: Message) -> None:
        await self.ws.send(json.dumps(message))

    def next_id(self) -> str:
        return f"{self.name}-{next(self._ids)}"

    async def wait_for(
        self, test: Callable[[Message], bool], *, after: int = 0, timeout: float = 30.0
    ) -> Message:
        """The first frame from index ``after`` that passes ``test`` (waiting for it)."""
        deadline = asyncio.get_running_loop().time() + timeout
        index = after
        while True:
            while index < len(self.frames):
                frame = self.frames[index]
                index += 1
                if test(frame):
                    return frame
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                kinds = [f.get("type") for f in self.frames[-10:]]
                raise AssertionError(f"{self.name}: no such frame in {timeout} s (last: {kinds})")
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), timeout=min(left, 0.5))

    def events(self, table: int) -> list[Message]:
        """Every ``event`` frame of ``table`` received so far, in order."""
        return [f for f in self.frames if f.get("type") == "event" and f.get("table") == table]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader
        await self.http.aclose()


@dataclass
class Harness:
    """A running room and its clients."""

    site: Site
    base: str
    clock: ManualClock
    clients: list[Client] = field(default_factory=list)

    async def player(
        self, name: str | None = None, *, compression: str | None = "deflate"
    ) -> Client:
        """A new registered player with an open websocket."""
        client = Client(self.base, name or f"player{next(_names)}")
        await client.register()
        await client.connect(compression=compression)
        self.clients.append(client)
        return client

    async def spectator(self, address: str = "127.0.0.1") -> Client:
        """A websocket with no account, from ``address``."""
        client = Client(self.base, None)
        await client.connect(address=address)
        self.clients.append(client)
        return client

    def table_id(self, name: str) -> int:
        for task in self.site.room.tasks.values():
            if task.config.name == name:
                return task.id
        raise KeyError(name)

    def busy(self) -> list[str]:
        """The tables with work now (an input being handled or waiting).

        A table where only bots sit plays on by itself (no pause when a test
        sets none), so it never counts as work left to do. Writes need no look
        of their own: a table task handles an input until its writes are in.
        """
        return [
            f"table {task.id}"
            for task in self.site.room.tasks.values()
            if (task.busy or not task.inbox.empty())
            and any(not user.is_bot for user in task.users.values())
        ]

    async def settle(self, timeout: float = 60.0, rounds: int = 200) -> None:
        """Let the room handle what it has been given and what that caused, until it is idle.

        In rounds of :meth:`drain`. It ends once the room is idle three rounds
        in a row, or after ``rounds`` rounds (a table of bots alone plays on for
        ever): counted in the room's own steps, never in seconds, so a slow
        machine settles as far as a fast one.
        """
        quiet = 0
        for _ in range(rounds):
            await self.drain(timeout)
            quiet = 0 if self.busy() else quiet + 1
            if quiet == 3:
                return

    async def drain(self, timeout: float = 60.0) -> None:
        """Wait until every table task has handled every input posted to it so far (a
        request, a watch, a timer due now) and the committer has answered every write
        handed in so far: what was sent has had its answers, whatever it caused next.

        Fails after ``timeout`` seconds, saying what is still busy: a test that went
        on would fail later, for a reason far from the cause.
        """
        loop = asyncio.get_running_loop()
        committer = self.site.services.committer
        await asyncio.sleep(0.01)  # the sockets' messages reach the tasks' inboxes
        deadline = loop.time() + timeout
        marks = [(task, task.posted) for task in self.site.room.tasks.values()]
        written = committer.handed_in
        while not (
            all(task.handled >= mark for task, mark in marks) and committer.answered >= written
        ):
            if loop.time() > deadline:
                waiting = committer.handed_in - committer.answered
                raise AssertionError(
                    f"the room did not settle in {timeout} s: busy {self.busy()},"
                    f" {waiting} writes unanswered"
                )
            await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def serve(
    url: str,
    tables: Sequence[TableConfig],
    *,
    settings: RoomSettings | None = None,
    clock: ManualClock | None = None,
    send_buffer: int | None = None,
    store_options: dict[str, Any] | None = None,
    redis_url: str | None = None,
) -> AsyncIterator[Harness]:
    """Serve a room on ``url``'s database with these tables on a free port.

    ``send_buffer`` sets the kernel's send buffer of every accepted socket
    (as on a slow link): a client that stops reading then pushes back on the
    room after kilobytes, not the megabytes loopback would otherwise absorb.
    ``redis_url``: a node of a room of several, on that Redis (``settings`` name the
    node and the keys' prefix).
    """
    clock = clock if clock is not None else ManualClock()
    settings = settings or RoomSettings(
        bot_think=(0.0, 0.0),
        hand_pause=0.0,
        window_seconds=10.0,
        retry_seconds=0.2,
        registrations_per_hour=100_000,
        # The tests open many sockets and sign many players up from 127.0.0.1.
        sockets_per_address=100_000,
        hashes_per_address=100_000,
        metrics=True,
        # A loaded machine's slow fsync is not a database fault, nor a starved loop a lost
        # lease; the tests of those set their own deadlines.
        database_seconds=60.0,
        lease_seconds=300.0,
    )
    site = Site(
        url,
        settings=settings,
        clock=clock,
        tables=tables,
        store_options={"password_hasher": FAST_HASHER, **(store_options or {})},
        redis_url=redis_url,
    )
    config = uvicorn.Config(
        create_app(site),
        **uvicorn_options(site),  # as `pokerhouse serve` has them
        host="127.0.0.1",
        port=0,
        log_level="warning",
        lifespan="on",
        ws_per_message_deflate=False,
        ws_max_size=MAX_SOCKET_FRAME,  # as `pokerhouse serve` has it
    )
    server = uvicorn.Server(config)
    listener = listening_socket(
        "127.0.0.1", 0, stall_seconds=settings.stall_seconds, send_buffer=send_buffer
    )
    sockets = [listener]
    task = asyncio.get_running_loop().create_task(server.serve(sockets=sockets))
    opened = asyncio.get_running_loop().time()
    while not server.started:
        if task.done():
            task.result()
        waited = asyncio.get_running_loop().time() - opened
        assert waited < START_SECONDS, f"the room did not start in {START_SECONDS} s"
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    harness = Harness(site, f"http://127.0.0.1:{port}", clock)
    try:
        yield harness
    finally:
        for client in harness.clients:
            await client.close()
        server.should_exit = True
        await stopped(task)


async def stopped(task: asyncio.Task[None], seconds: float = 30) -> None:
    """Wait for the server's task to end; if it does not, fail with every task's stack
    (what the room was still waiting for is the whole story of a stop that hangs)."""
    done, _ = await asyncio.wait([task], timeout=seconds)
    if done:
        task.result()
        return
    stacks = io.StringIO()
    for other in asyncio.all_tasks():
        other.print_stack(limit=12, file=stacks)
    task.cancel()
    raise AssertionError(f"the room did not stop in {seconds} s; its tasks:\n{stacks.getvalue()}")


def table(name: str, game: str, **settings: Any) -> TableConfig:
    """A table for a test: no bots unless asked, buy-ins from 20 to 1,000."""
    settings.setdefault("min_buy_in", 20)
    settings.setdefault("max_buy_in", 1000)
    settings.setdefault("bots", 0)
    return TableConfig(name, game, **settings)


@pytest.fixture
async def room(db_url: str) -> AsyncIterator[Harness]:
    """A room with one two-seat table of each game (Casino Hold'em: seven boxes)."""
    tables = [
        table("3x4", "3x4", options={"ante": 1, "small_bet": 2}, seats=2),
        table(
            "Razz",
            "razz",
            options={"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
            seats=2,
        ),
        table("Teen Patti", "teen-patti", options={"ante": 1}, seats=2),
        table(
            "Casino Hold'em",
            "casino-holdem",
            options={"min_ante": 1, "max_ante": 100, "max_payout": 15},
            seats=7,
            max_boxes=3,
            min_buy_in=20,
            max_buy_in=1000,
        ),
    ]
    async with serve(db_url, tables) as harness:
        yield harness
