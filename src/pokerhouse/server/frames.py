"""The server's messages as bytes: each event encoded once per audience, then framed.

A table's event goes to every watcher, but at most two encodings exist:
the event as its audience sees it, and as everyone else does (or, for an
event they may not see at all, a placeholder that keeps their stream
gapless). Each frame wraps a shared encoding with the table and the
sequence number, so nothing per watcher costs more than a join.

>>> from pokerhouse.engine.events import StreetStarted
>>> bytes(event_frame(7, 41, encode_event(StreetStarted(street="flop"))))
b'{"type":"event","table":7,"seq":41,"event":{"type":"street_started","street":"flop"}}'
>>> bytes(event_frame(7, 42, None))
b'{"type":"event","table":7,"seq":42,"event":null}'
"""

from __future__ import annotations

from typing import Any

import msgspec

from pokerhouse.engine.events import Event, event_to_dict

_encoder = msgspec.json.Encoder()


def encode(value: Any) -> bytes:
    """Compact JSON of ``value``."""
    return _encoder.encode(value)


def encode_event(event: Event) -> bytes:
    """One event's JSON (cards as text, ``null`` for a card the audience may not see)."""
    return _encoder.encode(event_to_dict(event))


def event_frame(table: int, seq: int, payload: bytes | None) -> bytes:
    """An ``event`` message around an encoded event (``None``: a placeholder)."""
    return b"".join(
        (
            b'{"type":"event","table":',
            str(table).encode(),
            b',"seq":',
            str(seq).encode(),
            b',"event":',
            payload if payload is not None else b"null",
            b"}",
        )
    )


def message(kind: str, **fields: Any) -> bytes:
    """A message of ``kind`` with ``fields``: ``{"type": kind, ...}``."""
    return _encoder.encode({"type": kind, **fields})


def error(code: str, text: str, ident: str | None = None, table: int | None = None) -> bytes:
    """An ``error`` message: a stable code, a sentence, and the request it answers."""
    fields: dict[str, Any] = {"code": code, "message": text}
    if ident is not None:
        fields["id"] = ident
    if table is not None:
        fields["table"] = table
    return message("error", **fields)
