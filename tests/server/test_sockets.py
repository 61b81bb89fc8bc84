"""Frames written together: a connection's queued frames go in one ``send_many``, and a
client that stops reading is still cut off by the connection's bound."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from websockets.frames import Frame, Opcode
from websockets.streams import StreamReader

from pokerhouse.server.connection import Connection, Identity
from pokerhouse.server.sockets import BatchingProtocol, text_frame_header, uvicorn_ws
from pokerhouse.store import TableConfig
from tests.server.conftest import serve
from tests.server.play import play_hand, sit

TABLE = TableConfig("3x4 heads-up", "3x4", {"ante": 1, "small_bet": 2}, 2)


async def _never(frame: bytes) -> None:
    raise AssertionError("with send_many, no frame goes alone")


async def _close(code: int, reason: str) -> None:
    return None


async def test_queued_frames_go_in_one_write() -> None:
    writes: list[list[bytes]] = []

    async def send_many(frames: Sequence[bytes]) -> None:
        writes.append(list(frames))

    conn = Connection(Identity(), _never, _close, send_many=send_many)
    writer = asyncio.get_running_loop().create_task(conn.run())
    for frame in (b"one", b"two", b"three"):
        conn.send(frame)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert writes == [[b"one", b"two", b"three"]]
    assert conn.buffered == 0 and conn.sent_frames == 3
    conn.kill("closed")
    await writer


async def test_a_client_that_stops_reading_is_cut_off() -> None:
    paused = asyncio.Event()  # a paused transport: send_many waits for ever

    async def send_many(frames: Sequence[bytes]) -> None:
        await paused.wait()

    conn = Connection(Identity(), _never, _close, max_buffer=1000, send_many=send_many)
    writer = asyncio.get_running_loop().create_task(conn.run())
    conn.send(b"x" * 600)
    await asyncio.sleep(0)  # the writer takes it and blocks on the socket
    conn.send(b"y" * 600)
    conn.send(b"z" * 600)
    assert conn.closed and conn.close_reason == "slow_client"
    writer.cancel()


async def test_the_room_offers_send_many_to_every_socket(db_url: str) -> None:
    assert BatchingProtocol is not None and uvicorn_ws() is BatchingProtocol
    async with serve(db_url, [TABLE]) as room:
        ann, bob = await room.player(), await room.player()
        table = room.table_id(TABLE.name)
        await sit(ann, table, 0)
        await sit(bob, table, 1)
        await room.settle()
        watchers = room.site.room.runners[table].audience.watchers
        assert len(watchers) == 2
        assert all(conn._send_many is not None for conn in watchers)
        # The hand started: both saw its events, in order and gapless.
        for client in (ann, bob):
            seqs = [frame["seq"] for frame in client.events(table)]
            assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))


@pytest.mark.parametrize("size", [0, 1, 125, 126, 300, 65535, 65536, 200_000])
def test_the_rooms_own_framing_is_what_websockets_reads(size: int) -> None:
    text = ("é" * size).encode()[:size]
    reader = StreamReader()
    reader.feed_data(text_frame_header(len(text)) + text)
    reader.feed_eof()
    parser = Frame.parse(reader.read_exact, mask=False, max_size=None)
    with pytest.raises(StopIteration) as done:
        next(parser)
    frame = done.value.value
    assert frame.opcode is Opcode.TEXT and frame.fin and frame.data == text


async def test_clients_with_and_without_compression_read_the_same_stream(db_url: str) -> None:
    """The room declines permessage-deflate (its frames are small JSON, and a deflate context
    per socket costs memory), so it frames every message itself, whatever the client offers."""
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
        shared = min(len(stream) for stream in streams)
        assert streams[0][-shared:] == streams[1][-shared:]


async def test_frames_go_at_the_end_of_the_turn_or_through_the_writer_when_paused() -> None:
    writes: list[tuple[str, list[bytes]]] = []
    paused = True

    def write_now(frames: Sequence[bytes]) -> bool:
        if paused:
            return False
        writes.append(("now", list(frames)))
        return True

    async def send_many(frames: Sequence[bytes]) -> None:
        writes.append(("writer", list(frames)))

    conn = Connection(Identity(), _never, _close, send_many=send_many, write_now=write_now)
    writer = asyncio.get_running_loop().create_task(conn.run())
    conn.send(b"one")
    conn.send(b"two")
    assert writes == []  # nothing before the turn of the loop ends
    for _ in range(3):
        await asyncio.sleep(0)
    assert writes == [("writer", [b"one", b"two"])]  # paused: the writer task took them
    paused = False
    conn.send(b"three")
    conn.send(b"four")
    await asyncio.sleep(0)
    assert writes[1:] == [("now", [b"three", b"four"])]
    assert conn.buffered == 0 and conn.sent_frames == 4
    conn.kill("closed")
    await writer
