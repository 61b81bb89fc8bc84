"""Replaying a PHH hand: its deals scripted into a deck, its actions mapped to ours and played.

The cards a PHH deals become a scripted deck (a card nobody saw, ``??``, is
given one the history uses nowhere); each player action becomes our action
for the seat our rules put to act, so an illegal or out-of-turn action is a
:class:`~pokerhouse.errors.HistoryError` naming its line. Shown cards and the
finishing stacks are checked against the replay.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pokerhouse.cards import FULL_DECK, Card, ScriptedDeck
from pokerhouse.engine.actions import SIZED_KINDS, Action, ActionKind
from pokerhouse.engine.hand import Hand
from pokerhouse.errors import HistoryError, PokerError
from pokerhouse.games import new_hand
from pokerhouse.games.razz import RazzHand
from pokerhouse.history.deals import dealt_cards
from pokerhouse.history.phh_reader import PhhAction, PhhHand, parse_phh_cards, read_phh


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
