"""The ceiling: a bare Starlette websocket broadcast server, no engine and no database.

It speaks just enough of the room's shape for ``bench/room.py``'s clients:
a socket joins ``/ws?table=T&seat=S``; once a table's six seats are there,
the seat on turn gets a ``private`` decision (check or fold); its ``act``
becomes one ``action_taken`` event, encoded once and sent to the table's six
sockets, with an ``ack`` for the actor and the next seat's ``private`` in the
same websocket message (a JSON array, as the room writes them). No rules, no
checks beyond the turn, no commit: what is left is the cost of Starlette,
uvicorn and the websocket frames, which the room cannot beat.

    python bench/bare_server.py --port 8765
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import msgspec
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

SEATS = 6
_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder()
_DECISION = {"actions": [{"kind": "fold"}, {"kind": "check"}]}


@dataclass
class BareTable:
    """Six sockets and whose turn it is."""

    id: int
    sockets: dict[int, WebSocket] = field(default_factory=dict)
    turn: int = 0
    seq: int = 0
    hand: int = 1

    def private(self) -> bytes:
        """The decision of the seat on turn."""
        mine = {str(self.turn): {"hand_name": None, "decision": _DECISION}}
        return _encoder.encode(
            {"type": "private", "table": self.id, "seq": self.seq, "hand": self.hand, "mine": mine}
        )

    async def offer(self) -> None:
        """The seat on turn gets its decision."""
        socket = self.sockets.get(self.turn)
        if socket is not None:
            await socket.send_text(f"[{self.private().decode()}]")

    async def act(self, seat: int, message: dict[str, object]) -> None:
        """Broadcast the action to the six, acknowledge it, and offer the next seat: one
        websocket message for each socket."""
        if seat != self.turn:
            return
        self.seq += 1
        event = _encoder.encode(
            {"type": "event", "table": self.id, "seq": self.seq,
             "event": {"type": "action_taken", "seat": seat, "action": message.get("action")}}
        )  # fmt: skip
        ack = _encoder.encode({"type": "ack", "id": message.get("id"), "table": self.id})
        self.turn = (self.turn + 1) % SEATS
        private = self.private()
        for at, socket in list(self.sockets.items()):
            parts = [event]
            if at == seat:
                parts.append(ack)
            if at == self.turn:
                parts.append(private)
            await socket.send_text((b"[" + b",".join(parts) + b"]").decode())


tables: dict[int, BareTable] = {}


async def endpoint(ws: WebSocket) -> None:
    """One client: join its table, then act when it is told to."""
    table_id = int(ws.query_params["table"])
    seat = int(ws.query_params["seat"])
    await ws.accept()
    await ws.send_text('[{"type":"hello","user":null}]')
    table = tables.setdefault(table_id, BareTable(table_id))
    table.sockets[seat] = ws
    if len(table.sockets) == SEATS:
        await table.offer()
    try:
        while True:
            message = _decoder.decode(await ws.receive_text())
            if message.get("type") == "act":
                await table.act(seat, message)
    except WebSocketDisconnect:
        pass
    finally:
        table.sockets.pop(seat, None)


app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])


def main() -> None:
    """Serve on loopback until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        ws_per_message_deflate=False,
        lifespan="on",
        access_log=False,
    )


if __name__ == "__main__":
    main()
