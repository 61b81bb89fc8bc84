"""Writing a Razz hand as PHH: the amounts, every deal and action in order, and the showdown.

Our events become PHH's actions, with the notational adjustments PokerKit
needs to read them (see :func:`_phh_actions`); the file can be written as
one seat or a spectator saw the hand, a hidden card written ``??``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.engine.actions import SIZED_KINDS, ActionKind
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BoardDealt,
    CardsDealt,
    Event,
    HandMucked,
    HandShown,
    StreetStarted,
)
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError
from pokerhouse.games.razz import RazzSpec
from pokerhouse.history.phh_reader import RAZZ
from pokerhouse.history.viewers import SERVER, Viewer, check_viewer


def to_phh(
    hand: Hand,
    /,
    *,
    players: Sequence[str] | None = None,
    seat: Viewer = SERVER,
    **metadata: Any,
) -> str:
    """The PHH text of a Razz hand (finished or not); extra fields go in ``metadata``.

    Writes what a PHH reader needs: the variant, amounts, stacks, every deal
    and action in order, the showdown, and ``finishing_stacks`` once the hand
    is over. Raises :class:`HistoryError` for a game PHH has no variant for.

    ``hand`` is positional only, so PHH's own ``hand`` field (its number)
    can be a metadata keyword. ``seat`` writes the hand as one seat (or a
    spectator, ``None``) may see it: a card hidden from that viewer is
    written ``??``, as PHH writes an unknown card, so the file holds no card
    the viewer was not shown.

    >>> from pokerhouse.games import new_hand
    >>> hand = new_hand("razz", [100, 100], seed=4)
    >>> [line for line in to_phh(hand, seat=0).splitlines() if " dh p2 " in line]
    ["    'd dh p2 ????As',"]
    """
    seat = check_viewer(seat, hand.players)
    if hand.game != "razz":
        raise HistoryError(
            "unsupported_game", f"PHH has no variant for {hand.game}; only razz is written as PHH"
        )
    spec = getattr(hand, "spec", None)
    assert isinstance(spec, RazzSpec)
    fields: dict[str, Any] = {
        "variant": RAZZ,
        "ante_trimming_status": True,
        "antes": [spec.ante] * hand.players,
        "bring_in": spec.bring_in,
        "small_bet": spec.small_bet,
        "big_bet": spec.big_bet,
        "starting_stacks": list(hand.starting_stacks),
        "actions": _phh_actions(hand, _viewed(hand, seat)),
    }
    if players is not None:
        if len(players) != hand.players:
            raise HistoryError("bad_phh", f"{len(players)} names for {hand.players} players")
        fields["players"] = list(players)
    if hand.is_over:
        fields["finishing_stacks"] = list(hand.stacks)
    fields.update(metadata)
    return "".join(f"{key} = {_toml(value, key == 'actions')}\n" for key, value in fields.items())


def _viewed(hand: Hand, seat: Viewer) -> tuple[Event, ...]:
    """The hand's events as ``seat`` may see them (every event for the server)."""
    if seat is SERVER:
        return hand.events
    return tuple(hand.events_for(seat))


def _phh_actions(hand: Hand, events: Sequence[Event]) -> list[str]:
    """Our events as PHH actions, with the two notational adjustments PokerKit needs.

    * A raise that no opponent can call any part of (every other live player
      is all-in, or covered by the bet already) is written as a call: our
      engine returns the uncalled part, PokerKit does not allow the raise.
    * When the betting is over because at most one live player has chips, the
      hands are shown before the remaining cards are dealt, as PokerKit
      expects; our engine shows them after the last card.
    """
    n = hand.players
    stacks = list(hand.starting_stacks)
    bets = [0] * n
    folded = [False] * n
    streets = 0
    showdown = [event for event in events if isinstance(event, HandShown | HandMucked)]
    dealt = [0] * n
    shown_early = False
    lines: list[str] = []
    for event in events:
        if isinstance(event, StreetStarted):
            live = [seat for seat in range(n) if not folded[seat]]
            all_in = sum(1 for seat in live if stacks[seat]) <= 1
            if streets and not shown_early and len(live) > 1 and all_in:
                lines.extend(_show_line(event, dealt) for event in showdown)
                shown_early = True
            streets += 1
            bets = [0] * n
        elif isinstance(event, AntePosted):
            stacks[event.seat] -= event.amount
        elif isinstance(event, CardsDealt):
            lines.append(f"d dh p{event.seat + 1} {_cards(event.cards)}")
            dealt[event.seat] += len(event.cards)
        elif isinstance(event, BoardDealt):
            lines.append(f"d db {_cards(event.cards)}")
        elif isinstance(event, ActionTaken):
            lines.append(_action_line(event, stacks, bets, folded))
            stacks[event.seat] -= event.added
            bets[event.seat] = event.total
            folded[event.seat] = folded[event.seat] or event.action.kind is ActionKind.FOLD
        elif isinstance(event, BetReturned):
            stacks[event.seat] += event.amount
            bets[event.seat] -= event.amount
    lines.extend(_show_line(event) for event in showdown)
    return lines


def _action_line(event: ActionTaken, stacks: list[int], bets: list[int], folded: list[bool]) -> str:
    player = f"p{event.seat + 1}"
    kind = event.action.kind
    if kind is ActionKind.BRING_IN:
        return f"{player} pb"
    if kind is ActionKind.FOLD:
        return f"{player} f"
    if kind in SIZED_KINDS:
        current = max(bets)
        callable_by_someone = any(
            seat != event.seat and not folded[seat] and bets[seat] + stacks[seat] > current
            for seat in range(len(bets))
        )
        if callable_by_someone:
            return f"{player} cbr {event.total}"
    return f"{player} cc"


def _show_line(event: HandShown | HandMucked, dealt: Sequence[int] | None = None) -> str:
    """``pN sm CARDS`` (shown; only the cards dealt so far) or ``pN sm`` (mucked)."""
    if isinstance(event, HandShown):
        count = len(event.cards) if dealt is None else dealt[event.seat]
        return f"p{event.seat + 1} sm {_cards(event.cards[:count])}"
    return f"p{event.seat + 1} sm"


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if card is None else str(card) for card in cards)


def _toml(value: Any, one_per_line: bool = False) -> str:
    """A TOML value: strings, whole numbers, booleans and lists of them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "'" not in value and "\n" not in value:
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list | tuple):
        items = [_toml(item) for item in value]
        if one_per_line and items:
            return "[\n" + "".join(f"    {item},\n" for item in items) + "]"
        return "[" + ", ".join(items) + "]"
    raise HistoryError("bad_phh", f"cannot write {value!r} as a PHH value")
