"""Messages written together: a connection's queued messages go as one websocket message
(a JSON array) through the server's public ASGI ``send``, and a client that stops reading
is still cut off by the connection's bound."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from pokerhouse.server.socket.connection import Connection, Flusher, Identity
from pokerhouse.store import TableConfig
from tests.server.conftest import serve
from tests.server.play import play_hand, sit

TABLE = TableConfig("3x4 heads-up", "3x4", {"ante": 1, "small_bet": 2}, 2)


async def _close(code: int, reason: str) -> None:
    return None


async def test_queued_messages_go_as_one_websocket_message() -> None:
    sent: list[str] = []

    async def send_text(text: str) -> None:
        sent.append(text)

    conn = Connection(Identity(), send_text, _close)
    writer = asyncio.get_running_loop().create_task(conn.run())
    conn.send(b'{"n":1}')
    conn.send_all([b'{"n":2}', b'{"n":3}'])
    assert sent == []  # nothing before the writer's turn
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert sent == ['[{"n":1},{"n":2},{"n":3}]']
    assert conn.buffered == 0 and conn.sent_messages == 3 and conn.sent_writes == 1
    conn.kill("closed")
    await writer


async def test_one_callback_a_turn_sends_every_connections_queue() -> None:
    sent: list[tuple[int, str]] = []
    flusher = Flusher()

    def sender(n: int) -> Callable[[str], Coroutine[Any, Any, None]]:
        async def send_text(text: str) -> None:
            if n == 2:
                raise RuntimeError("a bug in one connection's send")
            sent.append((n, text))

        return send_text

    conns = [Connection(Identity(), sender(n), _close, flusher=flusher) for n in range(4)]
    loop = asyncio.get_running_loop()
    callbacks = 0
    original = loop.call_soon

    def counting(*args: Any, **kwargs: Any) -> asyncio.Handle:
        nonlocal callbacks
        callbacks += 1
        return original(*args, **kwargs)

    loop.call_soon = counting  # type: ignore[method-assign]  # counts the callbacks asked for
    try:
        for conn in conns:
            conn.send_all([b"1", b"2"])
        conns[0].send(b"3")
    finally:
        loop.call_soon = original  # type: ignore[method-assign]
    assert callbacks == 1 and sent == []
    await asyncio.sleep(0)
    # The broken one is closed; the others' frames went, each queue as one message.
    assert sent == [(0, "[1,2,3]"), (1, "[1,2]"), (3, "[1,2]")]
    assert conns[2].closed and not any(conns[n].closed for n in (0, 1, 3))
    conns[1].send(b"4")  # a later turn: scheduled again
    await asyncio.sleep(0)
    assert sent[-1] == (1, "[4]")


async def test_a_client_that_stops_reading_is_cut_off() -> None:
    paused = asyncio.Event()  # a paused transport: the send waits for ever

    async def send_text(text: str) -> None:
        await paused.wait()

    conn = Connection(Identity(), send_text, _close, max_buffer=1000)
    writer = asyncio.get_running_loop().create_task(conn.run())
    conn.send(b"x" * 600)
    await asyncio.sleep(0)  # the writer takes it and blocks on the socket
    conn.send(b"y" * 300)
    assert not conn.closed  # 900 bytes held: the ones in the send still count ...
    conn.send(b"z" * 200)  # ... so 1,100 pass the bound
    assert conn.closed and conn.close_reason == "slow_client"
    writer.cancel()


async def test_a_steps_messages_reach_each_watcher_in_one_websocket_message(db_url: str) -> None:
    async with serve(db_url, [TABLE]) as room:
        ann, bob = await room.player(), await room.player()
        watcher = await room.spectator()
        table = room.table_id(TABLE.name)
        await watcher.send({"type": "watch", "table": table})
        await sit(ann, table, 0)
        await sit(bob, table, 1)
        await play_hand([ann, bob], table)
        await room.settle()
        for client in (ann, bob, watcher):
            seqs = [frame["seq"] for frame in client.events(table)]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
            # Several messages a write: a step's events, clock, decision and ack together.
            assert len(client.frames) >= 2 * client.writes, (len(client.frames), client.writes)


async def test_clients_with_and_without_compression_read_the_same_stream(db_url: str) -> None:
    """The room declines permessage-deflate (its messages are small JSON, and a deflate
    context per socket costs memory), whatever the client offers."""
    async with serve(db_url, [TABLE]) as room:
        plain = await room.player(compression=None)
        deflated = await room.player()
        assert not plain.ws.protocol.extensions and not deflated.ws.protocol.extensions
        table = room.table_id(TABLE.name)
        await sit(plain, table, 0)
        await sit(deflated, table, 1)
        await play_hand([plain, deflated], table)
        await room.settle()
        streams = []
        for client in (plain, deflated):
            seqs = [frame["seq"] for frame in client.events(table)]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
            streams.append(
                [(f["seq"], f["event"] and f["event"]["type"]) for f in client.events(table)]
            )
        # Where both were watching (the one seated first saw more), the same events.
        shared = {seq for seq, _ in streams[0]} & {seq for seq, _ in streams[1]}
        assert shared
        assert [e for e in streams[0] if e[0] in shared] == [
            e for e in streams[1] if e[0] in shared
        ]
