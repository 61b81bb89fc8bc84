"""PHH, the TOML poker hand-history standard of the PokerKit project, for Razz (``FR``).

A PHH file names the variant, the antes (one per seat), the bring-in, the
small and big bets, the starting stacks and a list of actions:
``d dh p1 7c3hKc`` (deal to player 1: down, down, up on third street, one up
card on fourth to sixth, one down card on seventh), ``p1 pb`` (bring-in),
``p1 cbr 300`` (complete, bet or raise to 300), ``p1 cc`` (check or call),
``p1 f`` (fold), ``p1 sm 7c3h...`` (show) and ``p1 sm`` (muck).

Seats: PHH player ``p1`` is our seat 0, the first seat left of the dealer,
``p2`` seat 1, and so on. Stud has no button to post blinds, but the order
still matters: cards are dealt from ``p1`` on and equal up cards or boards are
broken in favour of the lowest player number, exactly as for our seats.

>>> from pokerhouse.games import new_hand
>>> from pokerhouse.engine import Action
>>> hand = new_hand("razz", [100, 100], seed=4)
>>> while not hand.is_over:
...     _ = hand.act(Action(hand.legal_actions().kinds[0]))
>>> text = to_phh(hand)
>>> text.splitlines()[0]
"variant = 'FR'"
>>> replay_phh(text).stacks == hand.stacks
True
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerhouse.cards import FULL_DECK, Card, ScriptedDeck
from pokerhouse.engine.actions import SIZED_KINDS, Action, ActionKind
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
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzHand, RazzSpec
from pokerhouse.history.json_history import SERVER, Viewer, check_viewer, dealt_cards

#: The PHH variant code of Razz.
RAZZ = "FR"

#: Every variant code of the PHH standard, to name the ones we do not play.
VARIANTS: Mapping[str, str] = {
    "FT": "fixed-limit Texas hold'em",
    "NT": "no-limit Texas hold'em",
    "NS": "no-limit short-deck hold'em",
    "PO": "pot-limit Omaha hold'em",
    "FO/8": "fixed-limit Omaha hold'em high/low-split eight or better",
    "F7S": "fixed-limit seven card stud",
    "F7S/8": "fixed-limit seven card stud high/low-split eight or better",
    "FR": "fixed-limit razz",
    "N2L1D": "no-limit deuce-to-seven lowball single draw",
    "F2L3D": "fixed-limit deuce-to-seven lowball triple draw",
    "FB": "fixed-limit badugi",
}

_REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of a PHH ``actions`` list, with where it stands in the file."""

    index: int
    line: int
    text: str

    @property
    def where(self) -> str:
        """``line 12, action 5 'p2 cc'`` (the line is left out when unknown)."""
        line = f"line {self.line}, " if self.line else ""
        return f"{line}action {self.index} {self.text!r}"


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A Razz hand history read from PHH (fields as the standard names them)."""

    variant: str
    antes: tuple[int, ...]
    bring_in: int
    small_bet: int
    big_bet: int
    starting_stacks: tuple[int, ...]
    actions: tuple[PhhAction, ...]
    ante_trimming_status: bool = False
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def spec(self) -> RazzSpec:
        """Our Razz spec for these amounts (one bet and three raises per street)."""
        try:
            return RazzSpec(
                ante=self.antes[0],
                bring_in=self.bring_in,
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )
        except PokerError as error:
            raise HistoryError("bad_spec", f"PHH amounts: {error}") from None


# ---------------------------------------------------------------- reading


def read_phh(source: str | bytes) -> PhhHand:
    """Parse and check a PHH document; raises :class:`HistoryError` naming the problem.

    >>> try:
    ...     read_phh("variant = 'F7S'")
    ... except HistoryError as error:
    ...     print(error.code, "-", error)  # doctest: +ELLIPSIS
    unknown_variant - variant 'F7S' (fixed-limit seven card stud) is not played here: ...
    """
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError("bad_phh", f"not valid TOML: {error}") from None
    except RecursionError:
        raise HistoryError("bad_phh", "not a hand history: TOML nested too deeply") from None
    except ValueError:
        # The only other refusal: an integer past Python's digit limit for conversion.
        raise HistoryError("bad_phh", "not a hand history: TOML with a number too long") from None
    variant = data.get("variant")
    if variant != RAZZ:
        if variant is None:
            raise HistoryError("bad_phh", "the PHH has no 'variant'")
        if isinstance(variant, str) and variant in VARIANTS:
            raise HistoryError(
                "unknown_variant",
                f"variant {variant!r} ({VARIANTS[variant]}) is not played here: "
                f"pokerhouse reads PHH for razz ({RAZZ!r}) only",
            )
        raise HistoryError("unknown_variant", f"unknown PHH variant {variant!r}")
    missing = [name for name in _REQUIRED if name not in data]
    if missing:
        raise HistoryError("truncated_history", f"the PHH has no {', '.join(missing)}")
    stacks = _ints(data, "starting_stacks")
    players = len(stacks)
    if not 2 <= players <= 8:
        raise HistoryError("player_count", f"razz takes 2 to 8 players, not {players}")
    if any(stack <= 0 for stack in stacks):
        raise HistoryError("bad_phh", f"starting_stacks must be positive: {list(stacks)}")
    antes = _ints(data, "antes")
    if len(antes) != players:
        raise HistoryError("bad_phh", f"{len(antes)} antes for {players} players")
    if len(set(antes)) != 1:
        raise HistoryError(
            "unsupported", f"razz here has one ante for every seat; the antes {list(antes)} differ"
        )
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(item, str) for item in actions):
        raise HistoryError("bad_phh", "'actions' must be a list of strings")
    finishing = _ints(data, "finishing_stacks") if "finishing_stacks" in data else None
    if finishing is not None and len(finishing) != players:
        raise HistoryError("bad_phh", f"{len(finishing)} finishing stacks for {players} players")
    names = data.get("players")
    if names is not None and (
        not isinstance(names, list)
        or len(names) != players
        or not all(isinstance(name, str) for name in names)
    ):
        raise HistoryError("bad_phh", f"'players' must be {players} names")
    trimming = data.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise HistoryError("bad_phh", "'ante_trimming_status' must be true or false")
    known = {*_REQUIRED, "finishing_stacks", "players", "ante_trimming_status"}
    return PhhHand(
        variant=variant,
        antes=antes,
        bring_in=_int(data, "bring_in"),
        small_bet=_int(data, "small_bet"),
        big_bet=_int(data, "big_bet"),
        starting_stacks=stacks,
        actions=tuple(_locate(text, actions)),
        ante_trimming_status=trimming,
        players=None if names is None else tuple(names),
        finishing_stacks=finishing,
        metadata={key: value for key, value in data.items() if key not in known},
    )


def _int(data: Mapping[str, Any], name: str) -> int:
    value = data[name]
    if type(value) is not int or value < 0:
        raise HistoryError("bad_phh", f"{name!r} must be a whole number of chips, not {value!r}")
    return value


def _ints(data: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = data[name]
    if not isinstance(value, list) or not all(type(item) is int for item in value):
        raise HistoryError("bad_phh", f"{name!r} must be a list of whole numbers, not {value!r}")
    return tuple(value)


def _locate(text: str, actions: Sequence[str]) -> Iterable[PhhAction]:
    """Number the actions and find the line of each in the file (0 when not found)."""
    key = re.search(r"^\s*actions\s*=", text, re.MULTILINE)
    position = key.end() if key else 0
    for index, action in enumerate(actions):
        found = [
            spot
            for quote in ("'", '"')
            if (spot := text.find(f"{quote}{action}{quote}", position)) >= 0
        ]
        line = 0
        if found:
            position = min(found)
            line = text.count("\n", 0, position) + 1
            position += len(action) + 2
        yield PhhAction(index, line, action)


def parse_phh_cards(text: str) -> tuple[Card | None, ...]:
    """PHH cards, ``7c3hKc``; ``??`` is a card nobody saw (``None``).

    >>> parse_phh_cards("7c??Kc")
    (7c, None, Kc)
    """
    compact = "".join(text.split())
    if len(compact) % 2:
        raise HistoryError("bad_cards", f"{text!r} is not a list of two-letter cards")
    cards: list[Card | None] = []
    for start in range(0, len(compact), 2):
        chunk = compact[start : start + 2]
        if chunk == "??":
            cards.append(None)
            continue
        try:
            cards.append(Card.parse(chunk))
        except PokerError as error:
            raise HistoryError("bad_cards", f"{text!r}: {error}") from None
    return tuple(cards)


# ---------------------------------------------------------------- replaying


@dataclass(slots=True)
class _Script:
    """The cards a PHH deals, by seat, and the seats that chose to show."""

    seats: dict[int, list[Card | None]]
    board: list[Card | None]
    shows: set[int]


def _player(word: str, players: int, action: PhhAction) -> int:
    # At most two digits (p1 to p8 here), so that int() never meets a thousand-digit number.
    match = re.fullmatch(r"p([1-9][0-9]?)", word)
    if match is None or not 1 <= int(match.group(1)) <= players:
        raise HistoryError(
            "bad_action", f"{action.where}: {word!r} is not a player (p1 to p{players})"
        )
    return int(match.group(1)) - 1


def _words(action: PhhAction) -> list[str]:
    text = action.text.split("#", 1)[0]
    return text.split()


def _script(history: PhhHand) -> _Script:
    players = len(history.starting_stacks)
    script = _Script({seat: [] for seat in range(players)}, [], set())
    for action in history.actions:
        words = _words(action)
        if words[:2] == ["d", "dh"] and len(words) == 4:
            seat = _player(words[2], players, action)
            script.seats[seat].extend(_cards_at(words[3], action))
            if len(script.seats[seat]) > 7:
                raise HistoryError("bad_action", f"{action.where}: more than 7 cards to one player")
        elif words[:2] == ["d", "db"] and len(words) == 3:
            script.board.extend(_cards_at(words[2], action))
        elif len(words) == 3 and words[1] == "sm":
            script.shows.add(_player(words[0], players, action))
    _fill_unknown(script)
    return script


def _cards_at(text: str, action: PhhAction) -> tuple[Card | None, ...]:
    try:
        return parse_phh_cards(text)
    except HistoryError as error:
        raise HistoryError(error.code, f"{action.where}: {error}") from None


def _fill_unknown(script: _Script) -> None:
    """Give cards nobody saw (``??``) concrete cards that the history uses nowhere."""
    named = [card for cards in script.seats.values() for card in cards if card is not None]
    named += [card for card in script.board if card is not None]
    if len(set(named)) != len(named):
        duplicate = next(card for card in named if named.count(card) > 1)
        raise HistoryError(
            "duplicate_card",
            f"the PHH deals {duplicate} twice; here a card is dealt once a hand (when the "
            "deck runs short on seventh street the burned cards are shuffled in, then one "
            "community card is dealt; PokerKit deals folded players' cards again instead)",
        )
    used = set(named)
    spare = iter(card for card in FULL_DECK if card not in used)
    for cards in [*script.seats.values(), script.board]:
        for index, card in enumerate(cards):
            if card is None:
                cards[index] = next(spare)


def replay_phh(source: PhhHand | str | bytes) -> Hand:
    """Play a PHH Razz hand through our engine; check turns, cards and finishing stacks.

    Each player action must be legal for the seat our rules put to act, or a
    :class:`HistoryError` names its line and action. Show lines are checked
    against the dealt cards; a seat that shows in the PHH shows here too.
    """
    history = source if isinstance(source, PhhHand) else read_phh(source)
    players = len(history.starting_stacks)
    script = _script(history)
    seats: dict[int, Sequence[Card]] = {
        seat: [_known(card) for card in cards] for seat, cards in script.seats.items()
    }
    deck = ScriptedDeck(seats, [_known(card) for card in script.board])
    try:
        hand = new_hand(
            "razz",
            history.starting_stacks,
            spec=history.spec,
            deck=deck,
            always_show=sorted(script.shows),
        )
    except PokerError as error:
        raise HistoryError("bad_phh", f"cannot start the hand: {error}") from None
    assert isinstance(hand, RazzHand)
    for action in history.actions:
        words = _words(action)
        if not words or words[0] == "d":
            _check_deal(words, action)
            continue
        seat = _player(words[0], players, action)
        if words[1:2] == ["sm"]:
            _check_show(words, seat, seats[seat], action)
            continue
        _apply(hand, seat, words, action)
    _check_end(hand, history, seats)
    return hand


def _known(card: Card | None) -> Card:
    assert card is not None  # unknown cards were filled in
    return card


def _check_deal(words: list[str], action: PhhAction) -> None:
    """Deals were read into the script; here only their shape is checked."""
    if words and (words[:2], len(words)) not in ((["d", "dh"], 4), (["d", "db"], 3)):
        raise HistoryError(
            "bad_action", f"{action.where}: not a dealing action ('d dh pN CARDS' or 'd db CARDS')"
        )


def _check_show(words: list[str], seat: int, dealt: Sequence[Card], action: PhhAction) -> None:
    if len(words) == 2 or words[2] == "-":
        return
    shown = {card for card in _cards_at(words[2], action) if card is not None}
    if not shown <= set(dealt):
        strange = " ".join(str(card) for card in sorted(shown - set(dealt)))
        raise HistoryError(
            "shown_cards_mismatch", f"{action.where}: p{seat + 1} was never dealt {strange}"
        )


def _apply(hand: RazzHand, seat: int, words: list[str], action: PhhAction) -> None:
    if hand.is_over:
        raise HistoryError("extra_action", f"{action.where}: the hand is already over")
    if hand.to_act != seat:
        actor = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
        raise HistoryError(
            "out_of_turn",
            f"{action.where}: p{seat + 1} acts out of turn: by the rules, {actor} is to act",
        )
    ours = _our_action(hand, words, action)
    try:
        hand.act(ours, seat)
    except PokerError as error:
        raise HistoryError("illegal_action", f"{action.where}: {error} [{error.code}]") from None


def _our_action(hand: RazzHand, words: list[str], action: PhhAction) -> Action:
    legal = hand.legal_actions()
    match words[1:]:
        case ["pb"]:
            return Action(ActionKind.BRING_IN)
        case ["f"]:
            return Action.fold()
        case ["cc"]:
            return Action.check() if ActionKind.CHECK in legal else Action.call()
        case ["cbr", amount]:
            return _sized(hand, _amount(amount, action), action)
    raise HistoryError("bad_action", f"{action.where}: not a razz action")


def _amount(text: str, action: PhhAction) -> int:
    # ASCII digits only: str.isdigit() also takes '²', which int() refuses.
    if re.fullmatch(r"[0-9]+", text) is None:
        raise HistoryError(
            "bad_action", f"{action.where}: amount {text!r} is not a whole number of chips"
        )
    try:
        return int(text)
    except ValueError:
        raise HistoryError(
            "bad_action", f"{action.where}: an amount of {len(text)} digits is too long"
        ) from None


def _sized(hand: RazzHand, amount: int, action: PhhAction) -> Action:
    """``cbr X``: our completion, bet or raise to X.

    Two PokerKit notations are read as what they mean in chips:

    * early PokerKit versions cap a raise at what the largest opponent can
      still put in (hand 85 of the WSOP set raises "to 750000" against a
      750000 all-in, below the fixed raise to 1200000): read as the full fixed
      raise, whose uncalled part comes back;
    * PokerKit lets a bring-in player with no more than the bring-in behind
      "complete" all-in: read as the bring-in, which posts the same chips.
    """
    legal = hand.legal_actions()
    seat = hand.to_act
    assert seat is not None
    sized = next((a for a in legal if a.kind in SIZED_KINDS), None)
    bring_in = min(hand.spec.bring_in, hand.stacks[seat])
    if sized is None and ActionKind.BRING_IN in legal and amount == bring_in:
        return Action(ActionKind.BRING_IN)
    if sized is None or sized.min_amount is None or sized.max_amount is None:
        allowed = ", ".join(str(a) for a in legal)
        raise HistoryError(
            "illegal_action", f"{action.where}: no bet or raise is allowed now ({allowed})"
        )
    if amount < sized.min_amount:
        covered = max(
            hand.bets[other] + hand.stacks[other]
            for other in range(hand.players)
            if other != seat and not hand.folded[other]
        )
        if amount >= covered and amount > max(hand.bets):
            amount = sized.min_amount
    return Action(sized.kind, amount)


def _check_end(hand: Hand, history: PhhHand, seats: Mapping[int, Sequence[Card]]) -> None:
    dealt, _ = dealt_cards(hand.events)
    for seat, cards in seats.items():
        given = list(dealt.get(seat, ()))
        if given != list(cards[: len(given)]) or (hand.is_over and len(given) < len(cards)):
            raise HistoryError(
                "cards_mismatch",
                f"p{seat + 1}: the PHH deals {' '.join(map(str, cards))} but the hand dealt "
                f"{' '.join(str(card) for card in given) or 'nothing'}",
            )
    if history.finishing_stacks is None:
        return
    if not hand.is_over:
        raise HistoryError(
            "truncated_history",
            f"the actions stop before the hand ends (p{(hand.to_act or 0) + 1} is to act)",
        )
    if hand.stacks != history.finishing_stacks:
        raise HistoryError(
            "stacks_mismatch",
            f"finishing_stacks: the PHH says {list(history.finishing_stacks)}, "
            f"the replay gives {list(hand.stacks)}",
        )


# ---------------------------------------------------------------- writing


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
