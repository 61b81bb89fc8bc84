"""Slow and dead clients: a reader that stops is cut off, a silent socket is pinged out.

A client that never reads lets its frames pile up in the room; past the
``max_buffer`` bound (room.toml) its socket is closed, and the table it
watched goes on at full speed for everyone else. A socket whose peer went
silent after the handshake (a dead machine, a stopped process) answers no
ping, and the server closes it within ``ping_seconds`` twice over.
"""

from __future__ import annotations

import asyncio
import base64
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from statistics import median

import httpx
import pytest

from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.socket.connection import CLOSE_GRACE, Connection, Identity
from tests.server.conftest import Client, serve, table
from tests.server.process import ServeProcess, wait_until


def raw_websocket(base: str, *, receive_buffer: int = 4096) -> socket.socket:
    """A socket that completes the ``/ws`` handshake and then does nothing at all.

    Its receive buffer is small, so the kernel stops taking the server's
    frames soon and the server sees the client as the slow reader it is.
    """
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)  # byte by byte: leave every frame after the headers unread
        assert chunk, "the server closed the handshake"
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def masked_text(text: str) -> bytes:
    """One client-to-server text frame (clients must mask)."""
    payload = text.encode()
    mask = os.urandom(4)
    assert len(payload) < 126
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


def closed_by_server(sock: socket.socket, timeout: float) -> bool:
    """Drain the socket until the server closes it (True) or ``timeout`` passes (False)."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if not sock.recv(1 << 16):
                return True
        except TimeoutError:
            continue
        except ConnectionError:
            return True
    return False


async def round_trip(client: Client, table_id: int, timeout: float = 5.0) -> float:
    """Seconds from asking the table for a snapshot until it comes (through the table's task)."""
    mark = len(client.frames)
    started = time.perf_counter()
    await client.send({"type": "watch", "table": table_id})
    await client.wait_for(lambda f: f.get("type") == "snapshot", after=mark, timeout=timeout)
    return time.perf_counter() - started


async def test_frames_held_by_a_hanging_send_count_against_the_bound() -> None:
    """The bound is on everything the room holds for a client, in flight or queued, and
    closing never waits on a client that takes nothing (not even the close)."""
    stuck = asyncio.Event()

    async def never(text: str) -> None:
        stuck.set()
        await asyncio.Event().wait()  # a client that reads nothing

    async def closing(code: int, reason: str) -> None:
        await asyncio.Event().wait()  # the close frame cannot go either

    conn = Connection(Identity(), never, closing, max_buffer=1000)
    task = asyncio.get_running_loop().create_task(conn.run())
    conn.send(b"x" * 600)
    await asyncio.wait_for(stuck.wait(), 1)  # taken by a send that hangs
    conn.send(b"y" * 300)
    assert not conn.closed and conn.buffered == 900
    conn.send(b"z" * 200)  # 1,100 held: past the bound
    assert conn.closed and conn.close_reason == "slow_client"
    # The connection's task ends regardless; the kernel drops the socket (stall_seconds).
    await asyncio.wait_for(task, 2 * CLOSE_GRACE + 2)


def counted(metric: object) -> float:
    """A prometheus counter's or gauge's value, read from the room's own registry."""
    return float(metric._value.get())  # type: ignore[attr-defined]


def hands_ended(client: Client, table_id: int) -> int:
    return sum(1 for f in client.events(table_id) if f["event"]["type"] == "table_hand_ended")


#: How long the kernel lets a socket's unread data sit (``stall_seconds``) in the test below.
STALL = 12.0


async def test_a_client_that_never_reads_is_cut_off_and_its_table_does_not_stall(
    db_url: str,
) -> None:
    settings = RoomSettings(
        bot_think=(0.0, 0.0),
        hand_pause=0.0,
        retry_seconds=0.2,
        registrations_per_hour=100_000,
        max_buffer=64 * 1024,
        # The kernel drops a socket whose peer reads nothing this long: a table that waited
        # on the slow client would stand still about this long.
        stall_seconds=STALL,
    )
    bots = table("bots", "3x4", options={"ante": 1, "small_bet": 2}, seats=4, bots=3)
    # A small kernel send buffer stands for a slow link: backpressure after kilobytes.
    async with serve(db_url, [bots], settings=settings, send_buffer=8192) as room:
        table_id = room.table_id("bots")
        watcher = await room.player()
        await round_trip(watcher, table_id, timeout=30)  # the room's first moments: not measured
        slow = await asyncio.to_thread(raw_websocket, room.base)
        slow.sendall(masked_text(f'{{"type":"watch","table":{table_id}}}'))
        task = room.site.room.tasks[table_id]
        cut = room.site.metrics.slow_clients
        started = time.perf_counter()
        # While the slow one fills up, the table answers the other watcher at once.
        during: list[float] = []
        while counted(cut) == 0:
            assert time.perf_counter() - started < 30, "the slow client was never cut off"
            during.append(await round_trip(watcher, table_id, timeout=STALL))
            await asyncio.sleep(0.1)  # within the rate limit
        cut_after = time.perf_counter() - started
        # Its socket is really closed (not merely forgotten), and it no longer watches.
        assert await asyncio.to_thread(closed_by_server, slow, 30.0)
        slow.close()
        await wait_until(lambda: len(task.outbox.watchers) == 1, what="one watcher left")
        await wait_until(
            lambda: counted(room.site.metrics.connections) == 1, what="one connection left"
        )
        hands = hands_ended(watcher, table_id)
        after = []
        for _ in range(5):
            after.append(await round_trip(watcher, table_id, timeout=STALL))
            await asyncio.sleep(0.1)
        await watcher.wait_for(
            lambda f: f.get("type") == "event" and f["event"]["type"] == "table_hand_ended",
            after=len(watcher.frames),
        )
        assert hands_ended(watcher, table_id) > hands
        print(
            f"\nslow client cut off {cut_after:.2f} s after it stopped reading; "
            f"snapshot round trip ms: while filling max {max(during) * 1000:.0f} ({len(during)}), "
            f"after max {max(after) * 1000:.0f}; "
            f"median {median(during + after) * 1000:.0f}; {hands} hands meanwhile"
        )
        # A table that waited on the slow client would answer only once the kernel dropped
        # it, STALL seconds on; anything well short of that is a busy machine, not a stall.
        assert max(during + after) < STALL / 2, "the table stood still for the slow client"


ROOM = """
[room]
metrics = true
hand_pause = 0.0
bot_think = [0.0, 0.05]
ping_seconds = 1.0

[[tables]]
name = "3x4 pings"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 4
bots = 2
min_buy_in = 20
max_buy_in = 1000
"""


def open_connections(base: str) -> float:
    """The room's ``pokerhouse_connections`` gauge, from ``/metrics``."""
    for line in httpx.get(f"{base}/metrics", timeout=30).text.splitlines():
        if line.startswith("pokerhouse_connections "):
            return float(line.split()[1])
    raise AssertionError("no pokerhouse_connections in /metrics")


#: Two pings of a second each find a silent peer; the rest is slack for a loaded machine.
LIMIT = 2 * 1.0 + 15.0


@pytest.mark.slow
async def test_half_open_sockets_are_found_by_ping_and_closed(db_url: str, tmp_path: Path) -> None:
    """``ping_seconds`` from room.toml reaches the server: silent peers go within 2 pings."""
    config = tmp_path / "room.toml"
    config.write_text(ROOM)
    server = ServeProcess(db_url, config)
    server.start()
    try:
        # A client process stopped with SIGSTOP: its kernel still ACKs, it answers nothing.
        stopped = await asyncio.to_thread(
            subprocess.Popen,
            [sys.executable, "-c", STOPPED_CLIENT, server.base.replace("http", "ws") + "/ws"],
            stdout=subprocess.PIPE,
        )
        assert stopped.stdout is not None
        assert stopped.stdout.readline().strip() == b"watching"
        stopped.send_signal(signal.SIGSTOP)
        # Then a socket that did its handshake and says nothing more: no pong ever.
        started = time.perf_counter()
        silent = raw_websocket(server.base)
        silent.sendall(masked_text('{"type":"watch","table":1}'))
        try:
            while open_connections(server.base) > 0:
                assert time.perf_counter() - started < LIMIT, "a silent socket was never closed"
                await asyncio.sleep(0.1)
            found = time.perf_counter() - started
        finally:
            stopped.send_signal(signal.SIGCONT)
            stopped.kill()
            stopped.wait(timeout=10)
        assert await asyncio.to_thread(closed_by_server, silent, 30.0)
        silent.close()
        print(f"\ntwo silent sockets closed {found:.2f} s after they went quiet (ping 1 s)")
        # Both found (the gauge fell to nought, the silent socket was closed by the room); a
        # room that never pinged would keep them for ever, so the bound is only generous.
        assert found < LIMIT
    finally:
        server.stop()


#: A client that watches a table, says so, then waits to be stopped.
STOPPED_CLIENT = """
import asyncio, sys, websockets

async def main(url):
    async with websockets.connect(url, ping_interval=None, open_timeout=60) as ws:
        await ws.send('{"type": "watch", "table": 1}')
        await ws.recv()
        print("watching", flush=True)
        await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1]))
"""
