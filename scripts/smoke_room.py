"""Start ``pokerhouse serve`` and play one hand over websockets, as two people would.

Run by ``scripts/versions`` in virtual environments with the lowest versions
pyproject allows, the newest, and named ones (uvicorn 0.35.0): the room must
send every frame and take every action on each. Exits 0 when the hand ended,
its chips add up and ``pokerhouse ledger check`` passes; prints what it ran on.

    python scripts/smoke_room.py
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOM = """
[room]
hand_pause = 0.0
bot_think = [0.0, 0.0]
argon2 = [1, 256, 1]

[[tables]]
name = "3x4 smoke"
game = "3x4"
options = { ante = 1, small_bet = 2 }
seats = 2
bots = 0
min_buy_in = 20
max_buy_in = 1000
"""

#: Seconds anything may take (a loaded machine included) before the smoke fails.
DEADLINE = 120.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def player(base: str, name: str) -> tuple[Any, list[dict[str, Any]]]:
    """A registered player's open socket, and the list its messages arrive in."""
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        csrf = (await http.get("/api/csrf")).json()["csrf"]
        answer = await http.post(
            "/api/register",
            json={"username": name, "password": "correct horse battery"},
            headers={"X-CSRF-Token": csrf},
        )
        assert answer.status_code == 201, answer.text
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    ws = await websockets.connect(
        base.replace("http", "ws") + "/ws", additional_headers={"Cookie": cookie}, open_timeout=60
    )
    inbox: list[dict[str, Any]] = []

    async def read() -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in ws:
                batch = json.loads(text)
                assert isinstance(batch, list), f"not an array of messages: {text[:80]}"
                inbox.extend(batch)

    asyncio.get_running_loop().create_task(read())
    return ws, inbox


async def play(base: str) -> dict[str, Any]:
    """Two players sit and answer every decision passively until the hand ends."""
    seats = [await player(base, f"smoke{n}") for n in range(2)]
    for seat, (ws, _) in enumerate(seats):
        await ws.send(json.dumps({"type": "watch", "table": 1}))
        await ws.send(json.dumps({"type": "sit", "table": 1, "seat": seat, "buy_in": 100}))
    answered: set[tuple[int, int]] = set()
    deadline = time.monotonic() + DEADLINE
    ids = 0
    while time.monotonic() < deadline:
        for seat, (ws, inbox) in enumerate(seats):
            for message in inbox:
                if message.get("type") == "error":
                    raise AssertionError(f"seat {seat} was refused: {message}")
                event = message.get("event") or {}
                if message.get("type") == "event" and event.get("type") == "table_hand_ended":
                    return dict(event)
            privates = [m for m in inbox if m.get("type") == "private"]
            decision = privates[-1]["mine"].get(str(seat), {}).get("decision") if privates else None
            if decision is None or (seat, len(privates)) in answered:
                continue
            answered.add((seat, len(privates)))
            kinds = {option["kind"] for option in decision["actions"]}
            # The passive answer; a loser at the showdown is offered only show or muck.
            kind = next(k for k in ("check", "call", "muck", "fold") if k in kinds)
            ids += 1
            act = {"kind": kind}
            await ws.send(
                json.dumps(
                    {"type": "act", "table": 1, "hand": privates[-1]["hand"], "action": act,
                     "id": f"smoke-{ids}"}
                )
            )  # fmt: skip
        await asyncio.sleep(0.02)
    raise AssertionError(f"the hand did not end within {DEADLINE} s")


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "room.toml"
        config.write_text(ROOM)
        url = f"sqlite:///{folder}/room.db"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        log = (Path(folder) / "serve.log").open("wb")
        server = subprocess.Popen(
            [sys.executable, "-m", "pokerhouse", "serve", "--port", str(port),
             "--database-url", url, "--config", str(config), "--log-level", "warning"],
            stdout=log, stderr=subprocess.STDOUT, env=dict(os.environ, PYTHONUNBUFFERED="1"),
        )  # fmt: skip
        try:
            deadline = time.monotonic() + DEADLINE
            while True:
                assert server.poll() is None, (Path(folder) / "serve.log").read_text()
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                        break
                assert time.monotonic() < deadline, "serve did not answer"
                time.sleep(0.2)
            ended = asyncio.run(play(base))
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
        assert sum(ended["net"]) == 0, ended
        check = subprocess.run(
            [sys.executable, "-m", "pokerhouse", "ledger", "check", "--database-url", url],
            capture_output=True,
            text=True,
        )
        assert check.returncode == 0, check.stdout + check.stderr
    names = ("uvicorn", "starlette", "websockets", "msgspec", "sqlalchemy", "asyncpg")
    print(
        "smoke: a hand of 3x4 played over websockets, ledger check ok, on "
        + ", ".join(f"{name} {version(name)}" for name in names)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
