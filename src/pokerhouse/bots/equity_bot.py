"""Betting by equity against pot odds: the policy behind the 3x4 and Razz bots.

Given the seat's showdown equity (its expected share of the pot), the bot
bets or raises when the equity is well above its fair share, calls when it
beats the price the pot offers, and folds otherwise. A free check is never
folded.

>>> from pokerhouse.games import new_hand
>>> hand = new_hand("3x4", [100, 100], seed=2)
>>> view = hand.view(hand.to_act)
>>> str(decide_by_equity(view, 0.9))
'bet 2'
>>> str(decide_by_equity(view, 0.2))
'check'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

import numpy as np

from pokerhouse.bots.base import (
    clamp_amount,
    live_opponents,
    passive_action,
    require_decision,
    seeded,
    sized_option,
    to_call,
)
from pokerhouse.engine.actions import Action, ActionKind
from pokerhouse.engine.hand import RoundView, View

#: How far above its fair share (1 / players) the equity must be to bet, and to raise.
BET_EDGE = 0.25
RAISE_EDGE = 0.5
#: Extra equity asked for beyond the bare pot odds before calling (later streets cost more).
CALL_MARGIN = 0.03
#: Once a round has seen a bet and a raise, only a near-lock raises again: equity against
#: random holdings overrates a hand facing two players who both chose to put chips in.
RERAISE_AT = 0.85


def decide_by_equity(view: View, equity: float) -> Action:
    """The action for a seat whose pot share at showdown is ``equity``."""
    legal = require_decision(view)
    if ActionKind.SHOW_HAND in legal:
        # The engine only asks when this hand cannot win a pot: keep it hidden.
        return Action(ActionKind.MUCK)
    opponents = len(live_opponents(view))
    fair = 1.0 / (opponents + 1)
    bet_at = fair + (1.0 - fair) * BET_EDGE
    raise_at = fair + (1.0 - fair) * RAISE_EDGE
    sized = sized_option(legal)
    if ActionKind.BRING_IN in legal:
        if sized is not None and equity >= bet_at:
            return clamp_amount(sized, sized.max_amount or 0)
        return Action(ActionKind.BRING_IN)
    owe = to_call(view)
    assert view.seat is not None
    mine = view.bets[view.seat]
    if owe == 0 and ActionKind.CHECK in legal:
        if sized is not None and equity >= bet_at:
            return clamp_amount(sized, mine + _size(view.pot, equity))
        return Action.check()
    raises = view.bets_and_raises if isinstance(view, RoundView) else 0
    reraise = raises < 2 or equity >= RERAISE_AT
    if sized is not None and equity >= raise_at and reraise:
        return clamp_amount(sized, mine + owe + _size(view.pot + owe, equity))
    if equity >= owe / (view.pot + owe) + CALL_MARGIN or ActionKind.FOLD not in legal:
        return passive_action(legal)
    return Action.fold()


def _size(pot: int, equity: float) -> int:
    """A bet of about two thirds of the pot, the whole pot with a near-lock."""
    return max(1, round(pot * (1.0 if equity >= 0.85 else 0.66)))


class EquityBot(ABC):
    """A bot that estimates its equity from its view, then bets by :func:`decide_by_equity`."""

    name = "smart"

    def __init__(self, samples: int = 300, rng: random.Random | None = None) -> None:
        self.samples = samples
        self.rng = seeded(rng)
        self._np_rng = np.random.default_rng(self.rng.getrandbits(64))

    def choose(self, view: View) -> Action:
        """Bet, call or fold by equity against the pot odds."""
        legal = require_decision(view)
        if ActionKind.SHOW_HAND in legal:
            return Action(ActionKind.MUCK)
        return decide_by_equity(view, self.equity(view))

    @abstractmethod
    def equity(self, view: View) -> float:
        """The seat's expected share of the pot at showdown, from its view."""
