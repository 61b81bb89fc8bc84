"""Replay a hand history: re-create the hand, re-apply its actions, check every event.

A hand is a pure function of (spec, seats, dealt cards, actions), so a full
server-side history re-creates it exactly: the same events one by one and
the same finishing stacks. Any difference is a :class:`HistoryError` that
names the action where the replay left the record.

>>> from pokerhouse.games import new_hand
>>> from pokerhouse.history.json_history import to_json
>>> from pokerhouse.engine import Action
>>> hand = new_hand("razz", [100, 100, 100], seed=11)
>>> _ = hand.act(Action(hand.legal_actions().kinds[0]))
>>> again = replay(to_json(hand))
>>> again.events == hand.events and again.stacks == hand.stacks
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerhouse.cards import Card, ScriptedDeck
from pokerhouse.engine.events import Event, event_to_dict
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.games import get_game
from pokerhouse.history.json_history import HandRecord, from_json, spec_from_dict


def replay(history: HandRecord | str | bytes | Mapping[str, Any]) -> Hand:
    """Re-create a hand from its JSON history (a record, its text or its dict).

    Returns the replayed hand (finished, or stopped where the record stops).
    Raises :class:`HistoryError` when the history is not replayable (a seat's
    or spectator's copy), malformed, or does not reproduce its own events and
    finishing stacks; the message names the action where it went wrong.
    """
    if isinstance(history, str | bytes):
        history = from_json(history)
    elif not isinstance(history, HandRecord):
        history = HandRecord.from_dict(history)
    if not history.replayable:
        viewer = (
            "a spectator"
            if history.view is None
            else f"seats {sorted(history.view)}"
            if isinstance(history.view, frozenset)
            else f"seat {history.view}"
        )
        raise HistoryError(
            "not_replayable",
            f"this history was written for {viewer}, without other players' hidden cards: "
            "only the full server-side history replays",
        )
    hand = start_hand(history)
    checker = _EventChecker(history.events)
    checker.check(hand, "the deal")
    for index, (seat, action) in enumerate(history.actions):
        where = f"action {index} (seat {seat}: {action})"
        if hand.is_over:
            raise HistoryError("extra_action", f"{where}: the hand was already over")
        try:
            hand.act(action, seat)
        except PokerError as error:
            raise HistoryError("illegal_action", f"{where}: {error} [{error.code}]") from None
        checker.check(hand, where)
    if history.finishing_stacks is not None and not hand.is_over:
        raise HistoryError(
            "truncated_history",
            f"the actions stop before the hand ends (seat {hand.to_act} is to act)",
        )
    checker.finish(hand)
    if history.finishing_stacks is not None:
        if hand.stacks != history.finishing_stacks:
            raise HistoryError(
                "stacks_mismatch",
                f"finishing stacks: recorded {list(history.finishing_stacks)}, "
                f"the replay gives {list(hand.stacks)}",
            )
    elif hand.is_over:
        raise HistoryError(
            "stacks_mismatch", "the record has no finishing stacks but the hand ends"
        )
    return hand


def start_hand(history: HandRecord) -> Hand:
    """The record's hand before any action, dealt from its recorded cards."""
    try:
        info = get_game(history.game)
    except PokerError as error:
        raise HistoryError("unknown_game", str(error)) from None
    spec = spec_from_dict(info.spec_type, history.spec)
    seats: dict[int, Sequence[Card]] = {
        seat: [_known(card) for card in cards] for seat, cards in history.cards.items()
    }
    try:
        deck = ScriptedDeck(seats, [_known(card) for card in history.board])
        # The setup is the hand's own keyword arguments: through new_hand, a "seed"
        # or "options" key would be taken as new_hand's own and silently ignored.
        return info.hand_type(spec, history.starting_stacks, deck, **history.setup)
    except PokerError as error:
        raise HistoryError("bad_history", f"cannot start the hand: {error}") from None
    except TypeError as error:
        raise HistoryError("bad_setup", f"setup {dict(history.setup)!r}: {error}") from None


def _known(card: Card | None) -> Card:
    assert card is not None  # replayable records hold every card
    return card


class _EventChecker:
    """Compares a replay's events with the record's as they come."""

    def __init__(self, recorded: tuple[Event, ...]) -> None:
        self.recorded = recorded
        self.checked = 0

    def check(self, hand: Hand, where: str) -> None:
        produced = hand.events
        for index in range(self.checked, len(produced)):
            if index >= len(self.recorded):
                raise HistoryError(
                    "events_mismatch",
                    f"{where}: the replay goes on past the {len(self.recorded)} recorded "
                    f"events with {event_to_dict(produced[index])}",
                )
            if produced[index] != self.recorded[index]:
                raise HistoryError(
                    "events_mismatch",
                    f"{where}: event {index} was recorded as "
                    f"{event_to_dict(self.recorded[index])} but the replay gives "
                    f"{event_to_dict(produced[index])}",
                )
        self.checked = len(produced)

    def finish(self, hand: Hand) -> None:
        if self.checked < len(self.recorded):
            raise HistoryError(
                "events_mismatch",
                f"the replay stops after {self.checked} events; the record goes on with "
                f"{event_to_dict(self.recorded[self.checked])}",
            )


# ---------------------------------------------------------------- files


@dataclass(frozen=True, slots=True)
class LoadedHand:
    """A replayed history file: the hand, the format read and the players' names if it has them.

    ``format`` is ``"json"`` or ``"phh"``; ``names`` (PHH's ``players``) are in seat order.
    """

    hand: Hand
    format: str
    names: tuple[str, ...] | None = None


def load_history(path: str | Path) -> LoadedHand:
    """Replay a history file, JSON or PHH (by extension, else by content).

    >>> import tempfile
    >>> from pokerhouse.cards import Deck
    >>> from pokerhouse.engine import Action
    >>> from pokerhouse.games import new_hand
    >>> from pokerhouse.history.phh import to_phh
    >>> hand = new_hand("razz", [100, 100], deck=Deck.stacked("Ah 2c 3d 4s Kc 5h"))
    >>> _ = hand.act(Action.parse("bring_in")), hand.act(Action.fold())
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "hand.phh"
    ...     _ = path.write_text(to_phh(hand, players=["Ann", "Bob"]))
    ...     loaded = load_history(path)
    >>> loaded.format, loaded.names, loaded.hand.stacks
    ('phh', ('Ann', 'Bob'), (101, 99))
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise HistoryError("unreadable", f"cannot read {path}: {error.strerror}") from None
    kind = detect_format(data, path.name)
    if kind == "phh":
        from pokerhouse.history.phh import read_phh, replay_phh

        phh = read_phh(data)
        return LoadedHand(replay_phh(phh), kind, phh.players)
    return LoadedHand(replay(data), kind)


def load_hand(path: str | Path) -> tuple[Hand, str]:
    """Replay a history file, JSON or PHH (by extension, else by content).

    Returns the hand and the format read (``"json"`` or ``"phh"``);
    :func:`load_history` gives the players' names too.
    """
    loaded = load_history(path)
    return loaded.hand, loaded.format


def detect_format(data: bytes | str, name: str = "") -> str:
    """``"phh"`` or ``"json"``: by the file name's extension, else by the first character.

    >>> detect_format(b'{"format": ...}'), detect_format("variant = 'FR'")
    ('json', 'phh')
    >>> detect_format("", "hand-24.phh")
    'phh'
    """
    suffix = Path(name).suffix.lower()
    if suffix in (".phh", ".toml"):
        return "phh"
    if suffix == ".json":
        return "json"
    head = data.lstrip()[:1]
    return "json" if head in (b"{", "{") else "phh"
