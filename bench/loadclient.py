"""The load test's players: one client process plays whole tables over websockets.

Each player signs up over HTTP, opens its socket, watches and sits at its
table, then answers every decision the server sends with a legal action
chosen from that decision (mostly check or call, sometimes a minimum bet or
raise, a fold now and then), and rebuys when it busts. The time from
sending an ``act`` to receiving the ``action_taken`` event it caused is the
latency measured. All six players of a table live in the same process, so
a table's pace (``interval``: seconds between its actions, to offer a fixed
rate) is kept without any message between processes.

:func:`run_process` is a client process's body; ``bench/room.py`` starts a
few of them and gathers what each measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import msgspec

from wsclient import WsClient

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder().decode
_split = msgspec.json.Decoder(list[msgspec.Raw]).decode
PASSWORD = "load-test-password"
#: The least time between one player's messages: under the room's 20 a second per player
#: (a heads-up pair at a fast table would otherwise be refused as ``rate_limited``).
PLAYER_GAP = 1 / 15


@dataclass(frozen=True)
class ProcessPlan:
    """What one client process does: where the server is, and which tables it plays."""

    host: str
    port: int
    bare: bool
    #: (table id, the six usernames, seat by seat)
    tables: list[tuple[int, list[str]]]
    buy_in: int
    #: Seconds between a table's actions (0: as fast as the server answers).
    interval: float
    seed: int
    #: Sign-ups and sits in flight at once.
    concurrency: int = 16


@dataclass
class Tally:
    """What a process measured inside the window."""

    latencies: array[float] = field(default_factory=lambda: array("d"))
    errors: Counter[str] = field(default_factory=Counter)
    timeouts: int = 0
    acts: int = 0
    frames: int = 0
    messages: int = 0
    rebuys: int = 0
    closed: int = 0


class Window:
    """The measured interval, and whether players act: not until every player of every
    process is seated (a table at full speed slows the others' sign-ups), nor after the end."""

    def __init__(self) -> None:
        self.start = float("inf")
        self.end = float("inf")
        self.playing = False
        self.finished = False

    def inside(self, now: float) -> bool:
        return self.start <= now < self.end


class TablePace:
    """A table's pace: when its last action was seen, and the gap to keep after it."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.last = 0.0


class Player:
    """One seat's client: reads the table's frames, acts on its decisions."""

    def __init__(
        self,
        name: str,
        table: int,
        seat: int,
        pace: TablePace,
        tally: Tally,
        window: Window,
        rng: random.Random,
        buy_in: int,
    ) -> None:
        self.name = name
        self.table = table
        self.seat = seat
        self.key = str(seat)
        self.pace = pace
        self.tally = tally
        self.window = window
        self.rng = rng
        self.buy_in = buy_in
        self.socket: WsClient | None = None
        self.sat: asyncio.Future[str | None] | None = None
        self._count = 0
        self._pending: tuple[str, float] | None = None
        self._held: tuple[int, dict[str, Any]] | None = None
        self._last_sent = 0.0
        self._loop = asyncio.get_running_loop()

    # ------------------------------------------------------------ frames

    def on_message(self, payload: bytes) -> None:
        """One websocket message: a JSON array of the server's messages, each handled."""
        now = time.perf_counter()
        inside = self.window.inside(now)
        if inside:
            self.tally.frames += 1
        for item in _split(payload):
            self._on_one(bytes(item), now, inside)

    def _on_one(self, payload: bytes, now: float, inside: bool) -> None:
        """Handle one message; only the few kinds a player needs are decoded."""
        kind = payload[9 : payload.index(b'"', 9)]
        if inside:
            self.tally.messages += 1
        if kind == b"private":
            message = _decode(payload)
            mine = message.get("mine") or {}
            facts = mine.get(self.key)
            if facts and facts.get("decision"):
                self._decide(message["hand"], facts["decision"], now)
        elif kind == b"snapshot":
            # A table taken over by another node starts its watchers afresh with a
            # snapshot: a pending decision is in it.
            hand = (_decode(payload).get("view") or {}).get("hand") or {}
            facts = (hand.get("mine") or {}).get(self.key)
            if facts and facts.get("decision"):
                self._decide(hand["number"], facts["decision"], now)
        elif kind == b"event":
            if b'"action_taken"' in payload:
                event = _decode(payload)["event"]
                self.pace.last = max(self.pace.last, now)
                if event["seat"] == self.seat and self._pending is not None:
                    _, sent = self._pending
                    self._pending = None
                    if inside:
                        self.tally.latencies.append((now - sent) * 1000.0)
            elif b'"table_hand_ended"' in payload:
                self._hand_ended(_decode(payload)["event"])
            elif b'"timed_out"' in payload and inside:
                self.tally.timeouts += 1
            elif b'"player_sat"' in payload and self.sat is not None and not self.sat.done():
                event = _decode(payload)["event"]
                if event["seat"] == self.seat:
                    self.sat.set_result(None)
        elif kind == b"error":
            message = _decode(payload)
            if self.sat is not None and not self.sat.done():
                self.sat.set_result(f"{message['code']}: {message['message']}")
            if inside:
                self.tally.errors[message["code"]] += 1
            if self._pending is not None and message.get("id") == self._pending[0]:
                self._pending = None

    def on_close(self) -> None:
        """The server closed the socket (counted: a healthy run closes none early)."""
        if not self.window.finished:
            self.tally.closed += 1
        if self.sat is not None and not self.sat.done():
            self.sat.set_result("closed")

    # ------------------------------------------------------------ acting

    def _decide(self, hand: int, decision: dict[str, Any], now: float) -> None:
        if not self.window.playing:
            self._held = (hand, decision)  # answered once play starts
            return
        self._held = None
        action = self.choose(decision)
        wait = max(self.pace.last + self.pace.interval, self._last_sent + PLAYER_GAP) - now
        if wait > 0:
            self._loop.call_later(wait, self._act, hand, action)
        else:
            self._act(hand, action)

    def choose(self, decision: dict[str, Any]) -> dict[str, Any]:
        """A legal action from the decision: check or call mostly, a minimum bet or raise
        now and then, a fold when facing a bet one time in eight."""
        options = {option["kind"]: option for option in decision["actions"]}
        roll = self.rng.random()
        if "check" in options:
            if roll < 0.1 and "bet" in options:
                return {"kind": "bet", "amount": options["bet"]["min"]}
            return {"kind": "check"}
        if "call" in options:
            if roll < 0.125 and "fold" in options:
                return {"kind": "fold"}
            if roll < 0.2 and "raise" in options:
                return {"kind": "raise", "amount": options["raise"]["min"]}
            return {"kind": "call"}
        for kind in ("bring_in", "show_hand"):
            if kind in options:
                return {"kind": kind}
        first = decision["actions"][0]
        if "min" in first:
            return {"kind": first["kind"], "amount": first["min"]}
        return {"kind": first["kind"]}

    def play(self) -> None:
        """Play starts: answer the decision held since sitting down, if there is one."""
        if self._held is not None:
            hand, decision = self._held
            self._decide(hand, decision, time.perf_counter())

    def _act(self, hand: int, action: dict[str, Any]) -> None:
        if self.socket is None or self.socket.closed or not self.window.playing:
            return
        self._count += 1
        ident = f"{self.name}-{self._count}"
        self._pending = (ident, time.perf_counter())
        self._last_sent = self._pending[1]
        if self.window.inside(self._pending[1]):
            self.tally.acts += 1
        self.socket.send(
            _encode(
                {"type": "act", "table": self.table, "hand": hand, "action": action, "id": ident}
            )
        )

    def _hand_ended(self, event: dict[str, Any]) -> None:
        """Busted: buy back in (a busted seat is dealt no hand, so chips go on at once)."""
        seats, stacks = event.get("seats", []), event.get("stacks", [])
        if self.seat in seats and stacks[seats.index(self.seat)] == 0 and self.window.playing:
            assert self.socket is not None
            self.tally.rebuys += 1
            self.socket.send(
                _encode(
                    {"type": "add_chips", "table": self.table, "seat": self.seat,
                     "amount": self.buy_in}
                )
            )  # fmt: skip


# ---------------------------------------------------------------- HTTP sign-up


async def http_post(host: str, port: int, path: str, body: dict[str, Any]) -> tuple[int, str]:
    """POST JSON with a double-submit CSRF token; (status, the session cookie or '')."""
    reader, writer = await asyncio.open_connection(host, port)
    data = json.dumps(body).encode()
    token = "load-test-csrf-token"
    request = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(data)}\r\nCookie: ph_csrf={token}\r\nX-CSRF-Token: {token}\r\n"
        "Connection: close\r\n\r\n"
    ).encode() + data
    writer.write(request)
    response = await reader.read()
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    head = response.split(b"\r\n\r\n", 1)[0].decode()
    status = int(head.split(" ", 2)[1])
    session = ""
    for line in head.split("\r\n"):
        if line.lower().startswith("set-cookie: ph_session="):
            session = line.split(":", 1)[1].strip().split(";", 1)[0]
    return status, session


async def sign_up(host: str, port: int, name: str) -> str:
    """Register ``name`` (or log in, if it exists); the session cookie."""
    credentials = {"username": name, "password": PASSWORD}
    status, session = await http_post(host, port, "/api/register", credentials)
    if status == 409:
        status, session = await http_post(host, port, "/api/login", credentials)
    if status not in (200, 201) or not session:
        raise RuntimeError(f"sign-up of {name} answered {status}")
    return session


# ---------------------------------------------------------------- a client process


async def _seat(plan: ProcessPlan, player: Player, slots: asyncio.Semaphore) -> None:
    async with slots:
        if plan.bare:
            path, cookie = f"/ws?table={player.table}&seat={player.seat}", None
        else:
            path, cookie = "/ws", await sign_up(plan.host, plan.port, player.name)
        player.socket = await WsClient.connect(
            plan.host, plan.port, path, player.on_message, cookie=cookie, on_close=player.on_close
        )
        if plan.bare:
            return
        for _attempt in range(30):
            player.sat = asyncio.get_running_loop().create_future()
            player.socket.send(_encode({"type": "watch", "table": player.table}))
            player.socket.send(
                _encode(
                    {"type": "sit", "table": player.table, "seat": player.seat,
                     "buy_in": plan.buy_in}
                )
            )  # fmt: skip
            failure = await asyncio.wait_for(player.sat, 60)
            if failure is None:
                return
            if not failure.startswith("room_unavailable"):
                break
            await asyncio.sleep(1.0)  # a table on its way to another node: soon back
        raise RuntimeError(f"{player.name} could not sit: {failure}")


async def _play(plan: ProcessPlan, control: Connection) -> None:
    tally = Tally()
    window = Window()
    rng = random.Random(plan.seed)
    players = []
    paces = []
    for table, names in plan.tables:
        pace = TablePace(plan.interval)
        paces.append(pace)
        for seat, name in enumerate(names):
            players.append(Player(name, table, seat, pace, tally, window, rng, plan.buy_in))
    slots = asyncio.Semaphore(plan.concurrency)
    started = time.perf_counter()
    await asyncio.gather(*(_seat(plan, player, slots) for player in players))
    control.send(("ready", len(players), time.perf_counter() - started))
    loop = asyncio.get_running_loop()
    while True:
        command = await loop.run_in_executor(None, control.recv)
        if command[0] == "stop":
            break
        # The parent names the window in wall-clock time (shared by every process).
        _, start_at, end_at, interval = command
        for pace in paces:
            pace.interval = interval
        fresh = Tally()
        for player in players:
            player.tally = fresh
        if not window.playing:
            window.playing = True
            for player in players:
                player.play()
        offset = time.perf_counter() - time.time()
        window.start, window.end = start_at + offset, end_at + offset
        await asyncio.sleep(max(0.0, window.start - time.perf_counter()))
        cpu = time.process_time()
        await asyncio.sleep(max(0.0, window.end - time.perf_counter()))
        cpu = time.process_time() - cpu
        control.send(("measured", {
            "latencies": fresh.latencies.tobytes(),
            "errors": dict(fresh.errors),
            "timeouts": fresh.timeouts,
            "acts": fresh.acts,
            "frames": fresh.frames,
            "messages": fresh.messages,
            "rebuys": fresh.rebuys,
            "closed": fresh.closed,
            "cpu": cpu,
        }))  # fmt: skip
    window.playing = False
    window.finished = True
    for player in players:
        if player.socket is not None:
            player.socket.close()
    await asyncio.sleep(0.2)


def run_process(plan: ProcessPlan, control: Connection) -> None:
    """A client process: seat every player of ``plan``, then play each window ``control``
    names and report what it measured, until told to stop."""
    try:
        asyncio.run(_play(plan, control))
    except Exception as error:  # the parent reports it; a traceback here would be lost
        control.send(("failed", f"{type(error).__name__}: {error}"))
