"""Floods an attacker can send a room, and what a real player feels meanwhile.

    python bench/floods.py                          # both floods, this checkout's room
    python bench/floods.py --src /path/to/old/src   # the same against another version

Each flood runs against a fresh ``pokerhouse serve`` (SQLite, argon2's real costs) for
``--seconds``; meanwhile a player who has nothing to do with it signs in every half
second from an address of their own, and the benchmark prints that login's latency
(median, 90th percentile, worst) and the room's CPU (seconds of CPU a second of wall
time), before the flood (alone) and during it:

* **joins**: a home game with a password; from 20 loopback addresses, two requests
  at a time each, its guests join with the right password again and again (each join
  a full argon2 check);
* **boards**: a room whose bots' tables have ``--hands`` hands behind them; 50 clients
  ask for the bots' leaderboard of every game at once, again and again.

``--src`` runs the room from another checkout's ``src`` (``git worktree add``), so a
fix is measured before and after on one machine in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.process import free_port

PASSWORD = "correct horse battery"
ROOM = """
[room]
registrations_per_hour = 1000
hand_pause = 1.0

[[tables]]
name = "Bots razz"
game = "razz"
options = { ante = 1, bring_in = 1, small_bet = 2, big_bet = 4 }
seats = 2
bots = 0
bots_only = true
"""
GAMES = ("3x4", "razz", "teen-patti", "casino-holdem")
OPTIONS: dict[str, dict[str, int]] = {
    "3x4": {"ante": 1, "small_bet": 2},
    "razz": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
    "teen-patti": {"ante": 1},
    "casino-holdem": {"min_ante": 1, "max_ante": 10},
}


@contextlib.asynccontextmanager
async def serving(src: Path | None, folder: Path, hands: int) -> AsyncIterator[tuple[str, int]]:
    """A room on a fresh SQLite file (``hands`` bots' hands in it); its URL and pid."""
    database = f"sqlite:///{folder / 'room.db'}"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if src is not None:
        env["PYTHONPATH"] = str(src)
    command = [sys.executable, "-m", "pokerhouse"]
    subprocess.run([*command, "db", "upgrade", "--database-url", database], check=True, env=env)
    if hands:
        fill(folder / "room.db", hands)
    config = folder / "room.toml"
    config.write_text(ROOM)
    port = free_port()
    log = (folder / "serve.log").open("ab")
    process = subprocess.Popen(
        [*command, "serve", "--port", str(port), "--database-url", database, "--config",
         str(config), "--log-level", "warning"],
        stdout=log, stderr=subprocess.STDOUT, env=env,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base) as http:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/healthz")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
        yield base, process.pid
    finally:
        process.terminate()
        process.wait(30)
        log.close()


def fill(path: Path, hands: int) -> None:
    """``hands`` finished hands of two bots at a table for bots only, each game in turn,
    as the room stores them (and, where the room keeps the board, summed into it)."""
    rng = random.Random(5)
    db = sqlite3.connect(path)
    now = time.time()
    for n in (1, 2):
        db.execute(
            "INSERT INTO users (username, username_key, username_skeleton, is_bot, created_at) "
            "VALUES (?, ?, ?, 1, ?)",
            (f"Fill{n}_bot", f"fill{n}_bot", f"fill{n}_bot", now),
        )
    users = [row[0] for row in db.execute("SELECT id FROM users ORDER BY id DESC LIMIT 2")]
    tables = []
    for game in GAMES:
        db.execute(
            "INSERT INTO room_tables (name, game, options, seats, min_buy_in, max_buy_in, "
            "rake_bps, rake_cap, max_boxes, bots, bot_kind, decision_seconds, "
            "time_bank_seconds, created_at, bots_only) "
            "VALUES (?, ?, ?, 2, 20, 200, 0, 0, 1, 0, 'smart', 15, 30, ?, 1)",
            (f"fill {game}", game, json.dumps(OPTIONS[game]), now),
        )
        tables.append(db.execute("SELECT max(id) FROM room_tables").fetchone()[0])
    rows, players = [], []
    for number in range(1, hands + 1):
        table = tables[number % len(GAMES)]
        rows.append((table, number, GAMES[number % len(GAMES)], now, now))
        result = rng.randint(-40, 40)
        players.append((number, 0, users[0], result))
        players.append((number, 1, users[1], -result))
    db.executemany(
        "INSERT INTO hands (table_id, number, game, spec, setup, start_seq, status, next_seq, "
        "started_at, finished_at) VALUES (?, ?, ?, '{}', '{}', 0, 'finished', 0, ?, ?)",
        rows,
    )
    first = db.execute("SELECT min(id) FROM hands").fetchone()[0]
    db.executemany(
        "INSERT INTO hand_players (hand_id, hand_seat, table_seat, user_id, stack, result) "
        "VALUES (?, ?, ?, ?, 500, ?)",
        [(first + number - 1, seat, seat, user, result)
         for number, seat, user, result in players],
    )  # fmt: skip
    kept = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'bot_standings'").fetchone()
    if kept:
        db.execute(
            "INSERT INTO bot_standings (user_id, game, hands, net, squares) "
            "SELECT p.user_id, h.game, count(*), sum(p.result), sum(1.0 * p.result * p.result) "
            "FROM hand_players p JOIN hands h ON h.id = p.hand_id GROUP BY p.user_id, h.game"
        )
    db.commit()
    db.close()


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def signed_up(base: str, name: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    http = httpx.AsyncClient(base_url=base, transport=transport, timeout=120)
    csrf = (await http.get("/api/csrf")).json()["csrf"]
    answer = await http.post(
        "/api/register", json={"username": name, "password": PASSWORD},
        headers={"X-CSRF-Token": csrf},
    )  # fmt: skip
    assert answer.status_code == 201, answer.text
    return http


def csrf(http: httpx.AsyncClient) -> dict[str, str]:
    return {"X-CSRF-Token": http.cookies.get("ph_csrf") or ""}


async def logins(base: str, seconds: float) -> list[float]:
    """A bystander's logins, one every half second for ``seconds``: their latencies."""
    http = await signed_up(base, f"by{random.randrange(10**6)}", "127.0.0.250")
    name = (await http.get("/api/me")).json()["username"]
    took = []
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            start = time.monotonic()
            answer = await http.post(
                "/api/login", json={"username": name, "password": PASSWORD}, headers=csrf(http)
            )
            took.append(time.monotonic() - start)
            assert answer.status_code == 200, answer.text
            await asyncio.sleep(0.5)
    finally:
        await http.aclose()
    return took


async def join_flood(base: str, stop: asyncio.Event) -> dict[str, int]:
    host = await signed_up(base, "flood_host", "127.0.0.1")
    opened = await host.post(
        "/api/private-tables",
        json={"name": "flood", "game": "razz",
              "options": {"ante": 1, "bring_in": 1, "small_bet": 2, "big_bet": 4},
              "password": "river-rat"},
        headers=csrf(host),
    )  # fmt: skip
    token = opened.json()["invitation"]
    guests = [await signed_up(base, f"guest{n}", f"127.0.0.{n + 2}") for n in range(20)]
    counts: dict[str, int] = {}

    async def pound(http: httpx.AsyncClient) -> None:
        while not stop.is_set():
            answer = await http.post(
                "/api/invitations/join", json={"token": token, "password": "river-rat"},
                headers=csrf(http),
            )  # fmt: skip
            counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1

    await asyncio.gather(*(pound(http) for http in guests for _ in range(2)))
    for http in [host, *guests]:
        await http.aclose()
    return counts


async def board_flood(base: str, stop: asyncio.Event) -> dict[str, int]:
    counts: dict[str, int] = {}
    async with httpx.AsyncClient(base_url=base, timeout=120) as http:

        async def ask(game: str) -> None:
            while not stop.is_set():
                answer = await http.get("/api/leaderboards/bots", params={"game": game})
                counts[str(answer.status_code)] = counts.get(str(answer.status_code), 0) + 1

        await asyncio.gather(*(ask(GAMES[n % 4]) for n in range(50)))
    return counts


async def run(kind: str, src: Path | None, seconds: float, hands: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        async with serving(src, Path(folder), hands if kind == "boards" else 0) as (base, pid):
            quiet_cpu = cpu_seconds(pid)
            quiet = await logins(base, seconds / 2)
            quiet_cpu = (cpu_seconds(pid) - quiet_cpu) / (seconds / 2)
            stop = asyncio.Event()
            flood = join_flood if kind == "joins" else board_flood
            flooding = asyncio.create_task(flood(base, stop))
            await asyncio.sleep(2.0)  # the flood under way
            busy_cpu = cpu_seconds(pid)
            busy = await logins(base, seconds)
            busy_cpu = (cpu_seconds(pid) - busy_cpu) / seconds
            stop.set()
            counts = await flooding
    return {"quiet": quiet, "busy": busy, "quiet_cpu": quiet_cpu, "busy_cpu": busy_cpu,
            "answers": counts}  # fmt: skip


def line(label: str, took: list[float], cpu: float) -> str:
    ordered = sorted(took)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (
        f"  {label:12} login median {1000 * statistics.median(took):7.0f} ms, p90 "
        f"{1000 * p90:7.0f} ms, worst {1000 * max(took):7.0f} ms; room CPU {cpu:.2f} s/s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, help="run the room from this checkout's src")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--hands", type=int, default=500_000, help="bots' hands (boards)")
    parser.add_argument("--flood", choices=("joins", "boards"), action="append")
    args = parser.parse_args()
    print(f"room from {args.src or 'this checkout'}")
    for kind in args.flood or ["joins", "boards"]:
        figures = asyncio.run(run(kind, args.src, args.seconds, args.hands))
        print(f"{kind} flood (answers {figures['answers']}):")
        print(line("alone", figures["quiet"], figures["quiet_cpu"]))
        print(line("flooded", figures["busy"], figures["busy_cpu"]))


if __name__ == "__main__":
    main()
