"""A readable hand history, the way poker sites print one.

The text is built only from the events the viewer may see (a seat, a
spectator, or the server), so it never shows a card the viewer could not
have seen at the table. Seats are printed from 1 (``Seat 1`` is our seat 0,
the first seat left of the dealer), as on a table and in PHH; given the
players' names, the text calls each player by name. Chips are printed with
thousands separators.

>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games import new_hand
>>> from pokerhouse.engine import Action
>>> hand = new_hand("razz", [100, 100], deck=Deck.stacked("Ah 2c 3d 4s Kc 5h"))
>>> _ = hand.act(Action(ActionKind.BRING_IN))
>>> _ = hand.act(Action.fold())
>>> print(to_text(hand, seat=1))  # doctest: +NORMALIZE_WHITESPACE
Razz: ante 1, bring-in 2, small bet 5, big bet 10, at most 3 raises a street, heads-up too
View: Seat 2's
Seat 1: 100 in chips
Seat 2: 100 in chips
*** ANTES ***
Seat 1 posts the ante 1
Seat 2 posts the ante 1
*** THIRD STREET ***
Dealt to Seat 1: [?? ??] Kc
Dealt to Seat 2: [2c 4s] 5h
Seat 1 brings in for 2
Seat 2 folds
Uncalled bet (2) returned to Seat 1
Seat 1 wins the pot (2)
*** SUMMARY ***
Seat 1: 100 -> 101 (+1)
Seat 2: 100 -> 99 (-1)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from pokerhouse.cards import Card
from pokerhouse.engine.actions import ActionKind
from pokerhouse.engine.events import (
    ActionTaken,
    AntePosted,
    BetReturned,
    BoardDealt,
    CardBurned,
    CardsDealt,
    DeckReshuffled,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    PotAwarded,
    StreetStarted,
    event_to_dict,
)
from pokerhouse.engine.hand import Hand
from pokerhouse.engine.visibility import shown_to
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.games import get_game
from pokerhouse.games.casino_holdem.events import (
    BonusPosted,
    BonusResult,
    BonusSettled,
    BoxSettled,
    DealerQualified,
    HouseSettled,
)
from pokerhouse.games.teen_patti.events import CardsLooked, SideshowCompared, StakeRaised
from pokerhouse.history.json_history import SERVER, HandRecord, Viewer, check_viewer, record

#: How to print a game's own event: a line, or ``None`` to print nothing.
TextWriter = Callable[[Event], str | None]

_WRITERS: dict[type[Event], TextWriter] = {}


def register_text(event_type: type[Event], writer: TextWriter) -> None:
    """Teach the text history a game's own event (others print as ``name: field=value``)."""
    _WRITERS[event_type] = writer


def seat_name(seat: int) -> str:
    """``Seat 1`` for seat 0: tables count seats from one; a negative seat is the house.

    >>> seat_name(0), seat_name(-1)
    ('Seat 1', 'Dealer')
    """
    return "Dealer" if seat < 0 else f"Seat {seat + 1}"


def chips(amount: int) -> str:
    """An amount of chips as printed: ``'2,650,000'``.

    >>> chips(2650000), chips(-5), chips(0)
    ('2,650,000', '-5', '0')
    """
    return f"{amount:,}"


def to_text(
    hand: Hand | HandRecord,
    seat: Viewer = None,
    *,
    names: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
) -> str:
    """The hand as text for ``seat`` (``None``: a spectator; ``SERVER``: every card).

    A :class:`HandRecord` can be printed too: a full record is filtered for
    ``seat``; a record written for one viewer is printed as that viewer saw it.
    ``names`` (one a seat, in seat order, as in PHH's ``players``) calls the
    players by name; names that cannot tell the players apart (empty after
    dropping control characters, or repeated) are left out for seat numbers.
    ``seats`` gives each hand seat's seat at its table (counted from 0), so
    the text numbers the seats as the table does; by default the hand's own
    seats are printed from 1.
    """
    if isinstance(hand, Hand):
        history = record(hand, seat)
        events: Iterable[Event] = history.events
    else:
        history = hand
        seat = check_viewer(seat, len(history.starting_stacks))
        if history.view is SERVER and seat is not SERVER:
            events = (e for e in (shown_to(event, seat) for event in history.events) if e)
        else:
            seat = history.view
            events = history.events
    players = len(history.starting_stacks)
    writer = _Writer(history.game, _player_names(names, players), _seat_numbers(seats, players))
    lines = _header(history.game, history.spec, seat, writer)
    lines += writer.lines(events)
    return "\n".join(lines)


def _player_names(names: Sequence[str] | None, players: int) -> tuple[str, ...] | None:
    """The names to print, or ``None`` for seat numbers.

    >>> _player_names(["Ann", " Bob\\x1b[2J "], 2), _player_names(["Ann", "Ann"], 2)
    (('Ann', 'Bob[2J'), None)
    """
    if names is None:
        return None
    if isinstance(names, str) or len(names) != players:
        raise HistoryError("bad_names", f"expected {players} player names, not {names!r}")
    # A name is printed in a terminal: a newline or an escape would forge lines there.
    cleaned = tuple(
        "".join(ch for ch in str(name) if unicodedata.category(ch)[0] != "C").strip()
        for name in names
    )
    if not all(cleaned) or len(set(cleaned)) != len(cleaned):
        return None
    return cleaned


def _seat_numbers(seats: Sequence[int] | None, players: int) -> tuple[int, ...] | None:
    """Each hand seat's table seat, checked: distinct seats from 0, one a player.

    >>> _seat_numbers([4, 1], 2), _seat_numbers(None, 2) is None
    ((4, 1), True)
    """
    if seats is None:
        return None
    numbers = tuple(seats)
    if (
        len(numbers) != players
        or len(set(numbers)) != players
        or not all(type(n) is int and n >= 0 for n in numbers)
    ):
        raise HistoryError("bad_seats", f"expected {players} distinct table seats, not {seats!r}")
    return numbers


def _header(game: str, spec: Mapping[str, Any], seat: Viewer, writer: _Writer) -> list[str]:
    try:
        title = get_game(game).title
    except PokerError:
        title = game
    settings = dict(spec)
    limit = settings.pop("limit", None)
    if isinstance(limit, str):
        title = f"{title}, {limit}"
    described = ", ".join(_settings(settings, fixed_limit=limit in (None, "fixed-limit")))
    if seat is SERVER:
        viewer = "View: the full history, every card"
    elif seat is None:
        viewer = "View: a spectator's"
    elif isinstance(seat, frozenset):
        # One person's several seats (Casino Hold'em boxes).
        viewer = "View: " + " and ".join(f"{writer.who(one)}'s" for one in sorted(seat))
    elif writer.names is None:
        viewer = f"View: {writer.seat_name(seat)}'s"
    else:
        viewer = f"View: {writer.who(seat)}'s ({writer.seat_name(seat)})"
    return [f"{title}: {described}" if described else title, viewer]


def _settings(spec: Mapping[str, Any], *, fixed_limit: bool) -> list[str]:
    """A spec's settings in words, in the spec's order.

    Bet sizes only fixed limit uses (the big bet, the cap on raises) are left
    out at no-limit and pot-limit, where the small bet is the minimum bet.

    >>> _settings({"ante": 1, "small_bet": 2, "big_bet": None, "max_raises": 3}, fixed_limit=True)
    ['ante 1', 'small bet 2', 'big bet 4', 'at most 3 raises a street']
    >>> _settings({"ante": 1, "small_bet": 2, "big_bet": None}, fixed_limit=False)
    ['ante 1', 'minimum bet 2']
    >>> _settings({"max_raises": 3, "heads_up_uncapped": True, "sideshow": False}, fixed_limit=True)
    ['at most 3 raises a street, no cap heads-up', 'no sideshow']
    """
    out: list[str] = []
    for name, value in spec.items():
        match name, value:
            case (("ante" | "bring_in" | "max_payout"), int()):
                out.append(
                    f"{name.replace('_', ' ').replace('bring in', 'bring-in')} {chips(value)}"
                )
            case "small_bet", int():
                out.append(f"{'small bet' if fixed_limit else 'minimum bet'} {chips(value)}")
            case "big_bet", _:
                small = spec.get("small_bet")
                big = value if value is not None else 2 * small if isinstance(small, int) else None
                if fixed_limit and isinstance(big, int):
                    out.append(f"big bet {chips(big)}")
            case "max_raises", int():
                if fixed_limit:
                    heads_up = spec.get("heads_up_uncapped")
                    also = ""
                    if isinstance(heads_up, bool):
                        also = ", no cap heads-up" if heads_up else ", heads-up too"
                    out.append(f"at most {value} raises a street{also}")
            case "heads_up_uncapped", _:
                pass  # said with the cap on raises
            case "sideshow", bool():
                out.append("sideshow allowed" if value else "no sideshow")
            case "min_ante", int():
                top = spec.get("max_ante")
                out.append(
                    f"antes {chips(value)} to {chips(top)}"
                    if isinstance(top, int)
                    else f"antes from {chips(value)}"
                )
            case "max_ante", _:
                pass  # said with the minimum
            case "ante_pays", Mapping():
                out.append(f"ante pays {_odds(value)}")
            case "bonus_pays", Mapping():
                out.append(f"AA Bonus pays {_odds(value)}")
            case "bonus_min", _:
                lowest = value if value is not None else spec.get("min_ante")
                if isinstance(lowest, int):
                    out.append(f"AA Bonus from {chips(lowest)}")
            case _:
                out.append(_setting(name, value))
    return [phrase for phrase in out if phrase]


def _odds(table: Mapping[str, Any]) -> str:
    """A pay table in words: ``'7:1 on a pair of aces or better'`` when every hand pays the same.

    >>> _odds({"flush": 3, "straight_or_less": 1})
    'flush 3:1, straight or less 1:1'
    >>> _odds({"royal_flush": 7, "pair_of_aces": 7})
    '7:1 on a pair of aces or better'
    """
    odds = list(table.values())
    names = [str(name).replace("_", " ") for name in table]
    if len(set(odds)) == 1 and len(odds) > 1:
        return f"{odds[0]}:1 on {'a ' if names[-1].startswith('pair') else ''}{names[-1]} or better"
    return ", ".join(f"{name} {odd}:1" for name, odd in zip(names, odds, strict=True))


def _setting(name: str, value: object) -> str:
    """A setting the printout has no words for: its name and value.

    >>> _setting("rake_cap", 50), _setting("straddle", True), _setting("straddle", False)
    ('rake cap 50', 'straddle', 'no straddle')
    """
    label = name.replace("_", " ")
    if isinstance(value, bool):
        return label if value else f"no {label}"
    if value is None:
        return f"{label} default"
    if isinstance(value, int):
        return f"{label} {chips(value)}"
    if isinstance(value, Mapping):
        items = ", ".join(_setting(str(k), v) for k, v in value.items())
        return f"{label} ({items})"
    if isinstance(value, list | tuple):
        return f"{label} ({', '.join(str(item) for item in value)})"
    return f"{label} {value}"


def _cards(cards: Sequence[Card | None]) -> str:
    return " ".join("??" if card is None else str(card) for card in cards)


#: How a Casino Hold'em box's Ante and Call ended, by ``BoxSettled.outcome``.
BOX_OUTCOMES = {
    "folded": "loses the ante",
    "dealer_not_qualified": "wins the ante and the call pushes: the dealer does not qualify",
    "won": "beats the dealer",
    "stand_off": "ties the dealer: a stand-off",
    "lost": "loses to the dealer",
}


class _Writer:
    """Turns events into lines, keeping the little state a printout needs."""

    def __init__(
        self,
        game: str,
        names: tuple[str, ...] | None = None,
        numbers: tuple[int, ...] | None = None,
    ) -> None:
        self.game = game
        self.names = names
        #: Each hand seat's table seat, when the table's numbers are known.
        self.numbers = numbers
        self.starting: tuple[int, ...] = ()
        self.board: list[Card] = []
        self.showdown = False
        self.antes = False
        #: Teen Patti seats that have looked at their cards.
        self.seen: set[int] = set()

    def seat_name(self, seat: int) -> str:
        """``Seat N`` as the table numbers the seat (the hand's own numbers otherwise)."""
        if self.numbers is not None and 0 <= seat < len(self.numbers):
            return seat_name(self.numbers[seat])
        return seat_name(seat)

    def who(self, seat: int) -> str:
        """The player's name if known, else ``Seat N``; the house is the ``Dealer``."""
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.seat_name(seat)

    def lines(self, events: Iterable[Event]) -> list[str]:
        out: list[str] = []
        for event in events:
            line = self.line(event)
            if line:
                out.append(line)
        return out

    def line(self, event: Event) -> str | None:
        writer = _WRITERS.get(type(event))
        if writer is not None:
            return writer(event)
        match event:
            case HandStarted():
                self.starting = event.stacks
                return "\n".join(
                    self.seat_line(seat, stack) for seat, stack in enumerate(event.stacks)
                )
            case AntePosted():
                head = "" if self.antes else "*** ANTES ***\n"
                self.antes = True
                return f"{head}{self.who(event.seat)} posts the ante {chips(event.amount)}"
            case StreetStarted():
                self.showdown = self.showdown or event.street == "showdown"
                return f"*** {_street_title(event.street)} ***"
            case CardsDealt():
                return f"Dealt to {self.who(event.seat)}: {self.dealt(event)}"
            case BoardDealt():
                self.board.extend(event.cards)
                return f"Board: [{_cards(self.board)}]"
            case CardBurned():
                return None
            case DeckReshuffled():
                return "The deck is short: the burned cards are shuffled into the stub"
            case ActionTaken():
                return self.action(event)
            case BetReturned():
                return f"Uncalled bet ({chips(event.amount)}) returned to {self.who(event.seat)}"
            case HandShown() | HandMucked():
                head = "" if self.showdown else "*** SHOWDOWN ***\n"
                self.showdown = True
                if isinstance(event, HandMucked):
                    return f"{head}{self.who(event.seat)} mucks"
                described = f" ({event.description})" if event.description else ""
                return f"{head}{self.who(event.seat)} shows [{_cards(event.cards)}]{described}"
            case PotAwarded():
                return self.award(event)
            case HandEnded():
                return self.summary(event)
            case CardsLooked():
                self.seen.add(event.seat)
                known = all(card is not None for card in event.cards)
                cards = f": {_cards(event.cards)}" if known else ""
                return f"{self.who(event.seat)} looks at their cards{cards}"
            case StakeRaised():
                return f"The stake rises to {chips(event.stake)}"
            case SideshowCompared():
                return self.sideshow(event)
            case BonusPosted():
                return f"{self.who(event.seat)} bets {chips(event.amount)} on the AA Bonus"
            case BonusSettled():
                described = f" with {event.description}" if event.description else ""
                who = self.who(event.seat)
                if event.won:
                    return f"{who} wins {chips(event.paid)} on the AA Bonus{described}"
                return f"{who} loses the AA Bonus ({chips(event.stake)})"
            case BonusResult():
                who = self.who(event.seat)
                if event.net > 0:
                    return f"{who} wins {chips(event.net)} on the AA Bonus"
                return f"{who} loses the AA Bonus ({chips(event.stake)})"
            case DealerQualified():
                return f"The dealer {'qualifies' if event.qualifies else 'does not qualify'}"
            case BoxSettled():
                return self.box(event)
            case HouseSettled():
                if event.result == 0:
                    return "The house breaks even"
                verb = "wins" if event.result > 0 else "pays"
                return f"The house {verb} {chips(abs(event.result))}"
            case _:
                return self.fallback(event)

    def seat_line(self, seat: int, stack: int) -> str:
        if self.names is None:
            return f"{self.seat_name(seat)}: {chips(stack)} in chips"
        return f"{self.seat_name(seat)}: {self.who(seat)} ({chips(stack)} in chips)"

    @staticmethod
    def dealt(event: CardsDealt) -> str:
        down = [card for card, up in zip(event.cards, event.face_up, strict=True) if not up]
        up = [card for card, face in zip(event.cards, event.face_up, strict=True) if face]
        parts = ([f"[{_cards(down)}]"] if down else []) + ([_cards(up)] if up else [])
        return " ".join(parts)

    def action(self, event: ActionTaken) -> str:
        who = self.who(event.seat)
        action = event.action
        kind = action.kind
        amount = chips(action.amount if action.amount is not None else event.total)
        added = chips(event.added)
        blind = " blind" if self.game == "teen-patti" and event.seat not in self.seen else ""
        verbs: dict[ActionKind, str] = {
            ActionKind.FOLD: "folds",
            ActionKind.CHECK: "checks",
            ActionKind.CALL: f"calls {added}",
            ActionKind.BET: f"bets {amount}{blind}",
            ActionKind.RAISE: f"raises to {amount}",
            ActionKind.BRING_IN: f"brings in for {added}",
            ActionKind.COMPLETE: f"completes to {amount}",
            ActionKind.LOOK: "looks at their cards",
            ActionKind.SHOW: f"pays {added} for a show",
            ActionKind.SIDESHOW: f"pays {added} and asks for a sideshow",
            ActionKind.ACCEPT: "accepts the sideshow",
            ActionKind.DECLINE: "declines the sideshow",
        }
        text = verbs.get(kind, kind.value.replace("_", " "))
        return f"{who} {text}{' and is all-in' if event.all_in else ''}"

    def sideshow(self, event: SideshowCompared) -> str:
        asker, target = self.who(event.asker), self.who(event.target)
        hands = ""
        if all(card is not None for card in (*event.asker_cards, *event.target_cards)):
            hands = (
                f": {asker} [{_cards(event.asker_cards)}], {target} [{_cards(event.target_cards)}]"
            )
        return f"{asker} and {target} compare hands privately{hands}; {self.who(event.loser)} folds"

    def box(self, event: BoxSettled) -> str:
        outcome = BOX_OUTCOMES.get(event.outcome, event.outcome.replace("_", " "))
        kept = f", {chips(event.capped)} over the max payout not paid" if event.capped else ""
        return f"{self.who(event.seat)} {outcome} ({event.net:+,}{kept})"

    def award(self, event: PotAwarded) -> str:
        name = "the pot" if event.pot == 0 else f"side pot {event.pot}"
        if event.pot == 0 and event.description:
            name = "the main pot"
        described = f" with {event.description}" if event.description else ""
        if len(event.winners) == 1:
            return f"{self.who(event.winners[0])} wins {name} ({chips(event.amount)}){described}"
        shares = ", ".join(
            f"{self.who(seat)} {chips(share)}"
            for seat, share in zip(event.winners, event.shares, strict=True)
        )
        return f"{name[0].upper()}{name[1:]} ({chips(event.amount)}) is split{described}: {shares}"

    def summary(self, event: HandEnded) -> str:
        lines = ["*** SUMMARY ***"]
        starting = self.starting or tuple(
            s - n for s, n in zip(event.stacks, event.net, strict=True)
        )
        for seat, (start, end) in enumerate(zip(starting, event.stacks, strict=True)):
            lines.append(f"{self.who(seat)}: {chips(start)} -> {chips(end)} ({end - start:+,})")
        return "\n".join(lines)

    def fallback(self, event: Event) -> str:
        data = event_to_dict(event)
        name = str(data.pop("type")).replace("_", " ")
        seat = data.pop("seat", None)
        who = f"{self.who(seat)}: " if isinstance(seat, int) else ""
        fields = ", ".join(
            f"{key.replace('_', ' ')} {_value(value)}" for key, value in data.items()
        )
        return f"{who}{name}{' (' + fields + ')' if fields else ''}"


def _value(value: object) -> str:
    if isinstance(value, list):
        return "[" + " ".join("??" if item is None else str(item) for item in value) + "]"
    return str(value)


def _street_title(street: str) -> str:
    """``THIRD STREET`` for stud's numbered streets, else ``FLOP``, ``TURN``..."""
    if street in ("third", "fourth", "fifth", "sixth", "seventh"):
        return f"{street.upper()} STREET"
    return street.upper()
