"""The server's messages, as typed schemas, and their encoding.

Every message the room sends is one of the structs below (``"type"`` names
it), encoded once with msgspec; a table's event is encoded once per
audience and carried into each frame as it is (``msgspec.Raw``), so a frame
for one more watcher costs nothing. On the socket, the messages of one
write go as one websocket text message holding a JSON array of them, in
order (``docs/protocol.md``).

>>> from pokerhouse.engine.events import StreetStarted
>>> encode(EventFrame(table=7, seq=41, event=encode_event(StreetStarted(street="flop"))))
b'{"type":"event","table":7,"seq":41,"event":{"type":"street_started","street":"flop"}}'
>>> encode(EventFrame(table=7, seq=42, event=None))
b'{"type":"event","table":7,"seq":42,"event":null}'
>>> encode(Ack(id="a-1", table=3))
b'{"type":"ack","id":"a-1","table":3}'
>>> array([b'{"type":"pong"}', b'{"type":"pong"}'])
b'[{"type":"pong"},{"type":"pong"}]'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from pokerhouse.engine.events import Event as EngineEvent
from pokerhouse.engine.events import event_to_dict
from pokerhouse.server.table.lines import TableLine
from pokerhouse.server.tournaments.lines import TournamentLine, TournamentNewsKind


class OutgoingMessage(msgspec.Struct, tag_field="type", omit_defaults=True, frozen=True):
    """Base of every server message."""


class Hello(OutgoingMessage, tag="hello", frozen=True):
    """The socket is open: who it is signed in as (``null``: a spectator)."""

    user: str | None


class Pong(OutgoingMessage, tag="pong", frozen=True):
    """The answer to a ``ping``."""


class LobbyLines(OutgoingMessage, tag="lobby", frozen=True):
    """Every table's line in the lobby."""

    tables: list[TableLine]


class TournamentNews(OutgoingMessage, tag="tournament", frozen=True):
    """A followed tournament's lobby line as it is now, and what just happened there
    (``news``: ``started``, ``level_up``, ``break``, ``break_over``, ``hand_for_hand``,
    ``moved``, ``placed``, ``registration_closed``, ``finished``, ``cancelled``)."""

    tournament: int
    line: TournamentLine
    news: list[TournamentNewsKind]


class Snapshot(OutgoingMessage, tag="snapshot", frozen=True):
    """The whole table as its receiver may see it, as of event ``seq``."""

    table: int
    seq: int
    view: Annotated[
        dict[str, Any],
        msgspec.Meta(
            description='The table as its receiver may see it (docs/protocol.md, "snapshot").'
        ),
    ]


class EventFrame(OutgoingMessage, tag="event", frozen=True):
    """One event of the table's stream (``null``: one the receiver may not see)."""

    table: int
    seq: int
    #: Required, so a placeholder says ``"event": null`` rather than leaving it out.
    event: Annotated[
        msgspec.Raw | None,
        msgspec.Meta(
            description="An engine's or a table's event, in table seats, with the cards the "
            'receiver may not see as null (docs/protocol.md, "event"); null: an event the '
            "receiver may not see at all."
        ),
    ]


class Private(OutgoingMessage, tag="private", frozen=True):
    """Only to a seated player: their hands' names and their decision."""

    table: int
    seq: int
    hand: int | None
    mine: Annotated[
        dict[str, Any],
        msgspec.Meta(description="Each of the receiver's seats: its hand's name and decision."),
    ]
    #: Spaces that bring the message to a whole number of blocks: its length on the
    #: wire says nothing of what is in it (a hand's name is longer for some hands).
    pad: str = ""


class ClockShown(OutgoingMessage, tag="clock", frozen=True):
    """A decision started: whose, and the time left of its limit and of the bank."""

    table: int
    seq: int
    hand: int
    seat: int
    limit_ms: int
    bank_ms: int


class Window(OutgoingMessage, tag="window", frozen=True):
    """Casino Hold'em's betting window opened for ``seconds``."""

    table: int
    seq: int
    open: bool
    seconds: float


class Ack(OutgoingMessage, tag="ack", frozen=True):
    """An ``act`` applied and stored, or (``repeated``) one applied before."""

    id: str
    table: int
    repeated: bool = False


class Error(OutgoingMessage, tag="error", frozen=True):
    """A refusal: a stable code, a sentence, and the request it answers."""

    code: str
    message: str
    id: str | None = None
    table: int | None = None


class ChatLine(OutgoingMessage, tag="chat", frozen=True):
    """A line of chat at a table; a house bot's is a ``phrase`` (a key clients translate,
    ``text`` its English)."""

    table: int
    seq: int
    user: str
    text: str
    phrase: str | None = None


class Home(OutgoingMessage, tag="home", frozen=True):
    """A private table's state, to everyone at it: its host, whether it is paused
    between hands, and whether it is closing (every stack cashed out at the hand's end)
    or closed."""

    table: int
    host: str
    paused: bool
    closing: bool
    closed: bool = False


class CallValue(OutgoingMessage, tag="call_ev", frozen=True):
    """Casino Hold'em practice: calling's exact value for the asker's own box."""

    table: int
    seq: int
    hand: int | None
    seat: int
    hole: str
    flop: str
    action: str
    call_ev: float
    fold_ev: float
    call_ev_exact: str
    call_ev_chips: float
    fold_ev_chips: int
    ante: int
    ways: int


#: Every message type the server sends.
SERVER_MESSAGES: tuple[type[OutgoingMessage], ...] = (
    Hello,
    Pong,
    LobbyLines,
    TournamentNews,
    Snapshot,
    EventFrame,
    Private,
    ClockShown,
    Window,
    Ack,
    Error,
    ChatLine,
    Home,
    CallValue,
)

#: Any message the server sends.
ServerMessage = (
    Hello
    | Pong
    | LobbyLines
    | TournamentNews
    | Snapshot
    | EventFrame
    | Private
    | ClockShown
    | Window
    | Ack
    | Error
    | ChatLine
    | Home
    | CallValue
)

_encoder = msgspec.json.Encoder()

#: A private message's length is rounded up to a multiple of this many bytes.
PAD_BLOCK = 256


def encode(message: OutgoingMessage) -> bytes:
    """A message as compact JSON."""
    return _encoder.encode(message)


def encode_event(event: EngineEvent) -> msgspec.Raw:
    """One event's JSON (cards as text, ``null`` for a card the audience may not see)."""
    return msgspec.Raw(_encoder.encode(event_to_dict(event)))


def error(code: str, text: str, ident: str | None = None, table: int | None = None) -> bytes:
    """An encoded ``error``."""
    return encode(Error(code=code, message=text, id=ident, table=table))


def private(table: int, seq: int, hand: int | None, mine: dict[str, Any]) -> bytes:
    """An encoded ``private``, padded to a whole number of :data:`PAD_BLOCK` bytes.

    >>> sizes = {len(private(1, 5, 2, {"0": {"hand_name": name}})) for name in ("Pair", "A" * 90)}
    >>> sizes
    {256}
    >>> decode_server(b"[" + private(1, 5, 2, {}) + b"]")[0].pad.strip()
    ''
    """
    bare = encode(Private(table=table, seq=seq, hand=hand, mine=mine))
    # The pad is the last field: ',"pad":"' and '"' around the spaces (9 bytes), before
    # the closing brace; what is left of the block is spaces. Encoded once.
    short = -(len(bare) + 9) % PAD_BLOCK
    return b"".join((bare[:-1], b',"pad":"', b" " * short, b'"}'))


def array(frames: Sequence[bytes]) -> bytes:
    """Messages already encoded, as one JSON array: what one websocket message carries."""
    return b"[" + b",".join(frames) + b"]"


def decode_server(text: str | bytes) -> list[OutgoingMessage]:
    """A websocket message from the server, read back into typed messages (for clients
    and tests): every message of its array, in order."""
    return _decoder.decode(text)


_decoder: msgspec.json.Decoder[list[OutgoingMessage]] = msgspec.json.Decoder(list[ServerMessage])
