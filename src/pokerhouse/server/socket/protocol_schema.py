"""The websocket's messages published as one JSON Schema (served at ``/api/protocol.json``).

A client sends one JSON object a frame (:mod:`.incoming`'s messages); the
server sends JSON arrays of its messages (:mod:`.outgoing`'s). The document
validates either: ``ClientMessage`` and ``ServerMessages`` are its two
definitions, each message type one more, made from the types themselves.

>>> document = protocol_schema()
>>> document.one_of
[{'$ref': '#/$defs/ClientMessage'}, {'$ref': '#/$defs/ServerMessages'}]
>>> sorted(document.defs["ClientMessage"]["discriminator"]["mapping"])[:3]
['act', 'add_chips', 'call_ev']
"""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from pokerhouse.server.socket.incoming import ClientMessage
from pokerhouse.server.socket.outgoing import ServerMessage

#: JSON Schema's dialect, the one OpenAPI 3.1 uses.
DIALECT = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, Any]


class ProtocolSchema(
    msgspec.Struct,
    frozen=True,
    rename={"dialect": "$schema", "one_of": "oneOf", "defs": "$defs"},
):
    """A JSON Schema (2020-12) of the websocket's messages: a client's frame (one message)
    or a server's (an array of messages, read in order)."""

    dialect: str
    title: str
    description: str
    one_of: list[Schema]
    defs: dict[str, Schema]


@functools.cache
def protocol_schema() -> ProtocolSchema:
    """The websocket protocol's JSON Schema, made once from its message types."""
    (client, server), defs = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    defs["ClientMessage"] = {
        "description": 'What a client sends: one message a frame, named by its "type".',
        **client,
    }
    defs["ServerMessage"] = {
        "description": 'A message of the server, named by its "type".',
        **server,
    }
    defs["ServerMessages"] = {
        "description": "What the server sends: a frame holds one or more of its messages, "
        "to be read in order.",
        "type": "array",
        "items": {"$ref": "#/$defs/ServerMessage"},
        "minItems": 1,
    }
    return ProtocolSchema(
        dialect=DIALECT,
        title="pokerhouse websocket protocol",
        description="The messages of the websocket /ws (docs/protocol.md): a client's frame "
        "is a ClientMessage, a server's is ServerMessages.",
        one_of=[{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessages"}],
        defs=dict(sorted(defs.items())),
    )
