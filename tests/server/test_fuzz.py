"""A protocol fuzzer over the real ``/ws`` of a real server.

Hypothesis writes frames: well-formed messages with wrong, missing and extra
fields, huge and negative numbers and any unicode; valid messages mutated
byte by byte; raw text; binary frames; frames over the size limit. Two
signed-in players (seated, so the table code is reached too) and a
spectator send them. The oracle:

* a frame the protocol does not take gets an ``error`` with exactly the code
  the decoder names (checked before the next frame's answer: a ``ping``
  right after each one must get its ``pong``), or, over the size limit, the
  socket is closed with a policy code;
* every ``act`` gets an ``ack`` or a coded ``error`` with its id;
* no task of the room logs an error, every table task runs, ``/healthz``
  answers, and at the end the ledger check passes (the autouse fixture).

The default run is quick (``POKERHOUSE_FUZZ_EXAMPLES``, default 40 examples
of up to 12 frames); the slow suite runs a bigger budget. Each run prints the
frames it sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerhouse.server.settings import RoomSettings
from pokerhouse.server.socket import incoming as p
from tests.server.conftest import Client, Harness, serve, table
from tests.server.play import sit

EXAMPLES = int(os.environ.get("POKERHOUSE_FUZZ_EXAMPLES", "40"))
CODE = re.compile(r"^[a-z][a-z_]{1,40}$")
#: Close codes a fuzzed socket may end with: policy (1008) or too big for the socket (1009).
POLICY_CLOSES = {1008, 1009}

#: Every client message type and its fields, with a value strategy that is usually right.
FIELDS: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "watch": {"table": st.integers(1, 3)},
    "unwatch": {"table": st.integers(1, 3)},
    "lobby": {},
    "sit": {"table": st.integers(1, 3), "seat": st.integers(0, 3), "buy_in": st.integers(0, 400)},
    "act": {
        "table": st.integers(1, 3),
        "hand": st.integers(1, 6),
        "action": st.fixed_dictionaries(
            {"kind": st.sampled_from(["check", "call", "fold", "bet", "raise", "show", "x"])},
            optional={"amount": st.integers(-5, 300)},
        ),
        "id": st.text(
            st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=8
        ),
    },
    "sit_out": {"table": st.integers(1, 3)},
    "sit_in": {"table": st.integers(1, 3)},
    "leave": {"table": st.integers(1, 3)},
    "add_chips": {
        "table": st.integers(1, 3),
        "seat": st.integers(0, 3),
        "amount": st.integers(0, 2000),
    },
    "wager": {
        "table": st.integers(1, 3),
        "seat": st.integers(0, 3),
        "ante": st.integers(0, 60),
        "bonus": st.integers(0, 60),
    },
    "resume": {"table": st.integers(1, 3), "since": st.integers(0, 2**40)},
    "chat": {"table": st.integers(1, 3), "text": st.text(min_size=1, max_size=40)},
    "ping": {},
}

#: Text with no lone surrogates (a websocket text frame is UTF-8).
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
#: Any JSON value, leaning to the awkward: huge, negative, fractional, nested.
NASTY: st.SearchStrategy[Any] = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**62, max_value=2**80)
    | st.integers(max_value=-1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(TEXT, children, max_size=3),
    max_leaves=6,
)


@st.composite
def message(draw: st.DrawFn) -> dict[str, Any]:
    """A client message, sometimes right, often with a field wrong, gone or extra."""
    kind = draw(st.sampled_from(sorted(FIELDS)) | TEXT)
    fields = FIELDS.get(kind, {})
    body: dict[str, Any] = {"type": kind}
    for name, good in fields.items():
        choice = draw(st.integers(0, 9))
        if choice == 0:
            continue  # missing
        body[name] = draw(NASTY) if choice == 1 else draw(good)
    if draw(st.integers(0, 9)) == 0:
        body[draw(TEXT)] = draw(NASTY)  # extra (or, by chance, a known one overwritten)
    return body


def mutate(text: str, data: st.DataObject) -> str:
    """``text`` with a few characters replaced, dropped or inserted."""
    chars = list(text)
    for _ in range(data.draw(st.integers(1, 4))):
        if not chars:
            break
        at = data.draw(st.integers(0, len(chars) - 1))
        how = data.draw(st.integers(0, 2))
        if how == 0:
            chars[at] = data.draw(st.characters(exclude_categories=("Cs",)))
        elif how == 1:
            del chars[at]
        else:
            chars.insert(at, data.draw(st.sampled_from('{}[]",:0-e"\\')))
    return "".join(chars)


@st.composite
def frame(draw: st.DrawFn) -> tuple[int, str | bytes]:
    """(which client: 0, 1 players, 2 the spectator; the frame) to send."""
    who = draw(st.integers(0, 2))
    how = draw(st.integers(0, 19))
    if how < 12:
        sent: str | bytes = json.dumps(draw(message()), ensure_ascii=draw(st.booleans()))
    elif how < 16:
        sent = mutate(json.dumps(draw(message())), draw(st.data()))
    elif how < 18:
        sent = draw(TEXT)
    elif how == 18:
        sent = draw(st.binary(max_size=40))
    else:
        # Over the size limit: by bytes (multi-byte characters) or far over the socket's bound.
        size = draw(
            st.sampled_from([p.MAX_FRAME // 3 + 10, p.MAX_FRAME + 1, p.MAX_SOCKET_FRAME + 1])
        )
        fill = draw(st.sampled_from(["x", "\u4e2d"]))
        sent = json.dumps({"type": "chat", "table": 1, "text": fill * size}, ensure_ascii=False)
    return who, sent


def expected_code(sent: str | bytes) -> str | None:
    """The code the server must answer ``sent`` with, or ``None`` if it is a valid message."""
    if isinstance(sent, bytes):
        return "binary_frame"
    try:
        p.decode(sent)
    except p.ProtocolError as error:
        return error.code
    return None


class Errors(logging.Handler):
    """Collects every error a task of the room logs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextlib.contextmanager
def logged_errors() -> Iterator[Errors]:
    handler = Errors()
    loggers = [logging.getLogger(name) for name in ("pokerhouse", "uvicorn", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


class Fuzzing:
    """The clients of one fuzz run and what they have sent."""

    def __init__(self, harness: Harness, players: list[Client], spectator: Client) -> None:
        self.harness = harness
        self.clients = [*players, spectator]
        self.frames = 0
        self.closed = 0
        self.acts: dict[int, list[str]] = {0: [], 1: [], 2: []}
        #: Per client: how many of its frames were scanned for answers, and the ids answered.
        self.checked = dict.fromkeys(self.acts, 0)
        self.answered: dict[int, set[Any]] = {who: set() for who in self.acts}

    async def reconnect(self, who: int) -> None:
        client = self.clients[who]
        with contextlib.suppress(Exception):
            await client.ws.close()
        if client._reader is not None:
            with contextlib.suppress(Exception):
                await client._reader
        await client.connect()
        if who < 2:
            await client.send({"type": "watch", "table": 1})

    async def send(self, who: int, sent: str | bytes) -> None:
        """Send one frame and check the server's answer to it."""
        client = self.clients[who]
        if client.ws.close_code is not None:
            await self.reconnect(who)
        code = expected_code(sent)
        mark = len(client.frames)
        self.frames += 1
        if code is None:
            decoded = json.loads(sent)
            if decoded.get("type") == "act":
                self.acts[who].append(decoded["id"])
        try:
            await client.ws.send(sent)
            await client.ws.send('{"type": "ping"}')
        except websockets.ConnectionClosed:
            pass
        oversize = code == "frame_too_large" or (
            isinstance(sent, str) and p.utf8_size(sent) > p.MAX_FRAME
        )
        if oversize:
            await asyncio.wait_for(client._reader, timeout=30)  # type: ignore[arg-type]
            assert client.ws.close_code in POLICY_CLOSES, client.ws.close_code
            self.closed += 1
            await self.reconnect(who)
            return
        pong = await client.wait_for(lambda f: f.get("type") == "pong", after=mark, timeout=10)
        answers = client.frames[mark : client.frames.index(pong, mark)]
        errors = [f for f in answers if f.get("type") == "error"]
        for error in errors:
            assert CODE.match(error["code"]), error
        if code is not None:
            assert any(e["code"] == code for e in errors), (sent, code, answers)

    async def check(self, errors: Errors) -> None:
        """Everything the room did since the last check went well."""
        # Every frame sent has been handled (not: the room is idle; a person's table
        # plays on with no pause between hands, and would keep settle() waiting).
        await self.harness.drain()
        for who, ids in self.acts.items():
            client = self.clients[who]
            if ids and client.ws.close_code is None:
                # A ping's pong goes through the same queue as the answers the table
                # task sent while draining: once it is here, so are they.
                mark = len(client.frames)
                with contextlib.suppress(websockets.ConnectionClosed):
                    await client.ws.send('{"type": "ping"}')
                    await client.wait_for(lambda f: f.get("type") == "pong", after=mark, timeout=30)
            # Only the frames since the last check: a long run's clients hold many.
            fresh = client.frames[self.checked[who] :]
            self.checked[who] += len(fresh)
            self.answered[who].update(
                f.get("id") for f in fresh if f.get("type") in ("ack", "error")
            )
            assert set(ids) <= self.answered[who], set(ids) - self.answered[who]
            ids.clear()
        for task in self.harness.site.room.tasks.values():
            assert task._task is not None and not task._task.done()
        health = await self.clients[0].http.get("/healthz")
        assert health.status_code == 200, health.text
        assert not errors.records, [r.getMessage() for r in errors.records]


@contextlib.asynccontextmanager
async def fuzzing(db_url: str) -> AsyncIterator[Fuzzing]:
    """A room of three tables (bots at the Casino one), two seated players and a spectator."""
    # Limits high enough for a ping after every frame; the limits have their own tests.
    limits = RoomSettings(
        bot_think=(0.0, 0.0),
        hand_pause=0.0,
        registrations_per_hour=100_000,
        messages_per_second=10_000.0,
        message_burst=10_000,
        chat_per_second=10_000.0,
        chat_burst=10_000,
    )
    tables = [
        table("3x4 fuzz", "3x4", options={"ante": 1, "small_bet": 2}, seats=4),
        table("Teen Patti fuzz", "teen-patti", options={"ante": 1}, seats=4),
        table(
            "Casino fuzz",
            "casino-holdem",
            options={"min_ante": 1, "max_ante": 50, "max_payout": 2000},
            seats=4,
            max_boxes=2,
            bots=1,
        ),
    ]
    async with serve(db_url, tables, settings=limits) as harness:
        ann, bob = await harness.player(), await harness.player()
        three = harness.table_id("3x4 fuzz")
        await sit(ann, three, 0, 200)
        await sit(bob, three, 1, 200)
        ghost = await harness.spectator()
        yield Fuzzing(harness, [ann, bob], ghost)


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)


async def test_fuzzed_frames_get_coded_errors_and_break_nothing(db_url: str) -> None:
    await run_fuzz(db_url, EXAMPLES)


@pytest.mark.slow
async def test_fuzzed_frames_a_bigger_budget(db_url: str) -> None:
    await run_fuzz(db_url, int(os.environ.get("POKERHOUSE_FUZZ_SLOW_EXAMPLES", "400")))


async def run_fuzz(db_url: str, examples: int) -> None:
    async with fuzzing(db_url) as fuzz:
        with logged_errors() as errors:
            loop = asyncio.get_running_loop()

            @settings(FUZZ, max_examples=examples)
            @given(st.lists(frame(), min_size=1, max_size=12))
            def example(batch: list[tuple[int, str | bytes]]) -> None:
                # Hypothesis drives a plain function; each example runs on the room's loop.
                future = asyncio.run_coroutine_threadsafe(play(fuzz, batch, errors), loop)
                future.result(timeout=120)

            await loop.run_in_executor(None, example)
        applied = sum(
            1 for c in fuzz.clients for f in c.frames if f.get("type") in ("ack", "event")
        )
        print(
            f"fuzz: {examples} examples, {fuzz.frames} frames, {fuzz.closed} sockets closed, "
            f"{applied} acks and events"
        )


async def play(fuzz: Fuzzing, batch: list[tuple[int, str | bytes]], errors: Errors) -> None:
    for who, sent in batch:
        await fuzz.send(who, sent)
    await fuzz.check(errors)
