"""The room's edge: forwarded addresses, slow request heads, Host names, headers, /metrics.

The room is served as ``pokerhouse serve`` serves it (the same uvicorn
options, :func:`pokerhouse.server.http.guards.uvicorn_options`); the clients are
real HTTP clients and raw sockets on loopback.
"""

from __future__ import annotations

import asyncio
import base64
import os
from collections.abc import AsyncIterator

import httpx
import pytest

from pokerhouse.server.settings import RoomSettings
from tests.server.conftest import Harness, serve, table

PASSWORD = "correct horse battery"
TABLES = [table("3x4", "3x4", options={"ante": 1, "small_bet": 2})]


def settings(**changes: object) -> RoomSettings:
    base: dict[str, object] = {
        "bot_think": (0.0, 0.0),
        "hand_pause": 0.0,
        "idle_seconds": 10**7,
        "registrations_per_hour": 1000,
    }
    return RoomSettings(**{**base, **changes})  # type: ignore[arg-type]


async def sign_up(
    http: httpx.AsyncClient, name: str, headers: dict[str, str] | None = None
) -> httpx.Response:
    extra = headers or {}
    csrf = (await http.get("/api/csrf", headers=extra)).json()["csrf"]
    return await http.post(
        "/api/register",
        json={"username": name, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf, **extra},
    )


# ---------------------------------------------------------------- 5. X-Forwarded-For


async def test_a_forged_forwarded_address_buys_no_new_budget(db_url: str) -> None:
    """One client naming a new X-Forwarded-For each time is still one address."""
    async with serve(db_url, TABLES, settings=settings(registrations_per_hour=3)) as room:
        codes = []
        for n in range(5):
            http = httpx.AsyncClient(base_url=room.base, timeout=30)
            forged = {"X-Forwarded-For": f"203.0.113.{n + 1}", "X-Forwarded-Proto": "https"}
            codes.append((await sign_up(http, f"forger{n}", forged)).status_code)
            await http.aclose()
        assert codes == [201, 201, 201, 429, 429]


async def test_forwarded_addresses_are_believed_from_a_configured_proxy(db_url: str) -> None:
    """Behind a proxy the room names (here the test's own address), each forwarded
    address is a client of its own."""
    configured = settings(registrations_per_hour=3, forwarded_allow_ips=("127.0.0.1",))
    async with serve(db_url, TABLES, settings=configured) as room:
        codes = []
        for n in range(5):
            http = httpx.AsyncClient(base_url=room.base, timeout=30)
            codes.append(
                (
                    await sign_up(http, f"proxied{n}", {"X-Forwarded-For": f"203.0.113.{n + 1}"})
                ).status_code
            )
            await http.aclose()
        assert codes == [201] * 5


# ---------------------------------------------------------------- 10. slow request heads


@pytest.fixture
async def hurried(db_url: str) -> AsyncIterator[Harness]:
    """A room that gives a request head one second."""
    async with serve(db_url, TABLES, settings=settings(request_head_seconds=1.0)) as room:
        yield room


async def open_raw(room: Harness) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    port = int(room.base.rsplit(":", 1)[1])
    return await asyncio.open_connection("127.0.0.1", port)


async def closed_after(reader: asyncio.StreamReader, limit: float) -> tuple[float, bytes]:
    """Seconds until the server closes the connection (reading all it sends), within ``limit``."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    received = b""
    while True:
        chunk = await asyncio.wait_for(reader.read(65536), timeout=limit)
        if not chunk:
            return loop.time() - started, received
        received += chunk


async def test_a_head_sent_a_line_at_a_time_is_cut_off(hurried: Harness) -> None:
    reader, writer = await open_raw(hurried)
    loop = asyncio.get_running_loop()
    started = loop.time()
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")

    async def dribble() -> None:
        for n in range(40):  # one header line every 0.3 s, for twelve seconds
            await asyncio.sleep(0.3)
            writer.write(f"X-Slow-{n}: still coming\r\n".encode())
            await writer.drain()

    sending = asyncio.ensure_future(dribble())
    took, answer = await closed_after(reader, limit=10.0)
    took = loop.time() - started
    sending.cancel()
    # The 1 s deadline, not the test's 10 s limit, ended it (slack for a loaded machine).
    assert 0.9 <= took <= 7.0, took
    assert answer.startswith(b"HTTP/1.1 408 ") and b'"code":"request_timeout"' in answer
    writer.close()


async def test_a_connection_that_sends_nothing_is_closed(hurried: Harness) -> None:
    reader, writer = await open_raw(hurried)
    took, answer = await closed_after(reader, limit=10.0)
    assert took <= 7.0 and answer.startswith(b"HTTP/1.1 408 ")
    writer.close()


async def test_a_body_dribbled_after_its_head_is_cut_off(hurried: Harness) -> None:
    reader, writer = await open_raw(hurried)
    writer.write(
        b"POST /api/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 200\r\n\r\n{"
    )

    async def dribble() -> None:
        for _ in range(40):
            await asyncio.sleep(0.3)
            writer.write(b" ")
            await writer.drain()

    sending = asyncio.ensure_future(dribble())
    took, _ = await closed_after(reader, limit=10.0)
    sending.cancel()
    assert took <= 7.0, took
    writer.close()


async def test_prompt_requests_on_one_connection_are_served(hurried: Harness) -> None:
    """Keep-alive: requests with pauses between them (shorter than uvicorn's keep-alive)."""
    reader, writer = await open_raw(hurried)
    for _ in range(3):
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout=30)
        assert head.startswith(b"HTTP/1.1 200 ")
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        await reader.readexactly(length)
        await asyncio.sleep(1.5)  # longer than the head bound: between requests it does not run
    writer.close()


# ---------------------------------------------------------------- 12. Host, headers, /metrics


async def handshake_status(room: Harness, host: str, origin: str) -> bytes:
    """The status line a raw websocket handshake with these Host and Origin gets."""
    reader, writer = await open_raw(room)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: {origin}\r\n\r\n"
        ).encode()
    )
    line = await asyncio.wait_for(reader.readline(), timeout=30)
    writer.close()
    return line


async def test_a_foreign_host_is_refused_even_with_a_matching_origin(room: Harness) -> None:
    """DNS rebinding: a page on evil.example, resolved to 127.0.0.1, is its own origin."""
    port = room.base.rsplit(":", 1)[1]
    foreign = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
    http = httpx.AsyncClient(base_url=room.base, timeout=30)
    for path in ("/api/csrf", "/api/tables", "/healthz", "/"):
        answer = await http.get(path, headers=foreign)
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_host"), path
    csrf = (await http.get("/api/csrf")).json()["csrf"]
    answer = await http.post(
        "/api/register",
        json={"username": "rebound", "password": PASSWORD},
        headers={"X-CSRF-Token": csrf, **foreign},
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_host")
    assert (await http.get("/api/tables")).status_code == 200  # its own name still works
    local = await http.get("/api/tables", headers={"Host": f"localhost:{port}"})
    assert local.status_code == 200
    await http.aclose()
    refused = await handshake_status(room, f"evil.example:{port}", f"http://evil.example:{port}")
    assert refused.startswith(b"HTTP/1.1 403"), refused
    accepted = await handshake_status(room, f"127.0.0.1:{port}", f"http://127.0.0.1:{port}")
    assert accepted.startswith(b"HTTP/1.1 101"), accepted
    # Nobody was signed up.
    with pytest.raises(Exception, match="no user"):
        await room.site.store.users.get("rebound")


async def test_configured_host_names_are_answered(db_url: str) -> None:
    allowed = settings(allowed_hosts=("poker.example.com", "*.example.org"))
    async with serve(db_url, TABLES, settings=allowed) as room:
        http = httpx.AsyncClient(base_url=room.base, timeout=30)
        for host, status in [
            ("poker.example.com", 200),
            ("table.example.org:80", 200),
            ("example.org", 400),
            ("evil.example", 400),
        ]:
            answer = await http.get("/api/tables", headers={"Host": host})
            assert answer.status_code == status, host
        await http.aclose()


async def test_every_answer_forbids_framing_and_sniffing(room: Harness) -> None:
    http = httpx.AsyncClient(base_url=room.base, timeout=30)
    answers = [
        await http.get("/"),
        await http.get("/api/tables"),
        await http.get("/api/me"),
        await http.get("/no/such/page"),
        await http.post("/api/login", json={}),
        await http.get("/healthz"),
        await http.get("/api/tables", headers={"Host": "evil.example"}),
    ]
    for answer in answers:
        headers = answer.headers
        assert headers["x-frame-options"] == "DENY", answer.url
        assert headers["content-security-policy"] == "frame-ancestors 'none'"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
    await http.aclose()


async def test_metrics_are_served_only_when_asked(db_url: str) -> None:
    async with serve(db_url, TABLES, settings=settings()) as room:
        async with httpx.AsyncClient(base_url=room.base, timeout=30) as http:
            answer = await http.get("/metrics")
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
    async with serve(db_url, TABLES, settings=settings(metrics=True)) as room:
        async with httpx.AsyncClient(base_url=room.base, timeout=30) as http:
            answer = await http.get("/metrics")
        assert answer.status_code == 200 and "pokerhouse_connections" in answer.text
