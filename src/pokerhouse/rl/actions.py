"""Each game's fixed list of discrete moves, and how a move becomes an engine action.

A learner picks an index into its game's :data:`MOVES` list. Unsized moves
(fold, check, call, look...) are the engine's kinds as they are. A sized kind
(bet, raise, complete) comes in a few sizes: the smallest allowed, about half
the pot, about the pot, and everything the seat may put in. Each size is
clamped to the engine's bounds, and a size that would give the same amount as
a smaller size of the same kind is masked out, so no two legal moves are the
same action. In the betting-round games an amount is the seat's total bet in
the round after the move ("raise to"); in Teen Patti it is the chips put in.

>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100], seed=3, options={"ante": 10, "small_bet": 4})
>>> [MOVES["3x4"][i].label for i in legal_moves(hand)]
['fold', 'check', 'bet_min', 'bet_half_pot', 'bet_pot', 'bet_all_in']
>>> [str(to_action(hand, i)) for i in legal_moves(hand)[2:]]
['bet 4', 'bet 10', 'bet 20', 'bet 90']
>>> hand = new_hand("3x4", [100, 100], seed=3)  # pot 2: half of it is below the minimum
>>> [MOVES["3x4"][i].label for i in legal_moves(hand)]
['fold', 'check', 'bet_min', 'bet_all_in']
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerhouse.engine.actions import Action, ActionKind, LegalAction
from pokerhouse.engine.hand import Hand
from pokerhouse.engine.rounds import RoundHand

#: The sizes of a sized kind, smallest first.
SIZES = ("min", "half_pot", "pot", "all_in")


@dataclass(frozen=True, slots=True)
class Move:
    """One entry of a game's move list: a label, the engine's kind and, if sized, a size."""

    label: str
    kind: ActionKind
    size: str | None = None


def _sized(kind: ActionKind, name: str | None = None) -> tuple[Move, ...]:
    prefix = name or kind.value
    return tuple(Move(f"{prefix}_{size}", kind, size) for size in SIZES)


def _plain(*kinds: ActionKind) -> tuple[Move, ...]:
    return tuple(Move(kind.value, kind) for kind in kinds)


_K = ActionKind

#: Every game's moves, in the order of its ``Discrete`` action space.
MOVES: dict[str, tuple[Move, ...]] = {
    "3x4": (
        *_plain(_K.FOLD, _K.CHECK, _K.CALL),
        *_sized(_K.BET),
        *_sized(_K.RAISE),
    ),
    # Fixed limit: every sized move has one amount, so one size each.
    "razz": (
        *_plain(_K.FOLD, _K.CHECK, _K.CALL, _K.BRING_IN),
        Move("complete", _K.COMPLETE, "min"),
        Move("bet", _K.BET, "min"),
        Move("raise", _K.RAISE, "min"),
    ),
    "teen-patti": (
        *_plain(_K.FOLD, _K.LOOK),
        *_sized(_K.BET),
        *_plain(_K.SHOW, _K.SIDESHOW, _K.ACCEPT, _K.DECLINE),
    ),
    "casino-holdem": _plain(_K.FOLD, _K.CALL),
}


def legal_moves(hand: Hand) -> list[int]:
    """The indices into the hand's game's :data:`MOVES` the seat to act may take now.

    Every kind the engine offers is reachable through at least one of them.
    """
    legal = hand.legal_actions()
    chosen: list[int] = []
    amounts: dict[ActionKind, set[int]] = {}
    for index, move in enumerate(MOVES[hand.game]):
        offered = legal.get(move.kind)
        if offered is None:
            continue
        if move.size is not None and offered.min_amount is not None:
            amount = _amount(hand, offered, move.size)
            taken = amounts.setdefault(move.kind, set())
            if amount in taken:
                continue
            taken.add(amount)
        chosen.append(index)
    return chosen


def to_action(hand: Hand, index: int) -> Action:
    """The engine action move ``index`` stands for now (it may still be illegal: the
    engine checks it when it is taken)."""
    move = MOVES[hand.game][index]
    offered = hand.legal_actions().get(move.kind)
    if move.size is None or offered is None or offered.min_amount is None:
        return Action(move.kind)
    return Action(move.kind, _amount(hand, offered, move.size))


def _amount(hand: Hand, offered: LegalAction, size: str) -> int:
    """A size's amount, within the engine's bounds for this kind."""
    low, high = offered.min_amount, offered.max_amount
    assert low is not None and high is not None
    if size == "min":
        return low
    if size == "all_in":
        return high
    fraction = 0.5 if size == "half_pot" else 1.0
    pot = hand.pot_total
    if isinstance(hand, RoundHand):
        # Raise to: match the bet, then add the share of the pot after the call.
        seat = hand.to_act
        assert seat is not None
        current = hand.current_bet
        to_call = current - hand.bets[seat]
        wanted = current + int(fraction * (pot + to_call))
    else:
        # Teen Patti: the chips put in by the bet.
        wanted = int(fraction * pot)
    return max(low, min(high, wanted))
