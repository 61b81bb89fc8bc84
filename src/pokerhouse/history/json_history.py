"""The canonical hand history: a versioned JSON document, the same for every game.

A :class:`HandRecord` holds what re-creates a hand (game, spec, starting
stacks, :meth:`Hand.setup`, each seat's dealt cards and the board, the action
log) and what it did (the event log, the finishing stacks). :func:`record`
takes one from a hand, as the server keeps it (``seat=SERVER``: every card)
or as one seat or a spectator may see it (``seat=2``, ``seat=None``: hidden
cards are absent, so such a record cannot be replayed).

>>> from pokerhouse.games import new_hand
>>> from pokerhouse.engine import Action
>>> hand = new_hand("3x4", [100, 100], seed=5)
>>> _ = hand.act(Action.fold())
>>> history = record(hand)
>>> history.game, history.finishing_stacks, history.replayable
('3x4', (99, 101), True)
>>> from_json(history.to_json()) == history
True
>>> record(hand, seat=0).replayable
False
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, Literal

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action
from pokerhouse.engine.events import (
    BoardDealt,
    CardsDealt,
    Event,
    event_from_dict,
    event_to_dict,
)
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError, PokerError

#: The format tag every JSON hand history starts with.
FORMAT: Final = "pokerhouse-hand/1"


class Audience(Enum):
    """Who a history is for, beyond one seat (an ``int``) or a spectator (``None``)."""

    SERVER = "server"


#: The full server-side history: every card, replayable.
SERVER: Final = Audience.SERVER

#: Whose eyes a history is written for: a seat, the seats one person holds (Casino
#: Hold'em boxes), a spectator (``None``) or the server.
Viewer = int | frozenset[int] | None | Literal[Audience.SERVER]


def check_viewer(seat: object, players: int) -> Viewer:
    """``seat`` if it may be a history's viewer: ``SERVER``, ``None`` or a seat of the hand.

    A bool is refused although ``True == 1``: it is never meant as a seat.

    Several seats (a frozenset) are one person's: one seat in it is just that seat.

    >>> check_viewer(1, 2), check_viewer(None, 2), check_viewer(frozenset({1}), 2)
    (1, None, 1)
    >>> sorted(check_viewer(frozenset({0, 2}), 3))
    [0, 2]
    >>> check_viewer(True, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pokerhouse.errors.HistoryError: a history is for ... a seat from 0 to 1, not True
    """
    if seat is SERVER or seat is None:
        return seat
    if (
        type(seat) is frozenset
        and seat
        and all(type(one) is int and 0 <= one < players for one in seat)
    ):
        return next(iter(seat)) if len(seat) == 1 else seat
    if type(seat) is not int or not 0 <= seat < players:
        raise HistoryError(
            "bad_viewer",
            "a history is for the server, a spectator (None) or a seat from 0 to "
            f"{players - 1}, not {seat!r}",
        )
    return seat


# ---------------------------------------------------------------- dealt cards

#: How to read dealt cards out of an event: ``(seat or None for the board, cards)``.
DealReader = Callable[[Event], tuple[int | None, tuple[Card | None, ...]]]


def _seat_cards(event: Event) -> tuple[int | None, tuple[Card | None, ...]]:
    assert isinstance(event, CardsDealt)
    return event.seat, event.cards


def _board_cards(event: Event) -> tuple[int | None, tuple[Card | None, ...]]:
    assert isinstance(event, BoardDealt)
    return None, tuple(event.cards)


_DEAL_READERS: dict[type[Event], DealReader] = {CardsDealt: _seat_cards, BoardDealt: _board_cards}


def register_deal_reader(event_type: type[Event], reader: DealReader) -> None:
    """Teach histories a game's own dealing event.

    ``reader(event)`` returns ``(seat, cards)`` for cards the deck dealt with
    ``deck.deal(seat)``, or ``(None, cards)`` for cards dealt with
    ``deck.deal()`` (board, community or house cards), in deal order. A replay
    feeds exactly these cards back through a :class:`~pokerhouse.cards.ScriptedDeck`.
    """
    _DEAL_READERS[event_type] = reader


def dealt_cards(
    events: Iterable[Event],
) -> tuple[dict[int, tuple[Card | None, ...]], tuple[Card | None, ...]]:
    """Each seat's dealt cards and the board, in deal order, from an event log.

    >>> from pokerhouse.cards import parse_cards
    >>> seats, board = dealt_cards([CardsDealt(1, parse_cards("As Kd"), (False, True)),
    ...                             BoardDealt(parse_cards("2c 3c"))])
    >>> seats, board
    ({1: (As, Kd)}, (2c, 3c))
    """
    seats: dict[int, list[Card | None]] = {}
    board: list[Card | None] = []
    for event in events:
        reader = _DEAL_READERS.get(type(event))
        if reader is None:
            continue
        seat, cards = reader(event)
        if seat is None:
            board.extend(cards)
        else:
            seats.setdefault(seat, []).extend(cards)
    return {seat: tuple(cards) for seat, cards in sorted(seats.items())}, tuple(board)


def _fill_shown(
    seats: dict[int, tuple[Card | None, ...]], events: Iterable[Event]
) -> dict[int, tuple[Card | None, ...]]:
    """Fill hidden cards the viewer learned later: shown at showdown, or its own look.

    Teen Patti deals face down to nobody; a seat sees its own cards only when it
    looks (an event that others receive without the cards). Every event that
    shows cards says so through :meth:`~pokerhouse.engine.events.Event.shown_cards`.
    """
    filled = dict(seats)
    for event in events:
        shown_cards = event.shown_cards()
        if shown_cards is None:
            continue
        seat, cards = shown_cards
        known = filled.get(seat, ())
        if len(known) == len(cards):
            filled[seat] = tuple(
                card if card is not None or shown is None else shown
                for card, shown in zip(known, cards, strict=True)
            )
    return filled


# ---------------------------------------------------------------- the record


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand's history, as the server keeps it or as one viewer may see it.

    ``spec`` is in JSON form (enums as their values). ``cards`` maps each seat
    to its dealt cards in deal order, ``None`` where the viewer may not see
    the card. ``finishing_stacks`` is ``None`` while the hand is unfinished.
    """

    game: str
    spec: Mapping[str, Any]
    starting_stacks: tuple[int, ...]
    setup: Mapping[str, Any] = field(default_factory=dict)
    view: Viewer = SERVER
    cards: Mapping[int, tuple[Card | None, ...]] = field(default_factory=dict)
    board: tuple[Card | None, ...] = ()
    actions: tuple[tuple[int, Action], ...] = ()
    events: tuple[Event, ...] = ()
    finishing_stacks: tuple[int, ...] | None = None

    @property
    def replayable(self) -> bool:
        """True for a full server-side history: every dealt card is known."""
        return (
            self.view is SERVER
            and all(card is not None for cards in self.cards.values() for card in cards)
            and all(card is not None for card in self.board)
        )

    @property
    def is_over(self) -> bool:
        """Whether the recorded hand had ended."""
        return self.finishing_stacks is not None

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready document (see :data:`FORMAT`)."""
        view: str | int | list[int] = (
            "server"
            if self.view is SERVER
            else "spectator"
            if self.view is None
            else sorted(self.view)
            if isinstance(self.view, frozenset)
            else self.view
        )
        return {
            "format": FORMAT,
            "game": self.game,
            "view": view,
            "replayable": self.replayable,
            "spec": dict(self.spec),
            "starting_stacks": list(self.starting_stacks),
            "setup": dict(self.setup),
            "cards": {str(seat): _card_list(cards) for seat, cards in self.cards.items()},
            "board": _card_list(self.board),
            "actions": [{"seat": seat, "action": str(action)} for seat, action in self.actions],
            "events": [event_to_dict(event) for event in self.events],
            "finishing_stacks": (
                None if self.finishing_stacks is None else list(self.finishing_stacks)
            ),
        }

    def to_json(self) -> str:
        """The document as text: one key per line, one action or event per line."""
        return dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data: object) -> HandRecord:
        """Read a document made by :meth:`to_dict`; raises :class:`HistoryError`."""
        return _read_record(data)


def record(hand: Hand, seat: Viewer = SERVER) -> HandRecord:
    """The history of ``hand`` for ``seat``: ``SERVER`` (everything), a seat, or ``None``.

    A seat's or a spectator's history holds only the events
    :meth:`Hand.events_for` gives it, so other players' hidden cards are
    absent (``None``) and the record is not replayable.
    """
    seat = check_viewer(seat, hand.players)
    events = hand.events if seat is SERVER else tuple(hand.events_for(seat))
    seats, board = dealt_cards(events)
    if seat is not SERVER:
        seats = _fill_shown(seats, events)
    spec = getattr(hand, "spec", None)
    if spec is None:
        raise HistoryError("no_spec", f"a {hand.game} hand has no spec to record")
    return HandRecord(
        game=hand.game,
        spec=spec_to_dict(spec),
        starting_stacks=hand.starting_stacks,
        setup=dict(hand.setup()),
        view=seat,
        cards=seats,
        board=board,
        actions=tuple(hand.actions),
        events=events,
        finishing_stacks=hand.stacks if hand.is_over else None,
    )


def to_json(hand: Hand, seat: Viewer = SERVER) -> str:
    """The JSON history of ``hand`` for ``seat`` (default: the full server-side one).

    >>> from pokerhouse.games import new_hand
    >>> text = to_json(new_hand("razz", [50, 50], seed=1), seat=None)
    >>> '"view": "spectator"' in text and '"replayable": false' in text
    True
    """
    return record(hand, seat).to_json()


def from_json(text: str | bytes) -> HandRecord:
    """Read a JSON hand history; raises :class:`HistoryError` naming what is wrong.

    >>> from_json('{"format": "pokerhouse-hand/1", "game": "razz"')
    Traceback (most recent call last):
    ...
    pokerhouse.errors.HistoryError: not valid JSON at line 1, column 47: Expecting ',' delimiter
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise HistoryError(
            "bad_json", f"not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except UnicodeDecodeError as error:
        raise HistoryError("bad_json", f"not UTF-8 text: {error}") from None
    except RecursionError:
        raise HistoryError("bad_json", "not a hand history: JSON nested too deeply") from None
    except ValueError:
        # The only other refusal: an integer past Python's digit limit for conversion.
        raise HistoryError("bad_json", "not a hand history: JSON with a number too long") from None
    return _read_record(data)


def dumps(document: Mapping[str, Any]) -> str:
    """JSON text with one top-level key per line and one list item per line.

    Short enough to read and diff, and an error can point at a line.

    >>> print(dumps({"a": [1, {"b": 2}], "c": None}))
    {
      "a": [
        1,
        {"b": 2}
      ],
      "c": null
    }
    """
    lines = []
    for key, value in document.items():
        head = f"  {json.dumps(key)}: "
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {json.dumps(item)}" for item in value)
            lines.append(f"{head}[\n{items}\n  ]")
        else:
            lines.append(head + json.dumps(value))
    return "{\n" + ",\n".join(lines) + "\n}"


def _card_list(cards: Sequence[Card | None]) -> list[str | None]:
    return [None if card is None else str(card) for card in cards]


# ---------------------------------------------------------------- specs


def spec_to_dict(spec: object) -> dict[str, Any]:
    """A spec dataclass as JSON-ready fields (enums as values, tuples as lists).

    >>> from pokerhouse.games.three_by_four import ThreeByFourSpec
    >>> spec_to_dict(ThreeByFourSpec(ante=2))["limit"]
    'no-limit'
    """
    if not dataclasses.is_dataclass(spec) or isinstance(spec, type):
        raise TypeError(f"a spec must be a dataclass instance, not {spec!r}")
    return {f.name: _json_value(getattr(spec, f.name)) for f in dataclasses.fields(spec)}


def _json_value(value: object) -> Any:
    if isinstance(value, Enum):
        return _json_value(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return spec_to_dict(value)
    if isinstance(value, Mapping):
        return {str(_json_value(key)): _json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [_json_value(item) for item in value]
        return sorted(items) if isinstance(value, frozenset | set) else items
    return value


def spec_from_dict(spec_type: type[Any], data: Mapping[str, Any]) -> Any:
    """Rebuild a spec from :func:`spec_to_dict` output, converting by the field types.

    >>> from pokerhouse.games.razz import RazzSpec
    >>> spec_from_dict(RazzSpec, {"ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8})
    RazzSpec(ante=1, bring_in=2, small_bet=4, big_bet=8, max_raises=3, heads_up_uncapped=False)
    """
    hints = typing.get_type_hints(spec_type)
    known = {f.name for f in dataclasses.fields(spec_type)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise HistoryError(
            "bad_spec", f"spec: unknown field {', '.join(unknown)} for {spec_type.__name__}"
        )
    kwargs = {}
    for name, value in data.items():
        try:
            kwargs[name] = _from_json(value, hints[name])
        except (TypeError, ValueError, KeyError) as error:
            raise HistoryError("bad_spec", f"spec field {name!r}: {error}") from None
    try:
        return spec_type(**kwargs)
    except (PokerError, TypeError, ValueError) as error:
        raise HistoryError("bad_spec", f"spec: {error}") from None


def _from_json(value: Any, hint: Any) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for option in (arg for arg in args if arg is not type(None)):
            try:
                return _from_json(value, option)
            except (TypeError, ValueError, KeyError) as error:
                errors.append(str(error))
        raise ValueError("; ".join(errors) or f"unexpected {value!r}")
    if origin in (tuple, list, frozenset, set):
        if not isinstance(value, list):
            raise ValueError(f"expected a list, got {value!r}")
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            return tuple(_from_json(item, args[0]) for item in value)
        if origin is tuple and args:
            return tuple(_from_json(item, arg) for item, arg in zip(value, args, strict=True))
        item_hint = args[0] if args else Any
        return origin(_from_json(item, item_hint) for item in value)
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {value!r}")
        key_hint, item_hint = args if args else (Any, Any)
        return {
            _from_json(_key(key, key_hint), key_hint): _from_json(item, item_hint)
            for key, item in value.items()
        }
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, dict):
            raise ValueError(f"expected an object, got {value!r}")
        return spec_from_dict(hint, value)
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f"expected true or false, got {value!r}")
        return value
    if hint is int:
        if type(value) is not int:
            raise ValueError(f"expected a whole number, got {value!r}")
        return value
    if hint is float:
        if type(value) not in (int, float):
            raise ValueError(f"expected a number, got {value!r}")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f"expected text, got {value!r}")
        return value
    return value


def _key(key: str, hint: Any) -> Any:
    """JSON object keys are text; an int-keyed mapping gets its ints back."""
    if hint is int:
        try:
            return int(key)
        except ValueError:
            raise ValueError(f"expected a whole-number key, got {key!r}") from None
    return key


# ---------------------------------------------------------------- reading


#: The deepest nesting a history document needs is a handful of levels; this is ample.
MAX_DEPTH: Final = 32


def _check_depth(data: object) -> None:
    """Refuse a document nested deeper than :data:`MAX_DEPTH` (or looping back on itself).

    Checked without recursion, so that nothing downstream (the text writer,
    the spec reader) recurses over hostile nesting.
    """
    pending: list[tuple[object, int]] = [(data, 1)]
    while pending:
        value, depth = pending.pop()
        children: Iterable[object]
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise HistoryError(
                "bad_history", f"the history is nested more than {MAX_DEPTH} levels deep"
            )
        pending.extend((child, depth + 1) for child in children)


def _read_record(data: object) -> HandRecord:
    if not isinstance(data, dict):
        raise HistoryError("bad_history", "a hand history must be a JSON object")
    _check_depth(data)
    tag = data.get("format")
    if tag != FORMAT:
        if isinstance(tag, str) and tag.startswith("pokerhouse-hand/"):
            raise HistoryError(
                "unsupported_format", f"format {tag!r} is not supported (this reads {FORMAT!r})"
            )
        raise HistoryError("bad_history", f"not a pokerhouse hand history (format {tag!r})")
    for name in ("game", "spec", "starting_stacks", "actions", "events"):
        if name not in data:
            raise HistoryError("truncated_history", f"the history has no {name!r}")
    game = _expect(data, "game", str)
    spec = _expect(data, "spec", dict)
    setup = _expect(data, "setup", dict, default={})
    stacks = _int_list(data, "starting_stacks")
    finishing = (
        None if data.get("finishing_stacks") is None else _int_list(data, "finishing_stacks")
    )
    view = _read_view(data.get("view", "server"), len(stacks))
    raw_cards = _expect(data, "cards", dict, default={})
    cards: dict[int, tuple[Card | None, ...]] = {}
    for key, value in raw_cards.items():
        try:
            seat = int(key)
        except ValueError:
            raise HistoryError("bad_history", f"cards: {key!r} is not a seat number") from None
        cards[seat] = _read_cards(value, f"cards[{key!r}]")
    board = _read_cards(data.get("board", []), "board")
    actions = tuple(
        _read_action(item, index) for index, item in enumerate(_expect(data, "actions", list))
    )
    events = []
    for index, item in enumerate(_expect(data, "events", list)):
        try:
            events.append(event_from_dict(item))
        except HistoryError as error:
            raise HistoryError(error.code, f"events[{index}]: {error}") from None
    return HandRecord(
        game=game,
        spec=spec,
        starting_stacks=stacks,
        setup=setup,
        view=view,
        cards=cards,
        board=board,
        actions=actions,
        events=tuple(events),
        finishing_stacks=finishing,
    )


_MISSING: Any = object()


def _expect(data: Mapping[str, Any], name: str, kind: type[Any], default: Any = _MISSING) -> Any:
    value = data.get(name, default)
    if value is _MISSING:
        raise HistoryError("truncated_history", f"the history has no {name!r}")
    if not isinstance(value, kind):
        raise HistoryError(
            "bad_history", f"{name!r} must be a JSON {_json_kind(kind)}, not {value!r}"
        )
    return value


def _json_kind(kind: type[Any]) -> str:
    names: dict[type[Any], str] = {str: "string", dict: "object", list: "array"}
    return names.get(kind, kind.__name__)


def _int_list(data: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = data.get(name)
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise HistoryError("bad_history", f"{name!r} must be a list of whole numbers")
    return tuple(value)


def _read_view(value: object, players: int) -> Viewer:
    if value == "server":
        return SERVER
    if value == "spectator":
        return None
    if type(value) is int and 0 <= value < players:
        return value
    if (
        isinstance(value, list)
        and len(value) > 1
        and len(set(value)) == len(value)
        and all(type(seat) is int and 0 <= seat < players for seat in value)
    ):
        return frozenset(value)
    raise HistoryError(
        "bad_history", f"'view' must be 'server', 'spectator', a seat or seats: {value!r}"
    )


def _read_cards(value: object, where: str) -> tuple[Card | None, ...]:
    if not isinstance(value, list):
        raise HistoryError("bad_history", f"{where} must be a list of cards")
    cards: list[Card | None] = []
    for item in value:
        if item is None:
            cards.append(None)
            continue
        try:
            cards.append(Card.parse(item) if isinstance(item, str) else Card(item))
        except PokerError as error:
            raise HistoryError("bad_cards", f"{where}: {error}") from None
    return tuple(cards)


def _read_action(item: object, index: int) -> tuple[int, Action]:
    if not isinstance(item, dict) or type(item.get("seat")) is not int:
        raise HistoryError(
            "bad_action", f"actions[{index}] must be {{'seat': int, 'action': text}}: {item!r}"
        )
    text = item.get("action")
    if not isinstance(text, str):
        raise HistoryError("bad_action", f"actions[{index}]: the action must be text: {item!r}")
    try:
        return item["seat"], Action.parse(text)
    except PokerError as error:
        raise HistoryError("bad_action", f"actions[{index}] {text!r}: {error}") from None
