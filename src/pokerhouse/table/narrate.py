"""Table and hand events as readable lines, with players' names instead of seat numbers.

Terminal play, the demo and logs use these lines. Table events are read
here with ``match`` on their classes; hand events by
:func:`pokerhouse.games.narration.narrate_hand_event`, which each game
extends with its own events. ``names`` are by seat number in whichever
numbering the events use: the table's own for its stream.

>>> from pokerhouse.cards import parse_cards
>>> from pokerhouse.engine import Action
>>> from pokerhouse.engine.events import ActionTaken, CardsDealt, PotAwarded
>>> names = ["Ann", "Bob"]
>>> narrate(ActionTaken(seat=1, action=Action.raise_to(60), added=40, total=60), names)
'Bob raises to 60'
>>> narrate(CardsDealt(seat=0, cards=(None, None, parse_cards("7c")[0]),
...                    face_up=(False, False, True)), names)
'Ann is dealt ?? ?? 7c'
>>> narrate(PotAwarded(pot=0, amount=40, winners=(0, 1), shares=(20, 20),
...                    description="Pair of aces"), names)
'Ann and Bob split the pot of 40 (20 each) with pair of aces'
>>> narrate(PotAwarded(pot=0, amount=4, winners=(0,), shares=(4,)), names, you=0)
'You win 4 from the pot'
>>> from pokerhouse.table.events import PlayerBusted
>>> busted = PlayerBusted(seat=0, player="Ann")
>>> narrate(busted, names), narrate(busted, names, you=0)
('Ann is out of chips', 'You are out of chips')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pokerhouse.engine.events import Event
from pokerhouse.games.narration import Speaker, cards_text, narrate_hand_event
from pokerhouse.table.events import (
    ButtonPlaced,
    ChipsAdded,
    HandVoided,
    PlayerBusted,
    PlayerLeaving,
    PlayerLeft,
    PlayerSat,
    RakeTaken,
    SeatDrawCard,
    SittingOut,
    TableHandEnded,
    TableHandStarted,
    TimedOut,
    WagerSet,
)

__all__ = ["cards_text", "name_of", "narrate"]


def name_of(seat: int, names: Mapping[int, str] | Sequence[str], you: int | None = None) -> str:
    """The player's name for ``seat`` (``You`` for the reader's seat)."""
    return Speaker(names, you).name(seat)


def narrate(
    event: Event, names: Mapping[int, str] | Sequence[str], you: int | None = None
) -> str | None:
    """One readable line for ``event`` (``None`` for events not worth a line).

    ``names[s]`` is the name at seat ``s``; the reader's own seat ``you`` is
    spoken to in the second person.
    """
    speaker = Speaker(names, you)
    line = _table_line(event, speaker)
    return line if line is not None else narrate_hand_event(event, speaker)


def _table_line(event: Event, speaker: Speaker) -> str | None:
    match event:
        case PlayerSat(seat=seat, player=player, chips=chips):
            return (
                _says(speaker, seat, player, "sits", "sit")
                + f" down in seat {seat + 1} with {chips:,}"
            )
        case PlayerLeaving(seat=seat, player=player):
            return _says(
                speaker, seat, player, "will leave after this hand", "will leave after this hand"
            )
        case PlayerLeft(seat=seat, player=player, chips=chips):
            return _says(speaker, seat, player, "leaves", "leave") + f" the table with {chips:,}"
        case ChipsAdded(seat=seat, player=player, amount=amount, stack=stack):
            return (
                _says(speaker, seat, player, "adds", "add") + f" {amount:,} chips (stack {stack:,})"
            )
        case PlayerBusted(seat=seat, player=player):
            return _says(speaker, seat, player, "is out of chips", "are out of chips")
        case SittingOut(seat=seat, player=player, out=out, reason=reason):
            if not out:
                return _says(speaker, seat, player, "is back", "are back")
            timeouts = " after two timeouts" if reason == "timeouts" else ""
            return _says(speaker, seat, player, "sits out", "sit out") + timeouts
        case WagerSet(seat=seat, ante=ante, bonus=bonus):
            if not ante:
                return f"Box {seat + 1} sits the next rounds out"
            extra = f" and an AA Bonus of {bonus:,}" if bonus else ""
            return f"Box {seat + 1} bets an ante of {ante:,}{extra}"
        case SeatDrawCard(seat=seat, player=player, card=card):
            return _says(speaker, seat, player, "draws", "draw") + f" {card} for the button"
        case ButtonPlaced(seat=seat):
            return f"The button is at {speaker.name(seat)}"
        case TableHandStarted(number=number):
            return f"Hand #{number}"
        case TimedOut(seat=seat):
            return speaker.says(seat, "runs out of time", "run out of time")
        case RakeTaken(amount=amount):
            return f"Rake: {amount:,}"
        case HandVoided(number=number):
            return f"Hand #{number} is void: every chip goes back"
        case TableHandEnded(seats=seats, net=net, rake=rake):
            parts = [f"{speaker.name(s)} {n:+,d}" for s, n in zip(seats, net, strict=True) if n]
            line = "Result: " + (", ".join(parts) if parts else "no change")
            return line + (f" (rake {rake:,})" if rake else "")
    return None


def _says(speaker: Speaker, seat: int, player: str, third: str, second: str) -> str:
    """``player`` and the verb phrase, in the second person for the reader's own seat."""
    return f"You {second}" if speaker.is_you(seat) else f"{player} {third}"
