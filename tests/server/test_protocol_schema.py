"""The websocket's messages published as one JSON Schema (``GET /api/protocol.json``).

The schema is made from the message types, so it names every one of them;
these tests hold it to what the room does: the messages docs/protocol.md
shows validate, the frames the decoder refuses are refused by the schema
too, and what the server encodes is what the schema says.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema_rs
import msgspec
import pytest

from pokerhouse.engine.events import StreetStarted
from pokerhouse.server.socket import incoming, outgoing
from pokerhouse.server.socket.protocol_schema import protocol_schema
from pokerhouse.server.table.lines import PlayerLine, TableLine
from pokerhouse.server.tournaments.lines import LevelUpNews, MovedNews, TournamentLine

PROTOCOL = Path(__file__).parents[2] / "docs" / "protocol.md"
SCHEMA: dict[str, Any] = msgspec.to_builtins(protocol_schema())


def validator(definition: str | None = None) -> Any:
    """A validator of the whole schema, or of one of its definitions."""
    if definition is None:
        return jsonschema_rs.validator_for(SCHEMA)
    return jsonschema_rs.validator_for(
        {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{definition}"}
    )


def section(heading: str) -> str:
    """The text of docs/protocol.md under ``heading``, to the next heading."""
    text = PROTOCOL.read_text()
    start = text.index(f"\n{heading}\n")
    end = text.find("\n#", start + len(heading) + 2)
    return text[start:end]


def json_objects(text: str) -> list[Any]:
    """Every JSON value of the ```json blocks of ``text``, in order."""
    found = []
    decoder = json.JSONDecoder()
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        at = 0
        while (at := len(block) - len(block[at:].lstrip())) < len(block):
            value, at = decoder.raw_decode(block, at)
            found.append(value)
            block = block[at:]
            at = 0
    return found


def test_every_message_type_is_in_the_schema() -> None:
    defs = SCHEMA["$defs"]
    client = {str(kind.__struct_config__.tag) for kind in incoming.MESSAGE_TYPES}
    assert set(defs["ClientMessage"]["discriminator"]["mapping"]) == client
    assert set(outgoing.OutgoingMessage.__subclasses__()) == set(outgoing.SERVER_MESSAGES)
    server = {str(kind.__struct_config__.tag) for kind in outgoing.SERVER_MESSAGES}
    assert set(defs["ServerMessage"]["discriminator"]["mapping"]) == server
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_the_client_messages_docs_protocol_md_shows_are_valid() -> None:
    rows = [line for line in section("### What a client sends").splitlines() if line[:3] == "| `"]
    # A row's first cell: the message (or two); its second says what it does.
    shown = [
        json.loads(code) for row in rows for code in re.findall(r"`(\{.*?\})`", row.split(" | ")[0])
    ]
    assert len(shown) >= 16
    check = validator("ClientMessage")
    for message in shown:
        assert check.is_valid(message), message
        incoming.decode(json.dumps(message))  # and the room takes it


def test_the_server_messages_docs_protocol_md_shows_are_valid() -> None:
    # Examples cut short with "..." are sketches, not messages.
    shown = [
        message
        for message in json_objects(section("### What the server sends"))
        if '"..."' not in json.dumps(message)
    ]
    assert {message["type"] for message in shown} >= {"hello", "event", "private", "ack"}
    check = validator("ServerMessage")
    for message in shown:
        assert check.is_valid(message), message


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "watch", "table": 3, "views": True},
        {"type": "act", "table": 1, "hand": 4, "action": {"kind": "call"}, "id": "a1"},
        {"type": "host", "table": 9, "op": "pause"},
        {"type": "chat", "table": 1, "text": "a" * 300},
    ],
)
def test_a_frame_the_room_takes_is_valid(frame: dict[str, Any]) -> None:
    incoming.decode(json.dumps(frame))
    assert validator().is_valid(frame)


@pytest.mark.parametrize(
    "frame",
    [
        {"type": "act", "table": 1},  # a field missing
        {"type": "watch", "table": 1, "extra": 2},  # a field too many
        {"type": "watch", "table": 0},  # out of range
        {"type": "sit", "table": 1, "seat": 10, "buy_in": 5},
        {"type": "chat", "table": 1, "text": ""},
        {"type": "act", "table": 1, "hand": 4, "action": {"kind": "call"}, "id": "a b"},
        {"type": "host", "table": 9, "op": "dance"},
        {"type": "fold", "table": 1},  # no such type
        {"table": 1},  # no type
        [{"type": "ping"}],  # a client sends one message, not an array
    ],
)
def test_a_frame_the_room_refuses_is_invalid(frame: Any) -> None:
    with pytest.raises(incoming.ProtocolError):
        incoming.decode(json.dumps(frame))
    assert not validator().is_valid(frame)


def test_what_the_server_encodes_is_valid() -> None:
    lobby = TableLine(
        1,
        "Razz",
        "razz",
        "Razz",
        {"ante": 1},
        2,
        [PlayerLine(0, "ann", True)],
        1,
        12,
        70,
        20,
        100,
        True,
        False,
        False,
    )
    line = TournamentLine(
        4,
        "Razz SNG",
        "razz",
        "Razz",
        "sit-and-go",
        "running",
        100,
        10,
        0,
        6,
        6,
        6,
        6,
        5,
        1,
        False,
        3,
        [420, 180],
        {"ante": 2},
        {"ante": 3},
        False,
        12.5,
        False,
    )
    frames = [
        outgoing.encode(outgoing.Hello(user=None)),
        outgoing.encode(outgoing.Pong()),
        outgoing.encode(outgoing.LobbyLines(tables=[lobby])),
        outgoing.encode(
            outgoing.TournamentNews(
                tournament=4,
                line=line,
                news=[LevelUpNews(3, {"ante": 2}), MovedNews(3, "ann", 2, 41)],
            )
        ),
        outgoing.encode(outgoing.Snapshot(table=1, seq=5, view={"game": "razz"})),
        outgoing.encode(
            outgoing.EventFrame(table=1, seq=6, event=outgoing.encode_event(StreetStarted("flop")))
        ),
        outgoing.encode(outgoing.EventFrame(table=1, seq=7, event=None)),
        outgoing.private(1, 7, 2, {"0": {"hand_name": "Pair of kings", "decision": None}}),
        outgoing.encode(outgoing.ClockShown(table=1, seq=7, hand=2, seat=0, limit_ms=1, bank_ms=2)),
        outgoing.encode(outgoing.Window(table=8, seq=1, open=True, seconds=10.0)),
        outgoing.encode(outgoing.Ack(id="a-1", table=1, repeated=True)),
        outgoing.error("bad_message", "a field is missing", "a-2", 1),
        outgoing.encode(
            outgoing.ChatLine(table=1, seq=8, user="Ada_bot", text="Hi", phrase="hello")
        ),
        outgoing.encode(outgoing.Home(table=9, host="ann", paused=False, closing=True)),
    ]
    message = json.loads(outgoing.array(frames))
    assert validator().is_valid(message)
    assert validator("ServerMessages").is_valid(message)
    assert [item["type"] for item in message][:4] == ["hello", "pong", "lobby", "tournament"]
    assert not validator().is_valid([{"type": "ack", "table": 1}])  # an ack names its act
