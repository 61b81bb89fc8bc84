"""The websocket protocol's messages, as typed schemas decoded once at the edge.

A client sends JSON objects with a ``"type"``; :func:`decode` turns a frame
into one of the client message structs below, or raises
:class:`ProtocolError` with a stable code (and, where the frame had one, the
message's ``id``) without anything else being touched. The server's own
messages (``snapshot``, ``event``, ``ack``, ``error`` and the few others
listed in ``docs/protocol.md``) are the schemas of
:mod:`pokerhouse.server.socket.outgoing`.

>>> decode(b'{"type": "watch", "table": 3}')
WatchMessage(table=3, views=False)
>>> decode(b'{"type": "act", "table": 1, "hand": 4, "action": {"kind": "call"}, "id": "a1"}')
ActMessage(table=1, hand=4, action=ActionBody(kind='call', amount=None), id='a1')
>>> decode(b'{"type": "act", "table": 1}')
Traceback (most recent call last):
...
pokerhouse.server.socket.incoming.ProtocolError: Object missing required field `hand`
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

#: The largest frame a client may send, in bytes; larger ones close the socket.
MAX_FRAME = 4096
#: The largest frame the websocket layer reads at all (larger: closed with 1009 unread).
MAX_SOCKET_FRAME = 65536
#: Client-chosen ids of ``act`` messages: short printable text.
IdText = Annotated[str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[\x21-\x7e]+$")]
TableId = Annotated[int, msgspec.Meta(ge=1, le=2**31 - 1)]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=9)]
Chips = Annotated[int, msgspec.Meta(ge=0, le=10**12)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=2**62)]
HandNumber = Annotated[int, msgspec.Meta(ge=1, le=2**62)]
ChatText = Annotated[str, msgspec.Meta(min_length=1, max_length=300)]


class ProtocolError(Exception):
    """A client message that cannot be taken: ``code`` is stable, ``id`` the message's id."""

    def __init__(self, code: str, message: str, id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.id = id


class IncomingMessage(
    msgspec.Struct, tag_field="type", forbid_unknown_fields=True, frozen=True, gc=False
):
    """Base of every client message.

    Made of plain values only, so they can hold no reference cycle: the garbage
    collector need not track them (``gc=False``), and a busy room decodes
    thousands a second.
    """


class WatchMessage(IncomingMessage, tag="watch", frozen=True):
    """Follow a table: a ``snapshot``, then its ``event`` stream.

    ``views``: also a fresh ``snapshot`` after every step of the table (what a
    client that draws from the server's view alone, like the browser's, wants).
    """

    table: TableId
    views: bool = False


class UnwatchMessage(IncomingMessage, tag="unwatch", frozen=True):
    """Stop following a table."""

    table: TableId


class LobbyMessage(IncomingMessage, tag="lobby", frozen=True):
    """Follow the lobby: ``lobby`` messages with every table, as they change."""


class WatchTournamentMessage(IncomingMessage, tag="watch_tournament", frozen=True):
    """Follow a tournament (``on`` false: stop): ``tournament`` messages with its line
    in the lobby and what happened (levels, breaks, moves, places), as it changes."""

    tournament: TableId
    on: bool = True


class SitMessage(IncomingMessage, tag="sit", frozen=True):
    """Take ``seat`` with ``buy_in`` chips from the wallet (dealt in from the next hand)."""

    table: TableId
    seat: SeatNumber
    buy_in: Chips


class ActionBody(msgspec.Struct, forbid_unknown_fields=True, frozen=True, gc=False):
    """An action as the client names it: a kind and, for sized actions, an amount."""

    kind: Annotated[str, msgspec.Meta(min_length=1, max_length=20)]
    amount: Chips | None = None


class ActMessage(IncomingMessage, tag="act", frozen=True):
    """Take ``action`` in hand ``hand``; ``id`` makes a resend safe (applied once)."""

    table: TableId
    hand: HandNumber
    action: ActionBody
    id: IdText


class SitOutMessage(IncomingMessage, tag="sit_out", frozen=True):
    """Be dealt no cards from the next hand (the seat is kept)."""

    table: TableId


class SitInMessage(IncomingMessage, tag="sit_in", frozen=True):
    """Be dealt in again from the next hand."""

    table: TableId


class LeaveMessage(IncomingMessage, tag="leave", frozen=True):
    """Stand up: at once between hands, at the end of a hand one plays."""

    table: TableId


class AddChipsMessage(IncomingMessage, tag="add_chips", frozen=True):
    """Top a seat up from the wallet between hands (within the buy-in limits)."""

    table: TableId
    seat: SeatNumber
    amount: Chips


class WagerMessage(IncomingMessage, tag="wager", frozen=True):
    """Casino Hold'em: a box's ante and AA Bonus for the next round (ante 0: sit it out)."""

    table: TableId
    seat: SeatNumber
    ante: Chips
    bonus: Chips = 0


class ResumeMessage(IncomingMessage, tag="resume", frozen=True):
    """Back after a drop: what was missed since ``since``, or a fresh ``snapshot``."""

    table: TableId
    since: Seq
    views: bool = False


class ChatMessage(IncomingMessage, tag="chat", frozen=True):
    """A line of chat at a table (seated players and, where allowed, watchers)."""

    table: TableId
    text: ChatText


class CallEvMessage(IncomingMessage, tag="call_ev", frozen=True):
    """Casino Hold'em practice: what calling is worth for one of the asker's own boxes."""

    table: TableId
    seat: SeatNumber


HostOp = Annotated[
    str, msgspec.Meta(pattern=r"^(pause|resume|approve|deny|remove|close)$", max_length=8)
]
UserName = Annotated[str, msgspec.Meta(min_length=1, max_length=64)]


class HostMessage(IncomingMessage, tag="host", frozen=True):
    """A private table's host runs it: ``pause`` or ``resume`` dealing between hands,
    ``approve`` or ``deny`` a guest's seat, ``remove`` a player (cashed out at the end
    of the hand), ``close`` the table (every stack cashed out at the end of the hand)."""

    table: TableId
    op: HostOp
    user: UserName | None = None


class PingMessage(IncomingMessage, tag="ping", frozen=True):
    """A keep-alive; answered with ``pong``."""


MESSAGE_TYPES: tuple[type[IncomingMessage], ...] = (
    WatchMessage,
    UnwatchMessage,
    LobbyMessage,
    WatchTournamentMessage,
    SitMessage,
    ActMessage,
    SitOutMessage,
    SitInMessage,
    LeaveMessage,
    AddChipsMessage,
    WagerMessage,
    ResumeMessage,
    ChatMessage,
    CallEvMessage,
    HostMessage,
    PingMessage,
)
ClientMessage = (
    WatchMessage
    | UnwatchMessage
    | LobbyMessage
    | WatchTournamentMessage
    | SitMessage
    | ActMessage
    | SitOutMessage
    | SitInMessage
    | LeaveMessage
    | AddChipsMessage
    | WagerMessage
    | ResumeMessage
    | ChatMessage
    | CallEvMessage
    | HostMessage
    | PingMessage
)

_DECODER: msgspec.json.Decoder[Any] = msgspec.json.Decoder(ClientMessage)
_TYPES = frozenset(str(cls.__struct_config__.tag) for cls in MESSAGE_TYPES)


def decode(frame: bytes | str) -> ClientMessage:
    """The client message in ``frame``; :class:`ProtocolError` if it is not one.

    Codes: ``frame_too_large``, ``bad_json``, ``too_deep`` (JSON nested past what a
    decoder follows: a few thousand brackets fit in a frame), ``not_an_object``,
    ``unknown_type``, ``bad_message`` (a field missing, extra, of the wrong type or
    out of range).

    >>> decode("[" * 2000 + "]" * 2000)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pokerhouse.server.socket.incoming.ProtocolError: a message is JSON nested at most ... deep
    """
    # Bytes, not characters: 4,096 characters of CJK text are 12 KB.
    size = len(frame) if isinstance(frame, bytes) else utf8_size(frame)
    if size > MAX_FRAME:
        raise ProtocolError("frame_too_large", f"a message is at most {MAX_FRAME} bytes")
    try:
        message: ClientMessage = _DECODER.decode(frame)
        return message
    except msgspec.ValidationError as error:
        raise _classify(frame, str(error)) from None
    except msgspec.DecodeError:
        raise ProtocolError("bad_json", "a message is one JSON object") from None
    except RecursionError:
        raise too_deep() from None


def too_deep() -> ProtocolError:
    """The refusal of a frame nested deeper than the decoder follows (past the recursion limit)."""
    return ProtocolError("too_deep", "a message is JSON nested at most a few hundred deep")


def utf8_size(text: str) -> int:
    """The size of ``text`` in UTF-8, in bytes (lone surrogates counted as three).

    >>> utf8_size("ab"), utf8_size("\u00e9"), utf8_size("\u4e2d")
    (2, 2, 3)
    """
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _classify(frame: bytes | str, detail: str) -> ProtocolError:
    """Name what was wrong with a frame that is JSON but not a valid message."""
    try:
        raw = msgspec.json.decode(frame)
    except msgspec.DecodeError:  # pragma: no cover - it decoded once already
        return ProtocolError("bad_json", "a message is one JSON object")
    except RecursionError:
        # The typed decoder stopped at the first wrong token; the untyped one follows the
        # nesting down, and a frame of brackets goes past the interpreter's recursion limit.
        return too_deep()
    if not isinstance(raw, dict):
        return ProtocolError("not_an_object", 'a message is a JSON object with a "type"')
    ident = raw.get("id")
    ident = ident if isinstance(ident, str) and 0 < len(ident) <= 64 else None
    kind = raw.get("type")
    if not isinstance(kind, str) or kind not in _TYPES:
        shown = repr(kind)[:40]
        return ProtocolError("unknown_type", f"unknown message type {shown}", ident)
    return ProtocolError("bad_message", detail, ident)
