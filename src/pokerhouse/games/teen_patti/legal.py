"""What the Teen Patti player on turn may do, and why not when they may not.

Every question about a move (the minimum bet, what a show costs, whom a
sideshow asks, whether either is allowed now) is answered here, from the
hand's state; :mod:`.hand` makes the moves.

>>> import random
>>> from pokerhouse.cards import Deck
>>> from pokerhouse.games.teen_patti.hand import TeenPattiHand
>>> from pokerhouse.games.teen_patti.spec import TeenPattiSpec
>>> hand = TeenPattiHand(TeenPattiSpec(ante=5, limit="pot-limit"), [100, 100, 3],
...                      Deck(random.Random(2)))
>>> hand.pot_total, hand.all_in, bet_minimum(hand, 0)
(13, [False, False, True], 5)
>>> [str(a) for a in legal_actions(hand)]
['fold', 'look', 'bet 5-13']
"""

from __future__ import annotations

from typing import Protocol

from pokerhouse.engine.actions import Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.betting import Limit
from pokerhouse.engine.hand import NO_ACTIONS
from pokerhouse.errors import IllegalAction
from pokerhouse.games.teen_patti.spec import TeenPattiSpec


class TeenPattiState(Protocol):
    """What the rules of a move read of a Teen Patti hand (its state, never a method that
    moves it): :class:`~pokerhouse.games.teen_patti.hand.TeenPattiHand` is one."""

    spec: TeenPattiSpec
    stake: int
    seen: list[bool]
    sideshow: tuple[int, int] | None
    to_act: int | None
    players: int

    @property
    def stacks(self) -> tuple[int, ...]: ...

    @property
    def pot_total(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    def in_hand(self) -> list[int]: ...

    def can_act(self, seat: int) -> bool: ...

    def legal_actions(self) -> LegalActions: ...


_FOLD = LegalAction(ActionKind.FOLD)
_LOOK = LegalAction(ActionKind.LOOK)
_SHOW = LegalAction(ActionKind.SHOW)
_SIDESHOW = LegalAction(ActionKind.SIDESHOW)
ANSWERS = LegalActions((LegalAction(ActionKind.ACCEPT), LegalAction(ActionKind.DECLINE)))


def bet_minimum(hand: TeenPattiState, seat: int) -> int:
    """The least ``seat`` must bet: the stake blind, twice the stake seen."""
    return 2 * hand.stake if hand.seen[seat] else hand.stake


def show_cost(hand: TeenPattiState, seat: int) -> int:
    """What a show costs ``seat``: the stake blind, twice the stake seen (or all it has)."""
    return min(bet_minimum(hand, seat), hand.stacks[seat])


def sideshow_target(hand: TeenPattiState, seat: int) -> int | None:
    """The previous player still taking turns, counter-clockwise from ``seat``."""
    for offset in range(1, hand.players):
        other = (seat - offset) % hand.players
        if hand.can_act(other):
            return other
    return None


def legal_actions(hand: TeenPattiState) -> LegalActions:
    """What the seat on turn may do now."""
    seat = hand.to_act
    if seat is None or hand.is_over:
        return NO_ACTIONS
    if hand.sideshow is not None:
        return ANSWERS
    actions = [_FOLD]
    if not hand.seen[seat]:
        actions.append(_LOOK)
    actions.append(_bet_bounds(hand, seat))
    if _may_show(hand, seat):
        actions.append(_SHOW)
    if _may_sideshow(hand, seat):
        actions.append(_SIDESHOW)
    return LegalActions(tuple(actions), stack_limit=hand.stacks[seat])


# Whether refuse_show and refuse_sideshow would find nothing against the move,
# without building the error they would give: asked at every decision.


def _may_show(hand: TeenPattiState, seat: int) -> bool:
    players = hand.in_hand()
    if len(players) != 2:
        return False
    other = players[0] if players[1] == seat else players[1]
    return not (hand.seen[seat] and not hand.seen[other])


def _may_sideshow(hand: TeenPattiState, seat: int) -> bool:
    if not hand.spec.sideshow or not hand.seen[seat] or len(hand.in_hand()) < 3:
        return False
    target = sideshow_target(hand, seat)
    return target is not None and hand.seen[target]


def _bet_bounds(hand: TeenPattiState, seat: int) -> LegalAction:
    stack = hand.stacks[seat]
    low = bet_minimum(hand, seat)
    if stack <= low:
        # Short of a minimum: the only bet is all of it.
        return LegalAction(ActionKind.BET, stack, stack)
    high = stack
    if hand.spec.limit is Limit.POT_LIMIT:
        # The minimum is always allowed, even in the rare case (short antes)
        # where it is more than the pot.
        high = min(stack, max(low, hand.pot_total))
    return LegalAction(ActionKind.BET, low, high)


def refuse_show(hand: TeenPattiState, seat: int) -> IllegalAction | None:
    """Why ``seat`` may not ask for a show now, or ``None`` if it may."""
    players = hand.in_hand()
    if len(players) != 2:
        return IllegalAction(
            "show_needs_two_players",
            f"a show needs exactly two players left, not {len(players)}",
        )
    other = players[0] if players[1] == seat else players[1]
    if hand.seen[seat] and not hand.seen[other]:
        return IllegalAction(
            "show_against_blind",
            f"a seen player may not ask blind seat {other} for a show: bet or fold",
        )
    return None


def refuse_sideshow(hand: TeenPattiState, seat: int) -> IllegalAction | None:
    """Why ``seat`` may not ask for a sideshow now, or ``None`` if it may."""
    if not hand.spec.sideshow:
        return IllegalAction("sideshow_disabled", "sideshows are off at this table")
    if not hand.seen[seat]:
        return IllegalAction("sideshow_needs_seen", "only a seen player may ask: look first")
    players = len(hand.in_hand())
    if players < 3:
        return IllegalAction(
            "sideshow_needs_three_players",
            f"a sideshow needs three or more players in, not {players}",
        )
    target = sideshow_target(hand, seat)
    if target is None or not hand.seen[target]:
        return IllegalAction(
            "sideshow_against_blind",
            f"the previous player, seat {target}, is blind: a sideshow needs a seen player",
        )
    return None


def cost_if_allowed(hand: TeenPattiState, kind: ActionKind) -> int | None:
    """What a show or sideshow would cost the seat to act, if it may ask for one now."""
    seat = hand.to_act
    if seat is None or kind not in hand.legal_actions():
        return None
    return show_cost(hand, seat)


def refusal(hand: TeenPattiState, action: object) -> IllegalAction | None:
    """The rule's own reason against ``action`` (``show_against_blind``...), if it has one.

    ``None`` when the action is allowed, or when only the generic check can
    say why not.
    """
    seat = hand.to_act
    if seat is None or not isinstance(action, Action):
        return None
    kind = action.kind
    if kind in hand.legal_actions():
        return None
    if hand.sideshow is not None:
        return IllegalAction(
            "sideshow_pending",
            f"seat {hand.sideshow[0]} asked for a sideshow: accept or decline",
        )
    if kind in (ActionKind.ACCEPT, ActionKind.DECLINE):
        return IllegalAction("no_sideshow", f"there is no sideshow to {kind.value}")
    if kind is ActionKind.LOOK:
        return IllegalAction("already_seen", f"seat {seat} has already looked")
    if kind is ActionKind.SHOW:
        return refuse_show(hand, seat)
    if kind is ActionKind.SIDESHOW:
        return refuse_sideshow(hand, seat)
    return None
