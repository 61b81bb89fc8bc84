"""The JSON hand history's document: :class:`HandRecord`, its text, and reading it back.

A record (taken from a hand by :func:`~pokerhouse.history.json_history.record`)
writes itself as the ``pokerhouse-hand/1`` document (:meth:`HandRecord.to_json`).
Reading one (:func:`from_json`, :meth:`HandRecord.from_dict`) checks every
field and raises :class:`~pokerhouse.errors.HistoryError` naming what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from pokerhouse.cards import Card
from pokerhouse.engine.actions import Action
from pokerhouse.engine.events import Event, event_from_dict, event_to_dict
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.history.viewers import SERVER, Viewer

#: The format tag every JSON hand history starts with.
FORMAT: Final = "pokerhouse-hand/1"


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
