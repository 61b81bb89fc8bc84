"""What a bot is, and small helpers every policy uses.

A bot sees exactly what its seat may see, the seat's
:class:`~pokerhouse.engine.hand.View`, and answers with an
:class:`~pokerhouse.engine.actions.Action`. It never gets the hand itself, so
it cannot peek at hidden cards.

>>> from pokerhouse.engine import Action, ActionKind, LegalAction, LegalActions
>>> legal = LegalActions((LegalAction(ActionKind.FOLD), LegalAction(ActionKind.CALL)))
>>> passive_action(legal)
Action(kind=<ActionKind.CALL: 'call'>, amount=None)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from pokerhouse.engine.actions import SIZED_KINDS, Action, ActionKind, LegalAction, LegalActions
from pokerhouse.engine.hand import RoundView, View
from pokerhouse.errors import IllegalAction


@runtime_checkable
class Bot(Protocol):
    """A decision policy: given a seat's view when it is to act, an action.

    ``name`` says what kind of bot it is (``"random"``, ``"smart"``).
    """

    name: str

    def choose(self, view: View) -> Action:
        """The action to take now; ``view.legal`` lists what is allowed."""
        ...


def new_hand(bot: object, players: Sequence[str]) -> None:
    """Tell ``bot`` who sits in each seat of the hand about to start, if it listens.

    A bot that learns its opponents (the ``pro`` bots) has a ``new_hand``
    method; names stay the same for a player from hand to hand, so what it
    learns follows them from seat to seat. Other bots are left alone.
    """
    listen = getattr(bot, "new_hand", None)
    if callable(listen):
        listen(players)


def hand_over(bot: object, view: View) -> None:
    """Show ``bot`` its seat's last view of a hand that ended, if it listens."""
    listen = getattr(bot, "hand_over", None)
    if callable(listen):
        listen(view)


def require_decision(view: View) -> LegalActions:
    """``view.legal``, or an error when the viewing seat has nothing to decide.

    >>> from pokerhouse.games import new_hand
    >>> hand = new_hand("3x4", [50, 50], seed=1)
    >>> require_decision(hand.view(1))
    Traceback (most recent call last):
    ...
    pokerhouse.errors.IllegalAction: seat 1 has no decision to make now
    """
    if view.seat is None or view.to_act != view.seat or not view.legal.actions:
        raise IllegalAction("no_decision", f"seat {view.seat} has no decision to make now")
    return view.legal


def passive_action(legal: LegalActions) -> Action:
    """The cheapest way to stay in: check, call, bring in, or the smallest sized action."""
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW_HAND):
        if kind in legal:
            return Action(kind)
    sized = [action for action in legal if action.min_amount is not None]
    if sized:
        return Action(sized[0].kind, sized[0].min_amount)
    return Action(legal.actions[0].kind)


def sized_option(legal: LegalActions) -> LegalAction | None:
    """The bet, raise or completion on offer, if any."""
    for action in legal:
        if action.kind in SIZED_KINDS:
            return action
    return None


def clamp_amount(option: LegalAction, amount: int) -> Action:
    """``option``'s kind at ``amount`` held within its legal bounds."""
    assert option.min_amount is not None and option.max_amount is not None
    return Action(option.kind, max(option.min_amount, min(option.max_amount, amount)))


def to_call(view: View) -> int:
    """Chips the viewing seat must add to stay in (0 when it may check).

    Only betting-round games have a bet to match; elsewhere it is 0.
    """
    assert view.seat is not None
    return view.to_call if isinstance(view, RoundView) else 0


def live_opponents(view: View) -> list[int]:
    """Seats other than the viewer still in the hand (not folded)."""
    return [seat for seat, folded in enumerate(view.folded) if not folded and seat != view.seat]


def seeded(rng: random.Random | None) -> random.Random:
    """The bot's RNG: the one given, or a fresh unseeded one."""
    return rng if rng is not None else random.Random()
